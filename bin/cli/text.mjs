// Text answers of the CLI (one function per command that has a table or sentences) and the escaping of
// everything written to a terminal.
import { sentences, termText, providerText } from './lang.mjs';
import { s } from './strings.mjs';
import { daysFromHours, priceDateText } from '../../web/src/format/format.js';

// Characters a terminal acts on or that reorder text: C0 controls but tab and newline, DEL, C1 controls (ESC, CSI
// and OSC start sequences that clear the screen, set the title or write the clipboard) and the bidi embeddings,
// overrides and isolates (they make text read in another order than it is stored), and the invisible ones (zero-width
// spaces and joiners, word joiner, BOM, the line and paragraph separators) that hide text or break lines.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;
const hex = (c) => c.charCodeAt(0).toString(16).padStart(c.charCodeAt(0) > 0xff ? 4 : 2, '0');

// Text for a terminal: each unsafe character shown as \xHH or \uHHHH.
// A price's date: its source's (as_of), or only the day it was read (read_on), said as such.
export const priceDate = (x) => priceDateText(x, { readOn: (date) => s('price.read_on', { date }), unknown: () => s('price.date_unknown') });

export function terminalText(s) {
  return String(s).replace(UNSAFE, (c) => (c.charCodeAt(0) > 0xff ? `\\u${hex(c)}` : `\\x${hex(c)}`));
}

// JSON text whose strings carry no raw unsafe character either (JSON.stringify leaves DEL, C1 and bidi controls
// raw; \uHHHH is the same string to a JSON reader).
export function jsonText(value) {
  return JSON.stringify(value, null, 2).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Columns a string takes in a terminal: East Asian wide characters (CJK, fullwidth forms) take two.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;
export const displayWidth = (text) => { const t = String(text); return t.length + (t.match(WIDE) || []).length; };
const padEnd = (text, w) => String(text) + ' '.repeat(Math.max(0, w - displayWidth(text)));
const padStart = (text, w) => ' '.repeat(Math.max(0, w - displayWidth(text))) + String(text);

export function table(rows, columns) {
  const widths = columns.map((c) => Math.max(displayWidth(c.title), ...rows.map((r) => displayWidth(c.get(r)))));
  const line = (cells) => cells.map((x, i) => (columns[i].right ? padStart(x, widths[i]) : padEnd(x, widths[i]))).join('  ');
  return [line(columns.map((c) => c.title)), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => c.get(r))))].join('\n');
}

export const fmtH = (h) => (h >= 48 ? s('unit.days', { n: daysFromHours(h).toFixed(1) }) : s('unit.hours', { n: h.toFixed(1) }));

// ---- decision tools (advise, plan, mig, levers, compare, energy, tco) ----

export const pct = (x, d = 1) => `${(x * 100).toFixed(d)} %`;
export const usd = (x) => (x === null || x === undefined ? '-' : Math.abs(x) < 100 ? `$${x.toFixed(2)}` : `$${Math.round(x).toLocaleString('en-US')}`);
export const withoutOk = (r) => { const { ok, ...rest } = r; return rest; };
const warningLines = (list) => list.map((w) => s('line.warning', { text: w }));
const assumptionLines = (assumptions, exact) => Object.entries(assumptions)
  .map(([k, v]) => `  ${k}: ${exact && typeof v.value === 'number' ? +v.value.toPrecision(6) : v.value} — ${v.source}`);

export function adviseText(r) {
  const mm = r.memory_model;
  const lines = [
    s('advise.title', { params: r.params.toExponential(2), tokens: r.tokens.toExponential(2), source: r.tokens_source, stage: termText('stage', r.stage),
      pricing: termText('pricing', r.stage_billing.pricing) }),
    s('advise.horizon', { horizon: r.horizon.hours > 0 ? `${fmtH(r.horizon.hours)} (${s(r.horizon.source === 'deadline' ? 'advise.horizon_deadline' : 'advise.horizon_default')})` : s('advise.horizon_none'), constraint: r.stage_billing.constraint }),
    s('advise.article', { rule: r.article.rule }),
    s('advise.memory_model', { fit: mm.gpu_class ? `${mm.gpu_count}× ${mm.gpu_class} (${mm.sharding})` : s('advise.nothing_fits'), agrees: mm.agrees_with_article ? 'yes' : 'no' }),
    '',
    s('advise.recommendations'),
  ];
  r.recommendations.forEach((x, i) => {
    const on = x.offer ? s('advise.on_offer', { instances: x.offer.instances, instance: x.offer.instance, provider: providerText(x.offer.provider) }) : '';
    lines.push(`  ${i + 1}. ${s(`advise.role.${x.role.replace(/ /g, '_')}`)} ${x.gpu_count}× ${x.gpu} (${x.sharding}), ${termText('pricing', x.pricing)}${on}: ${fmtH(x.time_hours)}, ${x.offer ? usd(x.cost_usd) : s('advise.no_price')}`);
    lines.push(`     ${sentences(x.reason)}`);
  });
  lines.push('', table(r.ladder, [
    { title: s('column.class'), get: (x) => x.gpu_class },
    { title: s('column.fits'), get: (x) => (x.fits ? s('advise.fits_gpus', { n: x.gpu_count }) : s('word.no')) },
    { title: s('column.sharding'), get: (x) => x.sharding ?? '-' },
    { title: 'GB/GPU', get: (x) => (x.memory ? `${x.memory.required_gb_per_gpu.toFixed(1)}/${x.memory.available_gb_per_gpu.toFixed(1)}` : '-'), right: true },
    { title: s('column.time'), get: (x) => (x.time_hours ? fmtH(x.time_hours) : '-'), right: true },
    { title: s('column.pricing'), get: (x) => (x.pricing ? termText('pricing', x.pricing) : '-') },
    { title: s('column.cost'), get: (x) => (x.cost_usd ? usd(x.cost_usd) : '-'), right: true },
  ]), ...warningLines(r.warnings));
  return lines.join('\n');
}

