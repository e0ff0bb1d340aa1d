#!/usr/bin/env node
// Regenerates the SkyPilot-derived catalog files (data/catalog/*.json) from a local copy of the public SkyPilot
// catalog repository (github.com/skypilot-org/skypilot-catalog), with the engine's own importer (the wasm module).
//
//   npm run catalog:update -- --skypilot DIR [--provider NAME]… [--out DIR] [--base DIR] [--check]
//
// DIR is either a git checkout of skypilot-catalog (catalogs/v<N>/<cloud>/vms.csv; the newest version folder that
// has the cloud is used, the commit and its date come from `git log`), or a folder of <cloud>-vms.csv files with a
// sources.json that names each file's path, commit and date (tests/fixtures/skypilot is one).
// --provider limits the update to the named clouds (folder names such as "gcp", or the providers' display names).
// --out writes somewhere else than data/catalog; --base names the folder of existing files the update merges into
// (default: the output file when it exists, else data/catalog).
// --check writes nothing and exits 1 when a file would change.
//
// Dates: a price's as_of is the date its source published or fetched it: the commit date of the file (from `git log`
// of a checkout, or sources.json's "as_of"). Where only the day the file was read is known (sources.json "read_on"),
// prices carry read_on and no as_of: the page says "date unknown, read on …".
// A source marked "excerpt": true lists only some of the cloud's rows: offers it does not list are kept, not removed,
// except those of an instance type the excerpt lists as ambiguous (its rows are there, and were refused).
// GPU mapping: the importer reads every hint of a row (skypilot_hints.cpp); machines that another catalog file
// already maps (catalog-clouds.mjs `siblings`) or that a provider's documentation names (`known_gpus`) are passed
// to it, and rows whose hints disagree are left out and listed as "ambiguous".
//
// Merging: offers are matched to the existing file by instance type and region. A matched offer keeps its id and
// its hand-curated fields (service, claims, network_gbps, rdma, min_charge_s, billing_increment_s, marketplace, and
// prices of other models such as reserved; notes too when it has such prices); its on-demand and spot prices, GPU,
// counts and sizes come from the file.
// Existing offers without a SkyPilot-sourced price are kept as they are; SkyPilot-sourced offers that the new file no
// longer lists are removed. Output is sorted by id and written in one stable format, so that a rerun on the same
// input changes nothing. Printed: offers added and removed, and price moves over 10 %.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../web/src/engine/client.js';
import { CLOUDS, SHADEFORM_CLOUDS } from './catalog-clouds.mjs';
import { explain } from '../bin/cli/lang.mjs';
import { terminalText } from '../bin/cli/text.mjs';

// Every line printed with the characters a terminal acts on escaped (a CSV field is no place for ESC sequences).
const say = (line) => console.log(terminalText(line));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_REPO = 'skypilot-org/skypilot-catalog';
// A price read from a SkyPilot-format catalog repository (the official one or a fork that adds clouds).
// anycloud-sh/catalog keeps the same vms.csv format for Azure, which SkyPilot's own catalog no longer has;
// ewyluda/gpu-price-index's Azure observations reach the update as such rows (scripts/catalog-azure-observations.mjs).
const SKYPILOT_SOURCE = /^https:\/\/github\.com\/([^/]+\/skypilot-catalog|anycloud-sh\/catalog|ewyluda\/gpu-price-index)\//;
// Price moves larger than this share are listed.
const MOVE_SHARE = 0.1;
// Members the importer writes for inspection only; the catalog format does not have them.
const IMPORT_ONLY = ['source_line', 'accelerator_name', 'gpu_memory_gb'];
// Members of an existing offer that the update never overwrites.
const CURATED = ['service', 'claims', 'network_gbps', 'rdma', 'min_charge_s', 'billing_increment_s', 'marketplace'];
const MEMBER_ORDER = ['id', 'provider', 'instance_type', 'gpu', 'gpu_count', 'vcpus', 'ram_gb', 'interconnect', 'network_gbps',
  'rdma', 'region', 'zones', 'currency', 'billing_increment_s', 'min_charge_s', 'marketplace', 'example', 'service', 'claims',
  'prices', 'notes'];

