// The one cache of the engine host's answers on the page. An answer is keyed by its request: the operation and
// its arguments in a canonical form (object members in sorted order), so that no caller writes a key by hand and
// two equal requests always meet. Every answer depends on the catalog, so a new catalog empties the whole cache
// (clear); an answer to a request made before that is handed to its caller but not kept.

// Answers kept per operation (most recently used last): views carry hundreds of rows, details and tool answers
// are small.
const LIMITS = { view: 12, rows: 16, details: 64, call: 48, sweep: 8 };
const DEFAULT_LIMIT = 16;

// JSON with object members in sorted order: the same value always gives the same text.
export function canonical(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
}

// host: the engine host (request(op, args) -> Promise).
export function createAnswers(host) {
  const tables = new Map();    // op -> Map(key -> answer)
  const inflight = new Map();  // op + key -> Promise
  let epoch = 0;

  const table = (op) => {
    if (!tables.has(op)) tables.set(op, new Map());
    return tables.get(op);
  };
  // The key of a request: its arguments, or only the members named by `by` (those the answer depends on; the others
  // only add to it, as the keys of extra rows a view carries).
  const keyOf = (args, by) => canonical(by ? Object.fromEntries(by.map((k) => [k, args[k]])) : args);

  function keep(op, key, answer) {
    const t = table(op);
    t.delete(key);
    t.set(key, answer);
    while (t.size > (LIMITS[op] ?? DEFAULT_LIMIT)) t.delete(t.keys().next().value);
  }

  return {
    // The cached answer to a request (marked most recently used), or undefined.
    peek(op, args, { by } = {}) {
      const t = table(op);
      const key = keyOf(args, by);
      if (!t.has(key)) return undefined;
      const answer = t.get(key);
      keep(op, key, answer);
      return answer;
    },

    // The answer to a request: cached, or asked of the host once however many callers wait for it. prepare turns
    // the host's answer into what is kept (parsing, indexing); orError, when given, turns a failure into an answer
    // that is kept like any other (an engine error is the answer to that request).
    ask(op, args, { by, prepare = (x) => x, orError } = {}) {
      const key = keyOf(args, by);
      const hit = this.peek(op, args, { by });
      if (hit !== undefined) return Promise.resolve(hit);
      const id = `${op}\u0000${key}`;
      if (inflight.has(id)) return inflight.get(id);
      const at = epoch;
      const asked = host.request(op, args);
      const p = (orError ? asked.catch(orError) : asked).then(prepare).then((answer) => {
        if (at === epoch) { inflight.delete(id); keep(op, key, answer); }
        return answer;
      }, (e) => {
        if (at === epoch) inflight.delete(id);
        throw e;
      });
      inflight.set(id, p);
      return p;
    },

    // True while a request of this operation is on its way.
    pending(op) {
      for (const id of inflight.keys()) if (id.startsWith(`${op}\u0000`)) return true;
      return false;
    },

    clear() {
      epoch += 1;
      tables.clear();
      inflight.clear();
    },
  };
}
