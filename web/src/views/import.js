// The user's own data: catalogs imported from a file (our JSON format, or a SkyPilot vms.csv through
// engine.importSkypilot) and offers typed into a form. Kept in localStorage as {version: 1, catalogs: [...]};
// an unreadable value is moved aside and reported, never a blank page. A rejected import changes nothing:
// engine.addCatalog is all-or-nothing and loadCatalog keeps the old catalog on failure.
import { h, tx, txv, engineText, dataText, foldPanel } from './dom.js';
import { NAMES } from '../state/names.js';
import { todayIso } from '../format/format.js';
import { groupIssues } from './issues.js';


const INTERCONNECTS = ['none', 'pcie', 'nvlink', 'nvswitch', 'infinity-fabric'];

// An issue's explanation: an engine message ({code, params}) in the reader's language, a page string by its key
// ({key, ui: true}), or a sentence the page made.
const issueText = (i, t) => (i.key && t ? tx('span', t, i.key) : i.ui ? h('span', {}, i.message) : engineText('span', i.message));
const issueItem = (i, t) => h('li', {}, i.path ? h('code', { class: 'path', 'data-raw': '' }, i.path) : null, i.path ? ' ' : null, issueText(i, t));
const issueList = (issues, id, t) => h('ul', { class: 'issues', id }, issues.map((i) => issueItem(i, t)));

// Import warnings grouped by reason: one entry per reason with the number of lines it concerns, its first cases
// behind a disclosure (a file of 190,000 rows can give thousands of one reason: drawing them all held the page for
// a tenth of a second); a long report folds after the first reasons.
const SHOWN_GROUPS = 6;
const SHOWN_CASES = 20;
function groupedIssueList(issues, id, t, fmt) {
  const n = (x) => (fmt ? fmt.int(x) : x);
  const cases = (g) => [...g.items.slice(0, SHOWN_CASES).map((i) => issueItem(i, t)),
    g.items.length > SHOWN_CASES ? h('li', { class: 'sub' }, t('andMoreN', { n: n(g.items.length - SHOWN_CASES) })) : null];
  const item = (g) => (g.items.length === 1 ? issueItem(g.items[0], t)
    : h('li', {}, h('details', { class: 'issue-group' },
      h('summary', {}, issueText(g), ' ', h('span', { class: 'badge' }, t('linesN', { n: n(g.lines) })),
        ' ', h('span', { class: 'sub' }, t('similarN', { n: g.items.length - 1 }))),
      h('ul', { class: 'issues' }, cases(g)))));
  const groups = groupIssues(issues);
  const head = groups.slice(0, SHOWN_GROUPS).map(item);
  const rest = groups.slice(SHOWN_GROUPS);
  return h('ul', { class: 'issues', id }, head,
    rest.length ? h('li', {}, h('details', { class: 'issue-more' }, h('summary', {}, t('moreReasonsN', { n: rest.length })), h('ul', { class: 'issues' }, rest.map(item)))) : null);
}

// "Importing …" while the engine host reads a file (a SkyPilot CSV of thousands of rows takes a second or two).
// "Importing …" with the seconds it has taken and a Cancel button (a long import can always be stopped).
export function busyMessage(t, name, onCancel) {
  return h('div', { class: 'notice', id: 'import-busy', role: 'status' },
    txv('p', t, 'importBusy', { name: dataText('span', name) }),
    h('p', { class: 'sub' }, h('span', { id: 'import-elapsed' }, ''), ' ',
      onCancel ? h('button', { type: 'button', class: 'small', id: 'import-cancel', onclick: onCancel }, t('importCancel')) : null));
}

