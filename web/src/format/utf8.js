// UTF-8 checks shared by the CLI (bin/cli/io.mjs) and the page's import (web/src/engine/usercatalogs.js), so both
// refuse the same bytes at the same place.

// The offset of the first byte that neither starts nor continues a well-formed UTF-8 sequence (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or -1.
export function firstInvalidUtf8(b) {
  for (let i = 0; i < b.length;) {
    const c = b[i];
    if (c < 0x80) { i += 1; continue; }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (!n || i + n >= b.length) return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      if ((b[i + k] & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (b[i + k] & 0x3f);
    }
    if (cp < [0, 0x80, 0x800, 0x10000][n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

// Where byte i of b is, as the engine says it: "line L, column C", lines from 1, columns counting bytes from 1.
export function bytePlace(b, i) {
  let line = 1;
  let start = 0;
  for (let k = 0; k < i; k++) if (b[k] === 10) { line += 1; start = k + 1; }
  return `line ${line}, column ${i - start + 1}`;
}
