// The page's charts, drawn with the canvas API: scatter plots (points, lines through them, log or linear axes, a
// second value axis on the right) and bar charts (vertical, or horizontal with indexAxis 'y'), with a legend
// (click an entry to hide its dataset), a tooltip on hover and on keyboard focus, and clicks on points and bars.
// Configured with the names of the Chart.js options the page used before it (`new Chart(canvas, {type, data,
// options})`, `update()`, `destroy()`, `getDatasetMeta`, `setActiveElements`, `tooltip`): only what the page's
// charts use, at a twentieth of the bytes (docs/performance.md, "The page's own charts").
import { buildScale, labelTicks, shownTicks, pixelOf, TICK_FONT_PX } from './plotscales.js';
import { DEFAULT_COLOUR, drawLegend, drawLine, drawPoint, drawPoints, drawTooltip, font, fontFamily, layoutLegend } from './plotdraw.js';

const PAD_PX = 6;
const TITLE_PX = 12;
const BAR_SHARE = 0.8 * 0.9;  // a bar's thickness in its category's band (Chart.js's categoryPercentage × barPercentage)
const HIT_EXTRA_PX = 2;       // a point answers the pointer this far beyond its radius

const num = (v, d) => (v === undefined || v === null ? d : v);
const colourAt = (c, i) => (Array.isArray(c) ? c[i] : c);

