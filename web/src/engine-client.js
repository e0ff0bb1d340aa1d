// The one loader between JavaScript and the wasm engine (page, widget, CLI and JS tests use it).
// The engine speaks JSON text; this turns results into objects and engine errors into GpuvalueError.

export class GpuvalueError extends Error {
  constructor(result) {
    const err = (result && result.error) || { code: 'internal', message: 'unknown engine error', path: '' };
    super(err.message);
    this.name = 'GpuvalueError';
    this.code = err.code;
    this.path = err.path;
    this.issues = (result && result.issues) || [];
  }
}

export class EngineClient {
  constructor(module, engine) {
    this.module = module;
    this.engine = engine;
  }

  // Calls an engine method; returns the parsed result or throws GpuvalueError.
  call(method, arg) {
    const text = arg === undefined ? this.engine[method]() : this.engine[method](typeof arg === 'string' ? arg : JSON.stringify(arg));
    const result = JSON.parse(text);
    if (!result.ok) throw new GpuvalueError(result);
    return result;
  }

  // Like call, but returns the result object even when it is an error ({ok: false, error, issues}).
  tryCall(method, arg) {
    return JSON.parse(this.engine[method](typeof arg === 'string' ? arg : JSON.stringify(arg)));
  }

  rank(request) { return this.call('rank', request); }
  estimate(request) { return this.call('estimate', request); }
  cost(request) { return this.call('cost', request); }
  advise(request) { return this.call('advise', request); }
  plan(request) { return this.call('plan', request); }
  mig(request) { return this.call('mig', request); }
  levers(request) { return this.call('levers', request); }
  compare(request) { return this.call('compare', request); }
  energy(request) { return this.call('energy', request); }
  tco(request) { return this.call('tco', request); }
  defaults() { return this.call('defaults'); }
  presets() { return this.call('presets').presets; }
  gpus() { return this.call('gpus').gpus; }
  catalogSummary() { return this.call('catalogSummary').offers; }
  validate(text) { return this.tryCall('validate', text); }
  loadCatalog(text) { return this.tryCall('loadCatalog', text); }
  addCatalog(text) { return this.tryCall('addCatalog', text); }
  importSkypilot(csv, options = {}) {
    return JSON.parse(this.engine.importSkypilot(csv, JSON.stringify(options)));
  }
  heapBytes() { return this.module.heapBytes(); }
}

export function todayIso(date = new Date()) {
  return date.toISOString().slice(0, 10);
}

// Creates an engine loaded with the bundled data ({gpus, presets, catalogs: [{file, doc}]}).
export async function createEngine(factory, data, { today = todayIso() } = {}) {
  const module = await factory();
  const engine = new module.Engine();
  engine.setToday(today);
  const client = new EngineClient(module, engine);
  client.call('loadGpus', JSON.stringify(data.gpus));
  client.call('loadCatalog', JSON.stringify(data.catalogs.map((c) => c.doc)));
  client.call('loadPresets', JSON.stringify(data.presets));
  return client;
}
