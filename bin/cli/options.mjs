// The command line's grammar: one table of options and one table of commands drive the parser (node:util
// parseArgs, strict), the usage text and each command's --help.
//
// Adding an option is one row of OPTIONS: its type ('string', 'boolean', 'number' or 'integer') and the value's
// placeholder, and, for a number that a request member takes as it is, that member, e.g.
//   pue: { type: 'number', value: 'P', member: 'pue' },
// whose bounds are then the engine's: those of data/schema/<method>.request.schema.json (written from the engine's
// request tables) for the engine method the command calls (`of` names another, as the serving options' serve). A
// number the CLI reads in its own unit or meaning (--horizon-days) states its own min/max instead.
// its name in the `options` of each command of COMMAND_TABLE that reads it, and its help line, "option.pue", in both
// catalogs of the CLI's text (bin/cli/strings.*.json). The options every command takes (COMMON: --json, --lang,
// --help) are not listed per command. A command reads an option as opts.pue (opts['include-stale'] for a dashed
// name); numbers arrive as numbers, already checked to be decimal and within min/max; reading an option its row does
// not list is an internal error (guardOptions), so a command cannot use an option its parser refuses.
// Adding a command is one row of COMMAND_TABLE (tests/js/cli-commands.test.mjs fails when a request method of the
// engine's dispatch table has none) and one entry of COMMANDS in commands.mjs (and its summary, "command.NAME", in
// the catalogs).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { s } from './strings.mjs';

export class UsageError extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}

// Options every command takes: its answer as JSON, the language of its text, its help.
export const COMMON = ['json', 'lang', 'help'];
// Groups of options several commands read through one function of commands.mjs.
const WORKLOAD = ['preset', 'workload', 'software'];                 // workloadRequest
const SCOPE = ['include-examples', 'include-stale'];                 // scopeFilters
// The serving question (serve; rank with a serving preset): bin/cli/serve.mjs.
export const SERVING = ['weights', 'kv', 'rps', 'tokens-per-day', 'input-tokens', 'output-tokens', 'ttft-ms', 'tpot-ms', 'percentile'];
const HARDWARE = ['gpu', 'instance', 'count', 'cooling', 'pue', 'utilisation', 'usd-per-kwh', 'grid', 'power-w'];  // hardwareRequest
const ENERGY = [...HARDWARE, 'kg-co2-per-kwh', 'hours', ...WORKLOAD];  // energyRequest

