// The summary above the charts: workload line, best picks, share link, exports and print.
// Methods of the page App (mixed in by app/main.js).
import { todayIso } from '../engine/client.js';
import { h, tx, engineText } from './dom.js';
import { toCsv, toJson, download } from '../app/export.js';

export class OverviewMethods {
  renderOverview(ctx) {
    const { t, fmt, state } = ctx;
    const out = this.el.overview;
    const title = tx('h2', t, 'overviewTitle', { id: 'overview-title', class: 'sr-only' });
    if (this.error) {
      out.replaceChildren(title, h('p', { class: 'error', role: 'alert', id: 'engine-error' }, `${t('engineError')}: `,
        this.error.path && (this.error.explanation || !String(this.error.message).startsWith(this.error.path)) ? [h('code', { 'data-raw': '' }, this.error.path), ' '] : null,
        engineText('span', this.error.explanation || this.error.message)));
      return;
    }
    const r = this.result;
    // The picks are over every row of the ranking (the engine host chose them; the page may hold only the first rows).
    const pick = (k) => (this.view.picks[k] ? this.view.byKey.get(this.view.picks[k]) : null) || null;
    const picks = [
      ['pickBest', pick('pickBest'), (x) => fmt.num(x.score, 3)],
      ['pickCheapest', pick('pickCheapest'), (x) => fmt.money(x.cost_usd)],
      ['pickFastest', pick('pickFastest'), (x) => fmt.duration(x.time_hours)],
      ['pickUnit', pick('pickUnit'), (x) => [fmt.unitMoney(x.usd_per_tflops_day), h('small', {}, ` /TFLOPS·${t('day')}`)]],
    ].filter(([, x]) => x);
    const wl = r.workload;
    const presetName = state.custom ? t('customWorkload') : (() => { const p = this.presets.find((x) => x.id === state.preset); return (p && p.name && (p.name[state.lang] || p.name.en)) || state.preset; })();
    const share = h('input', { id: 'share-url', type: 'text', readonly: true, value: location.href, onfocus: (e) => e.target.select() });
    out.replaceChildren(...[title,
      h('p', { class: 'summary', id: 'summary' },
        h('strong', { 'data-raw': state.custom ? null : '' }, presetName), ' · ',
        t('resultsSummary', { fit: fmt.int(r.fitting_count), total: fmt.int(r.result_count), evaluated: fmt.int(r.evaluated_offers) }), ' · ',
        r.horizon && r.horizon.hours > 0 ? h('span', { id: 'horizon-summary', 'data-hours': r.horizon.hours },
          t(r.horizon.source === 'deadline' ? 'deadlineSummary' : 'horizonSummary', { horizon: fmt.duration(r.horizon.hours), n: fmt.int(r.meeting_count) }), ' · ') : null,
        t('totalCompute', { flops: fmt.sci(wl.total_flops) }), ' · ', t('precisionIs', { p: String(wl.precision).toUpperCase() })),
      r.fit_hints && r.fit_hints.length ? h('div', { class: 'notice warn', id: 'fit-hints', role: 'status' },
        tx('p', t, 'fitHintsTitle'), h('ul', {}, r.fit_hints.map((m) => engineText('li', m)))) : null,
      h('ul', { class: 'picks', id: 'picks' }, picks.map(([key, x, val]) => h('li', {},
        h('button', { type: 'button', class: 'pick', id: `pick-${key}`, onclick: () => this.select(x._key, { focus: true }) },
          tx('span', t, key, { class: 'pick-label' }), h('span', { class: 'pick-value' }, val(x)),
          h('span', { class: 'pick-name', 'data-raw': '' }, `${x.instance} · ${x.provider}`), h('span', { class: 'sub' }, t(x.pricing)))))),
      h('div', { class: 'toolbar' },
        h('div', { class: 'field share' }, tx('label', t, 'shareLink', { for: 'share-url' }), share,
          h('button', { type: 'button', id: 'copy-link', onclick: (e) => this.copyLink(e.target) }, t('copyLink'))),
        h('button', { type: 'button', id: 'export-csv', onclick: () => this.exportAs('csv') }, t('exportCsv')),
        h('button', { type: 'button', id: 'export-json', onclick: () => this.exportAs('json') }, t('exportJson')),
        h('button', { type: 'button', id: 'print', onclick: () => window.print() }, t('print')))].filter(Boolean));
  }

  copyLink(button) {
    const input = document.getElementById('share-url');
    const done = () => { button.textContent = this.t('copied'); };
    input.select();
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(location.href).then(done, () => { /* selected for manual copy */ });
  }

  exportAs(kind) {
    const name = this.state.custom ? 'custom' : this.state.preset;
    const stamp = todayIso();
    const opts = { currency: this.state.currency, rate: this.state.rate };
    const file = `gpuvalue-${name}-${stamp}.${kind}`;
    const type = kind === 'csv' ? 'text/csv;charset=utf-8' : 'application/json';
    // A long ranking: the page holds its first rows only; the engine host writes the file with every row.
    if (this.view && this.view.total > this.rows.length) {
      this.host.request('exportRows', { request: this.request, sort: this.state.sort, kind, ...opts, hash: location.hash }).then((text) => download(text, file, type));
      return;
    }
    if (kind === 'csv') download(toCsv(this.rows, opts), `gpuvalue-${name}-${stamp}.csv`, 'text/csv;charset=utf-8');
    else download(toJson(this.rows, { ...opts, request: this.request, result: this.result, hash: location.hash }), `gpuvalue-${name}-${stamp}.json`, 'application/json');
  }
}
