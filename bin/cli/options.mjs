// The command line's grammar: one table of options and one table of commands drive the parser (node:util
// parseArgs, strict), the usage text and each command's --help.
//
// Adding an option is one row of OPTIONS: its type ('string', 'boolean', 'number' or 'integer'), the value's
// placeholder, a help line and the commands that take it, e.g.
//   lang: { type: 'string', value: 'LANG', help: 'language of sentences (en, zh-CN)', commands: ALL },
// A command reads it as opts.lang (opts['include-stale'] for a dashed name); numbers arrive as numbers, already
// checked to be decimal and within min/max. Adding a command is one row of COMMAND_TABLE and one entry of COMMANDS
// in commands.mjs.
import { parseArgs } from 'node:util';

export class UsageError extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}

const ALL = '*';
const WORKLOAD = ['estimate', 'rank', 'levers', 'compare', 'energy', 'tco'];
const HARDWARE = ['energy', 'tco'];

// name -> { type, value, help, commands, multiple?, min?, minExclusive?, max?, choices? }
export const OPTIONS = {
  preset: { type: 'string', value: 'ID', help: 'a bundled workload (gpuvalue presets)', commands: WORKLOAD },
  workload: { type: 'string', value: 'FILE', help: 'a workload JSON file', commands: WORKLOAD },
  gpu: { type: 'string', value: 'GPU_ID', help: 'a GPU id or alias (gpuvalue gpus)', commands: ['estimate', 'mig', ...HARDWARE] },
  instance: { type: 'string', value: 'ID', help: 'an instance type or offer id of the catalog', commands: ['cost', 'levers', 'serverless', ...HARDWARE] },
  count: { type: 'integer', value: 'N', min: 1, help: 'number of GPUs', commands: ['estimate', ...HARDWARE] },
  software: { type: 'string', value: 'tuned|typical', help: 'software stack: tuned (vendor containers, Megatron-class) or typical (a stock framework); overrides the workload', commands: ['estimate', 'rank'] },
  precision: { type: 'string', value: 'P', help: 'fp32, tf32, fp16, bf16, fp8 or int8', commands: ['estimate', 'levers'] },
  catalog: { type: 'string', multiple: true, value: 'FILE', help: 'rank these catalogs INSTEAD of the bundled one (repeatable)', commands: ['rank'] },
  'add-catalog': { type: 'string', multiple: true, value: 'FILE', help: 'rank these catalogs IN ADDITION to the bundled one (repeatable)', commands: ['rank'] },
  pricing: { type: 'string', value: 'MODEL', help: 'on_demand, reserved, spot, tiered (rank also: all)', commands: ['rank', 'cost', 'levers', 'compare'] },
  'fits-only': { type: 'boolean', help: 'only offers whose memory fits the workload', commands: ['rank'] },
  'no-marketplace': { type: 'boolean', help: 'leave out marketplace / peer-to-peer offers (Vast and similar)', commands: ['rank'] },
  'include-examples': { type: 'boolean', help: "also consider the seed article's illustrative offers (not real prices)", commands: ['rank', 'advise', 'mig', 'levers', 'tco'] },
  'include-stale': { type: 'boolean', help: 'also consider prices older than 180 days (flagged stale)', commands: ['rank', 'advise', 'mig', 'levers', 'tco'] },
  'horizon-days': { type: 'number', value: 'DAYS', min: 0, help: 'size each offer to finish within DAYS of wall time (default 30; 0 = smallest cluster that fits; a deadline replaces it)', commands: ['rank', 'advise'] },
  budget: { type: 'number', value: 'USD', min: 0, minExclusive: true, help: 'only offers whose job costs at most USD', commands: ['rank'] },
  deadline: { type: 'number', value: 'HOURS', min: 0, minExclusive: true, help: 'the job must finish within HOURS', commands: ['rank', 'advise'] },
  limit: { type: 'integer', value: 'N', min: 1, help: 'at most N results', commands: ['rank'] },
  hours: { type: 'number', value: 'H', min: 0, help: 'hours of use', commands: ['cost', ...HARDWARE] },
  nodes: { type: 'integer', value: 'N', min: 1, help: 'number of instances (levers: default as rank sizes it)', commands: ['cost', 'levers'] },
  'cold-start-s': { type: 'number', value: 'S', min: 0, help: 'seconds of cold start billed per scale-up (serverless)', commands: ['cost', 'serverless'] },
  offer: { type: 'string', value: 'ID', help: 'an offer with a serverless price', commands: ['serverless'] },
  load: { type: 'string', value: 'G0,G1,…,G23', help: "a day's load: GPUs busy in each of 24 hours", commands: ['serverless'] },
  'idle-timeout-s': { type: 'number', value: 'S', min: 0, help: 'seconds a worker stays up after its last request', commands: ['serverless'] },
  'max-concurrency': { type: 'integer', value: 'N', min: 1, help: 'at most N workers at once', commands: ['serverless'] },
  provider: { type: 'string', value: 'NAME', help: 'provider name written into the catalog', commands: ['import'] },
  'as-of': { type: 'string', value: 'YYYY-MM-DD', help: 'date of the prices (default: today)', commands: ['import'] },
  params: { type: 'number', value: 'N', min: 0, minExclusive: true, help: 'model parameters, e.g. 7e9', commands: ['advise'] },
  tokens: { type: 'number', value: 'N', min: 0, minExclusive: true, help: 'training tokens', commands: ['advise'] },
  stage: { type: 'string', value: 'STAGE', help: 'exploration, tuning or production', commands: ['advise'] },
  mode: { type: 'string', value: 'MODE', help: 'pretrain, finetune or lora', commands: ['advise'] },
  demand: { type: 'string', value: 'FILE', help: 'a demand JSON file', commands: ['plan'] },
  example: { type: 'string', value: 'NAME', help: 'the built-in example (article)', commands: ['plan'] },
  jobs: { type: 'string', value: 'SPEC', help: 'COUNTxMEMgb[:SHARE][@HOURSh],...  e.g. 7x8gb or 3x20gb,2x5gb@4h', commands: ['mig'] },
  config: { type: 'string', multiple: true, value: 'C', help: 'GPU_ID:COUNT[:USD_PER_HOUR] or INSTANCE[:NODES] (2 to 4 times)', commands: ['compare'] },
  baseline: { type: 'integer', value: 'I', min: 0, help: 'index of the baseline config', commands: ['compare'] },
  cooling: { type: 'string', value: 'KIND', help: 'air or liquid', commands: HARDWARE },
  pue: { type: 'number', value: 'P', min: 1, help: 'power usage effectiveness (>= 1)', commands: HARDWARE },
  utilisation: { type: 'number', value: 'U', min: 0, max: 1, help: 'share of time the GPUs are busy (0..1)', commands: HARDWARE },
  'usd-per-kwh': { type: 'number', value: 'X', min: 0, help: 'electricity price', commands: HARDWARE },
  'kg-co2-per-kwh': { type: 'number', value: 'X', min: 0, help: 'grid carbon intensity', commands: HARDWARE },
  'power-w': { type: 'number', value: 'W', min: 0, minExclusive: true, help: 'power per GPU in watts', commands: HARDWARE },
  'purchase-usd': { type: 'number', value: 'X', min: 0, help: 'purchase price of the GPUs', commands: ['tco'] },
  years: { type: 'number', value: 'N', min: 0, minExclusive: true, help: 'amortisation years', commands: ['tco'] },
  'other-usd-per-year': { type: 'number', value: 'X', min: 0, help: 'other yearly costs', commands: ['tco'] },
  'rent-usd-per-gpu-hour': { type: 'number', value: 'X', min: 0, minExclusive: true, help: 'rental price to compare with', commands: ['tco'] },
  json: { type: 'boolean', help: 'answer as JSON', commands: ['estimate', 'rank', 'cost', 'presets', 'gpus', 'advise', 'plan', 'mig', 'levers', 'compare', 'energy', 'tco'] },
  lang: { type: 'string', value: 'zh|en', help: 'language of reasons, warnings and notes (default from LC_ALL/LANG); --json keeps code and params and adds an English "text"', commands: ['estimate', 'rank', 'cost', 'validate', 'import', 'advise', 'plan', 'serverless', 'mig', 'levers', 'compare', 'energy', 'tco'] },
  help: { type: 'boolean', short: 'h', help: 'this help', commands: ALL },
};

