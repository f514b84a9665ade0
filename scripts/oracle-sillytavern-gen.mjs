#!/usr/bin/env node
// Writes the random conformance cases of lore's SillyTavern engine: small World
// Info books, chats and settings drawn from a seeded generator, so that running
// it again writes the same files. Each case is an input of the SillyTavern
// oracle (../shared/oracles/sillytavern/README.md): {description, book,
// messages, settings[, turns]}.
//
//   node scripts/oracle-sillytavern-gen.mjs [--newer] OUT_DIR [COUNT [FIRST]]
//
// FIRST is the number of the first case (its seed): the committed corpus is
// cases 0..319; a fresh run takes cases after them. --newer also draws the
// entry fields and settings SillyTavern 1.13 to 1.18 added (ignoreBudget,
// triggers with a generation type, outlet names, external activations) and
// the loose values of `disable`, from a second seeded stream, so that the
// cases without it stay the same files. Only 1.18.0 takes them.
//
// The cases are data about SillyTavern's behaviour; nothing here is
// SillyTavern's code.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
const newer = argv[0] === '--newer';
if (newer) argv.shift();
const out = argv[0];
const count = Number(argv[1] ?? 320);
const first = Number(argv[2] ?? 0);
if (!out) {
    process.stderr.write('usage: oracle-sillytavern-gen.mjs [--newer] OUT_DIR [COUNT [FIRST]]\n');
    process.exit(2);
}
mkdirSync(out, { recursive: true });