export function planText(r) {
  const lines = [
    s('plan.mix', { reserved: pct(r.mix.reserved), gpus: r.reserved_gpus, used: pct(r.reserved_utilisation, 0), on_demand: pct(r.mix.on_demand), spot: pct(r.mix.spot) }),
    s('plan.cost', { cost: usd(r.annual_cost_usd), on_demand: usd(r.on_demand_only_cost_usd), saved: pct(r.saving), completion: pct(r.completion_rate, 2),
      target: pct(r.target_completion_rate, 2) }),
  ];
  if (r.article_claim) lines.push(s('plan.article', { saved: pct(r.article_claim.saving, 0), completion: pct(r.article_claim.completion_rate), source: r.article_claim.source }));
  lines.push('', ...r.findings.map((f) => `- ${f}`), '', s('line.assumptions'), ...assumptionLines(r.assumptions, true));
  return lines.join('\n');
}

export function serverlessText(r) {
  const c = r.article_claim;
  const versus = r.instance ? s('serverless.versus', { instance: r.instance.id, rate: usd(r.instance.usd_per_hour), date: priceDate(r.instance) }) : '';
  return [
    s('serverless.title', { hours: r.busy_gpu_hours.toFixed(1), peak: r.peak_gpus, offer: r.serverless.id, versus }),
    '',
    table(r.options, [
      { title: s('column.option'), get: (x) => x.option },
      { title: '$/GPU-h', get: (x) => (x.available ? x.usd_per_gpu_hour.toFixed(3) : '-'), right: true },
      { title: s('column.billed_gpu_hours'), get: (x) => (x.available ? x.billed_gpu_hours.toFixed(1) : '-'), right: true },
      { title: s('column.idle'), get: (x) => (x.available ? pct(x.idle_share) : '-'), right: true },
      { title: s('column.idle_avoided'), get: (x) => (x.available ? pct(x.idle_avoided_share) : '-'), right: true },
      { title: s('column.cost_per_day'), get: (x) => (x.available ? usd(x.cost_usd) : s('word.not_available')), right: true },
    ]),
    '',
    s('line.cheapest', { option: r.cheapest || '-' }),
    c.comparable ? s('serverless.article', { source: c.source, claimed: pct(c.claimed_idle_reduction, 0), here: pct(c.idle_reduction), compared: c.compared_with, holds: c.holds ? 'yes' : 'no' })
      : s('serverless.article_not_comparable', { source: c.source }),
    '', s('line.assumptions'), ...assumptionLines(r.assumptions, true), ...warningLines(r.warnings),
  ].join('\n');
}

export function migText(r) {
  const lines = [s('mig.title', { jobs: r.jobs, gpu: r.gpu_name, fits: r.fits ? 'yes' : 'no', unplaced: r.unplaced_jobs.length, gpus: r.gpus_needed })];
  for (const g of r.layout) {
    const counts = {};
    for (const p of g.profiles) counts[p] = (counts[p] || 0) + 1;
    lines.push(s('mig.gpu', { index: g.gpu_index, profiles: Object.entries(counts).map(([p, n]) => `${n}× ${p}`).join(' + '), compute: g.compute_slices_used,
      memory: g.memory_slices_used, time: fmtH(g.hours) }));
  }
  lines.push(r.offer ? s('mig.cost', { cost: usd(r.cost_usd), per_job: usd(r.cost_per_job_usd), instance: r.offer.instance, provider: providerText(r.offer.provider),
    rate: usd(r.offer.usd_per_hour), date: priceDate(r.offer) }) : s('mig.no_offer'));
  lines.push('', table(r.alternatives, [
    { title: s('column.alternative'), get: (x) => x.option },
    { title: s('column.fits'), get: (x) => (x.fits ? s('word.yes') : `${x.jobs_that_fit}/${r.jobs}`) },
    { title: 'GPUs', get: (x) => x.gpus_needed, right: true },
    { title: s('column.cost'), get: (x) => usd(x.cost_usd), right: true },
    { title: s('column.usd_per_job'), get: (x) => usd(x.cost_per_job_usd), right: true },
    { title: s('column.offer'), get: (x) => (x.offer ? x.offer.instance : '-') },
  ]), s('line.cheapest', { option: r.cheapest_option }), ...warningLines(r.warnings));
  return lines.join('\n');
}

