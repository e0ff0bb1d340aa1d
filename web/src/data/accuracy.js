// The Accuracy view's data (scripts/accuracy.mjs writes accuracy.json) as a module of its own: the site loads it when
// the view opens (views/accuracy.js), not with the first visit.
export { default } from './accuracy.json' with { type: 'json' };
