// The Chinese catalogs as one chunk of the page (catalogs.lazy.js).
export { default as ui } from './zh-CN.json' with { type: 'json' };
export { default as messages } from './messages.zh-CN.json' with { type: 'json' };
