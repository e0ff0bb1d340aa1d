// The command line's grammar: one table of options and one table of commands drive the parser (node:util
// parseArgs, strict), the usage text and each command's --help.
//
// Adding an option is one row of OPTIONS: its type ('string', 'boolean', 'number' or 'integer'), the value's
// placeholder and the commands that take it, e.g.
//   lang: { type: 'string', value: 'LANG', commands: ALL },
// and its help line, "option.lang", in both catalogs of the CLI's text (bin/cli/strings.*.json).
// A command reads it as opts.lang (opts['include-stale'] for a dashed name); numbers arrive as numbers, already
// checked to be decimal and within min/max. Adding a command is one row of COMMAND_TABLE and one entry of COMMANDS
// in commands.mjs (and its summary, "command.NAME", in the catalogs).
import { parseArgs } from 'node:util';
import { s } from './strings.mjs';

export class UsageError extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}

const ALL = '*';
const WORKLOAD = ['estimate', 'rank', 'levers', 'compare', 'energy', 'tco'];
const HARDWARE = ['energy', 'tco'];

// name -> { type, value, commands, multiple?, min?, minExclusive?, max?, choices? }; the help is s('option.NAME')
export const OPTIONS = {
  preset: { type: 'string', value: 'ID', commands: WORKLOAD },
  workload: { type: 'string', value: 'FILE', commands: WORKLOAD },
  gpu: { type: 'string', value: 'GPU_ID', commands: ['estimate', 'mig', ...HARDWARE] },
  instance: { type: 'string', value: 'ID', commands: ['cost', 'levers', 'serverless', ...HARDWARE] },
  count: { type: 'integer', value: 'N', min: 1, commands: ['estimate', ...HARDWARE] },
  software: { type: 'string', value: 'tuned|typical', commands: ['estimate', 'rank'] },
  precision: { type: 'string', value: 'P', commands: ['estimate', 'levers'] },
  catalog: { type: 'string', multiple: true, value: 'FILE', commands: ['rank'] },
  'add-catalog': { type: 'string', multiple: true, value: 'FILE', commands: ['rank'] },
  pricing: { type: 'string', value: 'MODEL', commands: ['rank', 'cost', 'levers', 'compare'] },
  'fits-only': { type: 'boolean', commands: ['rank'] },
  'no-marketplace': { type: 'boolean', commands: ['rank'] },
  'include-examples': { type: 'boolean', commands: ['rank', 'advise', 'mig', 'levers', 'tco'] },
  'include-stale': { type: 'boolean', commands: ['rank', 'advise', 'mig', 'levers', 'tco'] },
  'horizon-days': { type: 'number', value: 'DAYS', min: 0, commands: ['rank', 'advise'] },
  budget: { type: 'number', value: 'USD', min: 0, minExclusive: true, commands: ['rank'] },
  deadline: { type: 'number', value: 'HOURS', min: 0, minExclusive: true, commands: ['rank', 'advise'] },
  limit: { type: 'integer', value: 'N', min: 1, commands: ['rank'] },
  hours: { type: 'number', value: 'H', min: 0, commands: ['cost', ...HARDWARE] },
  nodes: { type: 'integer', value: 'N', min: 1, commands: ['cost', 'levers'] },
  'cold-start-s': { type: 'number', value: 'S', min: 0, commands: ['cost', 'serverless'] },
  offer: { type: 'string', value: 'ID', commands: ['serverless'] },
  load: { type: 'string', value: 'G0,G1,…,G23', commands: ['serverless'] },
  'idle-timeout-s': { type: 'number', value: 'S', min: 0, commands: ['serverless'] },
  'max-concurrency': { type: 'integer', value: 'N', min: 1, commands: ['serverless'] },
  provider: { type: 'string', value: 'NAME', commands: ['import'] },
  'as-of': { type: 'string', value: 'YYYY-MM-DD', commands: ['import'] },
  params: { type: 'number', value: 'N', min: 0, minExclusive: true, commands: ['advise'] },
  tokens: { type: 'number', value: 'N', min: 0, minExclusive: true, commands: ['advise'] },
  stage: { type: 'string', value: 'STAGE', commands: ['advise'] },
  mode: { type: 'string', value: 'MODE', commands: ['advise'] },
  demand: { type: 'string', value: 'FILE', commands: ['plan'] },
  example: { type: 'string', value: 'NAME', commands: ['plan'] },
  jobs: { type: 'string', value: 'SPEC', commands: ['mig'] },
  config: { type: 'string', multiple: true, value: 'C', commands: ['compare'] },
  baseline: { type: 'integer', value: 'I', min: 0, commands: ['compare'] },
  cooling: { type: 'string', value: 'KIND', commands: HARDWARE },
  pue: { type: 'number', value: 'P', min: 1, commands: HARDWARE },
  utilisation: { type: 'number', value: 'U', min: 0, max: 1, commands: HARDWARE },
  'usd-per-kwh': { type: 'number', value: 'X', min: 0, commands: HARDWARE },
  'kg-co2-per-kwh': { type: 'number', value: 'X', min: 0, commands: HARDWARE },
  'power-w': { type: 'number', value: 'W', min: 0, minExclusive: true, commands: HARDWARE },
  'purchase-usd': { type: 'number', value: 'X', min: 0, commands: ['tco'] },
  years: { type: 'number', value: 'N', min: 0, minExclusive: true, commands: ['tco'] },
  'other-usd-per-year': { type: 'number', value: 'X', min: 0, commands: ['tco'] },
  'rent-usd-per-gpu-hour': { type: 'number', value: 'X', min: 0, minExclusive: true, commands: ['tco'] },
  json: { type: 'boolean', commands: ['estimate', 'rank', 'cost', 'presets', 'gpus', 'advise', 'plan', 'mig', 'levers', 'compare', 'energy', 'tco'] },
  lang: { type: 'string', value: 'zh|en', commands: ALL },
  help: { type: 'boolean', short: 'h', commands: ALL },
};

