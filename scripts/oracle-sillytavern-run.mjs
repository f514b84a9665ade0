#!/usr/bin/env node
// Runs SillyTavern's own World Info (the oracle in ../shared/oracles/sillytavern)
// on every conformance case and records what it activated as a golden file.
//
//   node scripts/oracle-sillytavern-run.mjs --oracle DIR --mirror GIT_DIR [--rev REV] --corpus DIR CASES_DIR GOLDEN_DIR
//
// A case is an oracle input ({book, messages, settings[, turns]}); a corpus
// case names its book instead ("bookFile": path under --corpus). Budgets are
// counted with lore's chars4 (UTF-8 bytes / 4, rounded up), the tokenizer the
// Go conformance test uses. The golden keeps what the test compares: the
// activated entries in SillyTavern's order with position, depth, role, order
// and content, the text of each insertion point, the budget and the timed
// effects state.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = { oracle: null, mirror: null, corpus: null, rev: null, keepGoing: false, rest: [] };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--oracle') args.oracle = argv[++i];
    else if (argv[i] === '--mirror') args.mirror = argv[++i];
    else if (argv[i] === '--corpus') args.corpus = argv[++i];
    else if (argv[i] === '--rev') args.rev = argv[++i];
    else if (argv[i] === '--keep-going') args.keepGoing = true;
    else args.rest.push(argv[i]);
}
const [casesDir, goldenDir] = args.rest;
if (!args.oracle || !args.mirror || !casesDir || !goldenDir) {
    process.stderr.write('usage: oracle-sillytavern-run.mjs --oracle DIR --mirror GIT_DIR [--rev REV] [--keep-going] [--corpus DIR] CASES_DIR GOLDEN_DIR\n');
    process.exit(2);
}

function walk(dir) {
    const out = [];
    for (const name of readdirSync(dir).sort()) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) out.push(...walk(p));
        else if (name.endsWith('.json')) out.push(p);
    }
    return out;
}

function trim(r) {
    return {
        activated: r.activated.map(e => ({
            uid: e.uid, position: e.position, depth: e.depth, role: e.role, order: e.order, content: e.content,
        })),
        worldInfoBefore: r.worldInfoBefore,
        worldInfoAfter: r.worldInfoAfter,
        anTop: r.anTop,
        anBottom: r.anBottom,
        authorsNote: r.authorsNote,
        emTop: r.emTop,
        emBottom: r.emBottom,
        depthEntries: r.depthEntries.map(d => ({ depth: d.depth, role: d.role, content: d.content })),
        ...(r.outlets && Object.keys(r.outlets).length ? { outlets: r.outlets } : {}),
        budget: r.budget,
        randomDraws: r.randomDrawsThisScan,
        timedWorldInfo: r.timedWorldInfo,
    };
}

const tokenizer = path.join(HERE, 'oracle-sillytavern-chars4.mjs');
let n = 0;
for (const file of walk(casesDir)) {
    const c = JSON.parse(readFileSync(file, 'utf8'));
    const input = { ...c };
    if (c.bookFile) {
        if (!args.corpus) throw new Error(`${file}: bookFile needs --corpus`);
        input.book = JSON.parse(readFileSync(path.join(args.corpus, c.bookFile), 'utf8'));
    }
    let res;
    try {
        res = JSON.parse(execFileSync(process.execPath,
            [path.join(args.oracle, 'run.mjs'), '--mirror', args.mirror, ...(args.rev ? ['--rev', args.rev] : []), '--tokenizer', tokenizer, '-'],
            { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 << 20 }));
        if (res.stErrors?.length) throw new Error(`${file}: SillyTavern logged errors: ${res.stErrors.join('; ')}`);
    } catch (e) {
        if (!args.keepGoing) throw e;
        process.stderr.write(`oracle-sillytavern: ${file}: ${e.message}\n`); // --keep-going: no golden for it
        continue;
    }
    const golden = {
        sillytavern: { version: res.sillytavern.version, commit: res.sillytavern.commit, worldInfo: res.sillytavern.files['public/scripts/world-info.js'] },
        ...(res.turns ? { turns: res.turns.map(t => ({ chatLength: t.chatLength, ...trim(t) })) } : trim(res)),
    };
    const dst = path.join(goldenDir, path.relative(casesDir, file));
    mkdirSync(path.dirname(dst), { recursive: true });
    writeFileSync(dst, JSON.stringify(golden, null, 1) + '\n');
    n++;
}
process.stderr.write(`oracle-sillytavern: ${n} goldens written to ${goldenDir}\n`);
