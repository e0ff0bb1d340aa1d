// Drawing for the page's charts (views/plot.js): point styles, lines, the legend and the tooltip box, with the
// canvas API.
import { TICK_FONT_PX } from './plotscales.js';

export const DEFAULT_COLOUR = '#6b7280';
const LEGEND_FONT_PX = 12;
const LEGEND_GAP_PX = 10;
const LEGEND_ROW_PX = LEGEND_FONT_PX + 8;
const LINE_WIDTH_PX = 3;  // a line's width when its dataset gives none (Chart.js's)
const TIP_PAD_PX = 6;
const TIP_LINE_PX = 16;
const TIP_SWATCH_PX = 10;

// The page's own font for the canvas text, read once (Chart.defaults.font.family).
let family = null;
export function fontFamily() {
  if (family === null) {
    const f = typeof document !== 'undefined' && document.body ? getComputedStyle(document.body).fontFamily : '';
    family = f || 'sans-serif';
  }
  return family;
}
export const font = (px, weight = '') => `${weight ? `${weight} ` : ''}${px}px ${fontFamily()}`;

// A point's outline in `style` (Chart.js's names: circle, rectRot, triangle, rect) of radius r at (x, y), added to
// the current path as a subpath of its own.
export function pointPath(ctx, style, x, y, r) {
  if (style === 'rectRot') {
    ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y);
  } else if (style === 'triangle') {
    const h = r * 1.5;
    ctx.moveTo(x, y - h * 0.67); ctx.lineTo(x + r * 1.15, y + h * 0.33); ctx.lineTo(x - r * 1.15, y + h * 0.33);
  } else if (style === 'rect') {
    ctx.rect(x - r, y - r, 2 * r, 2 * r);
  } else {
    // A full circle needs no closePath (which made a fill of 10,000 circles ~15 × slower in Chromium).
    ctx.moveTo(x + r, y);
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    return;
  }
  ctx.closePath();
}

// Points of one dataset, [{x, y}], of radius r: one path, filled and outlined once (10,000 points in one fill).
export function drawPoints(ctx, ds, pts, r) {
  if (!(r > 0) || !pts.length) return;
  ctx.beginPath();
  for (const p of pts) pointPath(ctx, ds.pointStyle, p.x, p.y, r);
  ctx.fillStyle = ds.backgroundColor || DEFAULT_COLOUR;
  ctx.fill();
  const w = ds.borderWidth === undefined ? 1 : ds.borderWidth;
  if (w > 0 && ds.borderColor) { ctx.lineWidth = Math.min(w, 2); ctx.strokeStyle = ds.borderColor; ctx.stroke(); }
}

export const drawPoint = (ctx, ds, x, y, r) => drawPoints(ctx, ds, [{ x, y }], r);

const lineWidthOf = (ds) => (ds.borderWidth === undefined ? LINE_WIDTH_PX : ds.borderWidth);

// A dataset's line through its points in order, broken where a point has no value (spanGaps false).
export function drawLine(ctx, ds, pts) {
  ctx.save();
  ctx.beginPath();
  let open = false;
  for (const p of pts) {
    if (!p) { open = false; continue; }
    if (open) ctx.lineTo(p.x, p.y); else ctx.moveTo(p.x, p.y);
    open = true;
  }
  ctx.setLineDash(ds.borderDash || []);
  ctx.lineWidth = lineWidthOf(ds);
  ctx.strokeStyle = ds.borderColor || DEFAULT_COLOUR;
  ctx.stroke();
  ctx.restore();
}

// The legend's items laid out in centred rows within `width`: [{item, x, y, w, h}] and the legend's height.
export function layoutLegend(ctx, items, width, labels) {
  ctx.font = font((labels.font && labels.font.size) || LEGEND_FONT_PX);
  const box = labels.boxWidth === undefined ? 40 : labels.boxWidth;
  const rows = [[]];
  let used = 0;
  for (const item of items) {
    const w = box + 6 + ctx.measureText(item.text).width;
    if (used > 0 && used + w > width) { rows.push([]); used = 0; }
    rows[rows.length - 1].push({ item, w });
    used += w + LEGEND_GAP_PX;
  }
  const placed = [];
  rows.forEach((row, r) => {
    const total = row.reduce((a, c) => a + c.w, 0) + LEGEND_GAP_PX * (row.length - 1);
    let x = Math.max(0, (width - total) / 2);
    for (const c of row) { placed.push({ ...c, x, y: r * LEGEND_ROW_PX, h: LEGEND_ROW_PX }); x += c.w + LEGEND_GAP_PX; }
  });
  return { placed, height: items.length ? rows.length * LEGEND_ROW_PX + 4 : 0, box };
}