export function leversText(r) {
  const b = r.baseline;
  const lines = [s('levers.title', { workload: r.workload, instance: r.instance, pricing: termText('pricing', r.pricing), gpus: b.gpu_count, precision: b.precision,
    time: fmtH(b.time_hours), cost: usd(b.cost_usd) }), ''];
  lines.push(table(r.levers, [
    { title: s('column.lever'), get: (x) => x.lever },
    { title: s('column.time_change'), get: (x) => (x.applicable ? `${fmtH(x.before.time_hours)} -> ${fmtH(x.after.time_hours)}` : '-') },
    { title: s('column.cost_change'), get: (x) => (x.applicable ? `${usd(x.before.cost_usd)} -> ${usd(x.after.cost_usd)}` : '-') },
    { title: s('column.speed'), get: (x) => (x.speedup ? `${x.speedup.toFixed(2)}×` : '-'), right: true },
    { title: s('column.cost'), get: (x) => (x.cost_ratio ? `${x.cost_ratio.toFixed(2)}×` : '-'), right: true },
  ]), '');
  for (const l of r.levers) lines.push(`${l.lever}: ${sentences(l.note)}`);
  lines.push(...warningLines(r.warnings));
  return lines.join('\n');
}

export function compareText(r) {
  const lines = [s('compare.title', { workload: r.workload, pricing: termText('pricing', r.pricing), baseline: r.configs[r.baseline].label }), table(r.configs, [
    { title: s('column.config'), get: (x) => x.label },
    { title: s('column.instance'), get: (x) => x.instance || '-' },
    { title: '$/h', get: (x) => x.usd_per_hour.toFixed(2), right: true },
    { title: s('column.time'), get: (x) => fmtH(x.time_hours), right: true },
    { title: s('column.cost'), get: (x) => usd(x.cost_usd), right: true },
    { title: s('column.speedup'), get: (x) => `${x.speedup_vs_baseline.toFixed(2)}×`, right: true },
    { title: s('column.cost_ratio'), get: (x) => `${x.cost_ratio_vs_baseline.toFixed(2)}×`, right: true },
  ]), ''];
  for (const c of r.configs) lines.push(`${c.label}: ${c.explanation}${c.notes.length ? ` (${c.notes.join('; ')})` : ''}`);
  if (r.article_claim) lines.push('', s('compare.article', { claim: r.article_claim.claim }), s('compare.model', { finding: r.article_claim.finding }));
  return lines.join('\n');
}

export function energyText(r) {
  const c = r.cooling_comparison;
  return [
    s('energy.title', { gpus: r.gpu_count, gpu: r.gpu, time: fmtH(r.hours), source: r.hours_source, power: r.power_w, utilisation: r.utilisation, pue: r.pue }),
    s('energy.energy', { facility: r.facility_energy_kwh.toFixed(1), it: r.it_energy_kwh.toFixed(1), cost: usd(r.energy_cost_usd), co2: r.co2_kg.toFixed(1) }),
    s('energy.cooling', { air_pue: c.air.pue, air: c.air.facility_energy_kwh.toFixed(1), liquid_pue: c.liquid.pue, liquid: c.liquid.facility_energy_kwh.toFixed(1),
      saving: pct(c.liquid_energy_saving) }),
    s('energy.article', { pue: c.article_claim.pue, saving: pct(c.article_claim.energy_saving, 0), finding: c.article_claim.finding }),
    s('line.assumptions'),
    ...assumptionLines(r.assumptions, false),
  ].join('\n');
}

export function tcoText(r) {
  return [
    s('tco.title', { gpus: r.gpu_count, gpu: r.gpu, purchase: usd(r.purchase_usd), years: r.amortisation_years, capex: usd(r.capex_usd_per_year),
      energy: usd(r.energy_usd_per_year_at_full_load), rent: usd(r.rent_usd_per_gpu_hour) }),
    r.verdict,
    table(r.points, [
      { title: s('column.utilisation'), get: (x) => pct(x.utilisation, 0), right: true },
      { title: s('column.own_per_year'), get: (x) => usd(x.own_usd_per_year), right: true },
      { title: s('column.rent_per_year'), get: (x) => usd(x.rent_usd_per_year), right: true },
      { title: s('column.own_per_used_hour'), get: (x) => usd(x.own_usd_per_used_gpu_hour), right: true },
      { title: s('column.cheaper'), get: (x) => s(`tco.cheaper.${x.cheaper}`) },
    ]),
    s('line.assumptions'),
    ...assumptionLines(r.assumptions, false),
  ].join('\n');
}
