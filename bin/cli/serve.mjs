// The serve command: a served language model on N GPUs of one type or on a catalog offer (the engine's `serve`
// method), or, with neither, on every catalog offer (the serving ranking the page's worker runs,
// web/src/engine/serving.js): the request from the options, and the answer as text.
import { UsageError } from './options.mjs';
import { s } from './strings.mjs';
import { sentences, termText, providerText } from './lang.mjs';
import { usd, priceDate, table } from './text.mjs';
import { servingOpsOf, bestSplit } from '../../web/src/engine/serving.js';

// The serving question (model, formats, traffic, targets) without the hardware: the same for one offer and for all.
function servingQuestion(opts, command) {
  if (!opts.preset) throw new UsageError(s('error.required_option', { option: '--preset' }), command);
  if (opts.rps !== undefined && opts['tokens-per-day'] !== undefined) throw new UsageError(s('error.serve_rps_or_tokens'), command);
  const req = { preset: opts.preset };
  for (const k of ['weights', 'kv', 'software', 'pricing']) if (opts[k] !== undefined) req[k] = opts[k];
  const traffic = {};
  if (opts.rps !== undefined) traffic.requests_per_s = opts.rps;
  if (opts['tokens-per-day'] !== undefined) traffic.tokens_per_day = opts['tokens-per-day'];
  if (opts['input-tokens'] !== undefined) traffic.input_tokens = opts['input-tokens'];
  if (opts['output-tokens'] !== undefined) traffic.output_tokens = opts['output-tokens'];
  if (Object.keys(traffic).length) req.traffic = traffic;
  const targets = {};
  if (opts['ttft-ms'] !== undefined) targets.ttft_ms = opts['ttft-ms'];
  if (opts['tpot-ms'] !== undefined) targets.tpot_ms = opts['tpot-ms'];
  if (opts.percentile !== undefined) targets.percentile = opts.percentile;
  if (Object.keys(targets).length) req.targets = targets;
  return req;
}

// `serve --offer` without --count: the instance split into the replicas that serve the question cheapest (as the
// serving ranking splits it); with --count, or on --gpu, the answer for that count. `split` is true when chosen here.
export function serveAnswer(opts, e) {
  const req = serveRequest(opts);
  const whole = e.serve(req);
  if (!opts.offer || opts.count !== undefined || !whole.ok) return { r: whole, split: false };
  // The whole instance is one of the splits: its answer is reused, not asked again.
  return { r: bestSplit((q) => (q.count === whole.count ? whole : e.serve(q)), req, whole.count), split: true };
}

// `serve` on N GPUs of one type (--gpu, --count) or on one catalog offer (--offer).
function serveRequest(opts) {
  if (opts.gpu && opts.offer) throw new UsageError(s('error.serve_gpu_or_offer'), 'serve');
  if (opts.gpu && !opts.count) throw new UsageError(s('error.required_option', { option: '--count' }), 'serve');
  if (opts.gpu && opts.pricing !== undefined) throw new UsageError(s('error.serve_pricing_offer'), 'serve');
  const req = servingQuestion(opts, 'serve');
  if (opts.gpu) req.gpu = opts.gpu;
  if (opts.offer) req.offer = opts.offer;
  if (opts.count !== undefined) req.count = opts.count;
  return req;
}

const n0 = (x) => Math.round(x).toLocaleString('en-US');
const n1 = (x) => x.toLocaleString('en-US', { maximumFractionDigits: 1 });
const ms = (x) => (x > 0 ? n1(x) : '-');
// The billing model a price is under, with a reserved price's term: "reserved 12 mo".
const billing = (pricing, months) => `${termText('pricing', pricing)}${months > 0 ? ` ${s('serve.term', { n: months })}` : ''}`;

