// Licence notices in what ships: the served page's engine script, the widget and the offline file each keep the
// comment that names nlohmann/json and THIRD_PARTY_NOTICES; the page's own script bundles no third-party package (its
// charts are its own, views/plot.js), and the offline file's CSP hashes still match its inline scripts.
import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './helpers.mjs';
import { siteScripts } from '../../bench/bytes.mjs';

const NAMES = ['nlohmann/json'];

// The text of every /*! ... */ comment (the kind minifiers keep) in a script or page.
const legalComments = (text) => [...text.matchAll(/\/\*![\s\S]*?\*\//g)].map((m) => m[0]).join('\n');

function assertNotices(label, text) {
  const comments = legalComments(text);
  for (const name of NAMES) assert.ok(comments.includes(name), `${label} has no notice comment naming ${name}`);
  assert.ok(comments.includes('THIRD_PARTY_NOTICES'), `${label} does not point at THIRD_PARTY_NOTICES`);
}

const read = (p) => fs.readFileSync(path.join(root, p), 'utf8');

test('the served page keeps the notices on the engine script; app.js and its chunks bundle no third-party package', () => {
  // app.js and the chunks it imports (scripts/build-web.mjs splits the page's modules): no package's licence comment,
  // because none is bundled (a package added to the page's script must add its licence here and in THIRD_PARTY_NOTICES).
  const { first } = siteScripts(path.join(root, 'dist/site'));
  const app = first.map((f) => read(`dist/site/${f}`)).join('\n');
  assert.ok(first.length >= 1, 'app.js is measured');
  assert.equal(legalComments(app), '', 'a licence comment in the page\'s script: name its package in THIRD_PARTY_NOTICES');
  assertNotices('dist/site/gpuvalue_engine.js', read('dist/site/gpuvalue_engine.js'));
  const html = read('dist/site/index.html');
  assert.ok(html.includes('<script src="gpuvalue_engine.js">'), 'index.html loads gpuvalue_engine.js');
  assert.ok(html.includes('<script type="module" src="app.js">'), 'index.html loads app.js as a module');
});

test('the widget for other sites keeps the notices', () => {
  assertNotices('dist/site/gpu-value.js', read('dist/site/gpu-value.js'));
});

test('the offline file keeps the notices inside its inline scripts, and its CSP hashes match them', () => {
  const html = read('dist/gpuvalue.html');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)[1];
  const scripts = [...html.matchAll(/<script( [^>]*)?>([\s\S]*?)<\/script>/g)]
    // The ones that run: those with no type, and the text the page runs as scripts (the engine's glue, the
    // worker's code, the page's script: web/src/engine/boot.js and host.js).
    // The page's script travels as base64 of its gzip (data-encoding): what runs, and is hashed, is its inflated text.
    .filter((m) => !/type=/.test(m[1] || '') || /type="module"/.test(m[1]) || /id="gv-(?:engine|worker|app)"/.test(m[1]))
    .map((m) => (/data-encoding="gzip\+base64"/.test(m[1]) ? zlib.gunzipSync(Buffer.from(m[2], 'base64')).toString('utf8') : m[2]));
  assert.ok(scripts.length >= 2, 'the engine and app scripts are inline');
  for (const s of scripts) {
    const hash = `'sha256-${crypto.createHash('sha256').update(s, 'utf8').digest('base64')}'`;
    assert.ok(csp.includes(hash), `an inline script of ${s.length} bytes has no matching hash in the CSP`);
  }
  assertNotices('dist/gpuvalue.html (run scripts)', scripts.join('\n'));
  // The page's script bundles no third-party package: no licence comments to keep beside it (gv-app-licences is
  // written only when there are some).
  assert.ok(!html.includes('id="gv-app-licences"'), 'licences of a package bundled into the page\'s script');
});

test('THIRD_PARTY_NOTICES holds the licence text of each component the notices name', () => {
  const notices = read('THIRD_PARTY_NOTICES');
  for (const name of [...NAMES, 'Emscripten', 'musl', 'libc++', 'libc++abi']) assert.ok(notices.includes(name), name);
  assert.ok((notices.match(/Permission is hereby granted, free of charge/g) || []).length >= 3, 'MIT texts');
  assert.match(notices, /Apache License\s+Version 2\.0/);
  assert.match(notices, /LLVM Exceptions/);
  assert.match(read('LICENSE'), /^MIT License\n\nCopyright \(c\) 2026 the gpuvalue authors\n/);
});
