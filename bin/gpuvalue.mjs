#!/usr/bin/env node
// gpuvalue command line: a thin layer over the same wasm engine the page uses.
//
// bin/cli/options.mjs  the grammar: one table of options (adding an option is one row there) and one of commands;
//                      strict parsing (node:util parseArgs), the usage text and each command's --help come from them
// bin/cli/commands.mjs what each command sends to the engine and prints
// bin/cli/text.mjs     text answers, and the escaping of every string written to a terminal
// bin/cli/io.mjs       files (UTF-8, BOM, JSON), the bundled data, the engine
// bin/cli/lang.mjs     --lang and the rendering of the engine's messages
// bin/cli/strings.mjs  the CLI's own text in the reader's language (bin/cli/strings.*.json)
// Exit status: 0 ok, 1 bad input (message on stderr), 2 usage error (message and usage on stderr).
import fs from 'node:fs';
import path from 'node:path';
import { GpuvalueError, issueText } from '../web/src/engine/client.js';
import { UsageError, COMMAND_TABLE, commandNames, usage, commandHelp, parseCommand, closest, guardOptions } from './cli/options.mjs';
import { COMMANDS } from './cli/commands.mjs';
import { engine, root, isWasmAbort } from './cli/io.mjs';
import { terminalText } from './cli/text.mjs';
import { language, localisedEngine } from './cli/lang.mjs';
import { s, setCliLanguage, requestedLanguage } from './cli/strings.mjs';

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
    process.stdout.write(`gpuvalue ${version()}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    if (rest.length > 1) throw new UsageError(s('error.help_arguments', { word: rest[1] }));
    if (rest.length && !COMMAND_TABLE[rest[0]]) throw unknownCommand(rest[0]);
    process.stdout.write(`${rest.length ? commandHelp(rest[0]) : usage()}\n`);
    return 0;
  }
  if (first.startsWith('-')) throw new UsageError(s('error.command_first', { option: first }));
  if (!COMMAND_TABLE[first]) throw unknownCommand(first);
  const parsed = parseCommand(first, rest);
  const opts = guardOptions(first, parsed.opts);
  const { positionals } = parsed;
  language(opts);
  if (opts.help) {
    process.stdout.write(`${commandHelp(first)}\n`);
    return 0;
  }
  const e = localisedEngine(await engine(), opts);
  const method = COMMAND_TABLE[first].method ?? first;
  if (!e.methodList.some((m) => m.name === method)) throw new UsageError(s('error.no_method', { method }));
  // A command of its own (probe) or the one of its engine method.
  return (COMMANDS[first] ?? COMMANDS[method])(opts, e, positionals);
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  const say = (text) => process.stderr.write(`${terminalText(text)}\n`);
  if (err instanceof UsageError) {
    say(`gpuvalue: ${err.message}\n\n${err.command ? `${commandHelp(err.command)}\n\n${s('help.see_all')}` : usage()}`);
    process.exitCode = 2;
  } else if (err instanceof GpuvalueError) {
    say(`gpuvalue: ${err.message}`);
    for (const i of err.issues.filter((x) => !x.warning).slice(1)) say(`gpuvalue: ${issueText(i)}`);
    process.exitCode = 1;
  } else if (isWasmAbort(err)) {
    say(`gpuvalue: ${s('error.engine_stopped', { detail: err.message })}`);
    process.exitCode = 1;
  } else {
    say(`gpuvalue: ${err && err.stack ? err.stack : err}`);
    process.exitCode = 1;
  }
});
