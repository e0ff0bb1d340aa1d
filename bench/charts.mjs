#!/usr/bin/env node
// The page's charts against chart libraries, for a scatter of cost against time on log axes (the page's largest
// chart): each bundled and minified by esbuild as the page's script is, its bytes raw and after gzip -9, and
// in headless Chromium the first chart drawn (made and painted to its canvas, cold: a fresh page each time) and a
// redraw with new points (warm, the median of 5), for 600 points (what the page sends before it thins the cloud) and
// 10,000 points.
//   page     the page's own charts (web/src/views/plot.js, with its scales and drawing)
//   chartjs  Chart.js 4 with the pieces the page registered when it drew its charts with it (the rest tree-shaken)
//   uplot    uPlot (one object, nothing to shake off) with its style sheet
//   canvas   the points and decade grid drawn with the canvas API and no library: what drawing alone costs
// Usage: node bench/charts.mjs [RUNS] [--json]   (not part of `npm run bench`: about two minutes)
/* global document, requestAnimationFrame, window */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { launchBrowser } from './page.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a))) || 5;
const SIZES = [600, 10000];

// Each entry defines window.draw(canvas, points) → redraw(points); points are {x, y} with x, y > 0.
const ENTRIES = {
  page: `import { Chart } from './web/src/views/plot.js';
    window.draw = (canvas, points) => {
      const chart = new Chart(canvas, { type: 'scatter', data: { datasets: [{ label: 'offers', data: points, pointRadius: 3, backgroundColor: '#1f6feb' }] },
        options: { responsive: false, scales: { x: { type: 'logarithmic' }, y: { type: 'logarithmic' } }, plugins: { legend: { position: 'bottom' } } } });
      return (next) => { chart.data.datasets[0].data = next; chart.update(); };
    };`,
  chartjs: `import { Chart, ScatterController, BarController, PointElement, LineElement, BarElement, LinearScale,
      LogarithmicScale, CategoryScale, Tooltip, Legend } from 'chart.js';
    Chart.register(ScatterController, BarController, PointElement, LineElement, BarElement, LinearScale, LogarithmicScale,
      CategoryScale, Tooltip, Legend);
    window.draw = (canvas, points) => {
      const chart = new Chart(canvas, { type: 'scatter', data: { datasets: [{ label: 'offers', data: points, pointRadius: 3 }] },
        options: { responsive: false, animation: false, parsing: false,
          scales: { x: { type: 'logarithmic' }, y: { type: 'logarithmic' } }, plugins: { legend: { position: 'bottom' } } } });
      return (next) => { chart.data.datasets[0].data = next; chart.update('none'); };
    };`,
  uplot: `import uPlot from 'uplot';
    window.draw = (canvas, points) => {
      const host = canvas.parentNode;
      canvas.remove();
      const columns = (p) => [null, [p.map((q) => q.x), p.map((q) => q.y)]];
      const plot = new uPlot({ mode: 2, width: 800, height: 400, legend: { show: true },
        scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
        series: [{}, { label: 'offers', stroke: '#1f6feb', fill: '#1f6feb', paths: uPlot.paths.points(), points: { show: false, size: 6, width: 0 } }] },
        columns(points), host);
      return (next) => plot.setData(columns(next));
    };`,
  canvas: `window.draw = (canvas, points) => {
      const ctx = canvas.getContext('2d');
      const paint = (p) => {
        const w = canvas.width, h = canvas.height, left = 50, bottom = 30;
        let x0 = Infinity, x1 = 0, y0 = Infinity, y1 = 0;
        for (const q of p) { x0 = Math.min(x0, q.x); x1 = Math.max(x1, q.x); y0 = Math.min(y0, q.y); y1 = Math.max(y1, q.y); }
        const lx0 = Math.log10(x0), sx = (w - left) / (Math.log10(x1) - lx0);
        const ly0 = Math.log10(y0), sy = (h - bottom) / (Math.log10(y1) - ly0);
        ctx.clearRect(0, 0, w, h);
        ctx.strokeStyle = '#ccc'; ctx.fillStyle = '#333'; ctx.font = '11px sans-serif';
        for (let e = Math.floor(lx0); e <= Math.log10(x1); e++) { const x = left + (e - lx0) * sx; ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, h - bottom); ctx.stroke(); ctx.fillText('1e' + e, x, h - 10); }
        for (let e = Math.floor(ly0); e <= Math.log10(y1); e++) { const y = h - bottom - (e - ly0) * sy; ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(w, y); ctx.stroke(); ctx.fillText('1e' + e, 2, y); }
        ctx.fillStyle = '#1f6feb';
        ctx.beginPath();
        for (const q of p) { const x = left + (Math.log10(q.x) - lx0) * sx, y = h - bottom - (Math.log10(q.y) - ly0) * sy; ctx.moveTo(x + 3, y); ctx.arc(x, y, 3, 0, 2 * Math.PI); }
        ctx.fill();
      };
      paint(points);
      return paint;
    };`,
};

