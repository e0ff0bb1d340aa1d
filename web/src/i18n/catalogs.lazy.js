// The page's catalogs, one language at a time (the site's and the offline file's build put this module in place of
// catalogs.js): a language's UI strings and engine messages come in one chunk (strings.en.js, strings.zh.js),
// loaded by loadLanguage before the page draws in it. The reader's language is loaded at start, the other one when
// the reader switches (docs/performance.md, "The site's first visit").
export const DICTS = {};
export const MESSAGE_CATALOGS = {};

const CHUNKS = { en: () => import('./strings.en.js'), zh: () => import('./strings.zh.js') };
const loading = {};

// Resolves once DICTS[lang] and MESSAGE_CATALOGS[lang] are there (true), false for a language the page does not
// have; rejects when its chunk cannot be loaded (and a later call tries again).
export function loadLanguage(lang) {
  if (!CHUNKS[lang]) return Promise.resolve(false);
  if (DICTS[lang]) return Promise.resolve(true);
  loading[lang] ||= CHUNKS[lang]().then(({ ui, messages }) => {
    DICTS[lang] = ui;
    MESSAGE_CATALOGS[lang] = messages;
    return true;
  }, (e) => { delete loading[lang]; throw e; });
  return loading[lang];
}
