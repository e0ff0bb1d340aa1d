// The summary above the charts: workload line, best picks, share link, exports and print. A function of the
// view it is given (ctx.view: the engine's answer for the current state) and the page's state; the buttons call the
// page's actions (ctx.select, ctx.copyLink, ctx.exportAs).
import { h, tx, engineText } from './dom.js';
import { providerName } from '../format/providers.js';

export function renderOverview(out, ctx) {
  const { t, fmt, state, view } = ctx;
  const error = view.error;
  const title = tx('h2', t, 'overviewTitle', { id: 'overview-title', class: 'sr-only' });
  if (error) {
    out.replaceChildren(title, h('p', { class: 'error', role: 'alert', id: 'engine-error' }, `${t('engineError')}: `,
      error.path && (error.explanation || !String(error.message).startsWith(error.path)) ? [h('code', { 'data-raw': '' }, error.path), ' '] : null,
      engineText('span', error.explanation || error.message)));
    return;
  }
  const r = view.meta;
  // The picks are over every row of the ranking (the engine host chose them; the page may hold only the first rows).
  const pick = (k) => (view.picks[k] ? view.byKey.get(view.picks[k]) : null) || null;
  const picks = [
    ['pickBest', pick('pickBest'), (x) => fmt.num(x.score, 3)],
    ['pickCheapest', pick('pickCheapest'), (x) => fmt.money(x.cost_usd)],
    ['pickFastest', pick('pickFastest'), (x) => fmt.duration(x.time_hours)],
    ['pickUnit', pick('pickUnit'), (x) => [fmt.unitMoney(x.usd_per_tflops_day), h('small', {}, ` /TFLOPS·${t('day')}`)]],
  ].filter(([, x]) => x);
  const wl = r.workload;
  const presetName = state.custom ? t('customWorkload') : (() => { const p = ctx.presets.find((x) => x.id === state.preset); return (p && p.name && (p.name[state.lang] || p.name.en)) || state.preset; })();
  const share = h('input', { id: 'share-url', type: 'text', readonly: true, value: location.href, onfocus: (e) => e.target.select() });
  out.replaceChildren(...[title,
    h('p', { class: 'summary', id: 'summary' },
      h('strong', { 'data-raw': state.custom ? null : '' }, presetName), ' · ',
      t('resultsSummary', { fit: fmt.int(r.fitting_count), total: fmt.int(r.result_count), evaluated: fmt.int(r.evaluated_offers) }), ' · ',
      r.horizon && r.horizon.hours > 0 ? h('span', { id: 'horizon-summary', 'data-hours': r.horizon.hours },
        r.horizon.widened_hours ? t('horizonWidened', { horizon: fmt.duration(r.horizon.hours), widened: fmt.duration(r.horizon.widened_hours), n: fmt.int(r.horizon.widened_count) })
          : t(r.horizon.source === 'deadline' ? 'deadlineSummary' : 'horizonSummary', { horizon: fmt.duration(r.horizon.hours), n: fmt.int(r.meeting_count) }), ' · ') : null,
      h('span', { id: 'summary-flops', 'data-v': wl.total_flops }, t('totalCompute', { flops: fmt.sci(wl.total_flops) })), ' · ', t('precisionIs', { p: String(wl.precision).toUpperCase() })),
    r.fit_hints && r.fit_hints.length ? h('div', { class: 'notice warn', id: 'fit-hints', role: 'status' },
      tx('p', t, 'fitHintsTitle'), h('ul', {}, r.fit_hints.map((m) => engineText('li', m)))) : null,
    h('ul', { class: 'picks', id: 'picks' }, picks.map(([key, x, val]) => h('li', {},
      h('button', { type: 'button', class: 'pick', id: `pick-${key}`, onclick: () => ctx.select(x._key, { focus: true }) },
        tx('span', t, key, { class: 'pick-label' }), h('span', { class: 'pick-value' }, val(x)),
        h('span', { class: 'pick-name', 'data-raw': '' }, `${x.instance} · ${providerName(t, x.provider)}`), h('span', { class: 'sub' }, t(x.pricing)))))),
    h('div', { class: 'toolbar' },
      h('div', { class: 'field share' }, tx('label', t, 'shareLink', { for: 'share-url' }), share,
        h('button', { type: 'button', id: 'copy-link', onclick: (e) => ctx.copyLink(e.target) }, t('copyLink'))),
      h('button', { type: 'button', id: 'export-csv', onclick: () => ctx.exportAs('csv') }, t('exportCsv')),
      h('button', { type: 'button', id: 'export-json', onclick: () => ctx.exportAs('json') }, t('exportJson')),
      h('button', { type: 'button', id: 'print', onclick: () => window.print() }, t('print')))].filter(Boolean));
}
