#!/usr/bin/env node
// Size check of the code in core/ and web/src: no file over 600 lines and no function over 120 lines.
// C++ functions are found by a small brace-matching scanner that skips comments, strings and character literals;
// JS functions by ESLint's max-lines-per-function (and JS files by max-lines). Data tables are excepted by the
// list below, each with its reason. Prints one "file:line: ..." per finding and exits 1 when there is any.
// Usage: node scripts/lint-size.mjs [files or folders ...] (default: core web/src)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

export const MAX_FILE_LINES = 600;
export const MAX_FUNCTION_LINES = 120;

// Files the size check skips, with the reason (paths relative to the repository).
// (The UI strings are JSON data under web/src/i18n/ and are not scanned.)
export const EXCEPTED = {};

const CPP = /\.(cpp|cc|hpp|h)$/;
const JS = /\.(js|mjs)$/;

// Lines of a text: a last line without its newline counts too.
export const lineCount = (text) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

// The C++ text with comments, preprocessor lines, string and character literals replaced by spaces (newlines kept,
// so positions and line numbers stay those of the file).
export function blankCpp(text) {
  const out = text.split('');
  const blank = (from, to) => { for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' '; };
  let i = 0;
  let lineStart = true;  // only white space since the last newline
  while (i < text.length) {
    const c = text[i], n = text[i + 1];
    let end;
    if (c === '#' && lineStart) {
      end = i;
      while (end < text.length && !(text[end] === '\n' && text[end - 1] !== '\\')) end++;
    } else if (c === '/' && n === '/') {
      end = text.indexOf('\n', i);
      if (end < 0) end = text.length;
    } else if (c === '/' && n === '*') {
      end = text.indexOf('*/', i + 2);
      end = end < 0 ? text.length : end + 2;
    } else if (c === 'R' && n === '"' && !/\w/.test(text[i - 1] || '')) {
      const open = text.indexOf('(', i + 2);
      const close = open < 0 ? -1 : text.indexOf(`)${text.slice(i + 2, open)}"`, open);
      end = close < 0 ? text.length : close + (open - i - 2) + 2;
    } else if (c === '"' || (c === '\'' && !/[0-9A-Fa-f]/.test(text[i - 1] || ''))) {
      // A quote after a hex digit is a digit separator (1'000), not a character literal.
      end = i + 1;
      while (end < text.length && text[end] !== c && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
      end = Math.min(end + 1, text.length);
    } else {
      if (c === '\n') lineStart = true;
      else if (c !== ' ' && c !== '\t' && c !== '\r') lineStart = false;
      i++;
      continue;
    }
    blank(i, end);
    lineStart = false;
    i = end;
  }
  return out.join('');
}

// What a `{` opens, from the text since the last statement or block boundary before it (the head).
function braceKind(head) {
  const h = head.replace(/\s+/g, ' ').trim();
  if (/(^|\W)(namespace|class|struct|union|enum)(\W|$)/.test(h) && !/\)\s*$/.test(h)) return 'scope';
  if (h === '' || h === 'extern') return 'scope';
  // A function body: a parameter list, then qualifiers or a trailing return type; or a constructor's
  // initializer list (") : a_(x), b_{y}").
  const qualifiers = /\)\s*(?:(?:const|noexcept(?:\s*\([^)]*\))?|override|final|mutable|volatile|&&?|->\s*[\w:<>,*&\s]+)\s*)*$/;
  const control = /(^|\W)(if|for|while|switch|catch|return)\s*\(/;
  if (h.includes('(') && !control.test(h) && (qualifiers.test(h) || /\)\s*:[^;]*[)}]$/.test(h))) return 'function';
  return 'init';
}

