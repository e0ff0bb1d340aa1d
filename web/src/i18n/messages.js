// Renders the engine's messages ({code, params}) in the reader's language, from one catalog per language:
// messages.en.json and messages.zh-CN.json (held by catalogs.js). The page, the widget and the CLI all render through this module.
// Placeholders are ICU-like: {name}, {name, plural, one {...} other {...}} (# is the number, chosen with
// Intl.PluralRules) and {name, select, a {...} other {...}}. A parameter is formatted by its name's unit:
// *_usd money, usd_per_hour money, *_hours durations, *_gb sizes, *_gbs GB/s, *_fraction percentages, *_ratio
// factors (×), *tflops numbers, *_w watts, *_count counts (万/亿 in Chinese from 100 000, 7B in English, 3.1E23
// from 10^15), value/min/max/*_value numbers exactly as given (the input's own numbers in error messages),
// gpu a GPU id shown as its name,
// date an ISO date, pricing/bound/stage/sharding terms of the catalog (`term.*`, not engine codes).
import { MESSAGE_CATALOGS } from './catalogs.js';
import { makeFormatter } from '../format/format.js';
import { buildRenderer } from './render.js';

export { placeholders, interpolate } from './render.js';
export { MESSAGE_CATALOGS };

// A renderer for one language: (message) => text. Options: fmt (a formatter of format/format.js, which also
// fixes the currency), gpuName(id) → display name.
export function messageRenderer({ lang = 'en', fmt = makeFormatter({ lang }), gpuName = (id) => id } = {}) {
  let byName = RENDERERS.get(fmt);
  if (!byName) RENDERERS.set(fmt, (byName = new Map()));
  const key = `${lang}`;
  const cached = byName.get(key);
  if (cached && cached.gpuName === gpuName) return cached.render;
  const render = buildRenderer(MESSAGE_CATALOGS, lang, fmt, gpuName);
  byName.set(key, { gpuName, render });
  return render;
}

// Renderers are kept per formatter (formatters are memoised per language, currency and rate) and language.
const RENDERERS = new WeakMap();

// English text of a message for scripts (the CLI's --json "text"), dollars, GPU ids as they are.
export function englishText(m, gpuName) {
  return messageRenderer({ lang: 'en', gpuName })(m);
}
