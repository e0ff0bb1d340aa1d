// Everything the page asks of the engine, as named operations on plain data. It runs inside the engine
// worker (engine/worker.js), so that ranking a large catalog, importing thousands of SkyPilot rows, the
// portfolio planner and the sensitivity sweeps never block the page; when no worker can start the page runs
// the very same code on its main thread (engine/host.js). Operations return plain objects (structured-clone
// safe), or a promise of one for those that read files or IndexedDB (engine/usercatalogs.js); engine errors come
// back as {ok: false, error: {code, path, message}, issues} values, never as throws.
import { createEngine, GpuvalueError } from './client.js';
import { errorData } from './errors.js';
import { catalogOps } from './usercatalogs.js';
import { servingOps } from './serving.js';
import { toCsv, toJson } from './export.js';
import { unpackBundle } from './bundle.js';
import { bundledIdsOf, isOkText, viewOfText } from './viewrows.js';
import { buildRenderer } from '../i18n/render.js';
import { makeFormatter } from '../format/format.js';

const POINT_LIMIT = 600;        // scatter points sent to the page before the cloud is thinned

export { rowKey } from './viewrows.js';

// timings (optional) receives where the start went: readMs (the data read and unpacked), engineMs (the module
// instantiated and the data loaded into it), coreMs (the engine's defaults, presets and GPUs read back).
export async function initCore(factory, dataText, { today, timings = {} } = {}) {
  const t0 = performance.now();
  const data = unpackBundle(JSON.parse(dataText));
  const catalogTexts = data.catalogs.map((c) => JSON.stringify(c.doc));
  const t1 = performance.now();
  const client = await createEngine(factory, data, { today, catalogTexts });
  const t2 = performance.now();
  const core = createCore(client, data, catalogTexts);
  Object.assign(timings, { readMs: t1 - t0, engineMs: t2 - t1, coreMs: performance.now() - t2 });
  return core;
}

// The page's facts about the loaded catalog from the engine's catalogFacts (api/catalog_facts.cpp lists them in
// catalog order): the names in the reader's collation (String.localeCompare, which the engine cannot know), each
// provider's oldest price date by date, and the offers the planner can price ordered by GPU, provider and instance
// and cut to the first 400.
export function catalogOf(facts) {
  const byName = (a, b) => a.localeCompare(b);
  return {
    count: facts.count, providers: facts.providers.sort(byName), regions: facts.regions.sort(byName), gpus: facts.gpus.sort(byName),
    // The catalog's date (its newest price of a real offer) and, per provider, the date of its oldest price; and per
    // provider its offer count with the range of its price dates (as_of) and, for prices with no date, the newest read_on.
    date: facts.date,
    oldest: facts.oldest.sort((a, b) => a.as_of.localeCompare(b.as_of) || a.provider.localeCompare(b.provider)),
    providerStats: facts.provider_stats,
    // Offers with a serverless price, for the serverless planner.
    serverless: facts.serverless,
    // Offers the planner can price: on-demand and reserved (per-GPU rates), real offers only; `stale` when either
    // price is older than the engine's stale_after_days on the engine's today (the planner lists those only when
    // stale prices are shown).
    reservable: facts.reservable.sort((a, b) => a.gpu.localeCompare(b.gpu) || a.provider.localeCompare(b.provider) || a.instance.localeCompare(b.instance))
      .slice(0, 400),
  };
}

export function createCore(client, data, bundledTexts = data.catalogs.map((c) => JSON.stringify(c.doc))) {
  const bundledIds = bundledIdsOf(data);
  const defaults = client.defaults();
  const presets = client.presets();
  const gpus = client.gpus();

  // The offers with their prices (catalogSummary: a megabyte and more of JSON for the bundled catalog), read when an
  // operation first needs every offer (the serving ranking, a typed offer's new id), never at start; a change of
  // catalog (refresh) drops them.
  let offers = null;

  function refresh() {
    s.version += 1;
    offers = null;
    s.catalog = { version: s.version, ...catalogOf(client.catalogFacts()) };
    return s.catalog;
  }

  // A refused request as the page's one error shape (errors.js): code, path, explanation and the errors among the issues.
  const errorOf = (r) => ({ ...errorData(new GpuvalueError(r)), issues: (r.issues || []).filter((i) => !i.warning) });

  // The engine's view of a ranking (rankView): `rows` rows of the table order (0 = all), the results asked for by
  // key, the picks and the scatter's points. rankViewText: the answer's text as the engine wrote it (the page parses
  // it: viewrows.js), a refusal parsed into its error; rankView: parsed, with page rows.
  function rankViewText(request, sort, rows, keys = [], points = POINT_LIMIT) {
    const t0 = Date.now();
    const text = client.text('rankView', { ...request, view: { sort: { key: sort.key, dir: sort.dir }, rows, points, keys } });
    const ms = Date.now() - t0;
    if (isOkText(text)) return { text, ms, error: null };
    const r = JSON.parse(text);
    return { error: errorOf(r), answer: r, ms };
  }

  function rankView(...args) {
    const v = rankViewText(...args);
    return v.error ? v : { ...viewOfText(v.text, bundledIds), ms: v.ms, error: null };
  }

  // The shared state the operation groups read and write.
  const s = {
    client, data, bundledTexts, defaults, presets, gpus, catalog: null, version: 0,
    get offers() { return (offers ||= new Map(client.catalogSummary().map((o) => [o.id, o]))); },
    refresh, rankView, rankViewText,
  };

  const ops = {
    meta: () => ({ defaults, presets, gpus, catalog: s.catalog || refresh() }),

    // An engine method that takes a JSON request (a row of the engine's dispatch table): its answer, ok or not.
    call({ method, request }) {
      if (!client.requestMethods().includes(method)) throw new Error(`unknown method ${method}`);
      const t0 = Date.now();
      const r = client.tryCall(method, request);
      return { ...r, ms: Date.now() - t0 };
    },

    ...catalogOps(s),
    ...rankingOps(s),
    ...servingOps(s),
  };

  return {
    handle(op, args = {}) {
      if (!Object.prototype.hasOwnProperty.call(ops, op)) throw new Error(`unknown operation ${op}`);
      return ops[op](args);
    },
  };
}

