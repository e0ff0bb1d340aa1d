// The UI strings, one JSON file per language with the same keys (tests/js/i18n.test.mjs checks): en.json and
// zh-CN.json, held by catalogs.js (every language; the page's build: the languages loaded so far, loadLanguage).
// {name} placeholders and {n, plural, one {…} other {…}} are filled by translator(); engine messages have their
// own catalogs (messages.js).
import { DICTS, loadLanguage } from './catalogs.js';
import { interpolate } from './render.js';
import { LOCALES } from '../format/format.js';

export { DICTS, loadLanguage };

export function pickLanguage(stored, navigatorLanguages) {
  if (stored === 'en' || stored === 'zh') return stored;
  for (const l of navigatorLanguages || []) {
    if (String(l).toLowerCase().startsWith('zh')) return 'zh';
    if (String(l).toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}

export function translator(lang) {
  const dict = DICTS[lang] || DICTS.en || {};
  const plural = new Intl.PluralRules(LOCALES[lang] || LOCALES.en);
  return (key, vars) => {
    const s = dict[key] ?? DICTS.en?.[key] ?? key;
    if (!vars) return s;
    return interpolate(s, vars, { plural, value: (name, v) => (v === undefined ? `{${name}}` : String(v)) });
  };
}
