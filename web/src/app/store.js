// The page's one store. `state` is what a URL hash can say (workload, filters, weights, sort, selection,
// comparison, tool inputs, language, currency: state/state.js); `session` is what no URL holds (the catalog's
// summary, the user's catalogs, notices, the theme). The URL hash and the engine's rank request are derived from
// the state (fromHash, toHash, request), never kept beside it.
import { parseHash, serializeHash } from '../state/hash.js';
import { rankRequest, servingRequest, LANG_KEY } from '../state/state.js';
import { pickLanguage } from '../i18n/index.js';
import { workloadKey } from '../state/measurements.js';
import { savedMeasurements } from './saved.js';
import { readSetting, writeSetting } from '../state/settings.js';

// A notice in the session's list, in place of one with the same id.
function notify(session, notice) {
  session.notices = [...session.notices.filter((n) => n.id !== notice.id), notice];
}

// base: the default state (state/state.js defaultState); presetIds: the engine's presets; gpuIds: the engine's GPUs
// (a measurement names one); session: its first values.
export function createStore({ base, presetIds, servingIds = [], gpuIds = null, session }) {
  let request = null;
  let requestOf = null;
  const store = {
    base,
    state: base,
    session,

    // The state a hash says, over the defaults and the reader's stored language. Filter values must name a
    // provider, region or GPU of the current catalog. Measurements the hash carries but cannot be read are dropped
    // with a notice; a hash without any gets the ones saved in this browser for its workload (with a notice).
    fromHash(hash) {
      const b = { ...structuredClone(base), lang: pickLanguage(readSetting(LANG_KEY), navigator.languages) };
      const c = store.session.catalog;
      const report = {};
      const s = parseHash(hash, b, { presetIds, servingIds, gpuIds, report, known: c && { providers: c.providers, regions: c.regions, gpus: c.gpus } });
      if (report.measurements && report.measurements.length) {
        notify(store.session, { kind: 'warn', key: 'calibUrlDropped', id: 'calib-url-dropped', vars: { values: report.measurements.map((v) => v.slice(0, 80)).join(', ') } });
      }
      if (report.servingModel && report.servingModel.length) {
        notify(store.session, { kind: 'warn', key: 'serveUrlDropped', id: 'serve-url-dropped', vars: { values: report.servingModel.join(', ') } });
      }
      if (!report.measurementsGiven) {
        const saved = savedMeasurements(workloadKey(s));
        if (saved.length) {
          s.measurements = saved;
          notify(store.session, { kind: 'ok', key: 'calibSavedApplied', id: 'calib-saved', vars: { n: String(saved.length) } });
        }
      }
      return s;
    },

    // The hash of the current state: only what differs from the defaults.
    toHash() { return serializeHash(store.state, base); },

    // The engine's rank request for the current state (the same object until the state changes).
    request() {
      if (requestOf !== store.state) { request = rankRequest(store.state); requestOf = store.state; }
      return request;
    },

    // The worker's serveRank arguments for the current state (the serving mode's question).
    servingRequest() { return servingRequest(store.state); },

    // A new state: the old one with `patch` applied. Returns the old one.
    set(patch) {
      const prev = store.state;
      store.state = { ...prev, ...patch };
      return prev;
    },

    rememberLanguage(lang) { writeSetting(LANG_KEY, lang); },
  };
  return store;
}