// The "Your data" panel: drop zone + file picker, the SkyPilot provider name, the offer form and the list.
export function dataPanel(ctx) {
  const { t, fmt, gpus, userData } = ctx;
  const status = h('div', { id: 'import-status', role: 'status', 'aria-live': 'polite' });
  if (userData.busy) status.append(busyMessage(t, userData.busy, () => ctx.cancelImport()));
  else if (userData.lastMessage) status.append(renderMessage(userData.lastMessage, t, fmt, ctx));

  const provider = h('input', { type: 'text', id: 'import-provider', value: userData.providerName || '', autocomplete: 'off',
    oninput: (e) => { userData.providerName = e.target.value; } });
  // The native file input is visually hidden (its button text would follow the browser's language, not the
  // page's); its label is the visible button, and keyboard focus on the input outlines that label.
  const file = h('input', { type: 'file', id: 'import-file', class: 'sr-only file-input', accept: '.json,.csv,application/json,text/csv',
    multiple: true, onchange: (e) => { const files = [...(e.target.files || [])]; e.target.value = ''; if (files.length) ctx.importFiles(files); } });
  const drop = h('div', { class: 'drop', id: 'drop-zone' },
    tx('p', t, 'dropHint'),
    h('div', { class: 'field file-field' }, file, tx('label', t, 'chooseFile', { for: 'import-file', class: 'file-button' })),
    h('div', { class: 'field' }, tx('label', t, 'skypilotProvider', { for: 'import-provider' }), provider,
      tx('span', t, 'skypilotProviderHint', { class: 'hint' })));
  for (const ev of ['dragenter', 'dragover']) drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add('over'); });
  for (const ev of ['dragleave', 'drop']) drop.addEventListener(ev, () => drop.classList.remove('over'));

  const list = userData.catalogs.length
    ? h('ul', { class: 'my-catalogs', id: 'my-catalogs' }, userData.catalogs.map((c, i) => h('li', {},
      dataText('span', c.name, { class: 'cat-name' }), ' ',
      h('span', { class: 'sub' }, t(`kindStore_${c.kind}`), ' · ', t('offersN', { n: fmt.int(c.count) }), ' · ', fmt.date(c.added)),
      ' ',
      c.unreadable ? tx('span', t, 'storageDamagedDoc', { class: 'notice error rejected-reason', id: `damaged-${i}` }) : c.rejected ? rejectedNote(c, i, ctx) : null,
      c.missing ? tx('span', t, 'storageMissingDoc', { class: 'notice error rejected-reason' }) : null,
      c.kind === 'manual' && !c.rejected && c.offerId !== undefined ? h('button', { type: 'button', class: 'small', onclick: () => ctx.editOffer(c.offerId, { template: false }),
        'aria-label': t('editNamed', { name: c.name }) }, t('edit')) : null,
      c.session ? tx('span', t, 'sessionOnlyBadge', { class: 'sub session-only' }) : null,
      c.missing ? null : h('button', { type: 'button', class: 'small', id: `export-${i}`, onclick: () => ctx.exportCatalog(i), 'aria-label': t('exportNamed', { name: c.name }) }, t('exportCatalog')),
      h('button', { type: 'button', class: 'small', 'data-index': i, onclick: () => ctx.removeCatalog(i),
        'aria-label': t('removeNamed', { name: c.name }) }, t('remove')))))
    : tx('p', t, 'noUserData', { class: 'sub', id: 'my-catalogs-empty' });

  return foldPanel('data-panel', tx('h2', t, 'yourData', { id: 'data-title' }), drop, status,
    tx('h3', t, 'myCatalogs'), list,
    offerForm(ctx, gpus));
}

// Why a stored catalog was not loaded: the engine's errors with their paths in the document, and the ways out
// (export it to fix and import again, keep the offers that pass, or remove it).
const PROBLEMS_SHOWN = 5;
function rejectedNote(c, i, ctx) {
  const { t, fmt } = ctx;
  const problems = c.problems && c.problems.length ? c.problems : [{ path: '', message: c.rejected }];
  const more = (c.problem_count || problems.length) - Math.min(problems.length, PROBLEMS_SHOWN);
  // Once its valid offers are a catalog of their own, a second copy of them could only collide with the first.
  const repaired = ctx.userData.catalogs.some((x) => x.name === `${c.name}${t('repairedSuffix')}`);
  return h('div', { class: 'notice error rejected-reason', id: `rejected-${i}` },
    h('p', {}, t('storageRejectedReason')),
    h('ul', { class: 'issues' }, problems.slice(0, PROBLEMS_SHOWN).map((p) => issueItem(p)),
      more > 0 ? h('li', { class: 'sub' }, t('andMoreN', { n: fmt.int(more) })) : null),
    tx('p', t, 'repairHint', { class: 'sub' }),
    repaired ? null : h('button', { type: 'button', class: 'small', id: `repair-${i}`, onclick: () => ctx.repairCatalog(i), 'aria-label': t('repairNamed', { name: c.name }) }, t('repairKeepValid')));
}

