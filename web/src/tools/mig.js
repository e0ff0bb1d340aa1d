// MIG packing: small jobs onto Multi-Instance GPU slices of one GPU type (NVML placements), drawn as a
// 7-slice bar per GPU, with the cost per job against whole small GPUs (T4, L4, A10) and the whole GPU without
// MIG. engine.mig.
import { h, tx, engineText, dataText, priceDate } from '../views/dom.js';
import { field, numberInput, selectInput, num, kpi, times, gpuOptions, put, scopeOf } from './form.js';

const MAX_GROUPS = 8;
const MAX_GPUS_DRAWN = 16;
const DEFAULT_JOBS = '7:8:1';

// "7:8:1,2:20:4:50" -> [{count, mem, hours, share}] (share in %, optional); texts as typed.
function parseGroups(text) {
  return String(text || DEFAULT_JOBS).split(',').slice(0, MAX_GROUPS).map((g) => {
    const [count = '', mem = '', hours = '', share = ''] = g.split(':');
    return { count, mem, hours, share };
  });
}
const groupsText = (groups) => groups.map((g) => [g.count, g.mem, g.hours, g.share].join(':').replace(/:+$/, '')).join(',');

function defaultGpu(c) {
  const mig = c.gpus.filter((g) => (g.mig_profiles || []).length);
  return (mig.find((g) => g.id === 'a100-sxm4-80gb') || mig[0] || {}).id;
}

