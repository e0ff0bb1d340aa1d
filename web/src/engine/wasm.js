// What the offline file carries as base64 of its gzip (the engine's wasm, the data, the page's script) turned back
// into bytes or text, for the engine worker and for the main-thread fallback alike.

// base64 -> a stream of its bytes. Uint8Array.fromBase64 where the browser has it (Debian's Chromium 156 does: the
// whole inflate of the engine took ~26 ms in a worker against 46-90 ms through a data: URL); else a data: URL fetch
// decodes the base64 natively (the page's CSP allows connect-src data:); atob and a byte loop when that fails.
async function bytesOf(base64) {
  if (typeof Uint8Array.fromBase64 === 'function') return new Blob([Uint8Array.fromBase64(base64)]).stream();
  try {
    return (await fetch(`data:application/octet-stream;base64,${base64}`)).body;
  } catch {
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
    return new Blob([bytes]).stream();
  }
}

// base64(gzip(wasm)) -> wasm bytes.
export async function inflate(base64) {
  const stream = await bytesOf(base64);
  return new Response(stream.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}

// base64(gzip(UTF-8 text)) -> the text.
export async function inflateText(base64) {
  const stream = await bytesOf(base64);
  return new Response(stream.pipeThrough(new DecompressionStream('gzip'))).text();
}
