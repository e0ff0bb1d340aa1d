// Text answers of the CLI (one function per command that has a table or sentences) and the escaping of
// everything written to a terminal.
import { sentences } from './lang.mjs';

// Characters a terminal acts on or that reorder text: C0 controls but tab and newline, DEL, C1 controls (ESC, CSI
// and OSC start sequences that clear the screen, set the title or write the clipboard) and the bidi embeddings,
// overrides and isolates (they make text read in another order than it is stored).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const hex = (c) => c.charCodeAt(0).toString(16).padStart(c.charCodeAt(0) > 0xff ? 4 : 2, '0');

// Text for a terminal: each unsafe character shown as \xHH or \uHHHH.
export function terminalText(s) {
  return String(s).replace(UNSAFE, (c) => (c.charCodeAt(0) > 0xff ? `\\u${hex(c)}` : `\\x${hex(c)}`));
}

// JSON text whose strings carry no raw unsafe character either (JSON.stringify leaves DEL, C1 and bidi controls
// raw; \uHHHH is the same string to a JSON reader).
export function jsonText(value) {
  return JSON.stringify(value, null, 2).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.title.length, ...rows.map((r) => String(c.get(r)).length)));
  const line = (cells) => cells.map((s, i) => (columns[i].right ? String(s).padStart(widths[i]) : String(s).padEnd(widths[i]))).join('  ');
  return [line(columns.map((c) => c.title)), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => c.get(r))))].join('\n');
}

export const fmtH = (h) => (h >= 48 ? `${(h / 24).toFixed(1)} d` : `${h.toFixed(1)} h`);

// ---- decision tools (advise, plan, mig, levers, compare, energy, tco) ----

export const pct = (x, d = 1) => `${(x * 100).toFixed(d)} %`;
export const usd = (x) => (x === null || x === undefined ? '-' : Math.abs(x) < 100 ? `$${x.toFixed(2)}` : `$${Math.round(x).toLocaleString('en-US')}`);
export const withoutOk = (r) => { const { ok, ...rest } = r; return rest; };

