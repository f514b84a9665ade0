// character-foundry: parse (detect, decode, zod-validate) a card or lorebook.
const path = require('path'), fs = require('fs');
const dir = process.argv[2], file = process.argv[3];
const { parse } = require(path.join(dir, 'node_modules/@character-foundry/character-foundry/dist/loader.cjs'));
const r = parse(new Uint8Array(fs.readFileSync(file)), { maxFileSize: 1 << 30 });
const n = r.type === 'card' ? (r.card.data.character_book?.entries?.length ?? 0) : r.book.entries.length;
if (!n) { console.error('no entries'); process.exit(1); }