export function renderMessage(msg, t, fmt = null, ctx = null) {
  if (msg.kind === 'batch') return h('div', { class: 'import-report' }, msg.items.map((item, i) => renderItem(item, i, t, fmt, ctx)));
  return renderItem(msg, 0, t, fmt, ctx);
}

// One file's report; the first report of a batch keeps the plain ids (import-ok, import-error, …).
function renderItem(msg, i, t, fmt, ctx) {
  const id = (base) => (i ? `${base}-${i + 1}` : base);
  const n = (x) => (fmt ? fmt.int(x) : x);
  const provider = msg.provider ? h('span', { class: 'sub' }, ' · ', txv('span', t, 'importProvider', { provider: dataText('span', msg.provider) })) : null;
  const warnings = msg.warnings && msg.warnings.length
    ? h('div', {}, unmappedLine(msg, id('import-unmapped'), t, n), tx('p', t, 'importWarnings'), groupedIssueList(msg.warnings, id('import-warnings'), t, fmt))
    : unmappedLine(msg, id('import-unmapped'), t, n);
  if (msg.kind === 'ok') {
    const resolved = msg.resolved ? tx('p', t, msg.resolved === 'merge' ? 'importMerged' : 'importReplaced') : null;
    return h('div', { class: 'notice ok', id: id('import-ok'), 'data-file': msg.name },
      h('p', {}, t('importOk', { n: n(msg.count) }), ' ', dataText('span', msg.name), provider), resolved,
      msg.session ? tx('p', t, 'sessionOnly', { id: id('import-session-only') }) : null, warnings);
  }
  if (msg.kind === 'kept') {
    return h('div', { class: 'notice', id: id('import-kept'), 'data-file': msg.name },
      txv('p', t, 'importKept', { name: dataText('span', msg.name), old: dataText('span', msg.conflict.name) }));
  }
  if (msg.kind === 'conflict') return conflictItem(msg, id('import-conflict'), t, fmt, ctx, warnings);
  if (msg.kind === 'repaired') return repairedItem(msg, id('repair-ok'), t, n);
  return h('div', { class: 'notice error', id: id('import-error'), role: 'alert', 'data-file': msg.name || null },
    h('p', {}, h('strong', {}, t(msg.titleKey || 'importFailed')), ' ', msg.name ? dataText('span', msg.name) : null),
    tx('p', t, 'importNothingChanged'),
    issueList(msg.errors || [], id('import-errors'), t),
    unmappedLine(msg, id('import-unmapped'), t, n));
}

// The accelerator names of a SkyPilot file that match no GPU of the database, each with its rows (all skipped).
function unmappedLine(msg, id, t, n) {
  const list = msg.unmapped || [];
  if (!list.length) return null;
  const items = list.map((u, i) => h('span', { class: 'unmapped-name' }, i ? ', ' : '', dataText('code', u.name), ` (${t('rowsN', { n: n(u.rows) })})`));
  return h('p', { class: 'unmapped', id }, t('importUnmapped', { n: n(list.length) }), ' ', ...items);
}

// The report of a repair: the new catalog, the offers left out with the error that named each, the original kept.
function repairedItem(msg, id, t, n) {
  return h('div', { class: 'notice ok', id, 'data-file': msg.name },
    txv('p', t, 'repairDone', { n: n(msg.count), name: dataText('span', msg.name), from: dataText('span', msg.from) }),
    msg.dropped.length ? h('div', {}, h('p', {}, t('repairDroppedN', { n: n(msg.dropped.length) })),
      h('ul', { class: 'issues', id: `${id}-dropped` }, msg.dropped.map((d) => h('li', {}, dataText('span', d.id || '—', { class: 'offer-id' }), ' ',
        h('code', { class: 'path', 'data-raw': '' }, d.path), ' ', engineText('span', d.message))))) : null,
    txv('p', t, 'repairOriginalKept', { from: dataText('span', msg.from) }),
    msg.session ? tx('p', t, 'sessionOnly') : null);
}

