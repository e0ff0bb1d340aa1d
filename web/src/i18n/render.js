// The rendering of the engine's messages ({code, params}) from message catalogs given to it: the patterns, their
// placeholders and the formatting of each parameter by its name (messages.js says which). The page, the widget
// and the CLI render through messages.js, which holds the catalogs; the engine worker renders its CSV exports with
// this module and the one catalog the page sends it (the worker's script carries no catalog).
import { LOCALES } from '../format/format.js';

// A one-argument function memoised (the table renders the same few patterns for thousands of rows); the cache
// starts afresh past 2,000 entries.
function memo(fn) {
  const cache = new Map();
  return (arg) => {
    let out = cache.get(arg);
    if (!out) {
      out = fn(arg);
      if (cache.size > 2000) cache.clear();
      cache.set(arg, out);
    }
    return out;
  };
}

// Splits a pattern into literal text and {…} groups, honouring nested braces.
const parts = memo(splitPattern);

function splitPattern(pattern) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '{') {
      if (depth === 0) {
        if (i > start) out.push({ text: pattern.slice(start, i) });
        start = i + 1;
      }
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        out.push({ group: pattern.slice(start, i) });
        start = i + 1;
      }
    }
  }
  if (start < pattern.length) out.push({ text: pattern.slice(start) });
  return out;
}

// The branches of "one {…} other {…}" as a map.
const branches = memo(splitBranches);

