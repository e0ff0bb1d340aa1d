// Imports of whole files as data (no DOM): the provider a SkyPilot vms.csv comes from when the user gives none,
// the user catalog a new file refreshes (same provider), what changed between the two (new, removed, price
// moves) and the merge of both. Runs where the engine runs (engine/core.js), next to app/store.js.

// SkyPilot's catalog folders (skypilot-catalog/catalogs/vN/<cloud>/vms.csv) and the provider names of our own
// catalog files (data/catalog/*.json), so that an imported file and a bundled one name a provider alike.
const CLOUDS = [
  { folder: 'aws', provider: 'AWS', instance: /^(p\d|g\d|inf\d|trn\d|dl\d)[a-z0-9-]*\.\d*x?large$/i },
  { folder: 'gcp', provider: 'Google Cloud', instance: /^(a2|a3|a4|g2|n1|n2|e2|c2|ct\d)-[a-z]+(-\d+[a-z]?)?$/i },
  { folder: 'azure', provider: 'Microsoft Azure', instance: /^Standard_[A-Z]/ },
  { folder: 'lambda', provider: 'Lambda', instance: /^(gpu|cpu)_\d+x_/ },
  { folder: 'runpod', provider: 'RunPod', instance: /^\d+x_[A-Za-z0-9-]+_(SECURE|COMMUNITY)$/ },
  { folder: 'oci', provider: 'Oracle Cloud (OCI)', instance: /^(BM|VM)\.GPU/ },
  { folder: 'cudo', provider: 'Cudo Compute', instance: null },
  { folder: 'fluidstack', provider: 'Fluidstack', instance: null },
  { folder: 'paperspace', provider: 'Paperspace', instance: null },
  { folder: 'vast', provider: 'Vast.ai', instance: null },
  { folder: 'nebius', provider: 'Nebius', instance: null },
  { folder: 'hyperbolic', provider: 'Hyperbolic', instance: null },
  { folder: 'ibm', provider: 'IBM Cloud', instance: null },
  { folder: 'scp', provider: 'Samsung Cloud Platform', instance: null },
  { folder: 'do', provider: 'DigitalOcean', instance: null },
];

// The provider of a SkyPilot file: from its path or name ("lambda/vms.csv", "aws-vms.csv", "vms (gcp).csv"),
// else from its instance types (the first column of most rows). '' when neither tells.
export function inferProvider(name, text) {
  const words = String(name || '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  for (const c of CLOUDS) if (words.includes(c.folder)) return c.provider;
  const lines = String(text || '').split(/\r?\n/, 400);
  const header = (lines[0] || '').split(',').map((x) => x.trim());
  const col = header.indexOf('InstanceType');
  if (col < 0) return '';
  const votes = new Map();
  for (const line of lines.slice(1)) {
    const cell = (line.split(',')[col] || '').trim();
    if (!cell) continue;
    const c = CLOUDS.find((x) => x.instance && x.instance.test(cell));
    if (c) votes.set(c.provider, (votes.get(c.provider) || 0) + 1);
  }
  const best = [...votes.entries()].sort((a, b) => b[1] - a[1])[0];
  return best ? best[0] : '';
}

// The providers of a catalog document's offers.
export const providersOf = (doc) => new Set((doc.instances || []).map((i) => i.provider));

// The user catalog (index into entries) that a new file from these providers refreshes: the first imported
// file (not a typed offer) with offers from one of them; -1 when none has.
export function refreshedEntry(entries, providers) {
  return entries.findIndex((e) => e.kind !== 'manual' && e.docText && [...providersOf(JSON.parse(e.docText))].some((p) => providers.has(p)));
}

// The providers a file's offers will have, read before the engine converts it: the provider given (or inferred)
// for a SkyPilot file, the offers' providers of a JSON catalog; an empty set when the file cannot be read.
export function fileProviders(skypilot, text, provider) {
  if (skypilot) return new Set([provider || 'SkyPilot import']);
  try { return providersOf(JSON.parse(text.replace(/^\uFEFF/, ''))); } catch { return new Set(); }
}

// One price of an offer as a number per hour or per month, by billing model.
const priceOf = (p) => (p.usd_per_hour !== undefined ? p.usd_per_hour : p.usd_per_month);

// What a new document changes against the old one, offer by offer (by id): offers only in the new one, only
// in the old one, and the prices that moved (at most `limit` listed, all counted).
export function changeSummary(oldDoc, newDoc, { limit = 12 } = {}) {
  const before = new Map((oldDoc.instances || []).map((i) => [i.id, i]));
  const after = new Map((newDoc.instances || []).map((i) => [i.id, i]));
  const added = [...after.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const moves = [];
  let unchanged = 0;
  for (const [id, inst] of after) {
    const old = before.get(id);
    if (!old) continue;
    const was = new Map((old.prices || []).map((p) => [p.model, priceOf(p)]));
    let moved = false;
    for (const p of inst.prices || []) {
      const from = was.get(p.model);
      const to = priceOf(p);
      if (from === undefined || from === to) continue;
      moved = true;
      moves.push({ id, instance: inst.instance_type, region: inst.region, model: p.model, from, to, per: p.usd_per_hour !== undefined ? 'hour' : 'month' });
    }
    if (!moved) unchanged += 1;
  }
  // The same move of the same machine in many regions is one line, with its regions.
  const same = new Map();
  for (const m of moves) {
    const k = `${m.instance}\u0000${m.model}\u0000${m.from}\u0000${m.to}`;
    if (same.has(k)) same.get(k).regions.push(m.region);
    else same.set(k, { ...m, regions: [m.region] });
  }
  const lines = [...same.values()].sort((a, b) => Math.abs(b.to / b.from - 1) - Math.abs(a.to / a.from - 1) || b.regions.length - a.regions.length);
  const name = (id, m) => ({ id, instance: m.get(id).instance_type, region: m.get(id).region });
  return {
    added: added.length, removed: removed.length, moved: new Set(moves.map((m) => m.id)).size, unchanged,
    addedList: added.slice(0, limit).map((id) => name(id, after)), removedList: removed.slice(0, limit).map((id) => name(id, before)),
    moves: lines.slice(0, limit), moveLines: lines.length,
  };
}

// The old document's offers with the new document's offers added, a new offer replacing an old one of the same id.
export function mergeDocs(oldDoc, newDoc) {
  const ids = new Set((newDoc.instances || []).map((i) => i.id));
  return { ...oldDoc, ...newDoc, instances: [...(oldDoc.instances || []).filter((i) => !ids.has(i.id)), ...(newDoc.instances || [])] };
}

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