// A file that refreshes an earlier import of the same provider: what would change, and replace / merge / keep.
function conflictItem(msg, id, t, fmt, ctx, warnings) {
  const c = msg.conflict.summary;
  const n = (x) => (fmt ? fmt.int(x) : x);
  const money = (x) => (fmt ? fmt.money(x) : String(x));
  const pct = (m) => `${m.to > m.from ? '+' : ''}${((m.to / m.from - 1) * 100).toFixed(1)} %`;
  const names = (list, total) => h('ul', { class: 'change-list' }, list.map((x) => h('li', {}, dataText('span', `${x.instance} · ${x.region}`))),
    total > list.length ? h('li', { class: 'sub' }, t('andMoreN', { n: n(total - list.length) })) : null);
  const where = (m) => (m.regions.length === 1 ? m.region : t('regionsN', { n: n(m.regions.length) }));
  const moves = c.moves.length ? h('div', { class: 'price-moves' }, tx('h4', t, 'priceMoves'),
    h('ul', { class: 'change-list' }, c.moves.map((m) => h('li', {},
      dataText('span', m.instance, { class: 'move-name' }), ' · ', h('span', { title: m.regions.join(', ') }, where(m)), ' · ', t(m.model), ': ',
      h('span', { class: 'num' }, `${money(m.from)} → ${money(m.to)}`), ' ', h('span', { class: m.to > m.from ? 'worse' : 'better' }, pct(m)))),
    c.moveLines > c.moves.length ? h('li', { class: 'sub' }, t('andMoreN', { n: n(c.moveLines - c.moves.length) })) : null)) : null;
  const button = (mode, key, cls = '') => h('button', { type: 'button', class: cls, 'data-mode': mode, onclick: () => ctx && ctx.resolveImport(msg, mode) }, t(key));
  return h('div', { class: 'notice warn', id, role: 'group', 'data-file': msg.name },
    txv('p', t, 'importRefresh', { name: dataText('span', msg.name), old: dataText('span', msg.conflict.name), provider: dataText('span', msg.provider || '—') }),
    h('p', { class: 'change-counts' }, t('changeCounts', { added: n(c.added), removed: n(c.removed), moved: n(c.moved), unchanged: n(c.unchanged) })),
    moves,
    c.added ? h('details', {}, h('summary', {}, t('newOffersN', { n: n(c.added) })), names(c.addedList, c.added)) : null,
    c.removed ? h('details', {}, h('summary', {}, t('removedOffersN', { n: n(c.removed) })), names(c.removedList, c.removed)) : null,
    h('div', { class: 'actions' }, button('replace', 'importReplace', 'preset-button'), button('merge', 'importMerge'), button('keep', 'importKeep')),
    warnings);
}

