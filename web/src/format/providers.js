// A provider's name as the reader's language writes it: the message catalogs' `provider:<name>` entry (阿里云 for
// "Alibaba Cloud" in Chinese), else the name as the catalog gives it (a provider with no Chinese name, an imported
// catalog's own name). Only the display changes: the engine, the filters, the URL and the exports keep the
// catalog's name. t: a translator of ../i18n/index.js (it answers the key itself when it has no entry).
export function providerName(t, name) {
  const key = `provider:${name}`;
  const text = t(key);
  return typeof text === 'string' && text !== key ? text : name;
}