export function serveText(r, { split = false } = {}) {
  const m = r.memory;
  const lines = [
    s('serve.title', { model: r.preset || s('serve.own_model'), count: r.count, gpu: r.gpu, interconnect: r.fabric === 'none' ? s('serve.fabric_none') : r.fabric,
      weights: r.weights, kv: r.kv, software: s(`serve.software.${r.software}`) }),
    s('serve.memory', { weights: n1(m.weights_gb), overhead: n1(m.overhead_gb), kv: n1(m.kv_cache_gb), tokens: n0(m.kv_tokens), batch: n0(m.max_batch) }),
  ];
  if (split && r.cost) lines.push(s('serve.split', { gpus: n0(r.cost.offer.gpu_count), replicas: r.cost.replicas_per_instance, count: n0(r.count) }));
  if (!m.fits) lines.push(s('serve.no_fit'));
  const c = r.capacity;
  if (c) {
    lines.push(s('serve.capacity', { batch: n0(c.batch), tps: n0(c.output_tokens_per_s), low: n0(c.output_tokens_per_s_low), high: n0(c.output_tokens_per_s_high),
      rps: n1(c.requests_per_s), tpot: ms(c.tpot_ms), prefill: ms(c.prefill_ms), bound: s(c.bound === 'compute' ? 'serve.bound_compute' : 'serve.bound_memory') }));
  }
  const o = r.operating;
  if (o && o.requests_per_s > 0) {
    lines.push(s('serve.operating', { rps: n1(o.requests_per_s), replicas: n0(o.replicas), gpus: n0(o.gpus), batch: n0(o.batch), ttft: ms(o.ttft_ms), tpot: ms(o.tpot_ms), p: r.targets.percentile }));
  } else if (o) {
    // No rate asked: the engine answers at the load each replica runs at when full.
    lines.push(s('serve.operating_full', { load: n0(o.load_fraction * 100), batch: n0(o.batch), max: n0(c ? c.batch : m.max_batch), ttft: ms(o.ttft_ms), tpot: ms(o.tpot_ms), p: r.targets.percentile }));
  }
  const t = r.targets;
  if (t.ttft_ms > 0 || t.tpot_ms > 0) {
    lines.push(s(t.met ? 'serve.targets_met' : 'serve.targets_missed', { ttft: ms(t.ttft_ms), tpot: ms(t.tpot_ms), p: t.percentile }));
  }
  const k = r.cost;
  if (k) {
    const date = priceDate(k.offer);
    lines.push(s('serve.cost', { offer: k.offer.id, rate: usd(k.usd_per_instance_hour), pricing: billing(k.offer.pricing, k.term_months), date,
      instances: k.instances, monthly: usd(k.monthly_usd) }));
    if (k.interruptions_per_instance_hour > 0) {
      lines.push(s('serve.spot_spares', { per_day: n1(k.interruptions_per_instance_hour * 24), minutes: n0(k.replace_hours * 60),
        down: n1(k.instance_down_share * 100), spares: n0(k.spare_instances) }));
    }
    lines.push(s('serve.per_million', { out: usd(k.usd_per_million_output), low: usd(k.usd_per_million_output_low), high: usd(k.usd_per_million_output_high),
      in: usd(k.usd_per_million_input), blended: usd(k.usd_per_million_blended) }));
  }
  if (r.hints && r.hints.length) lines.push('', sentences(r.hints));
  return lines.join('\n');
}

// The serving ranking's question from the options: the serve request without hardware, and the offer filters.
export function serveRankArgs(opts, command) {
  const { preset, weights, kv, software, traffic = {}, targets = {} } = servingQuestion(opts, command);
  return {
    serving: { preset, weights, kv, software, pricing: opts.pricing, traffic, targets },
    filters: { include_examples: !!opts['include-examples'], include_stale: !!opts['include-stale'], include_marketplace: !opts['no-marketplace'] },
    curves: false, limit: 0,
  };
}

// The ranking's rows as the CLI gives them (--json): what a row of the page's serving table says.
const ROW_KEYS = ['rank', 'id', 'instance', 'provider', 'regions', 'gpu', 'gpu_count', 'replica_gpus', 'interconnect', 'fabric', 'marketplace', 'fits', 'met',
  'ttft_met', 'tpot_met', 'replicas', 'instances', 'spare_instances', 'gpus', 'pricing', 'term_months', 'usd_per_hour', 'usd_per_million_output', 'usd_per_million_input',
  'usd_per_million_blended', 'monthly_usd', 'ttft_ms', 'tpot_ms', 'batch', 'as_of', 'read_on', 'hints'];

