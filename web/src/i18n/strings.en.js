// The English catalogs as one chunk of the page (catalogs.lazy.js).
export { default as ui } from './en.json' with { type: 'json' };
export { default as messages } from './messages.en.json' with { type: 'json' };