// name -> { type, value, multiple?, member? (with of?) | min?, minExclusive?, max?, short? }; the help is
// s('option.NAME'); `commands` (the commands that take it) is derived from COMMAND_TABLE below.
export const OPTIONS = {
  preset: { type: 'string', value: 'ID' },
  workload: { type: 'string', value: 'FILE' },
  gpu: { type: 'string', value: 'GPU_ID' },
  instance: { type: 'string', value: 'ID' },
  count: { type: 'integer', value: 'N', member: 'count' },
  software: { type: 'string', value: 'tuned|typical' },
  precision: { type: 'string', value: 'P' },
  catalog: { type: 'string', multiple: true, value: 'FILE' },
  'add-catalog': { type: 'string', multiple: true, value: 'FILE' },
  pricing: { type: 'string', value: 'MODEL' },
  'fits-only': { type: 'boolean' },
  'no-marketplace': { type: 'boolean' },
  'include-examples': { type: 'boolean' },
  'include-stale': { type: 'boolean' },
  'horizon-days': { type: 'number', value: 'DAYS', min: 0 },
  budget: { type: 'number', value: 'USD', min: 0, minExclusive: true },
  deadline: { type: 'number', value: 'HOURS', min: 0, minExclusive: true },
  limit: { type: 'integer', value: 'N', min: 1 },
  hours: { type: 'number', value: 'H', member: 'hours' },
  nodes: { type: 'integer', value: 'N', member: 'nodes' },
  'cold-start-s': { type: 'number', value: 'S', member: 'cold_start_s' },
  offer: { type: 'string', value: 'ID' },
  out: { type: 'string', value: 'FILE' },
  load: { type: 'string', value: 'G0,G1,…,G23' },
  'idle-timeout-s': { type: 'number', value: 'S', member: 'idle_timeout_s' },
  'max-concurrency': { type: 'integer', value: 'N', member: 'max_concurrency' },
  provider: { type: 'string', value: 'NAME' },
  'as-of': { type: 'string', value: 'YYYY-MM-DD' },
  params: { type: 'number', value: 'N', member: 'params' },
  tokens: { type: 'number', value: 'N', member: 'tokens' },
  stage: { type: 'string', value: 'STAGE' },
  mode: { type: 'string', value: 'MODE' },
  demand: { type: 'string', value: 'FILE' },
  example: { type: 'string', value: 'NAME' },
  jobs: { type: 'string', value: 'SPEC' },
  config: { type: 'string', multiple: true, value: 'C' },
  measured: { type: 'string', multiple: true, value: 'FILE|"R tokens/s on GPU xN"' },
  baseline: { type: 'integer', value: 'I', member: 'baseline' },
  cooling: { type: 'string', value: 'KIND' },
  grid: { type: 'string', value: 'GRID' },
  pue: { type: 'number', value: 'P', member: 'pue' },
  utilisation: { type: 'number', value: 'U', member: 'utilisation' },
  'usd-per-kwh': { type: 'number', value: 'X', member: 'usd_per_kwh' },
  'kg-co2-per-kwh': { type: 'number', value: 'X', member: 'kg_co2_per_kwh' },
  'power-w': { type: 'number', value: 'W', member: 'power_w' },
  'purchase-usd': { type: 'number', value: 'X', member: 'purchase_usd' },
  years: { type: 'number', value: 'N', member: 'amortisation_years' },
  'other-usd-per-year': { type: 'number', value: 'X', member: 'other_usd_per_year' },
  'rent-usd-per-gpu-hour': { type: 'number', value: 'X', member: 'rent_usd_per_gpu_hour' },
  weights: { type: 'string', value: 'bf16|fp16|fp8|int8|int4|fp4' },
  kv: { type: 'string', value: 'fp16|bf16|fp8' },
  rps: { type: 'number', value: 'R', member: 'traffic/requests_per_s', of: 'serve' },
  'tokens-per-day': { type: 'number', value: 'N', member: 'traffic/tokens_per_day', of: 'serve' },
  'input-tokens': { type: 'integer', value: 'N', member: 'traffic/input_tokens', of: 'serve' },
  'output-tokens': { type: 'integer', value: 'N', member: 'traffic/output_tokens', of: 'serve' },
  'ttft-ms': { type: 'number', value: 'MS', member: 'targets/ttft_ms', of: 'serve' },
  'tpot-ms': { type: 'number', value: 'MS', member: 'targets/tpot_ms', of: 'serve' },
  percentile: { type: 'number', value: 'P', member: 'targets/percentile', of: 'serve' },
  json: { type: 'boolean' },
  lang: { type: 'string', value: 'zh|en' },
  help: { type: 'boolean', short: 'h' },
};

