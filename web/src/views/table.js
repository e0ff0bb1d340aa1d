// The ranked offers table: one row per offer and billing model, sortable by every numeric column.
import { h, tx, txv, engineText, dataText } from './dom.js';
import { SORT_FIRST } from '../state/rows.js';
import { timed } from './profile.js';
import { background } from './tasks.js';
import { sortHeader } from './sortable.js';
import { calibratedMark } from './calibration.js';
import { providerName } from '../format/providers.js';

const COLUMNS = [
  { id: 'rank', key: 'colRank', sort: 'rank', num: true },
  { id: 'compare', key: 'colCompare' },
  { id: 'instance', key: 'colInstance' },
  { id: 'gpus', key: 'colGpu', sort: 'total_gpus' },
  { id: 'pricing', key: 'colPricing' },
  { id: 'time', key: 'colTime', sort: 'time_hours', num: true },
  { id: 'cost', key: 'colCost', sort: 'cost_usd', num: true },
  { id: 'hourly', key: 'colHourly', sort: 'usd_per_hour', num: true },
  { id: 'unit', key: 'colUnitCost', sort: 'usd_per_tflops_day', num: true },
  { id: 'memory', key: 'colMemory', sort: 'memory', num: true },
  { id: 'score', key: 'colScore', sort: 'score', num: true },
  { id: 'why', key: 'colWhy' },
];

function headerCell(col, ctx) {
  const { t, state } = ctx;
  if (!col.sort) return h('th', { scope: 'col', role: 'columnheader', class: col.num ? 'num' : '', 'data-col': col.id }, tx('span', t, col.key));
  return sortHeader(col, t, { sort: state.sort, first: SORT_FIRST[col.sort], onSort: (sort) => ctx.update({ sort }) });
}

// A cell's column name (data-label), shown above its value only when rows are laid out as cards (styles.css,
// a ::before, so no extra nodes per cell); screen readers announce the column header.
const label = (t, key) => ({ 'data-label': t(key) });
// The hourly price: a commitment's list rate (what the term costs per hour), and beside it what this job pays per
// hour of its run (the whole commitment over the job's hours), never the second alone as if it were a rate.
const COMMITMENTS = new Set(['reserved', 'monthly']);
function hourlyCell(r, t, fmt) {
  const commitment = COMMITMENTS.has(r.pricing) && r.list_usd_per_hour > 0;
  const shown = (commitment ? r.list_usd_per_hour : r.usd_per_hour) * r.nodes;
  return h('td', { class: 'num', 'data-col': 'hourly', 'data-v': shown, ...label(t, 'colHourly') }, fmt.money(shown),
    commitment && r.fits ? h('span', { class: 'sub' }, t('jobPaysPerHour', { rate: fmt.money(r.usd_per_hour * r.nodes) })) : null,
    r.stale ? h('span', { class: 'sub stale-text' }, t('staleAsOf', { date: r.as_of })) : null);
}
// The unit cost, or "n/a" with the reason when the engine has none (null: a GPU without a dense FP16 peak).
const unitCell = (r, t, fmt) => (r.usd_per_tflops_day > 0
  ? h('td', { class: 'num', 'data-col': 'unit', 'data-v': r.usd_per_tflops_day, ...label(t, 'colUnitCost') }, fmt.unitMoney(r.usd_per_tflops_day))
  : h('td', { class: 'num na', 'data-col': 'unit', title: t('unitCostNaWhy'), ...label(t, 'colUnitCost') }, t('unitCostNa')));

// Groups of the same offer in several regions that the user opened (by their leading row's key).
const expanded = new Set();

function regionsToggle(r, ctx) {
  const { t, fmt } = ctx;
  const g = r._group;
  const open = expanded.has(r._key);
  return h('button', { type: 'button', class: 'regions-toggle', 'aria-expanded': open ? 'true' : 'false', 'data-group': r._key,
    onclick: (e) => {
      const now = !expanded.has(r._key);
      if (now) expanded.add(r._key); else expanded.delete(r._key);
      e.currentTarget.setAttribute('aria-expanded', now ? 'true' : 'false');
      const tbody = e.currentTarget.closest('tbody');
      for (const tr of tbody.querySelectorAll('tr.region-member')) if (tr.dataset.memberOf === r._key) tr.hidden = !now;
    } },
  `${open ? '▾' : '▸'} `, txv('span', t, 'regionsGroup', { n: fmt.int(g.n), region: dataText('span', g.cheapest_region) }));
}

