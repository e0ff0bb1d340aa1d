// The bundled catalogs as the build ships them (packDoc) and as the engine reads them (unpackDoc). Shipped, a
// catalog document lists each run of consecutive offers that differ only in id, region and prices once,
// {...shared members, regions: [{id, region, prices}]} (with id_base instead of the ids when every id is
// "<id_base>-<region>"), and its prices leave out the document's most common as_of, read_on
// and source (kept once as packed.price). Unpacked, the document has the same offers in the same order with the
// same members as the file in data/catalog/ (tests/js/web-bundle.test.mjs): about a sixth less after gzip.

const OWN = ['id', 'region', 'prices'];

// A price's dating members (as_of, read_on, source), the undefined ones left out: the key of the common ones.
const datingKey = (p) => JSON.stringify({ as_of: p.as_of, read_on: p.read_on, source: p.source });

export function packDoc(doc) {
  const counts = new Map();
  for (const o of doc.instances || []) for (const p of o.prices || []) {
    const k = datingKey(p);
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  const [common] = [...counts].sort((a, b) => b[1] - a[1])[0] || [];
  const slim = (p) => {
    if (datingKey(p) !== common) return p;
    const { as_of: a, read_on: r, source: s, ...rest } = p;
    return rest;
  };
  const runs = [];
  let last = null;
  for (const o of doc.instances || []) {
    const shared = Object.fromEntries(Object.entries(o).filter(([k]) => !OWN.includes(k)));
    const key = JSON.stringify(shared);
    if (!last || last.key !== key) {
      last = { key, run: { ...shared, regions: [] } };
      runs.push(last.run);
    }
    last.run.regions.push({ id: o.id, region: o.region, prices: (o.prices || []).map(slim) });
  }
  for (const run of runs) {
    const [first] = run.regions;
    const base = first.id.endsWith(`-${first.region}`) ? first.id.slice(0, -first.region.length - 1) : null;
    if (base === null || !run.regions.every((r) => r.id === `${base}-${r.region}`)) continue;
    run.id_base = base;
    for (const r of run.regions) delete r.id;
  }
  return { ...doc, packed: { price: common ? JSON.parse(common) : {} }, instances: runs };
}

// A packed region's offer id: its own, or "<id_base>-<region>" (packDoc left it out).
const regionId = (r, base) => r.id ?? `${base}-${r.region}`;

// A price kept whole by packDoc has its own date (every price has as_of or read_on: the engine refuses one without).
const dated = (p) => 'as_of' in p || 'read_on' in p || 'source' in p;

export function unpackDoc(doc) {
  if (!doc || !doc.packed) return doc;
  const { packed, instances, ...rest } = doc;
  return {
    ...rest,
    instances: instances.flatMap(({ regions, id_base: base, ...shared }) => regions.map((r) => ({
      id: regionId(r, base), ...shared, region: r.region, prices: r.prices.map((p) => (dated(p) ? p : { ...packed.price, ...p })),
    }))),
  };
}

// The ids of a catalog document's offers, packed or not, without unpacking it.
export function docIds(doc) {
  const offers = (doc && doc.instances) || [];
  if (!doc || !doc.packed) return offers.map((o) => o.id);
  return offers.flatMap(({ regions, id_base: base }) => regions.map((r) => regionId(r, base)));
}

// The data bundle ({gpus, presets, catalogs: [{file, doc}]}) with its catalog documents unpacked.
export function unpackBundle(data) {
  return { ...data, catalogs: data.catalogs.map((c) => ({ ...c, doc: unpackDoc(c.doc) })) };
}

export function packBundle(data) {
  return { ...data, catalogs: data.catalogs.map((c) => ({ ...c, doc: packDoc(c.doc) })) };
}
