// Main-thread steps over 8 ms, newest last (window.gpuvalue.profile): what a long task was made of, for the
// responsiveness test's report and for anyone looking at a slow update in the console.
export const PROFILE = [];

export function timed(name, fn) {
  const t0 = performance.now();
  const out = fn();
  const ms = performance.now() - t0;
  if (ms > 8) {
    PROFILE.push({ name, ms: Math.round(ms), at: Math.round(t0) });
    if (PROFILE.length > 200) PROFILE.shift();
  }
  return out;
}