// command -> { method (engine method when named otherwise), also (other engine methods it calls with its options: tco
// asks energy too when given hours or a workload), synopsis (positionals and required choices; the other options are
// listed from OPTIONS), options (besides COMMON), positionals: [min, max], group }; the summary is s('command.NAME')
export const COMMAND_TABLE = {
  estimate: { synopsis: '(--preset ID | --workload FILE) --gpu GPU_ID', options: [...WORKLOAD, 'gpu', 'count', 'precision', 'measured'] },
  rank: { synopsis: '(--preset ID | --workload FILE)', options: [...WORKLOAD, 'catalog', 'add-catalog', 'pricing', 'fits-only', 'no-marketplace', ...SCOPE,
    'horizon-days', 'budget', 'deadline', 'limit', 'measured', ...SERVING] },
  cost: { synopsis: '--instance ID --hours H', options: ['instance', 'pricing', 'hours', 'nodes', 'cold-start-s'] },
  validate: { synopsis: 'FILE...', positionals: [1, Infinity], options: [] },
  import: { method: 'importSkypilot', synopsis: 'skypilot FILE.csv', positionals: [2, 2], options: ['provider', 'as-of'] },
  measured: { method: 'parse_measurement', synopsis: 'FILE|"R tokens/s on GPU xN"...', positionals: [1, Infinity], options: [] },
  probe: { method: 'estimate', synopsis: '(--preset ID | --workload FILE) [--gpu GPU_ID --count N] [--out FILE]', options: [...WORKLOAD, 'gpu', 'count', 'out'] },
  presets: { synopsis: '', options: [] },
  gpus: { synopsis: '', options: [] },
  advise: { synopsis: '(--params N | --preset ID | --workload FILE)', group: 'decision tools',
    options: ['params', 'tokens', 'stage', 'mode', ...WORKLOAD, 'precision', 'deadline', 'horizon-days', ...SCOPE] },
  plan: { synopsis: '(--demand FILE | --example article)', group: 'decision tools', options: ['demand', 'example'] },
  serverless: { synopsis: '--offer ID', group: 'decision tools', options: ['offer', 'instance', 'load', 'cold-start-s', 'idle-timeout-s', 'max-concurrency'] },
  mig: { synopsis: '--gpu GPU_ID --jobs SPEC', group: 'decision tools', options: ['gpu', 'jobs', ...SCOPE] },
  levers: { synopsis: '(--preset ID | --workload FILE) --instance ID', group: 'decision tools', options: [...WORKLOAD, 'instance', 'pricing', 'precision', 'nodes', ...SCOPE] },
  compare: { synopsis: '(--preset ID | --workload FILE) --config C --config C', group: 'decision tools', options: [...WORKLOAD, 'config', 'pricing', 'baseline', 'measured'] },
  energy: { synopsis: '(--gpu GPU_ID | --instance ID) (--hours H | --preset ID | --workload FILE)', group: 'decision tools', options: ENERGY },
  serve: { synopsis: '--preset ID [--gpu GPU_ID --count N | --offer ID]', group: 'decision tools',
    options: ['preset', 'gpu', 'count', 'offer', 'software', ...SERVING, 'pricing', 'catalog', 'add-catalog', 'no-marketplace', ...SCOPE, 'limit'] },
  tco: { synopsis: '(--gpu GPU_ID | --instance ID)', group: 'decision tools', also: ['energy'],
    options: [...ENERGY, ...SCOPE, 'purchase-usd', 'years', 'other-usd-per-year', 'rent-usd-per-gpu-hour'] },
};

// Each option's commands, derived from the table (in the table's order); a name the table uses that OPTIONS lacks, or
// an option no command takes, stops the CLI at load.
for (const o of Object.values(OPTIONS)) o.commands = [];
for (const [cmd, c] of Object.entries(COMMAND_TABLE)) {
  for (const name of new Set([...c.options, ...COMMON])) {
    if (!OPTIONS[name]) throw new Error(`bin/cli/options.mjs: command ${cmd} names an option --${name} that OPTIONS lacks`);
    OPTIONS[name].commands.push(cmd);
  }
}
for (const [name, o] of Object.entries(OPTIONS)) if (!o.commands.length) throw new Error(`bin/cli/options.mjs: no command takes --${name}`);

export const commandNames = () => Object.keys(COMMAND_TABLE);
// The usage's column of command names: the longest name and two spaces.
const NAME_WIDTH = Math.max(...Object.keys(COMMAND_TABLE).map((c) => c.length)) + 2;
const optionsOf = (cmd) => Object.entries(OPTIONS).filter(([, o]) => o.commands.includes(cmd));

// The parsed options of a command as it may read them: reading an option the command's row does not list throws
// (an internal error: the row lacks an option the code uses, which the parser would refuse from the user).
export function guardOptions(cmd, opts) {
  const own = new Set(optionsOf(cmd).map(([n]) => n));
  return new Proxy(opts, {
    get(target, key) {
      if (typeof key === 'string' && !own.has(key) && !Object.prototype.hasOwnProperty.call(target, key)) {
        throw new Error(`internal: ${cmd} reads --${key}, which its row of COMMAND_TABLE (bin/cli/options.mjs) does not list`);
      }
      return target[key];
    },
  });
}

function optionText(name, o) {
  return `--${name}${o.value ? ` ${o.value}` : ''}`;
}

