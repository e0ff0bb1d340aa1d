// The page's one store. `state` is what a URL hash can say (workload, filters, weights, sort, selection,
// comparison, tool inputs, language, currency: state/state.js); `session` is what no URL holds (the catalog's
// summary, the user's catalogs, notices, the theme). The URL hash and the engine's rank request are derived from
// the state (fromHash, toHash, request), never kept beside it.
import { parseHash, serializeHash } from '../state/hash.js';
import { rankRequest, servingRequest, LANG_KEY } from '../state/state.js';
import { pickLanguage } from '../i18n/index.js';

const safeStorage = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch { /* blocked */ } },
};

// base: the default state (state/state.js defaultState); presetIds: the engine's presets; session: its first values.
export function createStore({ base, presetIds, servingIds = [], session }) {
  let request = null;
  let requestOf = null;
  const store = {
    base,
    state: base,
    session,

    // The state a hash says, over the defaults and the reader's stored language. Filter values must name a
    // provider, region or GPU of the current catalog.
    fromHash(hash) {
      const b = { ...structuredClone(base), lang: pickLanguage(safeStorage.get(LANG_KEY), navigator.languages) };
      const c = store.session.catalog;
      return parseHash(hash, b, { presetIds, servingIds, known: c && { providers: c.providers, regions: c.regions, gpus: c.gpus } });
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

    rememberLanguage(lang) { safeStorage.set(LANG_KEY, lang); },
  };
  return store;
}
