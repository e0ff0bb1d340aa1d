// Entry of the engine worker's own script (dist/site/worker.js, and the offline file's gv-worker element): the
// engine-side modules only, without the page's UI and charts, so the worker starts sooner than with app.js.
import { runWorker } from './engine-worker.js';

runWorker();
