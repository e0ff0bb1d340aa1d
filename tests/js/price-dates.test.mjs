// A price whose source gives no date carries only the day it was read (read_on). Wherever a price is shown (the
// page's details and tools, the CLI's cost, serve, mig and serverless answers) it is said as "date unknown, read on
// …", never as a bare or empty "as of"; --json answers carry read_on.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, cli } from './helpers.mjs';
import { priceDate } from '../../web/src/views/dom.js';
import { translator } from '../../web/src/i18n/index.js';
import { makeFormatter } from '../../web/src/format/format.js';

// The bundled offers whose on-demand price is dated only by the day it was read, and one with a real date.
const offers = fs.readdirSync(path.join(root, 'data/catalog')).filter((f) => f.endsWith('.json')).flatMap((f) => JSON.parse(fs.readFileSync(path.join(root, 'data/catalog', f), 'utf8')).instances || []);
const onDemand = (o) => (o.prices || []).find((p) => p.model === 'on_demand');
const readOnly = offers.find((o) => onDemand(o) && !onDemand(o).as_of && onDemand(o).read_on);
const dated = offers.find((o) => onDemand(o) && onDemand(o).as_of);

test('the page says a read-on price is of unknown date, in both languages, and a dated price by its date', () => {
  assert.ok(readOnly && dated, 'the catalog has both kinds of price');
  for (const lang of ['en', 'zh']) {
    const t = translator(lang);
    const fmt = makeFormatter({ lang });
    const p = onDemand(readOnly);
    const said = priceDate(t, fmt, p);
    assert.ok(said.includes(fmt.date(p.read_on)), said);
    assert.match(said, lang === 'en' ? /date unknown, read on/ : /日期不详/);
    assert.equal(priceDate(t, fmt, onDemand(dated)), fmt.date(onDemand(dated).as_of));
  }
});

test('cost on a read-on price: --json carries read_on, the text says the date is unknown (en and zh)', () => {
  const args = ['cost', '--instance', readOnly.id, '--hours', '10'];
  const j = cli([...args, '--json']);
  assert.equal(j.code, 0, j.stderr);
  const r = JSON.parse(j.stdout);
  assert.equal(r.read_on, onDemand(readOnly).read_on);
  assert.ok(!r.as_of, 'no as_of is invented');
  const en = cli([...args, '--lang', 'en']);
  assert.match(en.stdout, new RegExp(`price date: date unknown, read on ${onDemand(readOnly).read_on}`));
  const zh = cli([...args, '--lang', 'zh']);
  assert.match(zh.stdout, new RegExp(`读取于 ${onDemand(readOnly).read_on}`));
  // A dated price keeps its date and has no read_on.
  const d = JSON.parse(cli(['cost', '--instance', dated.id, '--hours', '10', '--json']).stdout);
  assert.equal(d.as_of, onDemand(dated).as_of);
  assert.equal(d.read_on, undefined);
});
