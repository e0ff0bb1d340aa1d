// The page's main-thread tasks during interactions, for `npm run bench` (the tests assert the design that keeps
// them short; how short they are on a given machine is measured here, with a budget):
//   longTasks  opens the page with a 'longtask' PerformanceObserver installed before its scripts, optionally imports
//              a catalog, then runs each interaction `runs` times; for each interaction and run, the longest
//              main-thread task (ms; 0 when none was over 50 ms) between the input and the page having settled.
import { pathToFileURL } from 'node:url';

function observeLongTasks() {
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const settled = (page) => page.waitForFunction(() => document.body.dataset.ready === '1' && !document.body.dataset.busy
  && !document.querySelector('[data-complete="0"]'), null, { timeout: 600000 });

// The longest task overlapping [input, settled + one frame], or 0.
async function longestDuring(page, run) {
  const t0 = await page.evaluate(() => performance.now());
  await run();
  await settled(page);
  await page.evaluate(() => new Promise((r) => { requestAnimationFrame(() => setTimeout(r, 0)); }));
  return page.evaluate((a) => {
    const b = performance.now();
    return Math.max(0, ...window.__longtasks.filter((x) => x.start < b && x.start + x.duration > a).map((x) => x.duration));
  }, t0);
}

const sliders = (page, ids, steps) => async () => {
  for (const id of ids) {
    await page.focus(`#${id}`);
    for (let i = 0; i < steps; ++i) await page.keyboard.press('ArrowRight');
  }
};

// The interactions measured, by catalog size: weight sliders, a sort (two columns in turn) and preset changes.
function interactions(page, imported) {
  let sortRun = 0;
  let presetRun = 0;
  return {
    sliders: sliders(page, imported ? ['w-unit_cost', 'w-task'] : ['w-unit_cost', 'w-task', 'w-service'], imported ? 3 : 6),
    sort: () => page.click(++sortRun % 2 ? '#sort-cost_usd' : '#sort-time_hours'),
    preset: async () => {
      await page.selectOption('#preset', ++presetRun % 2 ? 'bert-large-squad' : 'resnet50-imagenet');
    },
  };
}

// Returns { [interaction]: [longest task ms per run] }, with 'import' (one run per import: the catalog is removed
// between runs) when a catalog file is given.
export async function longTasks(browser, offlineFile, { catalogFile = null, runs = 5 } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await context.addInitScript(observeLongTasks);
  const page = await context.newPage();
  await page.goto(`${pathToFileURL(offlineFile).href}#preset=resnet50-imagenet&lang=en`);
  await settled(page);
  const out = {};
  if (catalogFile) {
    out.import = [];
    for (let i = 0; i < runs; ++i) {
      if (i) {
        await page.click('#my-catalogs button[data-index="0"]');
        await page.waitForSelector('#my-catalogs-empty', { timeout: 600000 });
        await settled(page);
      }
      out.import.push(await longestDuring(page, async () => {
        await page.setInputFiles('#import-file', catalogFile);
        await page.waitForSelector('#import-ok', { timeout: 600000 });
      }));
    }
  }
  for (const [name, run] of Object.entries(interactions(page, Boolean(catalogFile)))) {
    out[name] = [];
    for (let i = 0; i < runs; ++i) out[name].push(await longestDuring(page, run));
  }
  await context.close();
  return out;
}