async function bundle(name) {
  const out = await build({ stdin: { contents: ENTRIES[name], resolveDir: root, loader: 'js' }, bundle: true, minify: true,
    format: 'iife', write: false, legalComments: 'none', logLevel: 'error' });
  const js = out.outputFiles[0].text;
  const css = name === 'uplot' ? fs.readFileSync(path.join(root, 'node_modules/uplot/dist/uPlot.min.css'), 'utf8') : '';
  const gzip = (s) => zlib.gzipSync(s, { level: 9 }).length;
  return { js, css, bytes: { raw: js.length + css.length, gzip: gzip(js) + (css ? gzip(css) : 0) } };
}

// In the page: the first chart made and drawn (uPlot draws in a microtask: two awaits let it run), then five redraws
// with new points, each timed the same way.
async function drawTimes(n) {
  let seed = 1;
  const rnd = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  const points = (k) => Array.from({ length: n }, () => ({ x: 10 ** (rnd() * 4 - 1 + k * 0.01), y: 10 ** (rnd() * 5 + 1) }));
  const first = points(0);
  const t0 = performance.now();
  const redraw = window.draw(document.getElementById('cv'), first);
  await null; await null;
  const firstMs = performance.now() - t0;
  await new Promise((r) => { requestAnimationFrame(() => setTimeout(r, 0)); });
  // The share of the chart's canvas drawn on: a library that drew no points would time nothing.
  const canvas = document.querySelector('canvas');
  const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let inked = 0;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) inked += 1;
  const ink = inked / (canvas.width * canvas.height);
  const again = [];
  for (let i = 1; i <= 5; i++) {
    const p = points(i);
    const t = performance.now();
    redraw(p);
    await null; await null;
    again.push(performance.now() - t);
    await new Promise((r) => { setTimeout(r, 0); });
  }
  return { firstMs, redrawMs: again.sort((a, b) => a - b)[2], ink };
}

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpuvalue-charts-'));
const results = {};
const browser = await launchBrowser();
try {
  for (const name of Object.keys(ENTRIES)) {
    const b = await bundle(name);
    fs.writeFileSync(path.join(dir, `${name}.html`), `<!doctype html><meta charset="utf-8"><style>${b.css}</style>`
      + `<div><canvas id="cv" width="800" height="400"></canvas></div><script>${b.js}</script>`);
    results[name] = { bytes: b.bytes, first_ms: {}, redraw_ms: {} };
  }
  const samples = {};
  for (let r = 0; r < runs; r++) {
    for (const name of Object.keys(ENTRIES)) {
      for (const n of SIZES) {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(path.join(dir, `${name}.html`)).href);
        const t = await page.evaluate(drawTimes, n);
        await page.close();
        if (!(t.ink > 0.05)) throw new Error(`${name}: ${n} points left ${(t.ink * 100).toFixed(1)} % of the canvas drawn on`);
        const s = (samples[`${name} ${n}`] ||= { first: [], redraw: [] });
        s.first.push(t.firstMs);
        s.redraw.push(t.redrawMs);
      }
    }
  }
  for (const [key, s] of Object.entries(samples)) {
    const [name, n] = key.split(' ');
    results[name].first_ms[n] = Math.round(median(s.first) * 10) / 10;
    results[name].redraw_ms[n] = Math.round(median(s.redraw) * 10) / 10;
  }
} finally {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

if (args.includes('--json')) console.log(JSON.stringify(results, null, 1));
else {
  console.log(`| library | bytes raw | gzip -9 | first chart, ${SIZES.join(' / ')} points | redraw, ${SIZES.join(' / ')} points |`);
  console.log('|---|---|---|---|---|');
  for (const [name, r] of Object.entries(results)) {
    console.log(`| ${name} | ${r.bytes.raw.toLocaleString('en')} | ${r.bytes.gzip.toLocaleString('en')} | ${SIZES.map((n) => r.first_ms[n]).join(' / ')} ms | ${SIZES.map((n) => r.redraw_ms[n]).join(' / ')} ms |`);
  }
}
