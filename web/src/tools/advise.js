// Advisor: model size + project stage -> GPU class, count and billing, with the article's §4.1 size ladder
// shown next to what the memory model says (and flagged when they disagree). engine.advise.
import { h, tx, engineText, dataText, shardingMessage, priceDate } from '../views/dom.js';
import { NAMES } from '../state/names.js';
import { hoursFromDays } from '../format/format.js';
import { servingRequest } from '../state/state.js';
import { servingName } from '../views/serving.js';
import { field, numberInput, selectInput, num, kpi, kv, verdict, assumptionsTable, dataLabel, put, scopeOf, workloadOf } from './form.js';

// The advisor sizes training runs: every mode but inference.
const trainingModes = () => NAMES.modes.filter((m) => m !== 'inference');

// The training preset of the current view (none for a model of the user's own).
const currentPreset = (c) => (!c.state.custom && c.presets.find((p) => p.id === c.state.preset)) || null;

// Defaults from the current workload when it is a transformer (its parameters, tokens and mode), else a 7B example.
function defaults(c) {
  const w = c.result && c.result.workload;
  const preset = currentPreset(c);
  const pw = preset ? preset.workload : (c.state.custom || {});
  if (w && w.kind === 'transformer' && w.params > 0) {
    return { params: w.params, tokens: pw.tokens > 0 ? pw.tokens : undefined, mode: trainingModes().includes(w.mode) ? w.mode : 'pretrain', fromWorkload: true };
  }
  return { params: 7e9, tokens: undefined, mode: 'pretrain', fromWorkload: false };
}

// The serving preset nearest the advisor's model in size (log distance of the parameter counts).
export function nearestServingPreset(presets, params) {
  let best = null;
  for (const p of presets) {
    if (!(p.params > 0)) continue;
    const d = Math.abs(Math.log(p.params / params));
    if (!best || d < best.d) best = { p, d };
  }
  return best && best.p;
}

// The shape members a training workload and a served model share (data/presets.json, data/serving-presets.json).
const SHAPE = ['layers', 'hidden', 'heads', 'kv_heads', 'experts', 'experts_per_token'];
const shapeOf = (m) => SHAPE.map((k) => (k === 'kv_heads' ? m.kv_heads || m.heads : m[k] || 0)).join('|');

// The model the production stage serves, for the advisor's parameter count: the current preset's own model when
// the advisor sizes it (a transformer whose preset states its layers, hidden size and heads) — the serving preset of
// the same shape when there is one (it carries what training does not say: an MLA latent, a head size), else that
// shape itself — and otherwise the serving preset nearest in size. {how: 'match'|'own'|'nearest', preset?, model?,
// trained?: the training preset whose shape `model` is}.
export function servedModel(c, params) {
  const trained = currentPreset(c);
  const w = trained && trained.workload;
  const presets = c.servingPresets || [];
  const own = w && w.kind === 'transformer' && w.params > 0 && Math.abs(w.params / params - 1) < 1e-6 && w.layers > 0 && w.hidden > 0 && w.heads > 0;
  if (own) {
    const same = presets.find((p) => p.model && shapeOf(p.model) === shapeOf(w) && Math.abs(Math.log(p.params / w.params)) < 0.1);
    if (same) return { how: 'match', preset: same };
    // A mixture of experts without its active parameters would be served as if every expert ran for every token.
    if (!(w.experts > 0) || w.active_params > 0) {
      const model = { params: w.params, layers: w.layers, hidden: w.hidden, heads: w.heads };
      for (const k of ['kv_heads', 'vocab', 'experts', 'experts_per_token', 'active_params']) if (w[k] > 0) model[k] = w[k];
      return { how: 'own', model, trained };
    }
  }
  const nearest = nearestServingPreset(presets, params);
  return nearest ? { how: 'nearest', preset: nearest } : null;
}

// The production stage serves the model under a latency promise: the serving ranking for that model (servedModel),
// at the page's serving traffic and targets, on-demand prices (as its text says).
function servingCall(c, params) {
  const served = servedModel(c, params);
  if (!served) return null;
  const args = servingRequest({ ...c.state, serving: { ...c.state.serving, preset: served.preset ? served.preset.id : undefined, model: served.model || null, pricing: 'on_demand' } });
  return { op: 'serveRank', args: { ...args, curves: false } };
}

