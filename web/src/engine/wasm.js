// The engine's wasm as the offline file carries it (base64 of its gzip) turned back into bytes, for the
// engine worker and for the main-thread fallback alike.

// base64(gzip(wasm)) -> wasm bytes. A data: URL fetch decodes the base64 natively (the page's CSP allows
// connect-src data:); atob and a byte loop when that fails.
export async function inflate(base64) {
  let stream;
  try {
    stream = (await fetch(`data:application/octet-stream;base64,${base64}`)).body;
  } catch {
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
    stream = new Blob([bytes]).stream();
  }
  return new Response(stream.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}