// Functions of a C++ text as {line, lines}: the line where the function's head starts and its lines up to the
// closing brace. Lambdas and blocks inside a function count as part of it.
export function cppFunctions(text) {
  const code = blankCpp(text);
  const lineAt = new Array(code.length + 1);
  for (let i = 0, line = 1; i <= code.length; i++) {
    lineAt[i] = line;
    if (code[i] === '\n') line++;
  }
  const found = [];
  const stack = [];  // {kind: scope | function | init | block, start}
  let depthInFunction = 0;
  let headStart = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '{') {
      if (depthInFunction) {
        depthInFunction++;
        continue;
      }
      const head = code.slice(headStart, i);
      const kind = braceKind(head);
      const first = head.search(/\S/);
      stack.push({ kind, start: first < 0 ? i : headStart + first });
      if (kind === 'function') depthInFunction = 1;
      if (kind !== 'init') headStart = i + 1;
    } else if (c === '}') {
      if (depthInFunction > 1) {
        depthInFunction--;
        continue;
      }
      const b = stack.pop();
      if (!b) continue;
      if (b.kind === 'function') {
        depthInFunction = 0;
        found.push({ line: lineAt[b.start], lines: lineAt[i] - lineAt[b.start] + 1 });
      }
      if (b.kind !== 'init') headStart = i + 1;
    } else if (depthInFunction === 0 && (c === ';' || c === ':')) {
      const top = stack[stack.length - 1];
      // A statement ends a head; so does an access specifier ("public:").
      if (c === ';' && !(top && top.kind === 'init')) headStart = i + 1;
      if (c === ':' && /^\s*(public|private|protected)\s*$/.test(code.slice(headStart, i))) headStart = i + 1;
    }
  }
  return found;
}

// Findings for one file's text: [{file, line, message}].
export async function checkText(file, text, eslint = null) {
  const findings = [];
  const lines = lineCount(text);
  if (lines > MAX_FILE_LINES) findings.push({ file, line: 1, message: `file has ${lines} lines (limit ${MAX_FILE_LINES})` });
  if (CPP.test(file)) {
    for (const f of cppFunctions(text))
      if (f.lines > MAX_FUNCTION_LINES) findings.push({ file, line: f.line, message: `function has ${f.lines} lines (limit ${MAX_FUNCTION_LINES})` });
  } else if (JS.test(file)) {
    const linter = eslint || jsSizeLinter();
    const [result] = await linter.lintText(text, { filePath: path.resolve(linter.options?.cwd || process.cwd(), file) });
    for (const m of result.messages) {
      if (m.ruleId !== 'max-lines-per-function') {
        if (m.fatal) findings.push({ file, line: m.line || 1, message: `cannot be parsed: ${m.message}` });
        continue;
      }
      const count = Number((/\((\d+)\)/.exec(m.message) || [])[1]);
      findings.push({ file, line: m.line, message: `function has ${count} lines (limit ${MAX_FUNCTION_LINES})` });
    }
  }
  return findings;
}

// ESLint with only the function-size rule, for JS text.
export function jsSizeLinter(cwd = process.cwd()) {
  return new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: {
      languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
      rules: { 'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: false, skipComments: false, IIFEs: true }] },
    },
  });
}

function listFiles(root, target) {
  const abs = path.resolve(root, target);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [abs];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => listFiles(root, path.join(abs, e.name)))
    .filter((f) => CPP.test(f) || JS.test(f));
}

export async function checkPaths(root, targets) {
  const eslint = jsSizeLinter(root);
  const findings = [];
  for (const file of targets.flatMap((t) => listFiles(root, t)).sort()) {
    const rel = path.relative(root, file);
    if (EXCEPTED[rel]) continue;
    findings.push(...await checkText(rel, fs.readFileSync(file, 'utf8'), eslint));
  }
  return findings;
}

async function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['core', 'web/src'];
  const findings = await checkPaths(root, targets);
  for (const f of findings) console.log(`${f.file}:${f.line}: ${f.message}`);
  for (const [file, why] of Object.entries(EXCEPTED)) console.log(`lint-size: skipped ${file} (${why})`);
  console.log(`lint-size: ${findings.length} finding(s) in ${targets.join(', ')}`);
  process.exit(findings.length ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`lint-size: ${e.message}`);
    process.exit(2);
  });
}
