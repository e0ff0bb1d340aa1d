// The command line's own text (usage, help, option and command descriptions, table headers, sentences, usage
// errors) in the reader's language, from bin/cli/strings.en.json and bin/cli/strings.zh-CN.json. Patterns use the
// engine messages' placeholders ({name}, {n, plural, one {...} other {...}}, {x, select, ...}) and are filled by
// the same code (web/src/i18n/messages.js). The language is chosen once, from --lang or LC_ALL/LANG, before the
// command line is parsed, so that usage errors are in it too.
import en from './strings.en.json' with { type: 'json' };
import zh from './strings.zh-CN.json' with { type: 'json' };
import { interpolate } from '../../web/src/i18n/messages.js';

export const CLI_STRINGS = { en, zh };
const LOCALE = { en: 'en-US', zh: 'zh-CN' };
let current = 'en';
let plural = new Intl.PluralRules(LOCALE.en);

// 'zh' for zh, zh-CN, zh_CN.UTF-8 …; 'en' otherwise.
export const languageCode = (text) => (/^zh\b|^zh[-_]/i.test(String(text ?? '')) ? 'zh' : 'en');

export function setCliLanguage(lang) {
  current = lang === 'zh' ? 'zh' : 'en';
  plural = new Intl.PluralRules(LOCALE[current]);
}
export const cliLanguage = () => current;

// The language of the environment as POSIX orders it: LC_ALL, else LC_MESSAGES, else LANG, an empty one counting as
// unset (LC_ALL= with LANG=zh_CN.UTF-8 is Chinese).
export const environmentLanguage = (env = process.env) => env.LC_ALL || env.LC_MESSAGES || env.LANG || '';

// The language asked for on the command line (--lang X or --lang=X), else the environment's.
export function requestedLanguage(argv, env = process.env) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--lang' && i + 1 < argv.length) return languageCode(argv[i + 1]);
    if (argv[i].startsWith('--lang=')) return languageCode(argv[i].slice(7));
  }
  return languageCode(environmentLanguage(env));
}

// The text of a key in the current language (English when the key is missing there).
export function s(key, params = {}) {
  const pattern = CLI_STRINGS[current][key] ?? CLI_STRINGS.en[key];
  if (pattern === undefined) throw new Error(`gpuvalue: no text for "${key}"`);
  return interpolate(pattern, params, { plural, value: (name, v) => String(v ?? '') });
}