export function drawLegend(ctx, legend, top, labels) {
  ctx.font = font((labels.font && labels.font.size) || LEGEND_FONT_PX);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  for (const { item, x, y } of legend.placed) {
    const cy = top + y + LEGEND_FONT_PX / 2 + 2;
    const ds = item.dataset;
    ctx.globalAlpha = item.hidden ? 0.35 : 1;
    if (labels.usePointStyle) {
      drawPoint(ctx, { ...ds, borderWidth: 1 }, x + legend.box / 2, cy, Math.min(legend.box, LEGEND_FONT_PX) / 2);
    } else if (ds.showLine) {
      // A line's sample: a stretch of it (dashed as it is), with its point when it has points.
      drawLine(ctx, { ...ds, borderWidth: Math.min(lineWidthOf(ds), LINE_WIDTH_PX) }, [{ x, y: cy }, { x: x + legend.box, y: cy }]);
      if (ds.pointRadius !== 0) drawPoint(ctx, ds, x + legend.box / 2, cy, 3);
    } else {
      const h = Math.min(LEGEND_FONT_PX, legend.box);
      ctx.fillStyle = ds.backgroundColor && typeof ds.backgroundColor === 'string' ? ds.backgroundColor : ds.borderColor || DEFAULT_COLOUR;
      ctx.fillRect(x, cy - h / 2, legend.box, h);
      if (ds.borderColor) { ctx.strokeStyle = ds.borderColor; ctx.lineWidth = 1; ctx.setLineDash(ds.borderDash || []); ctx.strokeRect(x, cy - h / 2, legend.box, h); ctx.setLineDash([]); }
    }
    ctx.fillStyle = labels.color || '#333';
    ctx.fillText(item.text, x + legend.box + 6, cy);
    if (item.hidden) { ctx.fillRect(x + legend.box + 6, cy, ctx.measureText(item.text).width, 1); }
    ctx.globalAlpha = 1;
  }
}

// The tooltip: its title lines (bold) and one body entry per active element, each with its colour swatch, in a
// dark box beside the point at (x, y), kept within the canvas.
export function drawTooltip(ctx, tip, widthPx, heightPx) {
  const lines = [...tip.title.map((text) => ({ text, bold: true })), ...tip.body.flatMap((b) => b.lines.map((text, i) => ({ text, colour: i === 0 ? b.colour : null })))];
  if (!lines.length) return;
  const widths = lines.map((l) => { ctx.font = font(TICK_FONT_PX, l.bold ? 'bold' : ''); return ctx.measureText(l.text).width + (l.colour !== undefined && !l.bold ? TIP_SWATCH_PX + 4 : 0); });
  const w = Math.min(widthPx - 4, Math.max(...widths) + 2 * TIP_PAD_PX);
  const h = lines.length * TIP_LINE_PX + 2 * TIP_PAD_PX - 4;
  let x = tip.x + 10;
  if (x + w > widthPx - 2) x = tip.x - 10 - w;
  x = Math.max(2, x);
  const y = Math.max(2, Math.min(heightPx - h - 2, tip.y - h / 2));
  ctx.save();
  ctx.fillStyle = 'rgba(0,0,0,0.82)';
  ctx.beginPath();
  if (ctx.roundRect) ctx.roundRect(x, y, w, h, 5); else ctx.rect(x, y, w, h);
  ctx.fill();
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  lines.forEach((l, i) => {
    const cy = y + TIP_PAD_PX + i * TIP_LINE_PX + TIP_LINE_PX / 2 - 2;
    let tx = x + TIP_PAD_PX;
    if (!l.bold && l.colour !== undefined) {
      if (l.colour) { ctx.fillStyle = l.colour; ctx.fillRect(tx, cy - TIP_SWATCH_PX / 2, TIP_SWATCH_PX, TIP_SWATCH_PX); }
      tx += TIP_SWATCH_PX + 4;
    }
    ctx.font = font(TICK_FONT_PX, l.bold ? 'bold' : '');
    ctx.fillStyle = '#fff';
    ctx.fillText(l.text, tx, cy, w - (tx - x) - TIP_PAD_PX);
  });
  ctx.restore();
}
