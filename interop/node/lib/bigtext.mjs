// bigText returns a deterministic string of exactly n bytes of UTF-8, mixing
// plain ASCII, characters JSON must escape, characters some encoders escape
// by choice, and 2-, 3- and 4-byte UTF-8 (the Go clients use the same
// alphabet and generator).
const alphabet = [
  'a', 'b', 'c', 'x', 'y', 'z', 'A', 'Q', 'Z', '0', '5', '9', ' ', ' ', ' ',
  '"', '\\', '/', '\n', '\t', '<', '>', '&', 'é', 'ß', '✓', '€', '😀',
];

export function bigText(n) {
  const parts = [];
  let size = 0;
  let x = 2463534242;
  while (size < n) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    let s = alphabet[x % alphabet.length];
    const len = Buffer.byteLength(s);
    if (size + len > n) {
      s = 'x'.repeat(n - size);
    }
    parts.push(s);
    size += Buffer.byteLength(s);
  }
  return parts.join('');
}