function row(r, ctx) {
  const { t, fmt, state } = ctx;
  const key = r._key;
  const selected = ctx.selKey === key;
  const compared = state.cmp.includes(key);
  const cmpFull = state.cmp.length >= 4 && !compared;
  const badges = [
    r.example ? tx('span', t, 'badgeExample', { class: 'badge' }) : null,
    r.pareto ? tx('span', t, 'badgePareto', { class: 'badge pareto' }) : null,
    r.stale ? tx('span', t, 'badgeStale', { class: 'badge stale' }) : null,
    r.marketplace ? tx('span', t, 'badgeMarketplace', { class: 'badge' }) : null,
    r._user ? tx('span', t, 'badgeUser', { class: 'badge user' }) : null,
    calibratedMark(r, ctx),
  ];
  const mem = r.memory || {};
  const warnCount = (r.warnings || []).length;
  const member = Boolean(r._member_of);
  const cls = `${r.fits ? '' : 'unfit'}${selected ? ' selected' : ''}${member ? ' region-member' : ''}${r._group ? ' region-head' : ''}`;
  // Explicit ARIA roles: the rows are laid out as grids (styles.css), which would drop the native table semantics.
  const tr = h('tr', { role: 'row', class: cls.trim(), 'data-key': key, 'data-provider': r.provider, 'data-gpu': r.gpu, 'aria-current': selected ? 'true' : null,
    'data-member-of': member ? r._member_of : null, hidden: member && !expanded.has(r._member_of) && !selected ? true : null },
  // Rows that do not fit are listed for their numbers but not ranked.
  h('td', { class: 'num', 'data-col': 'rank', 'data-v': r._rank }, r.fits ? fmt.int(r._rank) : '—'),
  h('td', { class: 'cmp', 'data-col': 'compare' },
    h('input', { type: 'checkbox', id: `cmp-${r._rank}`, checked: compared, disabled: cmpFull, 'data-key': key,
      onchange: (e) => ctx.toggleCompare(key, e.target.checked) }),
    txv('label', t, 'compareRow', { name: h('span', {}, dataText('span', r.instance), ` ${t(r.pricing)}`) }, { for: `cmp-${r._rank}`, class: 'sr-only' })),
  h('td', { class: 'inst', 'data-col': 'instance' },
    h('button', { type: 'button', class: 'link', id: `sel-${r._rank}`, 'data-key': key, 'aria-pressed': selected ? 'true' : 'false',
      onclick: () => ctx.select(key, { focus: true }) }, dataText('span', r.instance)),
    ...badges, h('span', { class: 'sub', 'data-raw': '' }, `${providerName(t, r.provider)} · ${r.region}`),
    r._group ? regionsToggle(r, ctx) : null),
  h('td', { class: 'gpu', 'data-col': 'gpus', 'data-v': r.total_gpus, ...label(t, 'colGpu') }, dataText('span', `${r.total_gpus}× ${r.gpu_name}`),
    r.nodes > 1 ? h('span', { class: 'sub' }, t('nodesN', { n: fmt.int(r.nodes) })) : null),
  h('td', { 'data-col': 'pricing', 'data-v': r.pricing, ...label(t, 'colPricing') }, t(r.pricing)),
  h('td', { class: 'num', 'data-col': 'time', 'data-v': r.time_hours, 'data-late': r.fits && r.meets_horizon === false ? '1' : null, ...label(t, 'colTime') },
    fmt.duration(r.time_hours), r.fits && r.meets_horizon === false ? h('span', { class: 'sub stale-text' }, t('beyondHorizon')) : null),
  h('td', { class: 'num', 'data-col': 'cost', 'data-v': r.cost_usd, ...label(t, 'colCost') }, r.fits && r.time_hours > 0 ? fmt.money(r.cost_usd) : '—'),
  hourlyCell(r, t, fmt),
  unitCell(r, t, fmt),
  h('td', { class: `num mem ${r.fits ? 'yes' : 'no'}`, 'data-col': 'memory', 'data-v': mem.required_gb_per_gpu, 'data-fits': r.fits ? '1' : '0', ...label(t, 'colMemory') },
    `${fmt.num(mem.required_gb_per_gpu, 1)} / ${fmt.num(mem.available_gb_per_gpu, 0)}`,
    r.fits ? null : h('span', { class: 'sub' }, t('badgeNoFit'))),
  h('td', { class: 'num', 'data-col': 'score', 'data-v': r.score, ...label(t, 'colScore') }, fmt.num(r.score, 3)),
  h('td', { class: 'why', 'data-col': 'why', ...label(t, 'colWhy') }, engineText('span', r.reasons || []),
    warnCount ? h('span', { class: 'warn-count', title: t('warningsN', { n: warnCount }) }, `⚠ ${t('warningsN', { n: warnCount })}`) : null));
  for (const td of tr.children) td.setAttribute('role', 'cell');
  return tr;
}

