#!/usr/bin/env node
// gpuvalue command line: a thin layer over the same wasm engine the page uses.
//
// bin/cli/main.mjs     `run(argv, streams)`: one command, its exit status; this file runs it once per process
// bin/cli/streams.mjs  where the commands write (the process's streams, or a caller's)
// bin/cli/options.mjs  the grammar: one table of options (adding an option is one row there) and one of commands;
//                      strict parsing (node:util parseArgs), the usage text and each command's --help come from them
// bin/cli/commands.mjs what each command sends to the engine and prints
// bin/cli/text.mjs     text answers, and the escaping of every string written to a terminal
// bin/cli/io.mjs       files (UTF-8, BOM, JSON), the bundled data, the engine
// bin/cli/lang.mjs     --lang and the rendering of the engine's messages
// bin/cli/strings.mjs  the CLI's own text in the reader's language (bin/cli/strings.*.json)
// Exit status: 0 ok, 1 bad input (message on stderr), 2 usage error (message and usage on stderr).
import { run } from './cli/main.mjs';

run(process.argv.slice(2)).then((code) => { process.exitCode = code; });
