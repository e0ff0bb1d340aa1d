// Import warnings as the data panel's report groups them: by reason (the same warning about many lines is one
// group), each with the number of lines it speaks of. Pure data: no DOM.

// Message codes that say one reason in several variants (which host the accelerator rows lack, why a machine with
// built-in GPUs has no price): one group each.
const REASON_FAMILIES = [/^import\.no_host_/, /^import\.builtin_/];

// The reason of an import warning without what names one case of it. An engine message ({code, params}) is its
// code, so that "1x T4 accelerator rows have no host row …" and "8x H100 accelerator rows have no host row …" are one
// reason. A sentence loses quoted names, parenthesised details, line lists and the words with digits or capitals.
export function reasonOf(message) {
  if (message && typeof message === 'object' && typeof message.code === 'string') {
    const family = REASON_FAMILIES.find((re) => re.test(message.code));
    return family ? family.source : message.code;
  }
  return String(message).replace(/"[^"]*"/g, ' ').replace(/\([^)]*\)/g, ' ').replace(/\blines? [\d\s,-]+/g, ' ')
    .split(/\s+/).filter((w) => w && !/[\dA-Z]/.test(w)).join(' ');
}

// How many lines a warning speaks of: its "line 3" / "lines 4-6, 9" (in its path, or its message's `lines`), else 1.
export function linesOf(issue) {
  const list = /\blines? (\d+(?:-\d+)?(?:, \d+(?:-\d+)?)*)/;
  const m = issue.message && typeof issue.message === 'object' ? issue.message : null;
  const listed = m && m.params && typeof m.params.lines === 'string' ? `lines ${m.params.lines}` : (m ? '' : String(issue.message || ''));
  const found = list.exec(issue.path || '') || list.exec(listed);
  if (!found) return 1;
  let n = 0;
  for (const part of found[1].split(',')) {
    const [a, b] = part.trim().split('-').map(Number);
    if (Number.isFinite(a)) n += Number.isFinite(b) && b >= a ? b - a + 1 : 1;
  }
  return Math.max(1, n);
}

// Import warnings grouped by reason (reasonOf), in the order of first appearance: [{message (the first one's),
// lines (how many lines the group speaks of), items: the warnings}].
export function groupIssues(issues) {
  const groups = new Map();
  for (const i of issues || []) {
    const key = reasonOf(i.message);
    let g = groups.get(key);
    if (!g) { g = { message: i.message, lines: 0, items: [] }; groups.set(key, g); }
    g.lines += linesOf(i);
    g.items.push(i);
  }
  return [...groups.values()];
}
