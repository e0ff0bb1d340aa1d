// The serve command: a served language model on N GPUs of one type or on a catalog offer (the engine's `serve`
// method): the request from the options, and the answer as text.
import { UsageError } from './options.mjs';
import { s } from './strings.mjs';
import { sentences } from './lang.mjs';
import { usd, priceDate } from './text.mjs';

export function serveRequest(opts) {
  if (!opts.preset) throw new UsageError(s('error.required_option', { option: '--preset' }), 'serve');
  if (!opts.gpu === !opts.offer) throw new UsageError(s('error.serve_gpu_or_offer'), 'serve');
  if (opts.gpu && !opts.count) throw new UsageError(s('error.required_option', { option: '--count' }), 'serve');
  if (opts.rps !== undefined && opts['tokens-per-day'] !== undefined) throw new UsageError(s('error.serve_rps_or_tokens'), 'serve');
  const req = { preset: opts.preset };
  if (opts.gpu) req.gpu = opts.gpu;
  if (opts.offer) req.offer = opts.offer;
  if (opts.count !== undefined) req.count = opts.count;
  for (const k of ['weights', 'kv', 'software']) if (opts[k] !== undefined) req[k] = opts[k];
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

const n0 = (x) => Math.round(x).toLocaleString('en-US');
const n1 = (x) => x.toLocaleString('en-US', { maximumFractionDigits: 1 });
const ms = (x) => (x > 0 ? n1(x) : '-');

export function serveText(r) {
  const m = r.memory;
  const lines = [
    s('serve.title', { model: r.preset || s('serve.own_model'), count: r.count, gpu: r.gpu, interconnect: r.interconnect, weights: r.weights, kv: r.kv, software: s(`serve.software.${r.software}`) }),
    s('serve.memory', { weights: n1(m.weights_gb), overhead: n1(m.overhead_gb), kv: n1(m.kv_cache_gb), tokens: n0(m.kv_tokens), batch: n0(m.max_batch) }),
  ];
  if (!m.fits) lines.push(s('serve.no_fit'));
  const c = r.capacity;
  if (c) {
    lines.push(s('serve.capacity', { batch: n0(c.batch), tps: n0(c.output_tokens_per_s), low: n0(c.output_tokens_per_s_low), high: n0(c.output_tokens_per_s_high),
      rps: n1(c.requests_per_s), tpot: ms(c.tpot_ms), prefill: ms(c.prefill_ms), bound: s(c.bound === 'compute' ? 'serve.bound_compute' : 'serve.bound_memory') }));
  }
  const o = r.operating;
  if (o) {
    lines.push(s('serve.operating', { rps: n1(o.requests_per_s), replicas: n0(o.replicas), gpus: n0(o.gpus), ttft: ms(o.ttft_ms), tpot: ms(o.tpot_ms), p: r.targets.percentile }));
  }
  const t = r.targets;
  if (t.ttft_ms > 0 || t.tpot_ms > 0) {
    lines.push(s(t.met ? 'serve.targets_met' : 'serve.targets_missed', { ttft: ms(t.ttft_ms), tpot: ms(t.tpot_ms), p: t.percentile }));
  }
  const k = r.cost;
  if (k) {
    const date = priceDate(k.offer);
    lines.push(s('serve.cost', { offer: k.offer.id, rate: usd(k.usd_per_hour / Math.max(1, k.instances)), date, instances: n0(k.instances), monthly: usd(k.monthly_usd) }));
    lines.push(s('serve.per_million', { out: usd(k.usd_per_million_output), low: usd(k.usd_per_million_output_low), high: usd(k.usd_per_million_output_high),
      in: usd(k.usd_per_million_input), blended: usd(k.usd_per_million_blended) }));
  }
  if (r.hints && r.hints.length) lines.push('', sentences(r.hints));
  return lines.join('\n');
}