// "gpuvalue rank (--preset ID | --workload FILE) [--catalog FILE]... [--json]"
function synopsis(cmd) {
  const c = COMMAND_TABLE[cmd];
  const extra = optionsOf(cmd).filter(([n]) => n !== 'help' && !new RegExp(`--${n}\\b`).test(c.synopsis))
    .map(([n, o]) => `[${optionText(n, o)}]${o.multiple ? '...' : ''}`);
  return [cmd, c.synopsis, ...extra].filter(Boolean).join(' ');
}

export function usage() {
  const lines = [s('usage.line'), ''];
  for (const group of [undefined, 'decision tools']) {
    lines.push(s(group ? 'usage.decision_tools' : 'usage.commands'));
    for (const cmd of Object.keys(COMMAND_TABLE)) if (COMMAND_TABLE[cmd].group === group) lines.push(`  ${cmd.padEnd(NAME_WIDTH)}${s(`command.${cmd}`)}`);
    lines.push('');
  }
  lines.push(s('usage.numbers'), s('usage.exit'));
  return lines.join('\n');
}

export function commandHelp(cmd) {
  const rows = optionsOf(cmd).map(([n, o]) => [`${o.short ? `-${o.short}, ` : ''}${optionText(n, o)}`, s(`option.${n}`)]);
  const width = Math.max(...rows.map((r) => r[0].length));
  return [s('help.usage', { synopsis: synopsis(cmd) }), '', s(`command.${cmd}`), '', s('help.options'), ...rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`)].join('\n');
}

function distance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

// The closest of names to word, when it is close enough to be a likely typo.
export function closest(word, names) {
  let best = null;
  let bestD = Infinity;
  for (const n of names) {
    const d = distance(word.toLowerCase(), n.toLowerCase());
    if (d < bestD) { best = n; bestD = d; }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

// The request schemas the engine's tables write (scripts/schemas.mjs; tests/js/schemas.test.mjs keeps them current).
const SCHEMA_DIR = new URL('../../data/schema/', import.meta.url);
const requestSchemas = new Map();
function requestSchema(method) {
  if (!requestSchemas.has(method)) {
    const file = new URL(`${method}.request.schema.json`, SCHEMA_DIR);
    requestSchemas.set(method, fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);
  }
  return requestSchemas.get(method);
}

// The schema of a request member ('traffic/requests_per_s': a member of a nested record), or null.
export function memberSchema(schema, member) {
  let node = schema;
  for (const key of member.split('/')) {
    if (node && node.$ref) node = schema.$defs[node.$ref.slice('#/$defs/'.length)];
    node = node && node.properties ? node.properties[key] : undefined;
  }
  return node ?? null;
}

// { min?, minExclusive?, max?, maxExclusive? } of a member's schema.
export function schemaBounds(p) {
  const b = {};
  if (p.minimum !== undefined) b.min = p.minimum;
  if (p.exclusiveMinimum !== undefined) Object.assign(b, { min: p.exclusiveMinimum, minExclusive: true });
  if (p.maximum !== undefined) b.max = p.maximum;
  if (p.exclusiveMaximum !== undefined) Object.assign(b, { max: p.exclusiveMaximum, maxExclusive: true });
  return b;
}

export const methodOf = (cmd) => COMMAND_TABLE[cmd].method ?? cmd;
// The engine methods a command's options go to, its own first.
export const methodsOf = (cmd) => [methodOf(cmd), ...(COMMAND_TABLE[cmd].also ?? [])];

// The bounds of option `name` in command `cmd`: its row's, or those of the request member it sets in the request
// table of the first method it goes to whose table has the member (tco's hours: energy's).
export function optionBounds(cmd, name) {
  const o = OPTIONS[name];
  if (!o.member) return { min: o.min, minExclusive: o.minExclusive, max: o.max, maxExclusive: o.maxExclusive };
  for (const method of o.of ? [o.of] : methodsOf(cmd)) {
    const p = requestSchema(method) && memberSchema(requestSchema(method), o.member);
    if (p) return schemaBounds(p);
  }
  throw new Error(`internal: --${name} sets ${o.member}, which no request schema in data/schema/ names`);
}

function numberValue(cmd, name, o, text) {
  const v = DECIMAL.test(text) ? Number(text) : NaN;
  const b = optionBounds(cmd, name);
  const range = [b.min !== undefined ? `${b.minExclusive ? '>' : '>='} ${b.min}` : '', b.max !== undefined ? `${b.maxExclusive ? '<' : '<='} ${b.max}` : '']
    .filter(Boolean).join(s('join.and'));
  const bad = !Number.isFinite(v) || (o.type === 'integer' && !Number.isInteger(v)) || (b.min !== undefined && (b.minExclusive ? v <= b.min : v < b.min))
    || (b.max !== undefined && (b.maxExclusive ? v >= b.max : v > b.max));
  if (bad) throw new UsageError(s('error.number_option', { name, kind: o.type, range: range ? ` ${range}` : '', text }), cmd);
  return v;
}

function unknownOption(cmd, token) {
  const name = token.replace(/^-+/, '').split('=')[0];
  const own = optionsOf(cmd).map(([n]) => n);
  const near = closest(name, own);
  const elsewhere = OPTIONS[name] ? s('error.option_elsewhere', { commands: commandNames().filter((c) => OPTIONS[name].commands.includes(c)).join(', ') }) : '';
  return new UsageError(s('error.unknown_option', { command: cmd, option: token.split('=')[0], elsewhere, near: near ? s('error.did_you_mean', { suggestion: `--${near}` }) : '' }), cmd);
}

function strayWord(cmd, word) {
  const near = OPTIONS[word] && optionsOf(cmd).some(([n]) => n === word) ? word : null;
  return new UsageError(s('error.unexpected_argument', { word, near: near ? s('error.did_you_mean', { suggestion: `--${near}` }) : '' }), cmd);
}

// "--budget -5": a number option followed by a negative number takes it as its value (parseArgs alone would read it
// as an option), so that the range check can say what is wrong with it.
function joinNegativeNumbers(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const o = OPTIONS[argv[i].replace(/^--/, '')];
    if (argv[i].startsWith('--') && o && (o.type === 'number' || o.type === 'integer') && /^-[\d.]/.test(argv[i + 1] ?? '')) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]);
  }
  return out;
}

// argv (after the command) -> { opts, positionals } for one command; throws UsageError.
export function parseCommand(cmd, argv) {
  const own = optionsOf(cmd);
  const config = Object.fromEntries(own.map(([n, o]) => [n, { type: o.type === 'boolean' ? 'boolean' : 'string', ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) }]));
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeNumbers(argv), options: config, strict: true, allowPositionals: true, tokens: true });
  } catch (e) {
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw unknownOption(cmd, /'([^']+)'/.exec(e.message)?.[1] ?? '?');
    const name = /'(-[^' ]+)/.exec(e.message)?.[1] ?? '';
    if (/does not take an argument/.test(e.message)) throw new UsageError(s('error.flag_value', { name }), cmd);
    if (/argument missing|ambiguous/.test(e.message)) throw new UsageError(s('error.needs_value', { name }), cmd);
    throw new UsageError(e.message.split('\n')[0], cmd);
  }
  // An option that takes one value, given twice (--gpu t4 --gpu h100), is refused: the last one silently winning
  // would answer a question that was not asked.
  const seen = new Set();
  for (const t of parsed.tokens) {
    if (t.kind !== 'option' || OPTIONS[t.name]?.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(s('error.repeated_option', { name: t.name }), cmd);
    seen.add(t.name);
  }
  const opts = { ...parsed.values };
  for (const [n, o] of own) {
    if (o.multiple && opts[n] === undefined) opts[n] = [];
    if ((o.type === 'number' || o.type === 'integer') && opts[n] !== undefined) opts[n] = numberValue(cmd, n, o, opts[n]);
  }
  const [min, max] = COMMAND_TABLE[cmd].positionals ?? [0, 0];
  const pos = parsed.positionals;
  if (pos.length > max) throw strayWord(cmd, pos[max]);
  if (!opts.help && pos.length < min) throw new UsageError(s('error.needs_arguments', { command: cmd, synopsis: COMMAND_TABLE[cmd].synopsis }), cmd);
  return { opts, positionals: pos };
}
