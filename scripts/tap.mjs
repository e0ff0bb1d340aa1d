// Reading node:test's TAP report.

// The slowest top-level tests of a TAP report (node --test runs them one after another at
// --test-concurrency=1): "name 12.3 s; …", so that a run's log shows where its time goes.
export function slowestTests(tap, n) {
  const lines = tap.split('\n');
  const found = [];
  lines.forEach((l, i) => {
    const m = /^(?:not )?ok \d+ - (.*)$/.exec(l);
    if (!m) return;
    for (const next of lines.slice(i + 1, i + 6)) {
      const d = /^ {2}duration_ms: ([\d.]+)/.exec(next);
      if (d) { found.push([Number(d[1]), m[1]]); break; }
    }
  });
  return found.sort((a, b) => b[0] - a[0]).slice(0, n).map(([ms, what]) => `${what.slice(0, 70)} ${(ms / 1000).toFixed(1)} s`).join('; ') || 'none';
}
