// Imports of whole files as data (no DOM): the provider a SkyPilot vms.csv comes from when the user gives none,
// the user catalog a new file refreshes (same provider), what changed between the two (new, removed, price
// moves) and the merge of both. Runs where the engine runs (engine/core.js), next to engine/catalogstore.js.

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
  return entries.findIndex((e) => e.kind !== 'manual' && e.docText && !e.unreadable && [...providersOf(JSON.parse(e.docText))].some((p) => providers.has(p)));
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