export const migPanel = {
  id: 'mig',
  titleKey: 'toolMig',
  introKey: 'toolMigIntro',
  inputsKey: (c, st) => String(parseGroups(st.jobs).length),

  inputs(c, st, io) {
    const { t } = c;
    const groups = parseGroups(st.jobs);
    const save = () => io.set('jobs', groupsText(groups));
    const cell = (i, key, labelKey, path, attrs = {}) => {
      const id = `mig-${key}-${i}`;
      return h('td', {}, h('label', { for: id, class: 'sr-only' }, t(labelKey, { n: i + 1 })),
        numberInput(id, groups[i][key], (v) => { groups[i][key] = v; save(); }, { min: 0, 'data-path': `/jobs/${i}/${path}`, ...attrs }));
    };
    const rows = groups.map((g, i) => h('tr', {},
      cell(i, 'count', 'migCountN', 'count', { step: 1 }), cell(i, 'mem', 'migMemN', 'memory_gb'), cell(i, 'hours', 'migHoursN', 'hours'),
      cell(i, 'share', 'migShareN', 'compute_share', { max: 100, placeholder: t('migShareAuto') }),
      h('td', {}, groups.length > 1 ? h('button', { type: 'button', class: 'small', id: `mig-remove-${i}`, 'aria-label': t('migRemoveN', { n: i + 1 }),
        onclick: () => { groups.splice(i, 1); io.set('jobs', groupsText(groups), { rebuild: true }); } }, t('remove')) : null)));
    return [
      h('div', { class: 'tool-grid' },
        field('mig-gpu', t('migGpu'), selectInput('mig-gpu', st.gpu || defaultGpu(c), gpuOptions(c.gpus, (g) => (g.mig_profiles || []).length), (v) => io.set('gpu', v), { 'data-path': '/gpu' }))),
      h('div', { class: 'scroll-x' }, h('table', { class: 'mini jobs', id: 'mig-jobs' },
        h('caption', { class: 'cap' }, tx('span', t, 'migJobs')),
        h('thead', {}, h('tr', {}, ['migCount', 'migMem', 'migHours', 'migShare'].map((k) => tx('th', t, k, { scope: 'col' })), h('td', {}))),
        h('tbody', {}, rows))),
      h('div', { class: 'actions' },
        h('button', { type: 'button', id: 'mig-add', disabled: groups.length >= MAX_GROUPS,
          onclick: () => io.set('jobs', groupsText([...groups, { count: '1', mem: '10', hours: '1', share: '' }]), { rebuild: true }) }, t('migAdd')),
        h('button', { type: 'button', id: 'mig-example-7', onclick: () => io.setMany({ jobs: '7:8:1' }, { rebuild: true }) }, t('migExample7')),
        h('button', { type: 'button', id: 'mig-example-mixed', onclick: () => io.setMany({ jobs: '3:20:2,2:5:4,1:35:8:40' }, { rebuild: true }) }, t('migExampleMixed'))),
    ];
  },

  calls(c, st) {
    const jobs = parseGroups(st.jobs).map((g) => {
      const j = { count: num(g.count) ?? null, memory_gb: num(g.mem) ?? null };
      if (num(g.hours) !== undefined) j.hours = num(g.hours);
      if (num(g.share) !== undefined) j.compute_share = num(g.share) / 100;
      return j;
    });
    return [{ method: 'mig', request: { gpu: st.gpu || defaultGpu(c), jobs, ...scopeOf(c) } }];
  },

  render(out, [r], c) {
    const { t, fmt } = c;
    const byGpu = new Map();
    for (const a of r.assignments) {
      if (!byGpu.has(a.gpu_index)) byGpu.set(a.gpu_index, []);
      byGpu.get(a.gpu_index).push(a);
    }
    const summary = h('p', { class: 'summary-line', id: 'mig-summary' },
      t('migSummary', { jobs: fmt.int(r.jobs), gpus: fmt.int(r.gpus_needed) }), ' ', dataText('span', r.gpu_name), ' ',
      r.fits ? tx('span', t, 'migAllFit', { class: 'badge ok' }) : h('span', { class: 'badge bad' }, t('migUnplaced', { n: fmt.int(r.unplaced_jobs.length) })));
    const bars = h('div', { class: 'mig-gpus', id: 'mig-bars' }, r.layout.slice(0, MAX_GPUS_DRAWN).map((g) => {
      const list = (byGpu.get(g.gpu_index) || []).slice().sort((a, b) => a.start_slice - b.start_slice);
      const used = new Set(list.flatMap((a) => Array.from({ length: a.compute_slices }, (_, k) => a.start_slice + k)));
      const segs = list.map((a) => h('li', {
        class: `mig-seg mig-c${a.compute_slices}`, style: `grid-column:${a.start_slice + 1} / span ${a.compute_slices}`,
        'data-profile': a.profile, 'data-start': a.start_slice, 'data-slices': a.compute_slices, 'data-job': a.job,
        'aria-label': t('migSegAria', { job: a.job + 1, profile: a.profile, from: a.start_slice + 1, to: a.start_slice + a.compute_slices, mem: fmt.num(a.memory_gb, 1) }),
      }, h('code', { 'data-raw': '' }, a.profile), h('span', { class: 'mig-job' }, t('migJobN', { n: a.job + 1 }))));
      // Compute slices left over when all 8 memory slices are taken cannot host another instance.
      const full = g.memory_slices_used >= 8;
      const free = Array.from({ length: 7 }, (_, k) => k).filter((k) => !used.has(k))
        .map((k) => h('li', { class: `mig-free${full ? ' no-memory' : ''}`, style: `grid-column:${k + 1} / span 1`, 'aria-label': t(full ? 'migIdleAria' : 'migFreeAria', { n: k + 1 }) },
          tx('span', t, full ? 'migIdle' : 'migFree')));
      return h('figure', { class: 'mig-gpu', 'data-gpu-index': g.gpu_index },
        h('figcaption', {}, t('migGpuN', { n: g.gpu_index + 1 }), ' · ',
          t('migUse', { compute: fmt.int(g.compute_slices_used), memory: fmt.int(g.memory_slices_used), hours: fmt.duration(g.hours) })),
        h('div', { class: 'mig-ruler', 'aria-hidden': 'true' }, Array.from({ length: 7 }, (_, k) => h('span', {}, String(k + 1)))),
        h('ol', { class: 'mig-bar', 'aria-label': t('migBarAria', { n: g.gpu_index + 1 }) }, segs, free));
    }));
    const legend = tx('p', t, 'migLegend', { class: 'sub' });
    const more = r.layout.length > MAX_GPUS_DRAWN ? h('p', { class: 'sub' }, t('migMoreGpus', { n: fmt.int(r.layout.length - MAX_GPUS_DRAWN) })) : null;

    const offerCell = (o) => (o ? h('span', {}, dataText('span', `${o.instance} · ${o.provider}`), ` · ${fmt.money(o.usd_per_hour)}/h · ${priceDate(t, fmt, o)}`,
      o.warning ? tx('span', t, 'badgeStale', { class: 'badge stale' }) : null) : tx('span', t, 'migNoOffer'));
    const rows = [
      { key: 'mig', label: h('span', {}, t('migOptionMig'), ' ', dataText('span', r.gpu_name)), fits: r.fits, fitN: r.jobs - r.unplaced_jobs.length, gpus: r.gpus_needed, slow: 1, cost: r.cost_usd, per: r.cost_per_job_usd, offer: r.offer, note: null },
      ...r.alternatives.map((a) => ({ key: a.option, label: wholeLabel(t, a, r), fits: a.fits, fitN: a.jobs_that_fit, gpus: a.gpus_needed, slow: a.slowdown, cost: a.cost_usd, per: a.cost_per_job_usd, offer: a.offer, note: a.note })),
    ];
    const table = h('div', { class: 'scroll-x' }, h('table', { class: 'mini', id: 'mig-costs' },
      h('caption', { class: 'cap' }, tx('span', t, 'migCostTitle')),
      h('thead', {}, h('tr', {}, ['migOption', 'migJobsFit', 'migGpusNeeded', 'migSlowdown', 'colCost', 'migPerJob', 'advOffer'].map((k) => tx('th', t, k, { scope: 'col' })))),
      h('tbody', {}, rows.map((x) => h('tr', { class: x.key === r.cheapest_option ? 'best-row' : '', 'data-option': x.key === 'mig' ? 'mig' : 'alt' },
        h('th', { scope: 'row' }, x.label, x.key === r.cheapest_option ? tx('span', t, 'migCheapest', { class: 'badge ok' }) : null),
        h('td', { class: 'num' }, `${fmt.int(x.fitN)} / ${fmt.int(r.jobs)}`),
        h('td', { class: 'num' }, fmt.int(x.gpus)),
        h('td', { class: 'num' }, times(fmt, x.slow)),
        h('td', { class: 'num', 'data-v': x.cost ?? '' }, x.cost !== null && x.cost !== undefined ? fmt.money(x.cost) : '—'),
        h('td', { class: 'num per-job', 'data-v': x.per ?? '' }, x.per !== null && x.per !== undefined ? fmt.money(x.per) : '—'),
        h('td', {}, offerCell(x.offer)))))));
    const notes = rows.filter((x) => x.note && x.note.length).map((x) => h('li', {}, x.label.cloneNode(true), ': ', engineText('span', x.note)));
    put(out, summary,
      h('div', { class: 'kpis' }, kpi(t('migPerJob'), r.cost_per_job_usd !== null ? fmt.money(r.cost_per_job_usd) : '—', { id: 'mig-per-job' }),
        kpi(t('colCost'), r.cost_usd !== null ? fmt.money(r.cost_usd) : '—'), kpi(t('migGpusNeeded'), fmt.int(r.gpus_needed))),
      bars, legend, more, table,
      notes.length ? h('ul', { class: 'sub notes' }, notes) : null,
      h('p', { class: 'sub' }, tx('strong', t, 'migRules'), ' ', engineText('span', r.rules)),
      h('p', { class: 'sub' }, tx('strong', t, 'migPricing'), ' ', engineText('span', r.pricing)),
      r.warnings.length ? h('ul', { class: 'warnings' }, r.warnings.map((w) => engineText('li', w))) : null);
  },
};

// One whole GPU per job (the engine's option "whole_<GPU id>"), in the page's language, the GPU as data.
function wholeLabel(t, a, r) {
  const parts = t(a.gpu === r.gpu ? 'migWholeNoMig' : 'migWhole').split(/\{(\w+)\}/);
  return h('span', { 'data-i18n-vars': a.gpu === r.gpu ? 'migWholeNoMig' : 'migWhole' }, parts.map((p, i) => (i % 2 ? dataText('span', a.gpu_name) : p)));
}