// Separates an offer's hand-written notes from the import's note.
const NOTE_MARK = ' | Imported: ';

class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { skypilot: null, providers: [], out: null, base: null, check: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new UsageError(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--skypilot') opts.skypilot = value();
    else if (a === '--provider') opts.providers.push(value());
    else if (a === '--out') opts.out = value();
    else if (a === '--base') opts.base = value();
    else if (a === '--check') opts.check = true;
    else throw new UsageError(`unknown option ${a}`);
  }
  if (!opts.skypilot) throw new UsageError('usage: catalog-update --skypilot DIR [--provider NAME]… [--out DIR] [--base DIR] [--check]');
  return opts;
}

// {cloud: {file, repo_path, commit, as_of}} for every cloud of the table found in DIR.
function locateSources(dir) {
  const manifest = path.join(dir, 'sources.json');
  if (fs.existsSync(manifest)) {
    const m = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    const out = {};
    for (const [cloud, s] of Object.entries(m.files)) out[cloud] = { ...s, file: path.join(dir, s.file) };
    return out;
  }
  const catalogs = path.join(dir, 'catalogs');
  if (!fs.existsSync(catalogs)) throw new UsageError(`${dir}: neither a skypilot-catalog checkout (catalogs/) nor a folder with sources.json`);
  const versions = fs.readdirSync(catalogs).filter((v) => /^v\d+$/.test(v)).sort((a, b) => Number(b.slice(1)) - Number(a.slice(1)));
  const out = {};
  for (const cloud of Object.keys(CLOUDS)) {
    const v = versions.find((ver) => fs.existsSync(path.join(catalogs, ver, cloud, 'vms.csv')));
    if (!v) continue;
    const repoPath = `catalogs/${v}/${cloud}/vms.csv`;
    const log = execFileSync('git', ['-C', dir, 'log', '-1', '--format=%H %cs', '--', repoPath], { encoding: 'utf8' }).trim();
    const [commit, asOf] = log.split(' ');
    if (!commit) throw new UsageError(`${dir}: ${repoPath} has no commit (not a git checkout?)`);
    out[cloud] = { file: path.join(dir, repoPath), repo_path: repoPath, commit, as_of: asOf };
  }
  return out;
}

// Characters no offer's name may hold: controls (they forge table rows and drive terminals: newline, tab, ESC, C1),
// zero-width and bidi formatting characters (they hide or reorder text), in any field of a row.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
// A Shadeform instance type's prefix names the cloud that sells it: a plain name, never an object member such as
// __proto__ or constructor.
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9.-]*$/;

// The CSV's records, each with its line ending, and the line each starts on: a newline inside a quoted field
// (RFC 4180) does not end a record.
function csvRecords(text) {
  const out = [];
  let start = 0, line = 1, startLine = 1, quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\n') {
      line++;
      if (!quoted) {
        out.push({ text: text.slice(start, i + 1), line: startLine });
        start = i + 1;
        startLine = line;
      }
    }
  }
  if (start < text.length) out.push({ text: text.slice(start), line: startLine });
  return out;
}