// The serving configuration the production stage recommends: the cheapest offer meeting the targets.
function servingBox(a, c, params) {
  const { t, fmt } = c;
  const served = servedModel(c, params);
  if (!served) return null;
  const best = a.rows.find((r) => r.met);
  const tg = a.targets || {};
  const ms = (x) => (x > 0 ? `${fmt.num(x, 0)} ms` : t('noLimit'));
  const lines = [h('p', { id: 'adv-serve-question', 'data-how': served.how }, tx('strong', t, 'advServeTitle'), ' ',
    t(served.how === 'nearest' ? 'advServeQuestion' : 'advServeQuestionOwn', { model: servingName(served.preset || served.trained, c.state.lang), params: fmt.compact(a.model ? a.model.params : 0),
      rps: a.traffic.requests_per_s > 0 ? t('serveRpsValue', { n: fmt.num(a.traffic.requests_per_s, 2) }) : t('serveRpsNone'),
      ttft: ms(tg.ttft_ms), tpot: ms(tg.tpot_ms) }))];
  if (!best) lines.push(tx('p', t, 'advServeNone', { class: 'sub' }));
  else {
    lines.push(h('p', { id: 'adv-serve-offer', 'data-key': best.key }, dataText('strong', `${best.instance} · ${best.provider}`), ' · ',
      t('advServeConfig', { replicas: best.replicas, tp: best.replica_gpus, gpu: c.gpuName(best.gpu), gpus: best.gpus })));
    lines.push(h('p', {}, t('advServeCost', { out: fmt.money(best.usd_per_million_output), in: fmt.money(best.usd_per_million_input),
      monthly: fmt.money(best.monthly_usd, { digits: 0 }), ttft: ms(best.ttft_ms), tpot: ms(best.tpot_ms) })));
  }
  // The serving view with the model answered here: its preset, or the workload's own shape as the view's own model.
  const model = served.preset ? { preset: served.preset.id, model: null } : { model: { ...served.model } };
  lines.push(h('button', { type: 'button', id: 'adv-serve-open', 'data-how': served.how, onclick: () => c.update({ task: 'serve', serving: { ...c.state.serving, ...model } }) }, t('advServeOpen')));
  return h('div', { class: 'verdict-box', id: 'adv-serving', 'data-met': best ? '1' : '0' }, lines);
}

// What the advisor is asked to size. Its values from the page's workload (none typed here): that workload as the
// ranking asks for it (workloadOf: preset or own model, precision, software; the user's measurements), the mode
// chosen here as a workload member when it differs, so that both tabs price the same job. Parameters or tokens typed
// here: the advisor's own transformer of those values.
function adviceRequest(c, st) {
  const d = defaults(c);
  const stage = st.stage || 'exploration';
  const mode = st.mode || d.mode;
  const typed = (v) => v !== undefined && v !== '';
  if (d.fromWorkload && !typed(st.params) && !typed(st.tokens)) {
    const req = { ...workloadOf(c), stage };
    if (mode !== c.result.workload.mode) req.workload = { ...(req.workload || {}), mode };
    if (c.state.measurements.length) req.measurements = c.state.measurements;
    return req;
  }
  const req = { params: num(st.params) ?? d.params, stage, mode };
  const tokens = st.tokens !== undefined ? num(st.tokens) : d.tokens;
  if (tokens !== undefined) req.tokens = tokens;
  return req;
}