export class Chart {
  constructor(canvas, config) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.type = config.type;
    this.data = config.data || {};
    if (!this.data.datasets) this.data.datasets = [];
    const o = config.options || {};
    o.plugins ||= {};
    o.plugins.legend ||= {};
    o.plugins.legend.labels ||= {};
    o.plugins.tooltip ||= {};
    o.scales ||= {};
    this.options = o;
    this.hidden = new Set();
    this.active = [];
    this.meta = [];
    this.scales = {};
    this.chartArea = { left: 0, top: 0, right: 0, bottom: 0 };
    this.legend = null;
    this.tooltip = makeTooltip(this);
    this.width = 0;
    this.height = 0;
    this.listen();
    this.measure();
    this.update();
  }

  // The canvas's size in CSS px: its box's (responsive, the default), else its width and height attributes.
  measure() {
    const box = this.canvas.parentNode;
    if (this.options.responsive === false || !box) {
      this.size = { w: this.canvas.width, h: this.canvas.height };
      return;
    }
    // Whole px, rounded down, as the ResizeObserver's sizes below (clientWidth would round up half a pixel).
    const rect = box.getBoundingClientRect();
    this.size = { w: Math.floor(rect.width), h: Math.floor(rect.height) };
    if (typeof ResizeObserver === 'function') {
      this.observer = new ResizeObserver(([entry]) => {
        const w = Math.floor(entry.contentRect.width);
        const h = Math.floor(entry.contentRect.height);
        if (w === this.size.w && h === this.size.h) return;
        this.size = { w, h };
        if (this.canvas) this.update();
      });
      this.observer.observe(box);
    }
  }

  listen() {
    const at = (e) => { const r = this.canvas.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; };
    this.handlers = {
      pointermove: (e) => this.hover(this.elementsAt(at(e))),
      pointerleave: () => this.hover([]),
      click: (e) => {
        const p = at(e);
        const item = this.legend && this.legend.placed.find((c) => p.x >= c.x && p.x <= c.x + c.w && p.y >= this.legend.top + c.y && p.y <= this.legend.top + c.y + c.h);
        if (item) { this.toggle(item.item.index); return; }
        // A tap shows the tooltip too (a touch screen has no hover).
        const els = this.elementsAt(p);
        this.hover(els);
        if (this.options.onClick) this.options.onClick(e, els, this);
      },
    };
    for (const [k, f] of Object.entries(this.handlers)) this.canvas.addEventListener(k, f);
  }

  toggle(i) {
    if (this.hidden.has(i)) this.hidden.delete(i); else this.hidden.add(i);
    this.active = [];
    this.tooltip.setActiveElements([]);
    this.update();
  }

  // The pointer over other elements: the same layout and elements, drawn again with the new ones active.
  hover(list) {
    const key = (l) => l.map((a) => `${a.datasetIndex}:${a.index}`).join();
    if (key(list) === key(this.active)) return;
    this.setActiveElements(list);
    this.tooltip.setActiveElements(list);
    this.draw();
  }

  setActiveElements(list) {
    this.active = list.map(({ datasetIndex, index, raw }) => ({ datasetIndex, index, raw: raw === undefined ? this.rawAt(datasetIndex, index) : raw,
      element: this.meta[datasetIndex] && this.meta[datasetIndex].data[index] }));
  }

  rawAt(datasetIndex, index) { const ds = this.data.datasets[datasetIndex]; return ds ? ds.data[index] : undefined; }

  // After new data: an active element that is no longer the same datum (the datasets were redrawn) is let go.
  dropStale() {
    const same = (a) => a.raw !== undefined && this.rawAt(a.datasetIndex, a.index) === a.raw;
    if (this.active.some((a) => !same(a))) this.active = this.active.filter(same);
    if (this.tooltip.active.some((a) => !same(a))) this.tooltip.setActiveElements(this.tooltip.active.filter(same), this.tooltip.pos);
  }

  getActiveElements() { return this.active; }

  getDatasetMeta(i) { return this.meta[i] || { data: [] }; }

  isBar() { return this.type === 'bar'; }

  shown(i) { return !this.hidden.has(i); }

  // The elements under a point: the nearest point within its radius (or, with interaction {intersect: false,
  // axis: 'x'}, the nearest by x), or the bar that contains it.
  elementsAt(p) {
    const inter = this.options.interaction || {};
    let best = null;
    this.meta.forEach((m, datasetIndex) => {
      if (!this.shown(datasetIndex)) return;
      m.data.forEach((el, index) => {
        if (el.skip) return;
        let d;
        if (this.isBar()) {
          const x0 = Math.min(el.base, el.x), x1 = Math.max(el.base, el.x), y0 = el.y - el.height / 2, y1 = el.y + el.height / 2;
          const inside = el.horizontal ? p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1
            : p.x >= el.x - el.width / 2 && p.x <= el.x + el.width / 2 && p.y >= Math.min(el.base, el.y) && p.y <= Math.max(el.base, el.y);
          d = inside ? 0 : Infinity;
        } else if (inter.intersect === false) {
          d = inter.axis === 'x' ? Math.abs(el.x - p.x) + Math.abs(el.y - p.y) * 1e-6 : Math.hypot(el.x - p.x, el.y - p.y);
        } else {
          d = Math.hypot(el.x - p.x, el.y - p.y);
          if (d > Math.max(el.radius, 3) + num(this.data.datasets[datasetIndex].pointHitRadius, HIT_EXTRA_PX)) d = Infinity;
        }
        if (d < Infinity && (!best || d < best.d)) best = { d, datasetIndex, index, element: el };
      });
    });
    return best ? [{ datasetIndex: best.datasetIndex, index: best.index, element: best.element }] : [];
  }

  // The scales the chart needs: for bars the category axis (y with indexAxis 'y', else x) and the value axis; for
  // scatter plots x and each dataset's yAxisID (y by default), with the values of the datasets shown.
  scaleSpecs() {
    const sc = this.options.scales;
    const sets = this.data.datasets.map((ds, i) => ({ ds, i })).filter(({ i }) => this.shown(i));
    if (this.isBar()) {
      const cat = this.options.indexAxis === 'y' ? 'y' : 'x';
      const val = cat === 'y' ? 'x' : 'y';
      const values = sets.flatMap(({ ds }) => ds.data.map(Number));
      return [{ id: cat, opts: { type: 'category', ...sc[cat] }, values: [], labels: (this.data.labels || []).map(String), horizontal: cat === 'x' },
        { id: val, opts: sc[val] || {}, values, horizontal: val === 'x' }];
    }
    const yIds = [...new Set(['y', ...this.data.datasets.map((ds) => ds.yAxisID || 'y'), ...Object.keys(sc).filter((k) => k !== 'x')])];
    const pick = (axis, id) => sets.filter(({ ds }) => axis === 'x' || (ds.yAxisID || 'y') === id)
      .flatMap(({ ds }) => ds.data.filter((p) => p && p[axis] !== null && p[axis] !== undefined).map((p) => p[axis]));
    return [{ id: 'x', opts: sc.x || {}, values: pick('x'), horizontal: true },
      ...yIds.map((id) => ({ id, opts: sc[id] || {}, values: pick('y', id), horizontal: false }))];
  }

  // Sizes the canvas, builds the scales and places the legend and the chart area.
  layout() {
    const { w, h } = this.size;
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    if (this.options.responsive !== false) Object.assign(this.canvas.style, { display: 'block', boxSizing: 'border-box', width: `${w}px`, height: `${h}px` });
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.width = w;
    this.height = h;
    const lg = this.options.plugins.legend;
    const items = lg.display === false ? [] : this.data.datasets.map((dataset, index) => ({ dataset, index, text: String(num(dataset.label, '')), hidden: this.hidden.has(index) }))
      .filter((it) => (lg.labels.filter ? lg.labels.filter(it) : true));
    const legend = layoutLegend(this.ctx, items, w - 2 * PAD_PX, lg.labels);
    const bottomLegend = lg.position === 'bottom';
    legend.top = bottomLegend ? h - PAD_PX - legend.height + 4 : PAD_PX;
    legend.placed.forEach((c) => { c.x += PAD_PX; });
    this.legend = legend;
    // Half a label's height above the chart area: the top tick's label is centred on the area's edge.
    const top = PAD_PX + TICK_FONT_PX / 2 + (bottomLegend ? 0 : legend.height);
    const bottom = h - PAD_PX - (bottomLegend ? legend.height : 0);
    const titled = (o) => (o.title && o.title.display ? TITLE_PX + 6 : 0);
    const specs = this.scaleSpecs();
    const xSpec = specs.find((s) => s.horizontal);
    const ySpecs = specs.filter((s) => !s.horizontal);
    const xHeight = TICK_FONT_PX + 10 + titled(xSpec.opts);
    const yLength = bottom - top - xHeight;
    const side = (o, first) => (o.position === 'right' || (!first && o.position !== 'left') ? 'right' : 'left');
    const ys = ySpecs.map((s, i) => {
      const scale = buildScale(s.id, s.opts, s.values, s.labels, false, yLength);
      scale.position = side(s.opts, i === 0);
      this.ctx.font = font(scaleFont(scale));
      labelTicks(scale, this.ctx, s.labels, this);
      scale.width = Math.max(0, ...scale.labelWidths) + scale.options.ticks.padding + 4 + titled(s.opts);
      return scale;
    });
    const leftW = ys.filter((s) => s.position === 'left').reduce((a, s) => a + s.width, 0);
    const rightW = ys.filter((s) => s.position === 'right').reduce((a, s) => a + s.width, 0);
    const area = { left: PAD_PX + leftW, top, right: w - PAD_PX - Math.max(rightW, 12), bottom: bottom - xHeight };
    const x = buildScale(xSpec.id, xSpec.opts, xSpec.values, xSpec.labels, true, area.right - area.left);
    this.ctx.font = font(scaleFont(x));
    labelTicks(x, this.ctx, xSpec.labels, this);
    Object.assign(x, { start: area.left, end: area.right, left: area.left, right: area.right, top: area.bottom, bottom });
    let leftEdge = area.left;
    let rightEdge = area.right;
    for (const s of ys) {
      Object.assign(s, { start: area.top, end: area.bottom, top: area.top, bottom: area.bottom });
      if (s.position === 'left') { s.right = leftEdge; s.left = leftEdge - s.width; leftEdge = s.left; } else { s.left = rightEdge; s.right = rightEdge + s.width; rightEdge = s.right; }
    }
    this.chartArea = area;
    this.scales = Object.fromEntries([x, ...ys].map((s) => [s.id, s]));
  }

  // Each dataset's elements in px: points (x, y, radius; skip when a value is missing) or bars (x, y, base, width,
  // height).
  place() {
    const { x: sx } = this.scales;
    this.meta = this.data.datasets.map((ds) => {
      if (this.isBar()) return { data: this.placeBars(ds) };
      const sy = this.scales[ds.yAxisID || 'y'];
      const r = num(ds.pointRadius, 3);
      return { data: ds.data.map((p) => {
        const ok = p && p.x !== null && p.y !== null && p.x !== undefined && p.y !== undefined
          && !(sx.type === 'logarithmic' && !(p.x > 0)) && !(sy.type === 'logarithmic' && !(p.y > 0));
        return ok ? { x: pixelOf(sx, p.x), y: pixelOf(sy, p.y), radius: r } : { x: NaN, y: NaN, radius: r, skip: true };
      }) };
    });
  }

  placeBars(ds) {
    const horizontal = this.options.indexAxis === 'y';
    const cat = this.scales[horizontal ? 'y' : 'x'];
    const val = this.scales[horizontal ? 'x' : 'y'];
    const n = Math.max(1, (this.data.labels || []).length);
    const thick = (Math.abs(cat.end - cat.start) / n) * BAR_SHARE;
    const baseValue = val.type === 'logarithmic' ? val.min : Math.min(Math.max(0, val.min), val.max);
    const base = pixelOf(val, baseValue);
    return ds.data.map((v, i) => {
      const c = pixelOf(cat, i);
      if (!Number.isFinite(v) || (val.type === 'logarithmic' && !(v > 0))) return { x: NaN, y: NaN, skip: true };
      const end = pixelOf(val, v);
      return horizontal ? { x: end, y: c, base, width: end - base, height: thick, horizontal: true } : { x: c, y: end, base, width: thick, height: base - end, horizontal: false };
    });
  }

  update() {
    if (!this.canvas) return;
    this.dropStale();
    this.layout();
    this.place();
    this.setActiveElements(this.active);
    if (this.tooltip.active.length) this.tooltip.refresh();
    this.draw();
  }

  draw() {
    const { ctx, chartArea: a } = this;
    ctx.clearRect(0, 0, this.width, this.height);
    if (!(a.right > a.left && a.bottom > a.top)) return;
    for (const s of Object.values(this.scales)) drawAxis(ctx, s, a, this.width);
    ctx.save();
    ctx.beginPath();
    ctx.rect(a.left - 8, a.top - 8, a.right - a.left + 16, a.bottom - a.top + 16);
    ctx.clip();
    // The first dataset on top, as Chart.js draws them.
    for (let i = this.data.datasets.length - 1; i >= 0; --i) if (this.shown(i)) this.drawDataset(i);
    ctx.restore();
    drawLegend(ctx, this.legend, this.legend.top, this.options.plugins.legend.labels);
    if (this.tooltip.active.length) drawTooltip(ctx, this.tooltip, this.width, this.height);
  }

  drawDataset(i) {
    const { ctx } = this;
    const ds = this.data.datasets[i];
    const els = this.meta[i].data;
    if (this.isBar()) {
      els.forEach((el, j) => {
        if (el.skip) return;
        ctx.fillStyle = colourAt(ds.backgroundColor, j) || DEFAULT_COLOUR;
        if (el.horizontal) ctx.fillRect(Math.min(el.base, el.x), el.y - el.height / 2, Math.abs(el.width), el.height);
        else ctx.fillRect(el.x - el.width / 2, Math.min(el.base, el.y), el.width, Math.abs(el.height));
      });
      return;
    }
    if (ds.showLine) drawLine(ctx, ds, els.map((el) => (el.skip ? null : el)));
    const hot = new Set(this.active.filter((a) => a.datasetIndex === i).map((a) => a.index));
    drawPoints(ctx, ds, els.filter((el, j) => !el.skip && !hot.has(j)), num(ds.pointRadius, 3));
    for (const j of hot) if (els[j] && !els[j].skip) drawPoint(ctx, ds, els[j].x, els[j].y, num(ds.pointHoverRadius, els[j].radius + 1));
  }

  destroy() {
    if (!this.canvas) return;
    if (this.observer) this.observer.disconnect();
    for (const [k, f] of Object.entries(this.handlers)) this.canvas.removeEventListener(k, f);
    this.ctx.setTransform(1, 0, 0, 1, 0, 0);
    this.ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.canvas = null;
    this.ctx = null;
  }
}