// command -> { method (engine method when named otherwise), synopsis (positionals and required choices; the other
// options are listed from OPTIONS), positionals: [min, max], summary, group }
export const COMMAND_TABLE = {
  estimate: { synopsis: '(--preset ID | --workload FILE) --gpu GPU_ID', summary: 'time, throughput and memory of a workload on N GPUs' },
  rank: { synopsis: '(--preset ID | --workload FILE)', summary: 'rank the offers of the catalog for a workload' },
  cost: { synopsis: '--instance ID --hours H', summary: 'the cost of an instance for some hours' },
  validate: { synopsis: 'FILE...', positionals: [1, Infinity], summary: 'check catalog, GPU, workload or demand files' },
  import: { method: 'importSkypilot', synopsis: 'skypilot FILE.csv', positionals: [2, 2], summary: 'convert a SkyPilot vms.csv into a catalog' },
  presets: { synopsis: '', summary: 'the bundled workloads' },
  gpus: { synopsis: '', summary: 'the GPUs the engine knows' },
  advise: { synopsis: '--params N', summary: 'GPU class, count and pricing for a model size (article §4)', group: 'decision tools' },
  plan: { synopsis: '(--demand FILE | --example article)', summary: 'reserved/on-demand/spot mix for a demand', group: 'decision tools' },
  serverless: { synopsis: '--offer ID', summary: "a day's load on serverless GPUs versus instances", group: 'decision tools' },
  mig: { synopsis: '--gpu GPU_ID --jobs SPEC', summary: 'pack small jobs into MIG slices', group: 'decision tools' },
  levers: { synopsis: '(--preset ID | --workload FILE) --instance ID', summary: 'what each cost lever changes', group: 'decision tools' },
  compare: { synopsis: '(--preset ID | --workload FILE) --config C --config C', summary: 'compare 2 to 4 configurations', group: 'decision tools' },
  energy: { synopsis: '(--gpu GPU_ID | --instance ID) (--hours H | --preset ID | --workload FILE)', summary: 'energy, its cost and CO2', group: 'decision tools' },
  tco: { synopsis: '(--gpu GPU_ID | --instance ID)', summary: 'owning versus renting', group: 'decision tools' },
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
  const lines = ['usage: gpuvalue <command> [options]      gpuvalue <command> --help      gpuvalue --version', ''];
  for (const group of [undefined, 'decision tools']) {
    lines.push(group ? `${group} (article §4-§5):` : 'commands:');
    for (const [cmd, c] of Object.entries(COMMAND_TABLE)) if (c.group === group) lines.push(`  ${cmd.padEnd(9)}${c.summary}`);
    lines.push('');
  }
  lines.push('Numbers are decimal (7e9 and 0.5 are fine; 0x10 is not). Prices are USD.',
    'Exit status: 0 ok, 1 bad input (message on stderr), 2 usage error.');
  return lines.join('\n');
}