// The CSV split into one text per provider (Shadeform resells many clouds; the instance type's prefix names it),
// and the records refused: a control, zero-width or bidi character in a field (a quoted newline included), or a
// Shadeform prefix that is no plain name.
function splitRows(cloud, text) {
  const [header, ...records] = csvRecords(text);
  const refused = [];
  const parts = new Map();
  for (const r of records) {
    const body = r.text.replace(/\r?\n$/, '');
    if (CONTROL.test(body)) {
      refused.push({ line: r.line, why: 'a control, zero-width or bidi character in a field' });
      continue;
    }
    let target = CLOUDS[cloud];
    if (cloud === 'shadeform') {
      const prefix = body.split('_')[0];
      if (!PREFIX.test(prefix) || prefix === '__proto__' || prefix === 'constructor') {
        refused.push({ line: r.line, why: `instance type prefix "${prefix}" is not a cloud's name` });
        continue;
      }
      target = Object.hasOwn(SHADEFORM_CLOUDS, prefix) ? SHADEFORM_CLOUDS[prefix]
        : { ...CLOUDS.shadeform, key: `shadeform-${prefix}`, provider: `${prefix} (via Shadeform)` };
    }
    if (!parts.has(target.key)) parts.set(target.key, [target, header ? header.text : '']);
    parts.get(target.key)[1] += r.text;
  }
  if (!parts.size && cloud !== 'shadeform') parts.set(CLOUDS[cloud].key, [CLOUDS[cloud], header ? header.text : '']);
  return { parts: [...parts.values()], refused };
}

// Import issues that say why a GPU row is not an offer (a share of one GPU), printed with the rows' lines.
const LEFT_OUT_CODES = ['import.gpu_share'];

// The CSV as the importer should read it (catalog-clouds.mjs): the Generation value "V1,V2" quoted where the writer
// left it bare (`unquoted_generation`); without the rows of instance types the cloud has retired (`retired`) and,
// for `fractions`, the rows renting a fraction of one GPU (AcceleratorCount under 1). Each type left out is printed
// with its row count and why; the list is also returned for the tests.
function prepareRows(target, text, log = console.log) {
  if (!target.retired && !target.unquoted_generation && !target.fractions) return { text, leftOut: [] };
  const lines = text.split(/(?<=\n)/);
  const header = lines[0].trim().split(',');
  const countAt = header.indexOf('AcceleratorCount');
  const kept = [lines[0]];
  const dropped = new Map();
  const drop = (type, why) => dropped.set(type, { why, rows: ((dropped.get(type) || {}).rows || 0) + 1 });
  for (const line of lines.slice(1)) {
    const fields = line.split(',');
    const count = Number(fields[countAt]);
    if (target.retired && target.retired.types.includes(fields[0])) drop(fields[0], `retired: ${target.retired.note}`);
    else if (target.fractions && fields[countAt] !== '' && count > 0 && count < 1) drop(fields[0], `rents ${fields[countAt]} of one ${fields[1]}: ${target.fractions}`);
    else kept.push(target.unquoted_generation ? line.replace(/,V1,V2(\r?\n?)$/, ',"V1,V2"$1') : line);
  }
  const leftOut = [...dropped].map(([type, d]) => ({ instance_type: type, rows: d.rows, why: d.why }));
  for (const x of leftOut) log(`  left out ${x.instance_type} (${x.rows} rows): ${x.why}`);
  return { text: kept.join(''), leftOut };
}

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9._-]/g, '-');

function sortedOffer(o) {
  const out = {};
  for (const k of MEMBER_ORDER) if (o[k] !== undefined) out[k] = o[k];
  for (const k of Object.keys(o).sort()) if (out[k] === undefined && !IMPORT_ONLY.includes(k)) out[k] = o[k];
  return out;
}

const isSkypilotPrice = (p) => typeof p.source === 'string' && SKYPILOT_SOURCE.test(p.source);
const keyOf = (o) => `${o.instance_type}|${o.region}`;

