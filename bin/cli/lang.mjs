// The language of the CLI's answers: engine messages ({code, params}) rendered from the same catalogs as the page
// (web/src/i18n/messages.*.json). With --json each message keeps its code and params and gains an English "text".
import { UsageError } from './options.mjs';
import { s } from './strings.mjs';
import { messageRenderer, MESSAGE_CATALOGS } from '../../web/src/i18n/messages.js';
import { cliLanguage, environmentLanguage } from './strings.mjs';
import { setErrorRenderer, isMessage } from '../../web/src/engine/client.js';
import { translator } from '../../web/src/i18n/index.js';
import { providerName } from '../../web/src/format/providers.js';

// The renderer in the reader's language (--lang, LC_ALL, LANG): engine errors and issues on stderr.
let readerRender = messageRenderer({ lang: 'en' });
// An issue's explanation as text in the reader's language (a message, or a text already rendered).
export const explain = (m) => (isMessage(m) ? readerRender(m) : String(m ?? ''));

// --lang, else LC_ALL, LC_MESSAGES or LANG (zh_CN.UTF-8 -> zh; empty ones skipped), else English.
export function language(opts) {
  const given = opts.lang ?? environmentLanguage();
  if (/^zh\b|^zh[-_]/i.test(given)) return 'zh';
  if (opts.lang !== undefined && !/^en\b|^en[-_]/i.test(given)) throw new UsageError(s('error.lang', { value: given }));
  return 'en';
}

// A message of an answer: a code with a params object (anything else is data, walked through).
const isAnswerMessage = (x) => x !== null && typeof x === 'object' && typeof x.code === 'string' &&
  x.params !== null && typeof x.params === 'object' && !Array.isArray(x.params);

// In place: an answer is a fresh object of the engine client's JSON.parse, owned by the caller.
function localise(value, render, keep) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = localise(value[i], render, keep);
    return value;
  }
  if (isAnswerMessage(value)) {
    if (!keep) return render(value);
    value.text = render(value);
    return value;
  }
  for (const k of Object.keys(value)) value[k] = localise(value[k], render, keep);
  return value;
}

// A catalog value (pricing on_demand …) for Chinese readers as the catalogs' term (按需); English output keeps the
// value as scripts and the catalogs write it.
export const termText = (kind, value) => (cliLanguage() === 'zh' ? MESSAGE_CATALOGS.zh[`term.${kind}.${value}`] ?? value : value);

// A provider's name in the text output's language, as the page writes it (阿里云 for "Alibaba Cloud" in Chinese);
// --json keeps the catalog's name.
const translators = {};
export function providerText(name) {
  const lang = cliLanguage();
  translators[lang] ??= translator(lang);
  return providerName(translators[lang], name);
}

// The engine client with every request method's answer localised.
export function localisedEngine(e, opts) {
  const names = Object.fromEntries(e.gpus().map((g) => [g.id, g.name]));
  const gpuName = (id) => names[id] ?? id;
  const render = messageRenderer({ lang: opts.json ? 'en' : language(opts), gpuName });
  readerRender = messageRenderer({ lang: language(opts), gpuName });
  setErrorRenderer(readerRender);
  const methods = new Set(e.methodList.map((m) => m.name));
  return new Proxy(e, {
    get(target, key) {
      const v = target[key];
      if (typeof v !== 'function' || !methods.has(key)) return v;
      return (...args) => localise(v.apply(target, args), render, Boolean(opts.json));
    },
  });
}

// Several rendered messages as one text: sentences follow each other (Chinese ones need no space).
export const sentences = (list) => (Array.isArray(list) ? list.map((s, i) => (i && !/[。）]$/.test(list[i - 1]) ? ` ${s}` : s)).join('') : list);