export const advisePanel = {
  id: 'advise',
  titleKey: 'toolAdvise',
  introKey: 'toolAdviseIntro',
  inputsKey: (c) => JSON.stringify(defaults(c)),

  inputs(c, st, io) {
    const { t, fmt } = c;
    const d = defaults(c);
    const hint = (id, v) => h('span', { class: 'hint', id: `${id}-hint`, 'aria-live': 'polite' }, v > 0 ? `= ${fmt.compact(v)}` : '');
    const params = st.params ?? String(d.params);
    const tokens = st.tokens ?? (d.tokens ? String(d.tokens) : '');
    const paramsHint = hint('adv-params', Number(params));
    const tokensHint = hint('adv-tokens', Number(tokens));
    return [
      h('div', { class: 'tool-grid' },
        field('adv-params', t('advParams'), numberInput('adv-params', params, (v) => { paramsHint.textContent = Number(v) > 0 ? `= ${fmt.compact(Number(v))}` : ''; io.set('params', v); },
          { min: 0, 'data-path': '/params', 'aria-describedby': 'adv-params-hint' }), paramsHint),
        field('adv-tokens', t('advTokens'), numberInput('adv-tokens', tokens, (v) => { tokensHint.textContent = Number(v) > 0 ? `= ${fmt.compact(Number(v))}` : ''; io.set('tokens', v); },
          { min: 0, placeholder: t('advTokensAuto'), 'data-path': '/tokens', 'aria-describedby': 'adv-tokens-hint' }), tokensHint),
        field('adv-stage', t('advStage'), selectInput('adv-stage', st.stage || 'exploration', NAMES.stages.map((s) => [s, t(`stage_${s}`)]), (v) => io.set('stage', v), { 'data-path': '/stage' })),
        field('adv-mode', t('mode'), selectInput('adv-mode', st.mode || d.mode, trainingModes().map((m) => [m, t(`mode_${m}`)]), (v) => io.set('mode', v), { 'data-path': '/mode' })),
        field('adv-deadline', t('deadline'), numberInput('adv-deadline', st.deadline ?? '', (v) => io.set('deadline', v), { min: 0, placeholder: t('noLimit'), 'data-path': '/deadline_hours' }))),
      h('div', { class: 'actions' },
        h('button', { type: 'button', id: 'adv-use-workload', onclick: () => io.setMany({ params: '', tokens: '', mode: '' }, { rebuild: true }) }, t('advUseWorkload')),
        tx('span', t, d.fromWorkload ? 'advFromWorkload' : 'advExample', { class: 'hint' })),
    ];
  },

  calls(c, st) {
    const req = adviceRequest(c, st);
    if (num(st.deadline) !== undefined) req.deadline_hours = num(st.deadline);
    // The page's horizon and its switches for illustrative and stale prices, as the ranking uses them.
    req.horizon_hours = hoursFromDays(c.state.filters.horizonDays);
    const calls = [{ method: 'advise', request: { ...req, ...scopeOf(c) } }];
    const serve = req.stage === 'production' && servingCall(c, req.params ?? defaults(c).params);
    if (serve) calls.push(serve);
    return calls;
  },

  render(out, [r, serving], c) {
    if (!r || !r.ok) return;
    const { t, fmt } = c;
    const mm = r.memory_model;
    // The recommended option when none finishes within the horizon is the fastest (advise.role_recommended_late).
    const roleKey = (x) => `advRole_${String(x.role).split(' ')[0]}${x.role === 'recommended' && x.meets_horizon === false ? '_late' : ''}`;
    const offerText = (o) => (o ? dataText('span', `${o.instances}× ${o.instance} · ${o.provider} · ${o.region}`) : tx('span', t, 'advNoOffer'));

    const head = h('div', { class: 'verdict-box', id: 'adv-verdict', 'data-agrees': mm.agrees_with_article ? '1' : '0' },
      h('p', {}, tx('strong', t, 'advArticleSays'), ' ', engineText('span', r.article.rule), ' ', h('span', { class: 'sub' }, '(', engineText('span', r.article.source), ')')),
      h('p', {}, tx('strong', t, 'advModelSays'), ' ',
        mm.gpu_class ? dataText('span', `${mm.gpu_count}× ${mm.gpu_class}`) : tx('span', t, 'advNothingFits'),
        mm.gpu_class ? [' (', engineText('span', shardingMessage(mm.sharding)), ')'] : null, ' ', verdict(t, mm.agrees_with_article, { id: 'adv-agrees' })),
      engineText('p', mm.note, { class: 'sub engine-note' }));

    const facts = h('div', { class: 'kpis' },
      kpi(t('advParams'), fmt.compact(r.params)),
      kpi(t('advTokensUsed'), fmt.compact(r.tokens)),
      kpi(t('totalFlopsLabel'), fmt.sci(r.total_flops), { id: 'adv-flops', 'data-v': r.total_flops }),
      kpi(t('advUnsharded'), fmt.gb(mm.single_gpu_required_gb)));
    const tokensSource = h('p', { class: 'sub' }, tx('span', t, 'advTokensSource'), ' ', engineText('span', r.tokens_source));

    const stage = h('div', { class: 'stage-box' },
      h('p', {}, tx('strong', t, 'advStageBilling'), ' ', t(`stage_${r.stage_billing.stage}`), ' → ', h('strong', { id: 'adv-stage-pricing', 'data-v': r.stage_billing.pricing }, t(r.stage_billing.pricing))),
      engineText('p', r.stage_billing.why, { class: 'sub' }),
      engineText('p', r.stage_billing.constraint, { class: 'sub', id: 'adv-constraint' }));

    // data-key: the ranking table's row of the same offer and billing ("offer id|pricing").
    const cards = h('ol', { class: 'cards', id: 'adv-recs' }, r.recommendations.map((x) => h('li', { class: 'card', 'data-role': x.role, 'data-gpu': x.gpu, 'data-key': x.offer ? `${x.offer.id}|${x.pricing}` : null },
      h('p', { class: 'card-role' }, tx('span', t, roleKey(x))),
      h('p', { class: 'card-title' }, dataText('span', `${x.gpu_count}× ${x.gpu_name}`), ' · ', engineText('span', shardingMessage(x.sharding)), ' · ', t(x.pricing)),
      kv([
        [t('colTime'), h('span', { 'data-v': x.time_hours }, fmt.duration(x.time_hours))],
        [t('colCost'), h('span', { class: 'cost', 'data-v': x.cost_usd }, x.cost_usd > 0 ? fmt.money(x.cost_usd) : '—')],
        x.pricing !== 'on_demand' && x.on_demand_cost_usd > 0 ? [t('advOnDemandCost'), fmt.money(x.on_demand_cost_usd)] : null,
        [t('advOffer'), h('span', {}, offerText(x.offer), x.offer && x.offer.stale ? tx('span', t, 'badgeStale', { class: 'badge stale' }) : null)],
        x.offer ? [t('colHourly'), `${fmt.money(x.offer.usd_per_hour)} · ${priceDate(t, fmt, x.offer)}`] : null,
        [t('advEffTflops'), fmt.num(x.effective_tflops_per_gpu, 1)],
        [t('memRequired'), `${fmt.gb(x.memory.required_gb_per_gpu)} / ${fmt.gb(x.memory.available_gb_per_gpu)}`],
      ]),
      h('details', { class: 'why' }, tx('summary', t, 'advWhy'), engineText('p', x.reason)))));

    const ladder = h('div', { class: 'scroll-x' }, h('table', { class: 'mini', id: 'adv-ladder' },
      h('caption', { class: 'cap' }, tx('span', t, 'advLadder')),
      h('thead', {}, h('tr', {}, ['advClass', 'colFits', 'sharding', 'colMemory', 'colTime', 'colPricing', 'colCost', 'advOffer', 'advNote'].map((k) => tx('th', t, k, { scope: 'col' })))),
      h('tbody', {}, r.ladder.map((x) => h('tr', { 'data-gpu': x.gpu, class: x.gpu === mm.gpu ? 'current' : '' },
        h('th', { scope: 'row' }, dataLabel(x.gpu_class)),
        h('td', {}, x.fits ? t('advFitsOn', { n: fmt.int(x.gpu_count) }) : t('no')),
        h('td', {}, x.fits ? engineText('span', shardingMessage(x.sharding)) : '—'),
        h('td', { class: 'num' }, x.memory ? `${fmt.num(x.memory.required_gb_per_gpu, 1)} / ${fmt.num(x.memory.available_gb_per_gpu, 0)}` : '—'),
        h('td', { class: 'num' }, x.time_hours > 0 ? fmt.duration(x.time_hours) : '—'),
        h('td', {}, x.pricing ? t(x.pricing) : '—'),
        h('td', { class: 'num' }, x.cost_usd > 0 ? fmt.money(x.cost_usd) : '—'),
        h('td', { class: 'offer' }, x.offer ? dataText('span', `${x.offer.instance} · ${x.offer.provider}`) : '—'),
        h('td', { class: 'note' }, x.note && x.note.length ? engineText('span', x.note) : ''))))));

    put(out, head, facts, tokensSource, stage, serving && serving.ok ? servingBox(serving, c, r.params) : null, tx('h3', t, 'advRecs'), cards, ladder,
      tx('h3', t, 'assumptionsTitle'), assumptionsTable(t, fmt, r.assumptions, 'adv-assumptions'),
      r.warnings.length ? h('ul', { class: 'warnings' }, r.warnings.map((w) => engineText('li', w))) : null);
  },
};