// command -> { method (engine method when named otherwise), synopsis (positionals and required choices; the other
// options are listed from OPTIONS), positionals: [min, max], group }; the summary is s('command.NAME')
export const COMMAND_TABLE = {
  estimate: { synopsis: '(--preset ID | --workload FILE) --gpu GPU_ID' },
  rank: { synopsis: '(--preset ID | --workload FILE)' },
  cost: { synopsis: '--instance ID --hours H' },
  validate: { synopsis: 'FILE...', positionals: [1, Infinity] },
  import: { method: 'importSkypilot', synopsis: 'skypilot FILE.csv', positionals: [2, 2] },
  presets: { synopsis: '' },
  gpus: { synopsis: '' },
  advise: { synopsis: '--params N', group: 'decision tools' },
  plan: { synopsis: '(--demand FILE | --example article)', group: 'decision tools' },
  serverless: { synopsis: '--offer ID', group: 'decision tools' },
  mig: { synopsis: '--gpu GPU_ID --jobs SPEC', group: 'decision tools' },
  levers: { synopsis: '(--preset ID | --workload FILE) --instance ID', group: 'decision tools' },
  compare: { synopsis: '(--preset ID | --workload FILE) --config C --config C', group: 'decision tools' },
  energy: { synopsis: '(--gpu GPU_ID | --instance ID) (--hours H | --preset ID | --workload FILE)', group: 'decision tools' },
  tco: { synopsis: '(--gpu GPU_ID | --instance ID)', group: 'decision tools' },
};

export const commandNames = () => Object.keys(COMMAND_TABLE);
const optionsOf = (cmd) => Object.entries(OPTIONS).filter(([, o]) => o.commands === ALL || o.commands.includes(cmd));

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
    for (const cmd of Object.keys(COMMAND_TABLE)) if (COMMAND_TABLE[cmd].group === group) lines.push(`  ${cmd.padEnd(9)}${s(`command.${cmd}`)}`);
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

function numberValue(cmd, name, o, text) {
  const v = DECIMAL.test(text) ? Number(text) : NaN;
  const range = [o.min !== undefined ? `${o.minExclusive ? '>' : '>='} ${o.min}` : '', o.max !== undefined ? `<= ${o.max}` : ''].filter(Boolean).join(s('join.and'));
  const bad = !Number.isFinite(v) || (o.type === 'integer' && !Number.isInteger(v)) || (o.min !== undefined && (o.minExclusive ? v <= o.min : v < o.min))
    || (o.max !== undefined && v > o.max);
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
    parsed = parseArgs({ args: joinNegativeNumbers(argv), options: config, strict: true, allowPositionals: true });
  } catch (e) {
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw unknownOption(cmd, /'([^']+)'/.exec(e.message)?.[1] ?? '?');
    const name = /'(-[^' ]+)/.exec(e.message)?.[1] ?? '';
    if (/does not take an argument/.test(e.message)) throw new UsageError(s('error.flag_value', { name }), cmd);
    if (/argument missing|ambiguous/.test(e.message)) throw new UsageError(s('error.needs_value', { name }), cmd);
    throw new UsageError(e.message.split('\n')[0], cmd);
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