function splitBranches(text) {
  const out = {};
  const re = /\s*(=?[\w-]+)\s*\{/g;
  let m;
  while ((m = re.exec(text))) {
    let depth = 1;
    let i = re.lastIndex;
    for (; i < text.length && depth; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
    }
    out[m[1]] = text.slice(re.lastIndex, i - 1);
    re.lastIndex = i;
  }
  return out;
}

// Every placeholder name a pattern uses, in plural and select branches too (for the catalog tests).
export function placeholders(pattern, names = new Set()) {
  for (const p of parts(String(pattern))) {
    if (p.text !== undefined) continue;
    const first = p.group.indexOf(',');
    names.add((first < 0 ? p.group : p.group.slice(0, first)).trim());
    if (first < 0) continue;
    const second = p.group.indexOf(',', first + 1);
    for (const b of Object.values(branches(p.group.slice(second + 1)))) placeholders(b.split('#').join(''), names);
  }
  return names;
}

// Fills a pattern's placeholders: value(name, v) formats a plain {name}; plural branches are chosen with
// plural (an Intl.PluralRules) on the number, and # inside them stands for the formatted value.
export function interpolate(pattern, params, { plural, value = (name, v) => String(v ?? '') }) {
  let out = '';
  for (const p of parts(String(pattern))) {
    if (p.text !== undefined) { out += p.text; continue; }
    const g = p.parsed ||= parseGroup(p.group);
    const v = params[g.name];
    if (!g.kind) { out += value(g.name, v); continue; }
    const b = g.branches;
    const chosen = g.kind === 'plural'
      ? b[`=${Number(v)}`] ?? b[plural.select(Number(v))] ?? b.other ?? ''
      : b[String(v)] ?? b.other ?? '';
    out += interpolate(chosen.split('#').join(`{${g.name}}`), params, { plural, value });
  }
  return out;
}

// "{name}", "{name, plural, …}" or "{name, select, …}" as {name, kind, branches}.
function parseGroup(group) {
  const first = group.indexOf(',');
  if (first < 0) return { name: group.trim(), kind: '', branches: null };
  const second = group.indexOf(',', first + 1);
  return { name: group.slice(0, first).trim(), kind: group.slice(first + 1, second).trim(), branches: branches(group.slice(second + 1)) };
}

// A renderer for one language from catalogs {en, <lang>?} (a missing pattern falls back to English): (message) =>
// text. fmt: a formatter of format/format.js (which also fixes the currency); gpuName(id) → display name.
export function buildRenderer(catalogs, lang, fmt, gpuName) {
  const catalog = catalogs[lang] || catalogs.en || {};
  const locale = LOCALES[lang] || LOCALES.en;
  const rules = new Intl.PluralRules(locale);
  const categories = new Map();
  const plural = { select: (n) => { let c = categories.get(n); if (c === undefined) { c = rules.select(n); if (categories.size < 1000) categories.set(n, c); } return c; } };
  const term = (key, fallback) => catalog[key] ?? catalogs.en?.[key] ?? fallback;
  const count = (v) => {
    if (Math.abs(v) >= 1e15) return fmt.sci(v);
    if (Math.abs(v) >= 1e5) return lang === 'zh' ? fmt.int(v) : fmt.compact(v);
    return fmt.num(v, Number.isInteger(v) ? 0 : 1);
  };

  const value = (name, v) => {
    if (typeof v === 'string') {
      if (name === 'gpu' || name === 'base_gpu') return gpuName(v);
      if (name === 'date') return fmt.date(v);
      if (name === 'pricing' || name === 'used_pricing') return term(`term.pricing.${v}`, v);
      if (name === 'bound') return term(`term.bound.${v}`, v);
      if (name === 'stage') return term(`term.stage.${v}`, v);
      if (name === 'upfront') return term(`term.upfront.${v}`, v);
      if (name === 'sharding') return v ? v : term('term.no_sharding', '');
      if (name === 'precision' || name === 'used') return v.toUpperCase();
      return v;
    }
    if (typeof v !== 'number') return String(v ?? '');
    if (name === 'value' || name === 'min' || name === 'max' || name.endsWith('_value')) return String(v);
    if (name.endsWith('_usd') || name === 'usd_per_hour' || name.endsWith('_usd_per_hour')) return fmt.money(v);
    if (name === 'usd_per_gpu_hour' || name.endsWith('_usd_per_gpu_hour')) return fmt.money(v, { digits: 2 });
    if (name.endsWith('_hours')) return fmt.duration(v);
    if (name.endsWith('_gbs')) return `${fmt.num(v, 0)} GB/s`;
    if (name.endsWith('_w')) return `${fmt.num(v, 0)} W`;
    if (name.endsWith('_gb')) return fmt.gb(v);
    if (name.endsWith('_fraction')) return fmt.pct(v, Math.abs(v) < 0.1 || (v > 0.95 && v < 1) ? 1 : 0);
    if (name.endsWith('_ratio')) return `${fmt.num(v, 2)}×`;
    if (name.endsWith('tflops')) return fmt.num(v, v < 100 ? 1 : 0);
    if (name.endsWith('_count')) return count(v);
    return fmt.sig(v, 3);
  };

  // A list of messages joined by the language's separator, except after one that already ends a sentence
  // ("。", ".", "！", "？", "）。"): no "。；" and no ".;".
  const joinSentences = (texts, sep) => texts.reduce((out, t, i) => {
    if (i === 0) return t;
    const ended = /[。！？.!?]$/.test(out);
    return ended ? `${out}${/[。！？]$/.test(out) ? '' : ' '}${t}` : `${out}${sep}${t}`;
  }, '');
  const fill = (pattern, params) => interpolate(pattern, params, { plural, value });

  // The text of each message object is kept: the table shows the same answers' messages on every redraw.
  const done = new WeakMap();
  const render = (m) => {
    if (m === null || m === undefined) return '';
    if (typeof m === 'string') return m;
    if (Array.isArray(m)) return joinSentences(m.map(render), term('term.list_separator', '; '));
    let text = done.get(m);
    if (text === undefined) {
      const pattern = catalog[m.code] ?? catalogs.en?.[m.code];
      text = pattern === undefined ? String(m.code) : fill(pattern, m.params || {});
      done.set(m, text);
    }
    return text;
  };
  return render;
}
