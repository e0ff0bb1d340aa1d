// Reading the page's sources (web/src) for the layout and defaults guards: the files, their imports, import
// cycles and long functions.
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers.mjs';

const WEB_SRC = path.join(root, 'web/src');

export function sourceFiles(dir = WEB_SRC) {
  return fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js')).sort()
    .map((f) => ({ name: f.split(path.sep).join('/'), text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

// The relative modules a source imports or re-exports (static and dynamic imports).
export function importsOf(text) {
  const specs = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm)) specs.push(m[1]);
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specs.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs.filter((s) => s.startsWith('.'));
}

// The first import cycle among {name, text} files (names relative to one folder, '/'-separated), as the list of
// files around it, or null.
export function findCycle(files) {
  const graph = new Map(files.map((f) => [f.name, importsOf(f.text)
    .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(f.name), s)))
    .filter((s) => s.endsWith('.js'))]));
  const state = new Map();  // name -> 'open' while on the stack, 'done' after
  const stack = [];
  const visit = (name) => {
    if (state.get(name) === 'done') return null;
    if (state.get(name) === 'open') return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, 'open');
    stack.push(name);
    for (const next of graph.get(name) || []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of graph.keys()) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return null;
}

// The functions of a source longer than maxLines: [{line, lines}]. A function is a `{` opened right after `=>` or
// after a parenthesised list that does not belong to if/for/while/switch/catch; strings, template literals,
// comments and regular-expression literals are skipped, so braces inside them do not count.
export function longFunctions(text, maxLines) {
  const found = [];
  const open = [];  // {line, fn}
  let line = 1;
  let parens = [];  // indices of unmatched '('
  let lastClose = null;  // the word before the '(' matched by the latest ')', and where that ')' was
  let prev = '';    // previous significant character
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (c === '\n') { line += 1; continue; }
    if (c === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i += 1; i -= 1; continue; }
    if (c === '/' && text[i + 1] === '*') { const e = text.indexOf('*/', i + 2); line += (text.slice(i, e).match(/\n/g) || []).length; i = e + 1; continue; }
    if (c === '\'' || c === '"' || c === '`' || (c === '/' && /[(,=:[!&|?{};]|^$/.test(prev))) {
      for (i += 1; i < text.length && text[i] !== c; ++i) {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '\n') line += 1;
        else if (c === '/' && text[i] === '[') { while (text[i] !== ']') i += text[i] === '\\' ? 2 : 1; }
      }
      prev = c;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (c === '(') parens.push(i);
    else if (c === ')') {
      const at = parens.pop();
      const before = /([A-Za-z_$][\w$]*)\s*$/.exec(text.slice(Math.max(0, at - 40), at));
      lastClose = { word: before ? before[1] : '', at: i };
    } else if (c === '{') {
      const afterArrow = text.slice(Math.max(0, i - 3), i).trimEnd().endsWith('=>');
      const afterParams = prev === ')' && lastClose && !['if', 'for', 'while', 'switch', 'catch', 'with'].includes(lastClose.word);
      open.push({ line, fn: afterArrow || afterParams });
    } else if (c === '}') {
      const o = open.pop();
      if (o && o.fn && line - o.line + 1 > maxLines) found.push({ line: o.line, lines: line - o.line + 1 });
    }
    prev = c;
  }
  return found;
}