function offerForm(ctx, gpus) {
  const { t, userData, fmt } = ctx;
  const v = userData.form || { as_of: todayIso(), gpu_count: 1 };
  const editing = Boolean(userData.editingId);
  const input = (id, key, attrs = {}) => h('input', { id: `of-${id}`, name: key, value: v[key] ?? '', ...attrs });
  const num = (id, key, attrs = {}) => input(id, key, { type: 'number', step: 'any', min: 0, inputmode: 'decimal', ...attrs });
  const f = (id, labelKey, control, vars) => h('div', { class: 'field' }, h('label', { for: `of-${id}` }, t(labelKey, vars)), control);
  const cur = v.currency || ctx.state.currency;
  const form = h('form', { id: 'offer-form', novalidate: true },
    f('provider', 'ofProvider', input('provider', 'provider', { required: true, autocomplete: 'off' })),
    f('instance', 'ofInstance', input('instance', 'instance_type', { required: true, autocomplete: 'off' })),
    f('region', 'ofRegion', input('region', 'region', { required: true, autocomplete: 'off' })),
    f('gpu', 'ofGpu', h('select', { id: 'of-gpu', name: 'gpu' }, gpus.map((g) => h('option', { value: g.id, selected: g.id === v.gpu, 'data-raw': '' }, g.name)))),
    f('count', 'ofCount', num('count', 'gpu_count', { min: 1, max: 1024, step: 1, required: true })),
    f('interconnect', 'ofInterconnect', h('select', { id: 'of-interconnect', name: 'interconnect' },
      INTERCONNECTS.map((i) => h('option', { value: i, selected: i === (v.interconnect || 'none') }, t(`ic_${i}`))))),
    f('network', 'ofNetwork', num('network', 'network_gbps')),
    h('div', { class: 'field check' }, h('input', { type: 'checkbox', id: 'of-rdma', name: 'rdma', checked: Boolean(v.rdma) }), tx('label', t, 'ofRdma', { for: 'of-rdma' })),
    f('currency', 'ofCurrency', h('select', { id: 'of-currency', name: 'currency' },
      ['USD', 'CNY'].map((c) => h('option', { value: c, selected: c === cur }, t(`cur_${c}`))))),
    f('ondemand', 'ofOnDemand', num('ondemand', 'on_demand')),
    f('spot', 'ofSpot', num('spot', 'spot')),
    f('reserved', 'ofReserved', num('reserved', 'reserved')),
    f('term', 'ofTerm', num('term', 'term_months', { min: 1, step: 1 })),
    f('monthly', 'ofMonthly', num('monthly', 'monthly')),
    f('asof', 'ofAsOf', input('asof', 'as_of', { type: 'date', required: true })),
    f('source', 'ofSource', input('source', 'source', { required: true, autocomplete: 'off' })),
    tx('p', t, 'ofCnyNote', { class: 'hint' }, { rate: fmt.num(ctx.state.rate, 4) }),
    h('div', { class: 'actions' },
      h('button', { type: 'submit', id: 'offer-save' }, t(editing ? 'ofSaveEdit' : 'ofSaveNew')),
      h('button', { type: 'button', id: 'offer-cancel', onclick: () => ctx.cancelOfferForm() }, t('cancel'))),
    h('div', { id: 'offer-status', role: 'status', 'aria-live': 'polite' }, userData.formMessage ? renderMessage(userData.formMessage, t) : null));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const fd = new FormData(form);
    const n = (k) => { const x = String(fd.get(k) || '').trim(); return x === '' ? undefined : Number(x); };
    const s = (k) => String(fd.get(k) || '').trim();
    ctx.saveOffer({
      provider: s('provider'), instance_type: s('instance_type'), region: s('region'), gpu: s('gpu'), gpu_count: n('gpu_count'),
      interconnect: s('interconnect'), network_gbps: n('network_gbps'), rdma: fd.get('rdma') !== null, currency: s('currency'),
      on_demand: n('on_demand'), spot: n('spot'), reserved: n('reserved'), term_months: n('term_months'), monthly: n('monthly'),
      as_of: s('as_of'), source: s('source'),
    });
  });
  return h('details', { class: 'offer-details', id: 'offer-form-details', open: userData.formOpen || null,
    ontoggle: (e) => { userData.formOpen = e.target.open; } },
  h('summary', { id: 'offer-form-summary' }, t(editing ? 'ofTitleEdit' : 'ofTitleNew')), form);
}

// Client-side checks before the engine sees the offer (the engine then checks everything again).
export function checkOfferValues(v, t) {
  const errors = [];
  const err = (path, key) => errors.push({ path, message: t(key), ui: true });
  for (const k of ['provider', 'instance_type', 'region', 'source']) if (!v[k]) err(k, 'ofRequired');
  if (!(Number.isInteger(v.gpu_count) && v.gpu_count >= 1)) err('gpu_count', 'ofCountInvalid');
  if (!NAMES.pricing_models.some((m) => v[m] > 0)) err('prices', 'ofNeedPrice');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v.as_of || '')) err('as_of', 'ofRequired');
  return errors;
}