// Views of the ranking and the engine work behind the page's panels (details, sensitivity, exports).
function rankingOps(s) {
  return {
    // One view of the ranking: the rows in table order (at most `limit`), the rows asked for by key
    // (selection, comparison) when they are further down, the overview's picks, and for long results
    // the thinned scatter points.
    view({ request, sort, limit = Infinity, keys = [] }) {
      const v = s.rankViewText(request, sort, Number.isFinite(limit) ? limit : 0, keys.filter(Boolean));
      if (v.error) return { error: v.error, ms: v.ms, cached: false, version: s.version };
      return { text: v.text, ms: v.ms, cached: false, version: s.version };
    },

    // Rows of the current ranking by key (for a selection or comparison beyond the rows shown).
    rows({ request, keys }) {
      const want = new Set(keys);
      const v = s.rankView(request, { key: 'rank', dir: 'asc' }, 1, keys, 1);
      return v.error ? [] : [...v.rows, ...v.extra].filter((r) => want.has(r._key));
    },

    // The details panel's extra data: the offer's catalog record and this job under each of its billing models.
    details({ id, hours, nodes, pricing, deadline }) {
      const found = s.client.tryCall('offers', { ids: [id] });
      const offer = found.ok ? found.offers[0] : null;
      const models = offer ? s.defaults.names.pricing_models.filter((m) => offer.prices.some((p) => p.model === m)) : [pricing];
      const breakdown = models.map((model) => {
        const req = { instance: id, hours, pricing: model, nodes };
        if (deadline > 0) req.spot = { deadline_hours: deadline };
        const r = s.client.tryCall('cost', req);
        if (!r.ok) return { model, error: (r.error && r.error.message) || 'engine error' };
        const { ok, ...rest } = r;
        return { model, ...rest };
      });
      return { offer, breakdown };
    },

    // Sensitivity: time and cost of one offer (one billing model) as one parameter moves over `values`,
    // each point a full engine ranking restricted to that offer. For 'size', `field` names the workload member
    // that sets the job's size (tokens, epochs or total_flops: the page's sizeField).
    sweep({ request, row, param, field, values }) {
      const t0 = Date.now();
      const points = values.map((x) => {
        const req = structuredClone(request);
        req.filters = { ...req.filters, providers: [row.provider], regions: [row.region], gpus: [row.gpu], pricing: [row.pricing], fits_only: false };
        delete req.filters.budget_usd;
        if (param === 'size') {
          req.workload = { ...(req.workload || {}), [field]: x };
        } else if (param === 'interruptions') {
          req.spot = { ...(req.spot || {}), interruptions_per_node_hour: x };
        } else if (param === 'deadline') {
          req.filters.deadline_hours = x;
        }
        const r = s.client.tryCall('rank', req);
        if (!r.ok) return { x, error: r.error ? r.error.message : 'engine error' };
        const hit = r.results.find((y) => y.id === row.id && y.pricing === row.pricing);
        return hit ? { x, time_hours: hit.time_hours, cost_usd: hit.cost_usd, fits: hit.fits, nodes: hit.nodes } : { x, missing: true };
      });
      return { param, points, ms: Date.now() - t0 };
    },

    // The whole table for a download when the page shows only its first rows.
    // The reasons and warnings columns of the CSV are the engine's messages said in the reader's language `lang`,
    // from that language's message catalog `messages` (the page's MESSAGE_CATALOGS[lang]: the worker has none).
    exportRows({ request, sort, kind, lang, messages, currency, rate, hash }) {
      const v = s.rankView(request, sort, 0, [], 1);
      if (v.error) throw new GpuvalueError(v.answer);
      if (kind !== 'csv') return toJson(v.rows, { request, result: v.meta, currency, rate, hash });
      if (!messages || typeof messages !== 'object') throw new Error('exportRows: a CSV needs the message catalog of its language');
      const names = new Map(s.gpus.map((g) => [g.id, g.name]));
      const say = buildRenderer({ [lang]: messages, en: messages }, lang, makeFormatter({ lang, currency, rate }), (id) => names.get(id) ?? id);
      return toCsv(v.rows, { currency, rate, say });
    },
  };
}
