// Every language's catalogs, UI strings (en.json, zh-CN.json) and engine messages (messages.*.json), present from
// the start: what the CLI, node, the widget and the tests read. The site and the offline file are built with
// catalogs.lazy.js in this module's place (scripts/build-web.mjs), which holds a language once loadLanguage has
// brought it.
import en from './en.json' with { type: 'json' };
import zh from './zh-CN.json' with { type: 'json' };
import messagesEn from './messages.en.json' with { type: 'json' };
import messagesZh from './messages.zh-CN.json' with { type: 'json' };

export const DICTS = { en, zh };
export const MESSAGE_CATALOGS = { en: messagesEn, zh: messagesZh };

// Every language is here already.
export async function loadLanguage(lang) {
  return lang in DICTS;
}
