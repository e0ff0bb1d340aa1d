// The ranked table as it is shown (filters and sort applied) in CSV or JSON; the engine host writes it (the page
// downloads the text through a Blob, app/saved.js). Amounts stay in USD (the engine's unit); in CNY view the
// converted job cost and the rate are added. The CSV is for people and spreadsheets: amounts to the cent (hourly
// prices and unit costs to 4 decimals, as price lists quote them), times and memory to a precision the model
// has, no binary float noise; identifiers, counts and flags are exact. The JSON export is the machine
// contract and keeps every number as the engine computed it.

// A number rounded to `d` decimals (sig: to `d` significant digits), kept a number; other values unchanged.
const fixed = (d) => (v) => (typeof v === 'number' && Number.isFinite(v) ? Number(v.toFixed(d)) : v);
const sig = (d) => (v) => (typeof v === 'number' && Number.isFinite(v) && v !== 0 ? Number(v.toPrecision(d)) : v);
const cents = fixed(2);
const price = fixed(4);
const hours = sig(4);
const gb = fixed(2);
const score = fixed(4);

const CSV_FIELDS = [
  ['rank', (r) => r._rank], ['instance', (r) => r.instance], ['id', (r) => r.id], ['provider', (r) => r.provider],
  ['region', (r) => r.region], ['gpu', (r) => r.gpu], ['gpu_name', (r) => r.gpu_name], ['gpu_count', (r) => r.gpu_count],
  ['nodes', (r) => r.nodes], ['total_gpus', (r) => r.total_gpus], ['pricing', (r) => r.pricing], ['fits', (r) => r.fits],
  ['pareto', (r) => r.pareto], ['time_hours', (r) => hours(r.time_hours)], ['time_hours_low', (r) => hours(r.time_hours_low)],
  ['time_hours_high', (r) => hours(r.time_hours_high)], ['cost_usd', (r) => cents(r.cost_usd)], ['usd_per_hour', (r) => price(r.usd_per_hour)],
  ['usd_per_tflops_day', (r) => price(r.usd_per_tflops_day)], ['usd_per_tflops_day_at_precision', (r) => price(r.usd_per_tflops_day_at_precision)],
  ['score', (r) => score(r.score)], ['score_unit_cost', (r) => score(r.scores.unit_cost)], ['score_task', (r) => score(r.scores.task)],
  ['score_service', (r) => score(r.scores.service)], ['required_gb_per_gpu', (r) => gb(r.memory.required_gb_per_gpu)],
  ['available_gb_per_gpu', (r) => gb(r.memory.available_gb_per_gpu)], ['sharding', (r) => r.memory.sharding],
  ['as_of', (r) => r.as_of], ['stale', (r) => r.stale], ['source', (r) => r.source],
];
// A row calibrated on the user's measurements (the engine's `calibrated`): how near the measurement it used is, which
// one, and the calibrated band (throughput as a share of the calibrated prediction). Columns only when the ranking
// is calibrated.
const CALIBRATION_FIELDS = [
  ['calibrated', (r) => (r.calibrated ? r.calibrated.distance : '')], ['calibrated_measurement', (r) => (r.calibrated ? r.calibrated.measurement : '')],
  ['calibrated_band_low', (r) => (r.calibrated ? score(r.calibrated.band_low) : '')], ['calibrated_band_high', (r) => (r.calibrated ? score(r.calibrated.band_high) : '')],
];
// The engine's messages of a row ({code, params} lists), said by `say` (a renderer of i18n/messages.js).
const messageFields = (say) => [['reasons', (r) => say(r.reasons || [])], ['warnings', (r) => say(r.warnings || [])]];

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

// RFC 4180 quoting; text that a spreadsheet would run as a formula gets a leading apostrophe.
export function csvCell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  // Text with bidi controls (a right-to-left override in an offer name) is isolated: FSI … PDI, and a PDI ends
  // every embedding and override opened inside it, so the cell cannot reorder the cells after it (UAX #9).
  if (BIDI.test(s)) s = `\u2068${s}\u2069`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

// say: the message renderer in the reader's language (required: a message object is never written as such).
export function toCsv(rows, { currency, rate, say }) {
  if (typeof say !== 'function') throw new TypeError('toCsv needs a message renderer (say)');
  const base = [...CSV_FIELDS, ...(rows.some((r) => r.calibrated) ? CALIBRATION_FIELDS : []), ...messageFields(say)];
  const fields = currency === 'CNY' ? [...base, ['cost_cny', (r) => cents(r.cost_usd * rate)], ['cny_per_usd', () => rate]] : base;
  const lines = [fields.map(([k]) => k).join(',')];
  for (const r of rows) lines.push(fields.map(([, get]) => csvCell(get(r))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;  // BOM: spreadsheets then read the Chinese text as UTF-8
}

export function toJson(rows, { request, result, currency, rate, hash }) {
  const clean = rows.map(({ _rank, _key, _user, _group, _member_of, ...r }) => ({ rank: _rank, ...r }));
  return `${JSON.stringify({
    generator: 'gpuvalue', exported_at: new Date().toISOString(), view: hash, request,
    workload: result && result.workload, calibration: (result && result.calibration) || undefined, currency, cny_per_usd: currency === 'CNY' ? rate : undefined,
    result_count: rows.length, results: clean,
  }, null, 2)}\n`;
}
