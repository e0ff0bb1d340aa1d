// The names engine requests take (pricing models, precisions, workload kinds, modes, advisor stages, cooling, the
// serve request's weight and KV formats, stacks and billing models),
// as the engine lists them in defaults().names. The page sets them once at start-up, before anything is drawn or
// any URL is read; the lists stay empty until then.
export const NAMES = { pricing_models: [], precisions: [], workload_kinds: [], modes: [], stages: [], cooling: [],
  serving_weights: [], serving_kv: [], serving_software: [], serving_pricing: [] };

export function setNames(names) {
  for (const k of Object.keys(NAMES)) NAMES[k] = Array.isArray(names && names[k]) ? [...names[k]] : [];
}
