// Tiny DOM helpers: every string is inserted as text, never parsed as HTML.
import { priceDateText } from '../format/format.js';

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value' && (tag === 'input' || tag === 'select' || tag === 'textarea')) el.value = String(v);
    else if (k === 'checked' && tag === 'input') el.checked = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// An element whose whole text is one UI string; data-i18n names the dictionary key (tests compare languages).
export function tx(tag, t, key, attrs = {}, vars) {
  return h(tag, { ...attrs, 'data-i18n': key }, t(key, vars));
}

// How engine messages ({code, params}, or a list of them) become text: set by the page and the widget for the
// reader's language (i18n/messages.js); until then a message shows its code.
let renderMessage = (m) => (m && typeof m === 'object' && !Array.isArray(m) ? m.code : String(m ?? ''));
export function setMessageRenderer(render) { renderMessage = render; }
export function messageText(m) { return renderMessage(m); }
// The engine's sharding label ("TP2 × PP4 + ZeRO-1", or "" for plain data parallel) and roofline bound
// ("compute", "memory bandwidth") as messages of the catalog's terms.
export const shardingMessage = (s) => (s ? { code: 'term.sharding', params: { sharding: s } } : { code: 'term.no_sharding', params: {} });
export const boundMessage = (b) => ({ code: `term.bound.${b}`, params: {} });

// An engine message rendered in the reader's language, marked data-engine (with its code in data-code) so that
// tests can tell it from UI strings.
export function engineText(tag, message, attrs = {}) {
  const code = message && typeof message === 'object' && !Array.isArray(message) ? message.code : undefined;
  return h(tag, { ...attrs, 'data-engine': '', 'data-code': code }, renderMessage(message));
}

// dir=auto isolates the text (as <bdi> does): a right-to-left override in a name cannot reorder what follows.
export function dataText(tag, text, attrs = {}) {
  return h(tag, { dir: 'auto', ...attrs, 'data-raw': '' }, text);
}

// A safe link: only http(s) URLs become <a>; anything else is plain text.
export function sourceLink(source) {
  const text = String(source || '');
  let url = null;
  try {
    const u = new URL(text);
    if (u.protocol === 'http:' || u.protocol === 'https:') url = u.href;
  } catch { /* not a URL */ }
  return url
    ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'source-link', 'data-raw': '' }, text)
    : dataText('span', text, { class: 'source-text' });
}

let uid = 0;
// A price's date as a reader should take it: its source's date (as_of) or, where only the day it was read is
// known, "date unknown, read on …". x: anything with as_of/read_on (a ranked row, an offer, a price).
export const priceDate = (t, fmt, x) => priceDateText(x, { date: fmt.date, readOn: (date) => t('dateUnknownReadOn', { date }), unknown: () => fmt.date('') });

export const nextId = (prefix) => `${prefix}-${++uid}`;

// A UI string whose placeholders are filled with nodes (e.g. data-raw spans for catalog names), so that
// data stays marked as data inside a translated sentence.
// Plain values (numbers, strings) are filled by t(), so plural forms work; element values stay {name} there and
// are put in place here.
export function txv(tag, t, key, vars, attrs = {}) {
  const plain = Object.fromEntries(Object.entries(vars).filter(([, v]) => v === null || typeof v !== 'object'));
  const parts = t(key, plain).split(/\{(\w+)\}/);
  return h(tag, { ...attrs, 'data-i18n-vars': key }, parts.map((p, i) => (i % 2 ? vars[p] : p)));
}

// A sidebar panel that folds: open on wide screens, folded on phones so the results come sooner.
// The open/closed state then survives re-renders (app/main.js keeps it by id).
// Screens at least this wide show the sidebar's panels open (scripts/prerender.mjs folds its first screen alike).
export const WIDE_SCREEN = '(min-width: 821px)';
export function foldPanel(id, heading, ...children) {
  const wide = typeof window === 'undefined' || window.matchMedia(WIDE_SCREEN).matches;
  return h('details', { class: 'panel fold', id, open: wide || null }, h('summary', { id: `${id}-summary` }, heading), ...children);
}
