// lore's chars4 tokenizer for the SillyTavern oracle: one token per four bytes
// of UTF-8, rounded up (tokenize/chars4.go), so that budgets in the goldens are
// counted as lore counts them.
export default function count(text) {
    return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}
