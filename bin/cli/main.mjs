// The CLI's commands as a function: bin/gpuvalue.mjs runs one per process.
import fs from 'node:fs';
import path from 'node:path';
import { GpuvalueError, issueText } from '../../web/src/engine/client.js';
import { UsageError, COMMAND_TABLE, commandNames, usage, commandHelp, parseCommand, closest, guardOptions } from './options.mjs';
import { COMMANDS } from './commands.mjs';
import { engine, root, isWasmAbort } from './io.mjs';
import { terminalText } from './text.mjs';
import { language, localisedEngine } from './lang.mjs';
import { s, setCliLanguage, requestedLanguage } from './strings.mjs';
import { streams, writeOut, writeErr } from './streams.mjs';

const version = () => JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;

function unknownCommand(word) {
  const near = closest(word, commandNames());
  return new UsageError(s('error.unknown_command', { word, near: near ? s('error.did_you_mean', { suggestion: near }) : '', commands: commandNames().join(', ') }));
}

async function main(argv) {
  setCliLanguage(requestedLanguage(argv));
  const [first, ...given] = argv;
  // --lang also goes with --help and --version (it was read above).
  const rest = first && first.startsWith('-') ? given.filter((a, i) => !(a === '--lang' || a.startsWith('--lang=') || given[i - 1] === '--lang')) : given;
  if (first === undefined) throw new UsageError(s('error.no_command'));
  // A --lang that names no language is refused with --help and --version too, never printed past in English.
  if (first.startsWith('-')) {
    const i = argv.findIndex((a) => a === '--lang' || a.startsWith('--lang='));
    if (i >= 0) language({ lang: argv[i] === '--lang' ? argv[i + 1] ?? '' : argv[i].slice(7) });
  }
  if (first === '--version' || first === '-v') {
    if (rest.length) throw new UsageError(s('error.version_arguments', { word: rest[0] }));
    writeOut(`gpuvalue ${version()}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    if (rest.length > 1) throw new UsageError(s('error.help_arguments', { word: rest[1] }));
    if (rest.length && !COMMAND_TABLE[rest[0]]) throw unknownCommand(rest[0]);
    writeOut(`${rest.length ? commandHelp(rest[0]) : usage()}\n`);
    return 0;
  }
  if (first.startsWith('-')) throw new UsageError(s('error.command_first', { option: first }));
  if (!COMMAND_TABLE[first]) throw unknownCommand(first);
  const parsed = parseCommand(first, rest);
  const opts = guardOptions(first, parsed.opts);
  const { positionals } = parsed;
  language(opts);
  if (opts.help) {
    writeOut(`${commandHelp(first)}\n`);
    return 0;
  }
  const e = localisedEngine(streams.engine || await engine(), opts);
  const method = COMMAND_TABLE[first].method ?? first;
  if (!e.methodList.some((m) => m.name === method)) throw new UsageError(s('error.no_method', { method }));
  // A command of its own (probe) or the one of its engine method.
  return (COMMANDS[first] ?? COMMANDS[method])(opts, e, positionals);
}

// Runs one command: its exit status (0 ok, 1 bad input, 2 usage error), the answer written to `out` and messages to
// `err` (the process's streams unless given). `engine`, when given, is used instead of loading a fresh one (a caller
// running many commands in one process; the commands that add catalogs must then not share it).
export async function run(argv, { out = process.stdout, err = process.stderr, engine: shared = null } = {}) {
  const saved = { ...streams };
  Object.assign(streams, { out, err, engine: shared });
  try {
    return await main(argv);
  } catch (e) {
    return failure(e);
  } finally {
    Object.assign(streams, saved);
  }
}

// What a failed command prints, and its exit status.
function failure(err) {
  const say = (text) => writeErr(`${terminalText(text)}\n`);
  if (err instanceof UsageError) {
    say(`gpuvalue: ${err.message}\n\n${err.command ? `${commandHelp(err.command)}\n\n${s('help.see_all')}` : usage()}`);
    return 2;
  }
  if (err instanceof GpuvalueError) {
    say(`gpuvalue: ${err.message}`);
    for (const i of err.issues.filter((x) => !x.warning).slice(1)) say(`gpuvalue: ${issueText(i)}`);
    return 1;
  }
  if (isWasmAbort(err)) {
    say(`gpuvalue: ${s('error.engine_stopped', { detail: err.message })}`);
    return 1;
  }
  say(`gpuvalue: ${err && err.stack ? err.stack : err}`);
  return 1;
}
