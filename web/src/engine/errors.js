// One error shape for every engine failure the page sees: a GpuvalueError {code, message, explanation, path,
// issues}, whether the engine ran in the worker (the error crosses postMessage as plain data) or on the main thread.
// The explanation (a message {code, params}) crosses as it is, so that the main thread says it in the reader's
// language.
import { GpuvalueError, isMessage } from './client.js';

// Any thrown value (a GpuvalueError, an Error, a string, an error's plain data) as plain, cloneable data.
export function errorData(err) {
  const e = err && typeof err === 'object' ? err : { message: err };
  if (isWasmAbort(err)) return { code: 'engine_stopped', message: String(e.message || 'engine stopped'), explanation: null, path: '', issues: [], aborted: true };
  const explanation = isMessage(e.explanation) ? e.explanation : (isMessage(e.message) ? e.message : null);
  return {
    code: e.code || 'internal',
    message: isMessage(e.message) ? e.message.code : String(e.message || (typeof err === 'string' ? err : 'engine error')),
    explanation,
    path: e.path || '',
    issues: Array.isArray(e.issues) ? e.issues : [],
  };
}

// A wasm abort (out of memory, a trap): the instance that threw is in an unknown state and is never called again.
export function isWasmAbort(err) {
  return (typeof WebAssembly === 'object' && err instanceof WebAssembly.RuntimeError)
    || (err instanceof Error && /^Aborted\(/.test(err.message)) || Boolean(err && err.aborted);
}

// The same failure as a GpuvalueError (unchanged when it is one already).
export function asGpuvalueError(err) {
  if (err instanceof GpuvalueError) return err;
  const { code, message, explanation, path, issues, aborted } = errorData(err);
  const e = new GpuvalueError({ error: { code, message: explanation || message, path }, issues });
  if (aborted) e.aborted = true;
  return e;
}
