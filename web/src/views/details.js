// The details panel of one offer (time band, cost under each billing model, memory, warnings, source)
// and the side-by-side comparison of two to four offers.
import { h, tx, engineText, dataText, sourceLink, shardingMessage, boundMessage, priceDate } from './dom.js';
import { providerName } from '../format/providers.js';

const CLAIM = /^claim\./;

function dl(pairs) {
  return h('dl', { class: 'kv' }, pairs.filter(Boolean).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

function section(t, key, ...children) {
  return h('section', { class: 'sub-panel' }, tx('h3', t, key), ...children);
}

// The training plan beyond its layout: data-parallel replicas, micro-batching, and activation recomputation with
// the layers it reruns (the engine's plan: none, selective, or full over recompute_layers layers).
function planRows(plan, t, fmt) {
  if (!plan || !(plan.data_parallel > 0)) return [];
  const staged = plan.pipeline_parallel > 1 && plan.recompute_layers_per_stage > 0;
  const full = !staged ? 'recomputeFull' : plan.virtual_stages > 1 ? 'recomputeFullChunked' : 'recomputeFullStaged';
  const recompute = plan.recompute === 'full' ? t(full, { n: fmt.int(plan.recompute_layers), m: fmt.int(plan.recompute_layers_per_stage) })
    : plan.recompute === 'selective' ? t('recomputeSelective') : t('recomputeNone');
  return [
    [t('dataParallel'), fmt.int(plan.data_parallel)],
    [t('microBatching'), `${fmt.int(plan.micro_batch)} × ${fmt.int(plan.grad_accumulation)}`],
    [t('recompute'), recompute],
  ];
}

// extra: {offer (catalog record), breakdown (this job under each billing model)} from the engine host, or null
// while it is being computed.
export function renderDetails(container, row, ctx, extra = null) {
  const { t, fmt, state, defaults } = ctx;
  if (!row) {
    container.replaceChildren(tx('h2', t, 'detailsTitle', { id: 'details-title', tabindex: '-1' }), tx('p', t, 'detailsEmpty', { class: 'empty' }));
    return;
  }
  const offer = extra ? extra.offer : null;
  const mem = row.memory || {};
  const tp = row.throughput || {};
  const warnings = row.warnings || [];
  const claims = warnings.filter((w) => CLAIM.test(w.code));
  const other = warnings.filter((w) => !CLAIM.test(w.code));
  const compared = state.cmp.includes(row._key);
  const staleDays = defaults.stale_after_days;
  const age = fmt.ageDays(row.as_of);

  const head = h('div', { class: 'details-head' },
    h('h2', { id: 'details-title', tabindex: '-1' }, tx('span', t, 'detailsTitle'), ': ', dataText('span', row.instance)),
    h('p', { class: 'sub' }, dataText('span', `${providerName(t, row.provider)} · ${row.region} · ${row.total_gpus}× ${row.gpu_name}`),
      row.nodes > 1 ? ` · ${t('nodesN', { n: fmt.int(row.nodes) })}` : '', ` · ${t(row.pricing)}`),
    h('p', { class: 'badges' },
      row.fits ? tx('span', t, 'badgeFits', { class: 'badge ok' }) : tx('span', t, 'badgeNoFit', { class: 'badge bad' }),
      row.pareto ? tx('span', t, 'badgePareto', { class: 'badge pareto' }) : null,
      row.example ? tx('span', t, 'badgeExample', { class: 'badge' }) : null,
      row.stale ? tx('span', t, 'badgeStale', { class: 'badge stale' }) : null,
      row._user ? tx('span', t, 'badgeUser', { class: 'badge user' }) : null),
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'details-compare', disabled: !compared && state.cmp.length >= 4,
        onclick: () => ctx.toggleCompare(row._key, !compared) }, t(compared ? 'removeFromCompare' : 'addToCompare')),
      h('button', { type: 'button', id: 'details-template', onclick: () => ctx.editOffer(row.id, { template: !row._user }) },
        t(row._user ? 'editMyOffer' : 'useAsTemplate'))));

  const figures = dl([
    [t('colTime'), h('span', {}, fmt.duration(row.time_hours),
      row.time_hours_low > 0 ? h('span', { class: 'band' }, ` (${t('bandRange', { low: fmt.duration(row.time_hours_low), high: fmt.duration(row.time_hours_high) })})`) : null)],
    row.pricing === 'spot' && Math.abs(row.time_hours - row.compute_hours) > 1e-9 ? [t('computeTime'), fmt.duration(row.compute_hours)] : null,
    [t('colCost'), row.fits && row.time_hours > 0 ? fmt.money(row.cost_usd) : '—'],
    [t('billedHours'), `${fmt.num(row.billed_hours, 2)} × ${fmt.int(row.nodes)}`],
    [t('colHourly'), fmt.money(row.list_usd_per_hour * row.nodes)],
    Math.abs(row.usd_per_hour - row.list_usd_per_hour) > 1e-9 * row.list_usd_per_hour && row.fits
      ? [t('jobRate'), fmt.money(row.usd_per_hour * row.nodes)] : null,
    [t('unitCostFp16'), row.usd_per_tflops_day > 0 ? fmt.unitMoney(row.usd_per_tflops_day) : `${t('unitCostNa')} (${t('unitCostNaWhy')})`],
    [t('unitCostAtPrecision'), fmt.unitMoney(row.usd_per_tflops_day_at_precision)],
    row.vendor_usd_per_tflops_day > 0 ? [t('unitCostVendor'), fmt.unitMoney(row.vendor_usd_per_tflops_day)] : null,
    [t('colScore'), `${fmt.num(row.score, 3)} (${t('scoreParts', { unit: fmt.num(row.scores.unit_cost, 2), task: fmt.num(row.scores.task, 2), service: fmt.num(row.scores.service, 2) })})`],
  ]);

  // Cost under each billing model of this offer.
  const breakdown = extra ? extra.breakdown : [];
  const costTable = h('table', { class: 'mini', id: 'cost-breakdown' },
    h('thead', {}, h('tr', {}, ['colPricing', 'colHourly', 'billedPerNode', 'wallTime', 'colCost'].map((k) => tx('th', t, k, { scope: 'col' })))),
    h('tbody', {}, breakdown.map((b) => h('tr', { class: b.model === row.pricing ? 'current' : '', 'data-model': b.model },
      h('th', { scope: 'row' }, t(b.model), b.model === row.pricing ? h('span', { class: 'sub' }, ` ${t('thisRow')}`) : null),
      ...(b.error
        ? [h('td', { colspan: 4 }, engineText('span', b.error))]
        : [h('td', { class: 'num' }, fmt.money(b.usd_per_hour * row.nodes)), h('td', { class: 'num' }, fmt.num(b.billed_hours, 2)),
          h('td', { class: 'num' }, fmt.duration(b.wall_hours)), h('td', { class: 'num cost', 'data-v': b.cost_usd }, fmt.money(b.cost_usd))])))));
  const notes = breakdown.filter((b) => b.note).map((b) => h('li', {}, `${t(b.model)}: `, engineText('span', b.note)));

  const memRows = [['memWeights', mem.weights_gb], ['memGradients', mem.gradients_gb], ['memOptimizer', mem.optimizer_gb],
    ['memActivations', mem.activations_gb], ['memOverhead', mem.overhead_gb]];
  const memTable = h('table', { class: 'mini', id: 'memory-breakdown' },
    h('tbody', {}, memRows.map(([k, v]) => h('tr', {}, tx('th', t, k, { scope: 'row' }), h('td', { class: 'num' }, fmt.gb(v)))),
      h('tr', { class: 'total' }, tx('th', t, 'memRequired', { scope: 'row' }), h('td', { class: 'num' }, fmt.gb(mem.required_gb_per_gpu))),
      h('tr', {}, tx('th', t, 'memAvailable', { scope: 'row' }), h('td', { class: 'num' }, fmt.gb(mem.available_gb_per_gpu)))));
  const meterLabel = t('memUse', { used: fmt.gb(mem.required_gb_per_gpu), avail: fmt.gb(mem.available_gb_per_gpu) });
  const meter = h('p', { class: 'meter-line' },
    h('label', { for: 'mem-meter' }, meterLabel), ' ',
    h('meter', { id: 'mem-meter', min: 0, max: Math.max(mem.available_gb_per_gpu || 0, mem.required_gb_per_gpu || 0, 1e-9),
      low: (mem.available_gb_per_gpu || 0) * 0.8, high: mem.available_gb_per_gpu || 0, optimum: 0, value: mem.required_gb_per_gpu || 0 }));

  const tput = dl([
    tp.samples_per_s > 0 ? [t('samplesPerS'), fmt.sig(tp.samples_per_s, 4)] : null,
    tp.tokens_per_s > 0 ? [t('tokensPerS'), fmt.sig(tp.tokens_per_s, 4)] : null,
    [t('effTflops'), `${fmt.num(tp.effective_tflops_per_gpu, 1)} / ${fmt.num(tp.peak_tflops_per_gpu, 0)}`],
    [t('scalingEff'), fmt.pct(tp.scaling_efficiency, 1)],
    tp.comm_exposed_fraction > 0 ? [t('commExposed'), fmt.pct(tp.comm_exposed_fraction, 1)] : null,
    tp.bubble_fraction > 0 ? [t('bubble'), fmt.pct(tp.bubble_fraction, 1)] : null,
    [t('bound'), tp.bound ? engineText('span', boundMessage(tp.bound)) : '—'],
    [t('sharding'), engineText('span', shardingMessage(mem.sharding))],
    ...planRows(row.plan, t, fmt),
  ]);

  const spot = row.pricing === 'spot' && row.spot ? section(t, 'spotTitle', dl([
    [t('spotInterruptions'), fmt.num(row.spot.expected_interruptions, 1)],
    [t('spotCheckpoint'), fmt.duration(row.spot.checkpoint_interval_hours)],
    state.filters.deadlineHours > 0 ? [t('spotPDeadline'), fmt.pct(row.spot.p_finish_by_deadline, 1)] : null,
    [t('spotFeasible'), row.spot.feasible ? t('yes') : t('no')],
  ])) : null;
  const reserved = row.pricing === 'reserved' && row.reserved && row.reserved.commitment_usd > 0 ? section(t, 'reservedTitle', dl([
    [t('reservedCommitment'), fmt.money(row.reserved.commitment_usd)],
    [t('reservedBreakEven'), fmt.pct(row.reserved.break_even_utilisation, 0)],
  ])) : null;

  const why = section(t, 'whyTitle', h('ul', { class: 'reasons' }, (row.reasons || []).map((r) => engineText('li', r))));
  const warn = section(t, 'warningsTitle',
    other.length ? h('ul', { class: 'warnings', id: 'details-warnings' }, other.map((w) => engineText('li', w))) : tx('p', t, 'noWarnings', { class: 'sub' }),
    claims.length ? tx('h4', t, 'claimCheckTitle') : null,
    claims.length ? h('ul', { class: 'warnings claims', id: 'details-claims' }, claims.map((w) => engineText('li', w))) : null);
  const src = section(t, 'sourceTitle', dl([
    [t('priceSource'), sourceLink(row.source)],
    [t('asOf'), h('span', {}, priceDate(t, fmt, row),
      Number.isFinite(age) ? ` (${fmt.relativeDays(age)})` : '')],
    [t('staleLabel'), row.stale ? h('strong', { class: 'stale-text' }, t('staleYes', { days: fmt.int(staleDays) })) : t('staleNo', { days: fmt.int(staleDays) })],
  ]), offer && offer.prices.length > 1 ? h('ul', { class: 'sub price-dates' }, offer.prices.map((p) => h('li', {}, `${t(p.model)}: ${priceDate(t, fmt, p)} · `, sourceLink(p.source)))) : null);

  container.replaceChildren(...[head,
    section(t, 'figuresTitle', figures),
    section(t, 'costByModelTitle', extra ? h('div', { class: 'scroll-x' }, costTable) : tx('p', t, 'computing', { class: 'sub', id: 'cost-breakdown-pending' }),
      notes.length ? h('ul', { class: 'sub notes' }, notes) : null),
    section(t, 'memoryTitle', memTable, meter),
    section(t, 'throughputTitle', tput),
    spot, reserved, why, warn, src].filter(Boolean));
}