export function adviseText(r) {
  const mm = r.memory_model;
  const lines = [
    `${r.params.toExponential(2)} parameters, ${r.tokens.toExponential(2)} tokens (${r.tokens_source}), stage ${r.stage} -> ${r.stage_billing.pricing}`,
    `horizon:       ${r.horizon.hours > 0 ? `${fmtH(r.horizon.hours)} (${r.horizon.source})` : 'none'}; ${r.stage_billing.constraint}`,
    `article §4.1:  ${r.article.rule}`,
    `memory model:  ${mm.gpu_class ? `${mm.gpu_count}× ${mm.gpu_class} (${mm.sharding})` : 'nothing fits'} — ${mm.agrees_with_article ? 'agrees with the article' : 'DISAGREES with the article'}`,
    '',
    'recommendations:',
  ];
  r.recommendations.forEach((x, i) => {
    lines.push(`  ${i + 1}. [${x.role}] ${x.gpu_count}× ${x.gpu} (${x.sharding}), ${x.pricing}${x.offer ? ` on ${x.offer.instances}× ${x.offer.instance} (${x.offer.provider})` : ''}: ${fmtH(x.time_hours)}, ${x.offer ? usd(x.cost_usd) : 'no catalog offer, no price'}`);
    lines.push(`     ${sentences(x.reason)}`);
  });
  lines.push('', table(r.ladder, [
    { title: 'class', get: (x) => x.gpu_class },
    { title: 'fits', get: (x) => (x.fits ? `${x.gpu_count} GPUs` : 'no') },
    { title: 'sharding', get: (x) => x.sharding ?? '-' },
    { title: 'GB/GPU', get: (x) => (x.memory ? `${x.memory.required_gb_per_gpu.toFixed(1)}/${x.memory.available_gb_per_gpu.toFixed(1)}` : '-'), right: true },
    { title: 'time', get: (x) => (x.time_hours ? fmtH(x.time_hours) : '-'), right: true },
    { title: 'pricing', get: (x) => x.pricing ?? '-' },
    { title: 'cost', get: (x) => (x.cost_usd ? usd(x.cost_usd) : '-'), right: true },
  ]));
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export function planText(r) {
  const lines = [
    `mix: ${pct(r.mix.reserved)} reserved (${r.reserved_gpus} GPUs, ${pct(r.reserved_utilisation, 0)} used), ${pct(r.mix.on_demand)} on-demand, ${pct(r.mix.spot)} spot`,
    `yearly cost ${usd(r.annual_cost_usd)} vs ${usd(r.on_demand_only_cost_usd)} all on-demand: ${pct(r.saving)} saved; completion ${pct(r.completion_rate, 2)} (target ${pct(r.target_completion_rate, 2)})`,
  ];
  if (r.article_claim) lines.push(`article claim: ${pct(r.article_claim.saving, 0)} saved at ${pct(r.article_claim.completion_rate)} completion (${r.article_claim.source})`);
  lines.push('', ...r.findings.map((f) => `- ${f}`), '', 'assumptions:');
  for (const [k, v] of Object.entries(r.assumptions)) lines.push(`  ${k}: ${typeof v.value === 'number' ? +v.value.toPrecision(6) : v.value} — ${v.source}`);
  return lines.join('\n');
}

export function serverlessText(r) {
  const lines = [
    `a day of ${r.busy_gpu_hours.toFixed(1)} busy GPU-hours (peak ${r.peak_gpus} GPUs) on ${r.serverless.id}` +
      (r.instance ? ` vs ${r.instance.id} (${usd(r.instance.usd_per_hour)}/h, as of ${r.instance.as_of})` : ''),
    '',
    table(r.options, [
      { title: 'option', get: (x) => x.option },
      { title: '$/GPU-h', get: (x) => (x.available ? x.usd_per_gpu_hour.toFixed(3) : '-'), right: true },
      { title: 'billed GPU-h', get: (x) => (x.available ? x.billed_gpu_hours.toFixed(1) : '-'), right: true },
      { title: 'idle', get: (x) => (x.available ? pct(x.idle_share) : '-'), right: true },
      { title: 'idle avoided', get: (x) => (x.available ? pct(x.idle_avoided_share) : '-'), right: true },
      { title: 'cost/day', get: (x) => (x.available ? usd(x.cost_usd) : 'n/a'), right: true },
    ]),
    '',
    `cheapest: ${r.cheapest || '-'}`,
  ];
  const c = r.article_claim;
  lines.push(c.comparable ? `article claim (${c.source}): ${pct(c.claimed_idle_reduction, 0)} less idle waste; here ${pct(c.idle_reduction)} less than ${c.compared_with}: ${c.holds ? 'holds' : 'does not hold'}`
    : `article claim (${c.source}): not comparable for this load`);
  lines.push('', 'assumptions:');
  for (const [k, v] of Object.entries(r.assumptions)) lines.push(`  ${k}: ${typeof v.value === 'number' ? +v.value.toPrecision(6) : v.value} — ${v.source}`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export function migText(r) {
  const lines = [`${r.jobs} job(s) on ${r.gpu_name}: ${r.fits ? 'all fit' : `${r.unplaced_jobs.length} do NOT fit`} on ${r.gpus_needed} GPU(s)`];
  for (const g of r.layout) {
    const counts = {};
    for (const p of g.profiles) counts[p] = (counts[p] || 0) + 1;
    lines.push(`  GPU ${g.gpu_index}: ${Object.entries(counts).map(([p, n]) => `${n}× ${p}`).join(' + ')}  (${g.compute_slices_used}/7 compute, ${g.memory_slices_used}/8 memory slices, ${fmtH(g.hours)})`);
  }
  lines.push(r.offer ? `cost ${usd(r.cost_usd)}, ${usd(r.cost_per_job_usd)} per job on ${r.offer.instance} (${r.offer.provider}, ${usd(r.offer.usd_per_hour)}/h, as of ${r.offer.as_of})` : 'no on-demand offer for this GPU in the catalog');
  lines.push('', table(r.alternatives, [
    { title: 'alternative', get: (x) => x.option },
    { title: 'fits', get: (x) => (x.fits ? 'yes' : `${x.jobs_that_fit}/${r.jobs}`) },
    { title: 'GPUs', get: (x) => x.gpus_needed, right: true },
    { title: 'cost', get: (x) => usd(x.cost_usd), right: true },
    { title: '$/job', get: (x) => usd(x.cost_per_job_usd), right: true },
    { title: 'offer', get: (x) => (x.offer ? x.offer.instance : '-') },
  ]), `cheapest: ${r.cheapest_option}`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export function leversText(r) {
  const b = r.baseline;
  const lines = [`${r.workload} on ${r.instance} (${r.pricing}): ${b.gpu_count} GPUs, ${b.precision}, ${fmtH(b.time_hours)}, ${usd(b.cost_usd)}`, ''];
  lines.push(table(r.levers, [
    { title: 'lever', get: (x) => x.lever },
    { title: 'time before -> after', get: (x) => (x.applicable ? `${fmtH(x.before.time_hours)} -> ${fmtH(x.after.time_hours)}` : '-') },
    { title: 'cost before -> after', get: (x) => (x.applicable ? `${usd(x.before.cost_usd)} -> ${usd(x.after.cost_usd)}` : '-') },
    { title: 'speed', get: (x) => (x.speedup ? `${x.speedup.toFixed(2)}×` : '-'), right: true },
    { title: 'cost', get: (x) => (x.cost_ratio ? `${x.cost_ratio.toFixed(2)}×` : '-'), right: true },
  ]), '');
  for (const l of r.levers) lines.push(`${l.lever}: ${sentences(l.note)}`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export function compareText(r) {
  const lines = [`${r.workload}, ${r.pricing} (baseline: ${r.configs[r.baseline].label})`, table(r.configs, [
    { title: 'config', get: (x) => x.label },
    { title: 'instance', get: (x) => x.instance || '-' },
    { title: '$/h', get: (x) => x.usd_per_hour.toFixed(2), right: true },
    { title: 'time', get: (x) => fmtH(x.time_hours), right: true },
    { title: 'cost', get: (x) => usd(x.cost_usd), right: true },
    { title: 'speed-up', get: (x) => `${x.speedup_vs_baseline.toFixed(2)}×`, right: true },
    { title: 'cost ratio', get: (x) => `${x.cost_ratio_vs_baseline.toFixed(2)}×`, right: true },
  ]), ''];
  for (const c of r.configs) lines.push(`${c.label}: ${c.explanation}${c.notes.length ? ` (${c.notes.join('; ')})` : ''}`);
  if (r.article_claim) lines.push('', `article: ${r.article_claim.claim}`, `model:   ${r.article_claim.finding}`);
  return lines.join('\n');
}

export function energyText(r) {
  const c = r.cooling_comparison;
  return [
    `${r.gpu_count}× ${r.gpu} for ${fmtH(r.hours)} (${r.hours_source}) at ${r.power_w} W × ${r.utilisation} utilisation, PUE ${r.pue}`,
    `energy ${r.facility_energy_kwh.toFixed(1)} kWh (IT ${r.it_energy_kwh.toFixed(1)} kWh), ${usd(r.energy_cost_usd)}, ${r.co2_kg.toFixed(1)} kg CO2`,
    `air PUE ${c.air.pue}: ${c.air.facility_energy_kwh.toFixed(1)} kWh · liquid PUE ${c.liquid.pue}: ${c.liquid.facility_energy_kwh.toFixed(1)} kWh (${pct(c.liquid_energy_saving)} less)`,
    `article: PUE ${c.article_claim.pue}, ${pct(c.article_claim.energy_saving, 0)} less energy — ${c.article_claim.finding}`,
    'assumptions:',
    ...Object.entries(r.assumptions).map(([k, v]) => `  ${k}: ${v.value} — ${v.source}`),
  ].join('\n');
}

export function tcoText(r) {
  return [
    `own ${r.gpu_count}× ${r.gpu}: ${usd(r.purchase_usd)} over ${r.amortisation_years} years = ${usd(r.capex_usd_per_year)}/year + energy up to ${usd(r.energy_usd_per_year_at_full_load)}/year; rent ${usd(r.rent_usd_per_gpu_hour)}/GPU-h`,
    r.verdict,
    table(r.points, [
      { title: 'utilisation', get: (x) => pct(x.utilisation, 0), right: true },
      { title: 'own $/year', get: (x) => usd(x.own_usd_per_year), right: true },
      { title: 'rent $/year', get: (x) => usd(x.rent_usd_per_year), right: true },
      { title: 'own $/used GPU-h', get: (x) => usd(x.own_usd_per_used_gpu_hour), right: true },
      { title: 'cheaper', get: (x) => x.cheaper },
    ]),
    'assumptions:',
    ...Object.entries(r.assumptions).map(([k, v]) => `  ${k}: ${v.value} — ${v.source}`),
  ].join('\n');
}

