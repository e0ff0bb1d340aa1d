// The page's duration format (web/src/format/format.js): the unit a reader expects at each size, in both languages.
import test from 'node:test';
import assert from 'node:assert/strict';
import { makeFormatter } from '../../web/src/format/format.js';

const HOURS_PER_DAY = 24;

test('durations: minutes, hours, days, and from two years on years, not thousands of days', () => {
  const en = makeFormatter({ lang: 'en' });
  const zh = makeFormatter({ lang: 'zh' });
  assert.match(en.duration(0.5), /^30 min$/);
  assert.match(en.duration(30), /^30 hr$/);
  assert.match(en.duration(400 * HOURS_PER_DAY), /^400 days$/);
  assert.match(en.duration(729 * HOURS_PER_DAY), /days$/);
  assert.match(en.duration(730 * HOURS_PER_DAY), /^2 yrs$/);
  assert.match(en.duration(9125 * HOURS_PER_DAY), /^25 yrs$/);
  assert.match(en.duration(912 * HOURS_PER_DAY), /^2\.5 yrs$/);
  assert.match(zh.duration(9125 * HOURS_PER_DAY), /^25年$/);
  assert.match(zh.duration(400 * HOURS_PER_DAY), /^400天$/);
  for (const lang of ['en', 'zh']) {
    const f = makeFormatter({ lang });
    for (let days = 730; days < 1e6; days *= 1.7) assert.doesNotMatch(f.duration(days * HOURS_PER_DAY), /day|天/, `${lang}: ${days} days`);
  }
});

test('money in a narrow column: in Chinese 万 from 100,000 on, in English the whole figure; plain money unchanged', () => {
  const zh = makeFormatter({ lang: 'zh', currency: 'CNY', rate: 7 });
  const en = makeFormatter({ lang: 'en' });
  assert.equal(zh.money(230070, { digits: 0, compact: true }), '¥161万');  // 230,070 USD × 7 = ¥1,610,490
  assert.equal(zh.money(1000, { digits: 0, compact: true }), '¥7,000');   // below 100,000: the whole figure
  assert.equal(zh.money(230070, { digits: 0 }), '¥1,610,490');
  assert.equal(en.money(229424, { digits: 0, compact: true }), '$229,424');
});