// Chart.defaults.font.family: the canvas text's font, the page's own.
Chart.defaults = { font: { get family() { return fontFamily(); } } };

const scaleFont = (s) => (s.options.ticks.font && s.options.ticks.font.size) || TICK_FONT_PX;

// An axis: its grid lines across the chart area, its border line, its tick labels and its title.
function drawAxis(ctx, s, a, widthPx) {
  const o = s.options;
  const grid = o.grid || {};
  const shown = shownTicks(s, s.horizontal ? a.right - a.left : a.bottom - a.top);
  const px = s.ticks.map((t) => pixelOf(s, t.value));
  ctx.save();
  ctx.lineWidth = 1;
  if (grid.display !== false && grid.drawOnChartArea !== false) {
    ctx.strokeStyle = grid.color || 'rgba(0,0,0,0.1)';
    ctx.beginPath();
    for (const p of px) {
      const q = Math.round(p) + 0.5;
      if (s.horizontal) { ctx.moveTo(q, a.top); ctx.lineTo(q, a.bottom); } else { ctx.moveTo(a.left, q); ctx.lineTo(a.right, q); }
    }
    ctx.stroke();
  }
  ctx.strokeStyle = (o.border && o.border.color) || grid.color || 'rgba(0,0,0,0.1)';
  ctx.beginPath();
  if (s.horizontal) { ctx.moveTo(a.left, a.bottom + 0.5); ctx.lineTo(a.right, a.bottom + 0.5); } else {
    const q = Math.round(s.position === 'right' ? a.right : a.left) + 0.5;
    ctx.moveTo(q, a.top); ctx.lineTo(q, a.bottom);
  }
  ctx.stroke();
  ctx.fillStyle = o.ticks.color || '#666';
  ctx.font = font(scaleFont(s));
  const pad = o.ticks.padding;
  for (const i of shown) {
    const label = s.ticks[i].label;
    if (!label) continue;
    if (s.horizontal) {
      ctx.textAlign = 'center'; ctx.textBaseline = 'top';
      const half = s.labelWidths[i] / 2;
      ctx.fillText(label, Math.max(half, Math.min(px[i], widthPx - half)), a.bottom + pad + 2);
    } else {
      ctx.textBaseline = 'middle';
      ctx.textAlign = s.position === 'right' ? 'left' : 'right';
      ctx.fillText(label, s.position === 'right' ? s.left + pad : s.right - pad, px[i]);
    }
  }
  if (o.title && o.title.display) {
    ctx.fillStyle = o.title.color || '#666';
    ctx.font = font(TITLE_PX);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    if (s.horizontal) {
      ctx.fillText(o.title.text, (a.left + a.right) / 2, s.bottom);
    } else if (s.position === 'right') {
      // Read top to bottom, its letters' tops toward the axis.
      ctx.translate(s.right - 2, (a.top + a.bottom) / 2);
      ctx.rotate(Math.PI / 2);
      ctx.textBaseline = 'top';
      ctx.fillText(o.title.text, 0, 0);
    } else {
      ctx.translate(s.left + TITLE_PX + 2, (a.top + a.bottom) / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.fillText(o.title.text, 0, 0);
    }
  }
  ctx.restore();
}

// The tooltip's state (Chart.js's names): the active elements, the title lines and one body entry per element, from
// options.plugins.tooltip.callbacks (title(items), label(item); a label may be several lines).
function makeTooltip(chart) {
  const tip = { active: [], title: [], body: [], x: 0, y: 0, pos: null };
  const lines = (v) => [].concat(v === undefined || v === null ? [] : v).map(String).filter((s) => s !== '');
  tip.refresh = () => {
    const cb = chart.options.plugins.tooltip.callbacks || {};
    const items = tip.active.map(({ datasetIndex, index }) => {
      const dataset = chart.data.datasets[datasetIndex];
      return dataset ? { chart, dataset, datasetIndex, dataIndex: index, index, raw: dataset.data[index], label: chart.data.labels ? String(chart.data.labels[index]) : '' } : null;
    }).filter(Boolean);
    tip.title = lines(cb.title ? cb.title(items) : chart.isBar() && items[0] ? items[0].label : '');
    tip.body = items.map((item) => ({
      before: [], after: [], colour: colourAt(item.dataset.backgroundColor, item.dataIndex) || item.dataset.borderColor || DEFAULT_COLOUR,
      lines: lines(cb.label ? cb.label(item) : defaultLabel(chart, item)),
    }));
    const el = chart.meta[tip.active[0] ? tip.active[0].datasetIndex : -1];
    const at = el && el.data[tip.active[0].index];
    const p = (at && !at.skip ? at : null) || tip.pos || { x: 0, y: 0 };
    tip.x = p.x;
    tip.y = p.y;
  };
  tip.setActiveElements = (list, pos = null) => {
    tip.active = list.map(({ datasetIndex, index, raw }) => ({ datasetIndex, index, raw: raw === undefined ? chart.rawAt(datasetIndex, index) : raw }));
    tip.pos = pos;
    if (tip.active.length) tip.refresh(); else { tip.title = []; tip.body = []; }
  };
  tip.getActiveElements = () => tip.active;
  return tip;
}

function defaultLabel(chart, item) {
  const name = item.dataset.label ? `${item.dataset.label}: ` : '';
  if (chart.isBar()) return `${name}${Number(item.raw).toPrecision(4)}`;
  const p = item.raw || {};
  return `${name}(${Number(p.x).toPrecision(4)}, ${Number(p.y).toPrecision(4)})`;
}
