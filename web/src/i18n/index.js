// The UI strings, one JSON file per language with the same keys (tests/js/i18n.test.mjs checks): en.json and
// zh-CN.json. They are imported, so esbuild bundles them into the page, the widget and the offline file.
// Engine reasons and warnings are English sentences from the engine and are shown as they are.
// {name} placeholders are filled by translator().
import en from './en.json' with { type: 'json' };
import zh from './zh-CN.json' with { type: 'json' };

export const DICTS = { en, zh };

export function pickLanguage(stored, navigatorLanguages) {
  if (stored === 'en' || stored === 'zh') return stored;
  for (const l of navigatorLanguages || []) {
    if (String(l).toLowerCase().startsWith('zh')) return 'zh';
    if (String(l).toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}

export function translator(lang) {
  const dict = DICTS[lang] || DICTS.en;
  return (key, vars) => {
    let s = dict[key] ?? DICTS.en[key] ?? key;
    if (vars) for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
    return s;
  };
}