export function commandHelp(cmd) {
  const c = COMMAND_TABLE[cmd];
  const rows = optionsOf(cmd).map(([n, o]) => [`${o.short ? `-${o.short}, ` : ''}${optionText(n, o)}`, o.help]);
  const width = Math.max(...rows.map((r) => r[0].length));
  return [`usage: gpuvalue ${synopsis(cmd)}`, '', c.summary, '', 'options:', ...rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`)].join('\n');
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
  const kind = o.type === 'integer' ? 'a whole number' : 'a decimal number';
  const range = [o.min !== undefined ? `${o.minExclusive ? '>' : '>='} ${o.min}` : '', o.max !== undefined ? `<= ${o.max}` : ''].filter(Boolean).join(' and ');
  const bad = !Number.isFinite(v) || (o.type === 'integer' && !Number.isInteger(v)) || (o.min !== undefined && (o.minExclusive ? v <= o.min : v < o.min))
    || (o.max !== undefined && v > o.max);
  if (bad) throw new UsageError(`--${name} must be ${kind}${range ? ` ${range}` : ''} (got "${text}")`, cmd);
  return v;
}

function unknownOption(cmd, token) {
  const name = token.replace(/^-+/, '').split('=')[0];
  const own = optionsOf(cmd).map(([n]) => n);
  const near = closest(name, own);
  const elsewhere = OPTIONS[name] ? ` (it is an option of ${commandNames().filter((c) => OPTIONS[name].commands.includes(c)).join(', ')})` : '';
  return new UsageError(`${cmd} has no option ${token.split('=')[0]}${elsewhere}${near ? `; did you mean --${near}?` : ''}`, cmd);
}

function strayWord(cmd, word) {
  const near = OPTIONS[word] && optionsOf(cmd).some(([n]) => n === word) ? word : null;
  return new UsageError(`unexpected argument "${word}"${near ? `; did you mean --${near}?` : ''}`, cmd);
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
    if (/does not take an argument/.test(e.message)) throw new UsageError(`${name} is a flag and takes no value`, cmd);
    if (/argument missing|ambiguous/.test(e.message)) throw new UsageError(`${name} needs a value (a value starting with "-" is written ${name}=VALUE)`, cmd);
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
  if (!opts.help && pos.length < min) throw new UsageError(`${cmd} needs ${COMMAND_TABLE[cmd].synopsis}`, cmd);
  return { opts, positionals: pos };
}
