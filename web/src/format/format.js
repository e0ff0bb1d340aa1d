// Number, money, duration and date formatting with Intl, in the page language and the chosen currency.
// Engine amounts are always USD; CNY is shown as USD × the user's rate (default: the catalog's fx.CNY_per_USD).

// Days and hours, written once: the page keeps horizons in days, the engine takes hours.
export const HOURS_PER_DAY = 24;
export const hoursFromDays = (days) => days * HOURS_PER_DAY;
export const daysFromHours = (hours) => hours / HOURS_PER_DAY;
// Whole days from one ISO date (YYYY-MM-DD) to another; NaN when either is not a date.
export const daysBetween = (fromIso, toIso) => (Date.parse(`${toIso}T00:00:00Z`) - Date.parse(`${fromIso}T00:00:00Z`)) / (HOURS_PER_DAY * 3600e3);

// Today's date as the engine and the catalogs write dates (YYYY-MM-DD, UTC).
export function todayIso(date = new Date()) {
  return date.toISOString().slice(0, 10);
}

// A price's date as a reader is told it: its source's date (as_of), or only the day it was read (read_on), said as
// such, or that it is unknown. The caller gives the words (page and CLI have their own string tables).
export const priceDateText = (x, { date = (d) => d, readOn, unknown }) =>
  (x.as_of ? date(x.as_of) : x.read_on ? readOn(date(x.read_on)) : unknown());

export const LOCALES = { en: 'en-US', zh: 'zh-CN' };

// Formatters are memoised per language, currency and rate: Intl formatters are costly to construct, and the page
// asks for a formatter on every render and table chunk.
const FORMATTERS = new Map();
export function makeFormatter({ lang = 'en', currency = 'USD', rate = 1 } = {}) {
  const key = `${lang}|${currency}|${rate}`;
  let f = FORMATTERS.get(key);
  if (!f) {
    if (FORMATTERS.size > 16) FORMATTERS.clear();
    f = buildFormatter({ lang, currency, rate });
    FORMATTERS.set(key, f);
  }
  return f;
}

function buildFormatter({ lang, currency, rate }) {
  const locale = LOCALES[lang] || LOCALES.en;
  const factor = currency === 'CNY' ? rate : 1;
  const cache = new Map();
  const nf = (opts) => {
    const key = JSON.stringify(opts);
    if (!cache.has(key)) cache.set(key, new Intl.NumberFormat(locale, opts));
    return cache.get(key);
  };
  const ok = (v) => typeof v === 'number' && Number.isFinite(v);
  const dash = '—';

  // Money from a USD amount: 2 decimals below 100, whole units above. `compact`: in Chinese, 万 and 亿 from 100 000 on
  // (¥161万, not ¥1,610,490), as for counts (int below), where a narrow column must hold it.
  const money = (usd, { digits, compact: short = false } = {}) => {
    if (!ok(usd)) return dash;
    const v = usd * factor;
    if (short && lang === 'zh' && Math.abs(v) >= 1e5) {
      return nf({ style: 'currency', currency, notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }).format(v);
    }
    const d = digits ?? (Math.abs(v) < 100 ? 2 : 0);
    return nf({ style: 'currency', currency, minimumFractionDigits: d, maximumFractionDigits: d }).format(v);
  };
  // Small unit prices ($/TFLOPS·day): three significant digits.
  const unitMoney = (usd) => (ok(usd) && usd > 0
    ? nf({ style: 'currency', currency, maximumSignificantDigits: 3 }).format(usd * factor) : dash);
  const DAYS_PER_YEAR = 365;
  // Durations from hours: minutes below 1 h, hours below 48 h, days below two years, then years (365 days each:
  // "25 yrs", not "9,125 days").
  const duration = (hours) => {
    if (!ok(hours) || hours <= 0) return dash;
    if (hours < 1) return nf({ style: 'unit', unit: 'minute', unitDisplay: 'short', maximumFractionDigits: 0 }).format(Math.max(1, hours * 60));
    if (hours < 48) return nf({ style: 'unit', unit: 'hour', unitDisplay: 'short', maximumFractionDigits: 1 }).format(hours);
    const days = daysFromHours(hours);
    if (days >= 2 * DAYS_PER_YEAR) return nf({ style: 'unit', unit: 'year', unitDisplay: 'short', maximumFractionDigits: days < 10 * DAYS_PER_YEAR ? 1 : 0 }).format(days / DAYS_PER_YEAR);
    return nf({ style: 'unit', unit: 'day', unitDisplay: 'short', maximumFractionDigits: days < 100 ? 1 : 0 }).format(days);
  };
  const num = (v, digits = 2) => (ok(v) ? nf({ maximumFractionDigits: digits }).format(v) : dash);
  const sig = (v, digits = 3) => (ok(v) ? nf({ maximumSignificantDigits: digits }).format(v) : dash);
  // Counts: in Chinese, 万 and 亿 from 100 000 on (12.3万), as Chinese readers expect large counts.
  const int = (v) => {
    if (!ok(v)) return dash;
    if (lang === 'zh' && Math.abs(v) >= 1e5) return nf({ notation: 'compact', maximumFractionDigits: 1 }).format(v);
    return nf({ maximumFractionDigits: 0 }).format(v);
  };
  const sci = (v) => (ok(v) ? nf({ notation: 'scientific', maximumFractionDigits: 2 }).format(v) : dash);
  const compact = (v) => (ok(v) ? nf({ notation: 'compact', maximumFractionDigits: 1 }).format(v) : dash);
  const gb = (v) => (ok(v) ? nf({ style: 'unit', unit: 'gigabyte', unitDisplay: 'short', maximumFractionDigits: v < 10 ? 2 : 1 }).format(v) : dash);
  const pct = (v, digits = 0) => (ok(v) ? nf({ style: 'percent', maximumFractionDigits: digits }).format(v) : dash);
  const date = (iso) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(iso || ''));
    if (!m) return String(iso || dash);
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    dateFormat ||= new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    return dateFormat.format(d);
  };
  const ageDays = (iso, today = new Date()) => {
    return Math.floor(daysBetween(iso, todayIso(today)));
  };
  let dateFormat = null;
  let relFormat = null;
  const relativeDays = (days) => {
    if (!ok(days)) return dash;
    relFormat ||= new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    return relFormat.format(-days, 'day');
  };
  // Converts an amount typed in the display currency to USD, and back.
  const toUsd = (v) => v / factor;
  const fromUsd = (v) => v * factor;
  const list = (items) => new Intl.ListFormat(locale, { style: 'short', type: 'conjunction' }).format(items);
  return { locale, currency, factor, money, unitMoney, duration, num, sig, int, sci, compact, gb, pct, date, ageDays, relativeDays, toUsd, fromUsd, list };
}