// One imported offer in catalog form, merged with the existing offer of the same instance type and region.
function mergeOffer(imported, existing, target, src) {
  const o = { ...imported };
  const dated = src.as_of ? `(${src.as_of})` : `(read ${src.read_on}; the commit's date is not known)`;
  const prefix = slug(`skypilot-${target.provider}-`);
  o.id = existing ? existing.id : slug(`${target.key}-`) + imported.id.slice(prefix.length);
  if (target.billing_increment_s) o.billing_increment_s = target.billing_increment_s;
  if (target.marketplace || (target.marketplace_types && target.marketplace_types.test(o.instance_type))) o.marketplace = true;
  const url = `https://github.com/${src.repo || DEFAULT_REPO}/blob/${src.commit}/${src.repo_path}`;
  // The date in the importer's as_of place: the commit's date, or read_on when only the read date is known.
  const date = src.as_of ? ['as_of', src.as_of] : ['read_on', src.read_on];
  o.prices = imported.prices.map((p) => Object.fromEntries(Object.entries(p).map(([k, v]) => (k === 'as_of' ? date : k === 'source' ? [k, url] : [k, v]))));
  const known = target.known_gpus && target.known_gpus.types[o.instance_type] ? ` ${target.known_gpus.note}` : '';
  // A number: that many Gbit/s with GPUDirect RDMA; {gbps, rdma: false}: a network without it.
  const listed = target.network && target.network.types[o.instance_type];
  const network = typeof listed === 'number' ? { gbps: listed, rdma: true } : listed;
  if (network) Object.assign(o, { network_gbps: network.gbps, ...(network.rdma ? { rdma: true } : {}) });
  // sources.json may say what the repository is ("described"); by default a SkyPilot-format catalog.
  const repo = src.repo && src.repo !== DEFAULT_REPO ? `${src.repo} (${src.described || 'a SkyPilot-format catalog'})` : "SkyPilot's catalog";
  o.notes = `From ${repo} ${src.repo_path} at commit ${src.commit.slice(0, 8)} ${dated}. ${target.note ? `${target.note} ` : ''}${imported.notes}${known}${network ? ` ${target.network.note}` : ''}`;
  if (existing) {
    for (const k of CURATED) if (existing[k] !== undefined) o[k] = existing[k];
    const kept = (existing.prices || []).filter((p) => !isSkypilotPrice(p) && !o.prices.some((q) => q.model === p.model));
    o.prices = [...o.prices, ...kept];
    // An offer entered by hand (it keeps prices of its own) keeps its notes; the import's note follows a marker.
    if (existing.notes && (existing.prices || []).some((p) => !isSkypilotPrice(p)))
      o.notes = `${existing.notes.split(NOTE_MARK)[0]}${NOTE_MARK}${o.notes}`;
  }
  return sortedOffer(o);
}

function priceMoves(before, after) {
  const moves = [];
  for (const p of after.prices) {
    const q = before.prices.find((x) => x.model === p.model);
    if (q && q.usd_per_hour && p.usd_per_hour && Math.abs(p.usd_per_hour / q.usd_per_hour - 1) > MOVE_SHARE)
      moves.push(`${after.id} ${p.model}: ${q.usd_per_hour} -> ${p.usd_per_hour} USD/h (${((p.usd_per_hour / q.usd_per_hour - 1) * 100).toFixed(1)} %)`);
  }
  return moves;
}