function mulberry32(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

let rnd = mulberry32(1);
const chance = (p) => rnd() < p;
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const some = (xs, lo, hi) => {
    const n = int(lo, hi);
    const o = [];
    for (let i = 0; i < n; i++) o.push(pick(xs));
    return o;
};

// Words the chats are made of and keys are drawn from: exact words, other
// cases, parts of words, plurals, words next to punctuation and non-ASCII
// letters (SillyTavern's whole-word rule is ASCII \W).
const WORDS = ['dragon', 'king', 'sword', 'tavern', 'castle', 'elf', 'river', 'moon', 'forest', 'wolf', 'ruby', 'mage'];
const MESSAGE_WORDS = [
    ...WORDS, ...WORDS, 'Dragon', 'KING', 'Sword', 'dragons', 'kingdom', 'swords', 'elves', 'moonlight',
    'café', 'Élan', 'rubyé', 'the', 'a', 'and', 'of', 'we', 'go', 'to', 'old', 'red', 'dark', 'see',
    'wolf-pack', 'mage.', 'river,', '(forest)', '"castle"', 'king\'s', 'tavern!', 'naïve', 'ŞEHIR',
];
const KEYS = [
    ...WORDS, ...WORDS, 'Dragon', 'KING', 'drag', 'kin', 'dragons', 'elves', 'moon light', 'red dragon',
    'old king', 'wolf-pack', 'caf', 'Élan', 'the king', 'mage.', 'king\'s', ' ruby ',
    '/drag(on)?s?/i', '/\\bKing\\b/', '/mo+n/', '/^User:/m', '/Sword|Castle/', '/elf|elves/i',
    '/[/', '{{char}}', '{{user}}', 'Ser {{char}}',
];

function message(isUser, names) {
    const words = some(MESSAGE_WORDS, 2, 9);
    if (chance(0.15)) words.push(isUser ? names.char : names.user);
    let s = words.join(' ');
    if (chance(0.3)) s = s[0].toUpperCase() + s.slice(1) + pick(['.', '!', '?', '...']);
    if (chance(0.1)) s = '  ' + s + '\n';
    return s;
}

function content(uid) {
    const parts = [`E${uid}`];
    if (chance(0.45)) parts.push(...some(MESSAGE_WORDS, 1, 3));
    if (chance(0.1)) parts.push(pick(['{{char}}', '{{user}}', '{{User}}', '<USER>', '{{// note}}', '{{newline}}x']));
    let s = parts.join(' ');
    if (chance(0.05)) s = pick(['@@activate\n', '@@dont_activate\n', '@@@activate\n@@dont_activate\n', '@@bogus\n']) + s;
    if (chance(0.03)) s = pick(['', '{{// empty}}']);
    if (chance(0.1)) s += ' ' + 'x'.repeat(int(10, 120));
    return s;
}

const nullable = (v) => (chance(0.5) ? null : v);

function entry(uid, opts) {
    const e = { uid };
    const set = (k, v, p = 0.5) => { if (chance(p)) e[k] = v; };
    e.key = some(KEYS, chance(0.05) ? 0 : 1, 3);
    if (chance(0.4)) e.keysecondary = some(KEYS, 1, 2);
    else set('keysecondary', [], 0.3);
    set('selectiveLogic', int(0, 3), e.keysecondary?.length ? 0.8 : 0.2);
    set('selective', chance(0.85), 0.3);
    e.content = content(uid);
    set('comment', pick(['', `entry ${uid}`, `Entry ${uid % 3}`]), 0.6);
    set('constant', chance(0.1), 0.5);
    set('disable', chance(0.06), 0.4);
    set('order', pick([100, 100, 50, 10, int(0, 200)]), 0.8);
    set('position', pick([0, 0, 1, 1, 2, 3, 4, 4, 5, 6, opts.outlets ? 7 : 4]), 0.7);
    set('depth', pick([0, 1, 2, 4, 4, 6]), 0.5);
    set('role', pick([0, 1, 2, null]), 0.4);
    set('excludeRecursion', chance(0.2), 0.4);
    set('preventRecursion', chance(0.2), 0.4);
    set('delayUntilRecursion', pick([0, 0, true, 1, 2, 3]), 0.25);
    if (chance(0.2)) {
        e.probability = pick([0, 10, 50, 75, 99, 100]);
        e.useProbability = chance(0.8);
    }
    if (chance(opts.groups ? 0.5 : 0.1)) {
        e.group = pick(['g1', 'g1', 'g2', 'g1,g2', 'g1, g2']);
        set('groupOverride', chance(0.25), 0.6);
        set('groupWeight', pick([100, 50, 1, 200, 0]), 0.5);
        set('useGroupScoring', nullable(chance(0.5)), 0.4);
    }
    set('scanDepth', nullable(pick([0, 1, 2, 3, 5])), 0.25);
    set('caseSensitive', nullable(chance(0.5)), 0.3);
    set('matchWholeWords', nullable(chance(0.5)), 0.4);
    if (chance(0.08)) {
        e.characterFilter = {
            isExclude: chance(0.5),
            names: chance(0.7) ? some(['Aria', 'Character', 'Bob'], 1, 2) : [],
            tags: chance(0.4) ? some(['t1', 't2'], 1, 1) : [],
        };
    }
    if (opts.timed) {
        set('sticky', nullable(int(1, 3)), 0.4);
        set('cooldown', nullable(int(1, 3)), 0.4);
        set('delay', nullable(int(1, 4)), 0.25);
    }
    return e;
}

function settings(opts) {
    const s = {};
    const set = (k, v, p) => { if (chance(p)) s[k] = v; };
    set('scanDepth', pick([0, 1, 1, 2, 3, 4, 6]), 0.6);
    set('caseSensitive', chance(0.3), 0.3);
    set('matchWholeWords', chance(0.6), 0.4);
    set('includeNames', chance(0.6), 0.4);
    set('recursive', chance(0.7), 0.5);
    set('maxRecursionSteps', pick([0, 1, 2, 3]), 0.25);
    if (chance(0.15)) {
        s.minActivations = int(1, 5);
        s.minActivationsDepthMax = pick([0, 0, 3, 5]);
    }
    set('budget', pick([25, 25, 1, 2, 5, 10, 50, 100]), 0.4);
    set('budgetCap', pick([0, 5, 20, 60]), 0.2);
    set('maxContext', pick([8192, 400, 200, 1000]), 0.4);
    set('useGroupScoring', chance(0.5), opts.groups ? 0.5 : 0.15);
    set('characterName', pick(['Aria', 'Character', 'Bob']), 0.6);
    set('userName', pick(['User', 'Tom', 'you']), 0.4);
    set('characterTags', some(['t1', 't2'], 0, 2), 0.2);
    if (chance(0.12)) {
        s.authorsNote = {
            content: pick(['', 'Keep the dragon in mind.', 'mood: dark forest']),
            allowWIScan: chance(0.5),
            active: chance(0.8),
        };
    }
    s.seed = int(0, 1000);
    return s;
}

// The newer fields, from their own stream (see --newer).
let rnd2 = mulberry32(0);
const chance2 = (p) => rnd2() < p;
const pick2 = (xs) => xs[Math.floor(rnd2() * xs.length)];
const TYPES = ['normal', 'continue', 'impersonate', 'swipe', 'regenerate', 'quiet'];

function newerFields(c, opts) {
    const es = Object.values(c.book.entries);
    for (const e of es) {
        if (chance2(0.12)) e.ignoreBudget = chance2(0.8);
        if (chance2(0.1)) e.triggers = [...new Set([pick2(TYPES), pick2(TYPES)])].slice(0, 1 + Math.floor(rnd2() * 2));
        if (chance2(0.05)) e.disable = pick2([1, '1', 2, 'true', '', 0, 'false']);
        if (opts.outlets && chance2(0.3)) e.position = 7;
        if (e.position === 7 && chance2(0.8)) e.outletName = pick2(['o1', 'o1', 'o2', 'Mood']);
    }
    if (chance2(0.2)) c.settings.generationType = pick2(TYPES);
    if (chance2(0.15)) {
        const f = [];
        for (const e of es) if (chance2(0.3)) f.push(e.uid);
        c.settings.forceActivate = f;
    }
}

function makeCase(i) {
    rnd = mulberry32(1000 + i);
    rnd2 = mulberry32(500000 + i);
    const opts = { timed: i % 6 === 5, groups: i % 5 === 3, outlets: i % 11 === 7 };
    const st = settings(opts);
    const names = { user: st.userName ?? 'User', char: st.characterName ?? 'Character' };
    const n = int(1, opts.timed ? 9 : 7);
    const firstUser = chance(0.6);
    const messages = [];
    for (let k = 0; k < n; k++) {
        const isUser = (k % 2 === 0) === firstUser;
        const m = { name: isUser ? names.user : names.char, is_user: isUser, mes: message(isUser, names) };
        messages.push(m);
    }
    const entries = {};
    const ne = int(2, 12);
    for (let u = 0; u < ne; u++) {
        entries[String(u)] = entry(u, opts);
    }
    const c = { description: `random case ${i}${opts.timed ? ' (turns)' : ''}`, book: { entries }, messages, settings: st };
    if (newer) newerFields(c, opts);
    if (opts.timed) {
        const lengths = [];
        for (let l = 1; l <= n; l++) if (chance(0.8)) lengths.push(l);
        if (!lengths.length) lengths.push(n);
        c.turns = lengths;
    }
    return c;
}

for (let i = first; i < first + count; i++) {
    const name = `r${String(i).padStart(3, '0')}.json`;
    writeFileSync(path.join(out, name), JSON.stringify(makeCase(i), null, 1) + '\n');
}