const FIRST_ROWS = 20;
const CHUNK_ROWS = 15;
// The rows below the first screen are added in background-priority tasks (views/tasks.js), so that the charts and
// details of the same change, each a task of normal priority, come first.
let pending = null;

// Renders the table: the first rows at once (what is on screen), the rest in later short tasks so that an update
// paints quickly. onDone runs when the first rows are in the DOM; the wrapper has data-complete="1" once every row is.
export function renderTable(container, rows, ctx, onDone = () => {}) {
  const { t } = ctx;
  if (pending) { pending(); pending = null; }
  if (trimming) { trimming(); trimming = null; }
  const tbody = timed('table: first rows', () => h('tbody', { role: 'rowgroup' }, rows.slice(0, FIRST_ROWS).map((r) => row(r, ctx))));
  const table = h('table', { id: 'ranking', class: 'ranking', role: 'table' },
    h('caption', { class: 'sr-only', 'data-i18n': 'tableCaption' }, t('tableCaption')),
    h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, COLUMNS.map((c) => headerCell(c, ctx)))), tbody);
  // Clicking anywhere on a row (not on its controls or links) selects it.
  table.addEventListener('click', (e) => {
    if (e.target.closest('button, input, label, a')) return;
    const tr = e.target.closest('tbody tr');
    if (tr) ctx.select(tr.dataset.key);
  });
  container.dataset.complete = rows.length > FIRST_ROWS ? '0' : '1';
  timed('table: swap', () => container.replaceChildren(table));
  if (!rows.length) container.append(tx('p', t, 'noResults', { class: 'empty' }));
  let next = FIRST_ROWS;
  const step = () => {
    pending = null;
    const live = ctx.current();  // selection may have changed meanwhile
    const frag = document.createDocumentFragment();
    for (const r of rows.slice(next, next + CHUNK_ROWS)) frag.append(row(r, live));
    tbody.append(frag);
    next += CHUNK_ROWS;
    if (next < rows.length) pending = background(() => timed('table rows', step));
    else container.dataset.complete = '1';
  };
  if (rows.length > FIRST_ROWS) pending = background(() => timed('table rows', step));
  onDone();
}

// While a new ranking is computed, the old table's rows below the first screenful are removed a few at a time,
// so that swapping in the new table later is one short task even with hundreds of rows.
let trimming = null;
export function trimTable(container, keep = 40, batch = 40) {
  if (trimming) trimming();
  const step = () => {
    trimming = null;
    const tbody = container.querySelector('tbody');
    if (!tbody || tbody.children.length <= keep) return;
    for (let i = 0; i < batch && tbody.children.length > keep; ++i) tbody.lastElementChild.remove();
    trimming = background(step);
  };
  trimming = background(step);
}

// Updates selection and comparison marks without rebuilding the rows.
export function syncTableMarks(container, ctx) {
  const { state, selKey } = ctx;
  const full = state.cmp.length >= 4;
  for (const tr of container.querySelectorAll('tbody tr')) {
    const key = tr.dataset.key;
    const selected = key === selKey;
    tr.classList.toggle('selected', selected);
    if (selected && tr.hidden) tr.hidden = false;  // an offer chosen elsewhere (chart, overview) in a folded region group
    if (selected) tr.setAttribute('aria-current', 'true'); else tr.removeAttribute('aria-current');
    const btn = tr.querySelector('button.link');
    if (btn) btn.setAttribute('aria-pressed', selected ? 'true' : 'false');
    const box = tr.querySelector('td.cmp input');
    if (box) {
      box.checked = state.cmp.includes(key);
      box.disabled = full && !box.checked;
    }
  }
}