function readExisting(file) {
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

export function formatCatalog(doc) {
  return `${JSON.stringify(doc, null, 1)}\n`;
}

// Updates one catalog file from its imported offers; returns {text, added, removed, moves}.
function updateFile(existingDoc, imports, excerpt) {
  const existing = existingDoc ? existingDoc.instances : [];
  const byKey = new Map(existing.map((o) => [keyOf(o), o]));
  const produced = new Map();
  for (const { target, src, catalog } of imports)
    for (const inst of catalog.instances) {
      const o = mergeOffer(inst, byKey.get(keyOf(inst)), target, src);
      produced.set(keyOf(o), o);
    }
  const added = [];
  const moves = [];
  const removed = [];
  for (const [k, o] of produced) {
    const before = byKey.get(k);
    if (!before) added.push(o.id);
    else moves.push(...priceMoves(before, o));
  }
  const kept = [];
  for (const o of existing) {
    if (produced.has(keyOf(o))) continue;
    const refused = imports.some((x) => x.ambiguous.has(o.instance_type) && x.target.provider === o.provider);
    if ((o.prices || []).some(isSkypilotPrice) && (!excerpt || refused)) removed.push(o.id);
    else kept.push(o);
  }
  const instances = [...kept, ...produced.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const doc = { $schema: '../schema/catalog.schema.json', schema_version: 1 };
  if (existingDoc && existingDoc.fx) doc.fx = existingDoc.fx;
  doc.instances = instances;
  return { text: formatCatalog(doc), added, removed, moves };
}

// Offers priced below DOUBT_SHARE_OF_MEDIAN of the median of the same instance type across its regions (3 or more),
// for clouds whose catalog-clouds.mjs entry sets doubt_half_price: left out and printed, as a price no one could
// confirm. Google Cloud's confirmed regional prices of one machine lie within 0.89-1.19 of its median (a3-highgpu-8g
// $87.83-$111.82 around $98.93; a3-megagpu-8g $92.21-$117.51 around $92.21, data/catalog/gcp.json); the doubtful ones
// (the $33.61 H100 and $35.39 H100-MEGA accelerator rows) come out at 0.44-0.52 of it, on both sides of one half.
const DOUBT_SHARE_OF_MEDIAN = 0.6;
function dropHalfPrices(instances) {
  const byType = new Map();
  for (const o of instances) byType.set(o.instance_type, [...(byType.get(o.instance_type) || []), o]);
  const kept = [];
  const dropped = [];
  for (const list of byType.values()) {
    const v = list.map((o) => o.prices[0].usd_per_hour).sort((a, b) => a - b);
    const median = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    for (const o of list) (list.length >= 3 && o.prices[0].usd_per_hour < median * DOUBT_SHARE_OF_MEDIAN ? dropped : kept).push(o);
  }
  return { kept, dropped };
}

// {instance type or upstream id: GPU id} the importer may trust for this target: the offers of the sibling catalog
// files (Hyperstack's own list for the Hyperstack machines Prime Intellect and Spheron resell) and the machines a
// provider's documentation names (catalog-clouds.mjs).
// A sibling file imported earlier in the same run is read as imported (so the result does not depend on --base).
function knownGpus(target, dir, imported) {
  const known = {};
  for (const file of target.siblings || []) {
    const doc = imported.has(file) ? { instances: imported.get(file).flatMap((x) => x.catalog.instances) } : readExisting(path.join(dir, file));
    for (const o of doc ? doc.instances : []) known[o.instance_type] = o.gpu;
  }
  return { ...known, ...(target.known_gpus ? target.known_gpus.types : {}) };
}

async function loadEngine() {
  const modulePath = path.join(root, 'dist/engine/gpuvalue_engine.cjs');
  if (!fs.existsSync(modulePath)) throw new UsageError('the engine is not built yet: run `npm run build`');
  const read = (p) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
  const factory = createRequire(import.meta.url)(modulePath);
  return createEngine(factory, { gpus: read('data/gpus.json'), presets: read('data/presets.json'), catalogs: [] });
}

function wanted(opts, cloud) {
  if (!CLOUDS[cloud]) return false;  // a folder of a cloud the script does not import (e.g. mithril: see catalog-clouds.mjs)
  if (!opts.providers.length) return true;
  const names = [cloud, CLOUDS[cloud].provider, CLOUDS[cloud].file].map((s) => s.toLowerCase());
  return opts.providers.some((p) => names.includes(p.toLowerCase()));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const sources = locateSources(opts.skypilot);
  for (const p of opts.providers)
    if (!Object.keys(sources).some((c) => wanted({ providers: [p] }, c))) throw new UsageError(`--provider ${p}: not found in ${opts.skypilot}`);
  const engine = await loadEngine();
  const byFile = new Map();
  for (const cloud of Object.keys(sources).sort()) {
    if (!CLOUDS[cloud] || !wanted(opts, cloud)) continue;
    const src = sources[cloud];
    const text = fs.readFileSync(src.file, 'utf8');
    const { parts, refused } = splitRows(cloud, text);
    for (const x of refused) say(`${cloud}: line ${x.line} refused: ${x.why}`);
    for (const [target, rows] of parts) {
      const part = prepareRows(target, rows, say).text;
      const r = engine.importSkypilot(part, { provider: target.provider, as_of: src.as_of || src.read_on, source: src.repo_path,
        known_gpus: knownGpus(target, opts.base ? path.resolve(opts.base) : path.join(root, 'data/catalog'), byFile) });
      const errors = (r.issues || []).filter((i) => !i.warning);
      // A part whose every row maps to no GPU (e.g. a cloud of a multi-cloud list selling only unknown GPUs): said, skipped.
      if (!r.ok && errors.length === 1 && errors[0].code === 'csv_format' && errors[0].path === '') {
        say(`${cloud}${target.key !== cloud ? ` (${target.provider})` : ''}: no GPU offer (${(r.issues || []).filter((i) => i.warning).map((i) => explain(i.message)).join('; ')})`);
        continue;
      }
      if (!r.ok) throw new Error(`${src.file}: ${(r.issues || []).map((i) => explain(i.message)).join('; ')}`);
      say(`${cloud}${target.key !== cloud ? ` (${target.provider})` : ''}: ${r.rows} rows -> ${r.offers} offers, ${r.skipped_rows} rows skipped, ${(r.ambiguous || []).length} ambiguous`);
      const leftOut = new Map();
      for (const i of (r.issues || []).filter((x) => LEFT_OUT_CODES.includes(x.message && x.message.code)))
        leftOut.set(explain(i.message), [...(leftOut.get(explain(i.message)) || []), i.path]);
      for (const [why, where] of leftOut) say(`  left out ${where.join(', ')}: ${why}`);
      for (const a of r.ambiguous || [])
        say(`  ambiguous line ${a.line} ${a.instance_type} (${a.accelerator}): ${explain(r.issues.find((i) => i.path === `line ${a.line}` && i.message && i.message.code === a.code)?.message || { code: a.code })}`);
      if (target.doubt_half_price) {
        const { kept, dropped } = dropHalfPrices(r.catalog.instances);
        r.catalog.instances = kept;
        for (const o of dropped) say(`  in doubt ${o.instance_type} ${o.region}: ${o.prices[0].usd_per_hour} USD/h, under ${DOUBT_SHARE_OF_MEDIAN} of its median across regions; left out`);
      }
      if (!byFile.has(target.file)) byFile.set(target.file, []);
      byFile.get(target.file).push({ target, src, catalog: r.catalog, ambiguous: new Set((r.ambiguous || []).map((a) => a.instance_type)) });
    }
  }
  const baseDir = path.join(root, 'data/catalog');
  const outDir = opts.out ? path.resolve(opts.out) : baseDir;
  let changed = 0;
  for (const [file, imports] of [...byFile].sort()) {
    const outFile = path.join(outDir, file);
    const baseFile = opts.base ? path.join(path.resolve(opts.base), file) : fs.existsSync(outFile) ? outFile : path.join(baseDir, file);
    const existingDoc = readExisting(baseFile);
    const { text, added, removed, moves } = updateFile(existingDoc, imports, imports.every((x) => x.src.excerpt));
    const previous = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : null;
    const count = (text.match(/"id": /g) || []).length;
    say(`${file}: ${count} offers, ${added.length} new, ${removed.length} removed, ${moves.length} price moves over ${MOVE_SHARE * 100} %`);
    for (const id of added) say(`  new      ${id}`);
    for (const id of removed) say(`  removed  ${id}`);
    for (const m of moves) say(`  moved    ${m}`);
    if (previous === text) continue;
    changed++;
    if (!opts.check) {
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(outFile, text);
    }
  }
  say(opts.check ? `${changed} files would change` : `${changed} files written to ${path.relative(root, outDir) || '.'}`);
  return opts.check && changed ? 1 : 0;
}

// The exit status is set, not forced with process.exit: output to a pipe is written asynchronously, and exiting at
// once cut the report short (the test reading it missed a different file's summary line on each run).
main().then((code) => { process.exitCode = code; }, (err) => {
  console.error(err instanceof UsageError ? `catalog-update: ${err.message}` : err.stack || String(err));
  process.exitCode = err instanceof UsageError ? 2 : 1;
});