// Side-by-side comparison; the best value in each numeric row is marked.
export function renderCompare(container, rows, ctx) {
  const { t, fmt } = ctx;
  if (rows.length < 2) {
    container.hidden = rows.length === 0;
    container.replaceChildren(tx('h2', t, 'compareTitle', { id: 'compare-title' }),
      tx('p', t, rows.length ? 'compareNeedTwo' : 'compareHint', { class: 'sub' }));
    return;
  }
  container.hidden = false;
  const lines = [
    ['colProvider', (r) => dataText('span', `${providerName(t, r.provider)} · ${r.region}`)],
    ['colGpu', (r) => dataText('span', `${r.total_gpus}× ${r.gpu_name}`)],
    ['colPricing', (r) => t(r.pricing)],
    ['colFits', (r) => (r.fits ? t('yes') : t('no'))],
    ['colTime', (r) => fmt.duration(r.time_hours), (r) => r.time_hours, 'min'],
    ['bandTitle', (r) => t('bandRange', { low: fmt.duration(r.time_hours_low), high: fmt.duration(r.time_hours_high) })],
    ['colCost', (r) => fmt.money(r.cost_usd), (r) => r.cost_usd, 'min'],
    ['colHourly', (r) => fmt.money(r.list_usd_per_hour * r.nodes), (r) => r.list_usd_per_hour * r.nodes, 'min'],
    ['colUnitCost', (r) => (r.usd_per_tflops_day > 0 ? fmt.unitMoney(r.usd_per_tflops_day) : t('unitCostNa')), (r) => r.usd_per_tflops_day, 'min'],
    ['memRequired', (r) => fmt.gb(r.memory.required_gb_per_gpu)],
    ['memAvailable', (r) => fmt.gb(r.memory.available_gb_per_gpu), (r) => r.memory.available_gb_per_gpu, 'max'],
    ['sharding', (r) => engineText('span', shardingMessage(r.memory.sharding))],
    ['effTflops', (r) => `${fmt.num(r.throughput.effective_tflops_per_gpu, 1)} / ${fmt.num(r.throughput.peak_tflops_per_gpu, 0)}`, (r) => r.throughput.effective_tflops_per_gpu, 'max'],
    ['colScore', (r) => fmt.num(r.score, 3), (r) => r.score, 'max'],
    ['asOf', (r) => priceDate(t, fmt, r)],
    ['warningsTitle', (r) => fmt.int((r.warnings || []).length)],
  ];
  const best = (get, how) => {
    const vals = rows.map(get).filter((v) => Number.isFinite(v) && v > 0);
    return vals.length ? (how === 'min' ? Math.min(...vals) : Math.max(...vals)) : null;
  };
  const table = h('table', { class: 'compare', id: 'compare-table' },
    h('thead', {}, h('tr', {}, h('td', {}), rows.map((r) => h('th', { scope: 'col' },
      dataText('span', r.instance), h('span', { class: 'sub' }, ` ${t(r.pricing)}`), ' ',
      h('button', { type: 'button', class: 'small', onclick: () => ctx.toggleCompare(r._key, false), 'aria-label': t('removeNamed', { name: r.instance }) }, tx('span', t, 'remove')))))),
    h('tbody', {}, lines.map(([key, show, get, how]) => {
      const b = get ? best(get, how) : null;
      return h('tr', {}, tx('th', t, key, { scope: 'row' }), rows.map((r) => {
        const isBest = b !== null && get(r) === b;
        return h('td', { class: isBest ? 'best' : '' }, show(r), isBest ? h('span', { class: 'sr-only' }, ` (${t('best')})`) : null);
      }));
    })));
  container.replaceChildren(
    h('div', { class: 'panel-head' }, tx('h2', t, 'compareTitle', { id: 'compare-title' }),
      h('button', { type: 'button', id: 'compare-clear', onclick: () => ctx.update({ cmp: [] }) }, t('clearCompare'))),
    h('div', { class: 'scroll-x compare-wrap' }, table));
}
