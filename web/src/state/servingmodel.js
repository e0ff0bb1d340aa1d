// A served model of the reader's own (the serving view's "my own model"): its members, their URL keys and the bounds
// the engine reads them within, all from the engine's serving_model record as its JSON Schema states it
// (data/schema/serving-presets.schema.json, written from the field table of core/src/model/serving_fields.cpp). The
// page sets them once at start-up, as names.js does the engine's names; the list stays empty until then.
// A value out of these bounds in a URL is dropped; one typed in an input is sent, and the engine's error is shown at it.

// [{key: the engine's member name, urlKey, integer, min, open (min excluded), max, required}], in the record's order.
export const SERVING_MODEL = { fields: [] };
// The URL key that says the served model is the reader's own (its members follow as sm.<member>).
export const OWN_MODEL_KEY = 'sm';

export function setServingModel(def) {
  const props = (def && def.properties) || {};
  const required = new Set((def && def.required) || []);
  SERVING_MODEL.fields = Object.entries(props).map(([key, p]) => ({
    key, urlKey: `${OWN_MODEL_KEY}.${key}`, integer: [].concat(p.type).includes('integer'),
    min: p.exclusiveMinimum ?? p.minimum ?? -Infinity, open: p.exclusiveMinimum !== undefined, max: p.maximum ?? Infinity, required: required.has(key),
  }));
}

// Whether v is a value the engine reads for field f (a finite number within its bounds, whole where it must be).
export function inBounds(f, v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (f.integer && !Number.isInteger(v)) return false;
  return (f.open ? v > f.min : v >= f.min) && v <= f.max;
}

// The reader's own model, starting from a serving preset's model: the members the engine reads, as the preset states
// them (members it leaves out stay empty: the engine derives them).
export function ownModelFrom(model) {
  const out = {};
  for (const f of SERVING_MODEL.fields) if (model && typeof model[f.key] === 'number' && Number.isFinite(model[f.key])) out[f.key] = model[f.key];
  return out;
}

// The model member an engine error's JSON Pointer names ("/model/kv_heads" → "kv_heads"), or null.
export function modelMemberOf(path) {
  const m = /^\/model\/([A-Za-z_]+)$/.exec(String(path || ''));
  return m && SERVING_MODEL.fields.some((f) => f.key === m[1]) ? m[1] : null;
}

// The own model a URL says (null when it names none): each member within its bounds; the others are listed in
// `dropped` ("sm.heads=-3") for the page's notice.
export function parseOwnModel(q, maxChars) {
  const given = q.has(OWN_MODEL_KEY) || SERVING_MODEL.fields.some((f) => q.has(f.urlKey));
  if (!given) return { model: null, dropped: [] };
  const model = {};
  const dropped = [];
  for (const f of SERVING_MODEL.fields) {
    const raw = q.get(f.urlKey);
    if (raw === null) continue;
    const v = raw.trim() === '' || raw.length > maxChars ? NaN : Number(raw);
    if (inBounds(f, v)) model[f.key] = v; else dropped.push(`${f.urlKey}=${raw.slice(0, maxChars)}`);
  }
  return { model, dropped };
}

// The URL form of an own model: the marker and every member given.
export function writeOwnModel(q, model) {
  if (!model) return;
  q.set(OWN_MODEL_KEY, '1');
  for (const f of SERVING_MODEL.fields) {
    const v = model[f.key];
    if (typeof v === 'number' && Number.isFinite(v)) q.set(f.urlKey, String(v));
  }
}
