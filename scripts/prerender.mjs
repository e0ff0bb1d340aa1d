// The first table at the browser's own speed: the build opens the page it has just written (the offline file) in
// headless Chromium (Debian's), once per language, lets the engine rank the default view, and keeps the first
// screen as plain markup (the header, the controls, the overview and the table's first rows; the panels below
// the first screen and the charts' drawings are left out). The page then carries each language's markup in a
// <template>, and a small inline script (FIRST_SCRIPT) puts the reader's language's one in place while the engine
// loads; the live page replaces it with the same markup (tests/browser/prerender.test.mjs compares them cell by
// cell). A URL hash that asks for another view, or stored catalogs of the user's own, show a loading note instead.
import { pathToFileURL } from 'node:url';
import { DICTS, pickLanguage } from '../web/src/i18n/index.js';
import { LANG_KEY, DEFAULT_PRESET } from '../web/src/state/state.js';
import { THEME_KEY } from '../web/src/views/theme.js';
import { STORE_KEY } from '../web/src/engine/catalogstore.js';
import { WIDE_SCREEN } from '../web/src/views/dom.js';

// Table rows kept: more than a tall screen shows below the overview and the charts (a row is about 40 px high).
export const FIRST_SCREEN_ROWS = 12;
export const LANGUAGES = { en: 'en-US', zh: 'zh-CN' };
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

// The parts of the first screen kept in templates of their own (the rest, the skeleton, holds them by data-gv-part):
// each language's part follows the other's, so that gzip finds the markup they share (about a quarter less).
const PARTS = ['.sidebar', '#overview', '#table-wrap', '#details'];

// Runs in the page: the first screen of #app as markup, {skeleton, parts}.
function firstScreen({ rows, parts }) {
  const app = document.getElementById('app').cloneNode(true);
  // Below the first screen, or drawn by the live page only (charts are canvases; the share link names the URL).
  for (const id of ['tools', 'sensitivity', 'accuracy', 'compare', 'notices']) {
    const el = app.querySelector(`#${id}`);
    if (el) el.replaceChildren();
  }
  for (const c of app.querySelectorAll('#charts canvas')) c.removeAttribute('style');
  const share = app.querySelector('#share-url');
  if (share) share.removeAttribute('value');
  for (const tr of [...app.querySelectorAll('#table-wrap tbody tr')].slice(rows)) tr.remove();
  // A closed fold shows only its summary (the long lists of providers, regions and GPUs sit in folds).
  for (const d of app.querySelectorAll('details:not([open])')) for (const c of [...d.children]) if (c.tagName !== 'SUMMARY') c.remove();
  for (const el of app.querySelectorAll('[data-complete]')) el.removeAttribute('data-complete');
  const out = parts.map((selector, i) => {
    const el = app.querySelector(selector);
    if (!el) return '';
    const html = el.innerHTML;
    el.replaceChildren();
    el.setAttribute('data-gv-part', String(i));
    return html;
  });
  return { skeleton: app.innerHTML, parts: out };
}

// {en, zh}: the first screen of the default view of `htmlFile` in each language.
export async function prerender(htmlFile) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  try {
    const out = {};
    for (const [lang, locale] of Object.entries(LANGUAGES)) {
      const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(pathToFileURL(htmlFile).href);
      await page.waitForFunction(() => document.body.dataset.ready === '1' && !document.body.dataset.busy
        && !document.querySelector('[data-complete="0"]'), null, { timeout: 180000 });
      const screen = await page.evaluate(firstScreen, { rows: FIRST_SCREEN_ROWS, parts: PARTS });
      if (!screen.parts.some((p) => /<table/.test(p))) throw new Error(`prerender (${lang}): no table on the page`);
      out[lang] = screen;
      await context.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

// The inline script that shows the prerendered first screen (or the loading note) before the engine starts. It
// runs where it stands, right after #app, so that the first paint has the table.
export function firstScript(presetId = DEFAULT_PRESET) {
  const loading = Object.fromEntries(Object.keys(LANGUAGES).map((l) => [l, DICTS[l].loadingView]));
  return `(function(){var pick=${pickLanguage.toString()};
var app=document.getElementById('app'),q=new URLSearchParams(location.hash.slice(1)),get=function(k){try{return localStorage.getItem(k)}catch(e){return null}};
var lang=q.get('lang')==='en'||q.get('lang')==='zh'?q.get('lang'):pick(get(${JSON.stringify(LANG_KEY)}),navigator.languages);
var other=false;q.forEach(function(v,k){if(k!=='lang'&&!(k==='preset'&&v===${JSON.stringify(presetId)}))other=true});
var own=get(${JSON.stringify(STORE_KEY)});if(own&&own.indexOf('"catalogs":[]')<0)other=true;
var th=get(${JSON.stringify(THEME_KEY)});if(th==='light'||th==='dark')document.documentElement.dataset.theme=th;
document.documentElement.lang=lang==='zh'?'zh-CN':'en';
var t=document.getElementById('gv-first-'+lang+'-s');
if(other||!t){var p=document.createElement('p');p.className='loading';p.id='view-loading';p.setAttribute('role','status');p.textContent=${JSON.stringify(loading)}[lang];app.replaceChildren(p);return}
var f=t.content.cloneNode(true);f.querySelectorAll('[data-gv-part]').forEach(function(el){var c=document.getElementById('gv-first-'+lang+'-'+el.getAttribute('data-gv-part'));if(c)el.append(c.content.cloneNode(true));el.removeAttribute('data-gv-part')});
if(!matchMedia(${JSON.stringify(WIDE_SCREEN)}).matches)f.querySelectorAll('details.fold').forEach(function(d){d.open=false});
app.replaceChildren(f);app.inert=true;app.setAttribute('aria-busy','true');app.dataset.prerendered=lang})();`;
}

// The templates of each language's first screen: the skeletons, then each part in every language in turn.
export function firstTemplates(screens) {
  const langs = Object.keys(screens);
  const out = langs.map((l) => `<template id="gv-first-${l}-s">${screens[l].skeleton}</template>`);
  screens[langs[0]].parts.forEach((_, i) => { for (const l of langs) out.push(`<template id="gv-first-${l}-${i}">${screens[l].parts[i]}</template>`); });
  return out.join('\n');
}
