// The user's own measurements (the engine's measurement objects, read by its parse_measurement from a probe line
// or a typed figure) as the page keeps them: in the state (state.measurements, sent as the rank, estimate and compare
// requests' `measurements`), in the URL hash in a short form, and saved per workload.
//
// Short form, one `m` value per measurement:
//   <gpu>*<count>*<speed><unit>[*m<peak_memory_gb>][*r<layers_run>][*n<layers>][*p<precision>][*y]
// unit: t = tokens_per_s, s = samples_per_s; y marks a typed figure (source "typed"; absent: "probe").
// e.g. a100-sxm4-80gb*8*3150t*m61.52*r20*n80 ("*" is one of the characters a URL query keeps as it is).

// The engine takes at most this many measurements in one request.
export const MAX_MEASUREMENTS = 8;

const GPU_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const PRECISION = /^[a-z0-9]{1,12}$/;
const NUMBER = /^\d{1,15}(\.\d{1,17})?$/;
const INTEGER = /^[1-9]\d{0,5}$/;
const UNITS = { t: 'tokens_per_s', s: 'samples_per_s' };
const TAGS = { m: ['peak_memory_gb', NUMBER], r: ['layers_run', INTEGER], n: ['layers', INTEGER], p: ['precision', PRECISION] };

// The short form of a measurement object.
export function formatMeasurement(m) {
  const unit = m.tokens_per_s !== undefined ? 't' : 's';
  const parts = [m.gpu, String(m.count), `${unit === 't' ? m.tokens_per_s : m.samples_per_s}${unit}`];
  for (const [tag, [key]] of Object.entries(TAGS)) if (m[key] !== undefined && m[key] !== null) parts.push(`${tag}${m[key]}`);
  if (m.source === 'typed') parts.push('y');
  return parts.join('*');
}

// A measurement object from its short form, or null when the text is not one (malformed, a repeated part, a number
// out of range, a GPU not among gpuIds when the page knows them).
export function parseMeasurement(text, { gpuIds = null } = {}) {
  if (String(text || '').length > 200) return null;
  const parts = String(text || '').split('*');
  if (parts.length < 3 || parts.length > 8) return null;
  const [gpu, count, speed, ...rest] = parts;
  if (!GPU_ID.test(gpu) || (gpuIds && !gpuIds.includes(gpu)) || !INTEGER.test(count)) return null;
  const unit = UNITS[speed.slice(-1)];
  const value = speed.slice(0, -1);
  if (!unit || !NUMBER.test(value) || !(Number(value) > 0)) return null;
  const m = { gpu, count: Number(count), [unit]: Number(value) };
  let typed = false;
  for (const p of rest) {
    if (p === 'y' && !typed) { typed = true; continue; }
    const tag = TAGS[p[0]];
    if (!tag || m[tag[0]] !== undefined || !tag[1].test(p.slice(1))) return null;
    m[tag[0]] = tag[0] === 'precision' ? p.slice(1) : Number(p.slice(1));
  }
  m.source = typed ? 'typed' : 'probe';
  return m;
}

// The measurements of a hash's `m` values: those that read, at most MAX_MEASUREMENTS, and the values dropped.
export function parseMeasurements(values, options) {
  const measurements = [];
  const dropped = [];
  for (const v of values) {
    const m = measurements.length < MAX_MEASUREMENTS ? parseMeasurement(v, options) : null;
    if (m) measurements.push(m); else dropped.push(v);
  }
  return { measurements, dropped };
}

// The workload a measurement belongs to, as the saved measurements are keyed: the preset, or the user's own model
// of a kind and mode (its sizes may change while it is edited; the shape measured stays the user's).
export function workloadKey(s) {
  return s.custom ? `custom:${s.custom.kind}:${s.custom.mode || 'pretrain'}` : `preset:${s.preset}`;
}

// Two measurement objects say the same thing.
export const sameMeasurement = (a, b) => formatMeasurement(a) === formatMeasurement(b);
