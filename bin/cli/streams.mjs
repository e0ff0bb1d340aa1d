// Where the CLI writes: the process's stdout and stderr, or the streams a caller of `run` (bin/cli/main.mjs) hands
// in, so that one node process can run many commands (tests/js/corpus.test.mjs walks the bad-input corpus that way).
export const streams = { out: process.stdout, err: process.stderr, engine: null };

export const writeOut = (text) => streams.out.write(text);
export const writeErr = (text) => streams.err.write(text);
