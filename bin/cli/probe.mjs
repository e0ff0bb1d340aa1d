// `gpuvalue probe`: writes the measurement script (web/src/tools/probescript.js) for a workload, shaped as the engine
// plans it on the trial hardware (--gpu, --count: the layer shape, the micro-batch), to stdout or --out FILE.
import fs from 'node:fs';
import { probeConfig, probeScript } from '../../web/src/tools/probescript.js';
import { GpuvalueError } from '../../web/src/engine/client.js';
import { terminalText } from './text.mjs';
import { s } from './strings.mjs';
import { writeOut, writeErr } from './streams.mjs';

// The GPU the script is planned for when --gpu is not given: the guide's typical free trial is A100 time.
export const DEFAULT_PROBE_GPU = 'a100-sxm4-80gb';

export function probeCommand(opts, e, request, out) {
  const gpu = opts.gpu || DEFAULT_PROBE_GPU;
  const count = opts.count ?? 1;
  const preset = request.preset ? e.presets().find((p) => p.id === request.preset) : null;
  const workload = { ...(preset ? preset.workload : {}), ...(request.workload || {}) };
  // The engine's plan gives the derived shape and the micro-batch; a workload whose own layout does not go on the
  // trial GPUs (e.g. pipeline stages of 16) still has its shape, and the script runs data parallel anyway.
  const planned = e.tryCall('estimate', { ...request, gpu, count });
  if (!planned.ok && !(workload.layers && workload.hidden && workload.heads)) throw new GpuvalueError(planned);
  const est = planned.ok ? planned : {};
  const fallback = e.defaults().custom_workloads.transformer;
  const config = probeConfig(workload, { preset: request.preset, shape: est.shape, plan: est.plan, precision: est.precision, fallback });
  if (config.error) {
    writeErr(`${terminalText(`gpuvalue: ${s('error.probe_no_model', { id: config.error.params.id })}`)}\n`);
    return 1;
  }
  const script = probeScript(config);
  const run = count > 1 ? `torchrun --nproc_per_node=${count} ${opts.out || 'probe.py'}` : `python3 ${opts.out || 'probe.py'}`;
  if (opts.out) fs.writeFileSync(opts.out, script);
  if (opts.json) out(opts, { config, run, ...(opts.out ? { file: opts.out } : { script }) });
  else if (opts.out) out(opts, null, () => s('probe.written', { file: opts.out, run }));
  else writeOut(script);
  return 0;
}