export function serveRank(opts, e, command) {
  const a = servingOpsOf(e).serveRank(serveRankArgs(opts, command));
  if (!a.ok) return a;
  const rows = a.rows.map((r) => Object.fromEntries(ROW_KEYS.filter((k) => r[k] !== undefined && r[k] !== '' && !(k === 'term_months' && !r[k])).map((k) => [k, r[k]])));
  return { ok: true, preset: a.preset, model: a.model, traffic: a.traffic, targets: a.targets, weights: a.weights, kv: a.kv, software: a.software, pricing: a.pricing,
    evaluated_offers: a.total, met_count: a.met, fitting_count: a.fits, stale_left_out: a.stale, unpriced_left_out: a.unpriced,
    results: opts.limit ? rows.slice(0, opts.limit) : rows };
}

const status = (r) => s(!r.fits ? 'serve.row_no_fit' : r.met ? 'serve.row_met' : 'serve.row_missed');

export function serveRankText(a, opts) {
  const rows = opts.limit ? a.results : a.results.slice(0, 25);
  const t = a.targets || {};
  const targets = s(t.ttft_ms > 0 && t.tpot_ms > 0 ? 'serve.targets_both' : t.ttft_ms > 0 ? 'serve.targets_ttft' : t.tpot_ms > 0 ? 'serve.targets_tpot' : 'serve.targets_none',
    { ttft: ms(t.ttft_ms), tpot: ms(t.tpot_ms), p: t.percentile });
  const traffic = s(a.traffic.requests_per_s > 0 ? 'serve.traffic_rate' : 'serve.traffic_none',
    { rps: n1(a.traffic.requests_per_s), input: n0(a.traffic.input_tokens), output: n0(a.traffic.output_tokens) });
  const title = s('serve.rank_title', { model: a.preset, met: a.met_count, total: a.evaluated_offers, targets, traffic, weights: a.weights, kv: a.kv,
    pricing: termText('pricing', a.pricing) });
  const unpriced = a.unpriced_left_out > 0 ? `\n${s('serve.unpriced', { n: a.unpriced_left_out, pricing: termText('pricing', a.pricing) })}` : '';
  const money = (x, v) => (x.fits ? usd(v) : '-');
  return `${title}\n${table(rows, [
    { title: '#', get: (x) => x.rank, right: true },
    { title: s('column.instance'), get: (x) => `${x.instance}${x.marketplace ? s('serve.marketplace') : ''}` },
    { title: s('column.provider'), get: (x) => `${providerText(x.provider)} ${x.regions.length > 1 ? s('serve.regions', { n: x.regions.length }) : x.regions[0]}` },
    { title: s('column.replica'), get: (x) => `${x.replica_gpus}x ${x.gpu}${x.fabric === 'none' ? '' : ` ${x.fabric}`}` },
    { title: s('column.usd_per_m_out'), get: (x) => money(x, x.usd_per_million_output), right: true },
    { title: s('column.usd_per_m_in'), get: (x) => money(x, x.usd_per_million_input), right: true },
    // Without a request rate no number of replicas is asked for: the column says so rather than 0.
    { title: s('column.replicas'), get: (x) => (x.fits && a.traffic.requests_per_s > 0 ? n0(x.replicas) : '-'), right: true },
    { title: s('column.gpus'), get: (x) => (x.fits ? `${n0(x.gpus)}${x.spare_instances > 0 ? ` ${s('serve.spare_gpus', { n: n0(x.spare_instances * x.gpu_count) })}` : ''}` : '-'), right: true },
    { title: s('column.ttft_tpot'), get: (x) => (x.fits ? `${ms(x.ttft_ms)} / ${ms(x.tpot_ms)}` : '-'), right: true },
    { title: s('column.monthly'), get: (x) => money(x, x.monthly_usd), right: true },
    { title: s('column.usd_per_hour'), get: (x) => `${usd(x.usd_per_hour)} ${billing(x.pricing, x.term_months)}`, right: true },
    { title: s('column.targets'), get: status },
    { title: s('column.price_date'), get: (x) => priceDate(x) },
  ])}${rows.length < a.results.length ? `\n${s('rank.more', { n: a.results.length - rows.length })}` : ''}${unpriced}`;
}
