// A column header that sorts its table: a button (reached and pressed by keyboard) inside a th whose aria-sort says
// the current order, with the direction the next press sorts in as its title. The training ranking (table.js) and
// the serving ranking (serving.js) both draw their sortable headers with it.
import { h } from './dom.js';

// col: {id (data-col), key (its UI string), sort (the sort key it sets), num}; sort: the table's {key, dir}; first: the
// direction a first press sorts in; onSort({key, dir}); idPrefix: the button's id before the sort key.
export function sortHeader(col, t, { sort, first = 'asc', onSort, idPrefix = 'sort-' }) {
  const active = sort.key === col.sort;
  const dir = active ? sort.dir : null;
  const next = active ? (dir === 'asc' ? 'desc' : 'asc') : first;
  const label = t(col.key);
  return h('th', { scope: 'col', role: 'columnheader', class: col.num ? 'num' : '', 'data-col': col.id, 'aria-sort': active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none' },
    h('button', {
      type: 'button', class: 'sort', id: `${idPrefix}${col.sort}`, 'data-sort': col.sort,
      title: t(next === 'asc' ? 'sortAsc' : 'sortDesc', { col: label }),
      onclick: () => onSort({ key: col.sort, dir: next }),
    }, h('span', { 'data-i18n': col.key }, label), h('span', { class: 'sort-mark', 'aria-hidden': 'true' }, active ? (dir === 'asc' ? '▲' : '▼') : '↕')));
}
