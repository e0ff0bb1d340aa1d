#!/usr/bin/env node
// Turns the Azure rows of a daily GPU price observation file (github.com/ewyluda/gpu-price-index,
// data/observations/<year>/<date>.csv: prices read from Azure's Retail Prices API, prices.azure.com/api/retail/prices,
// Linux pay-as-you-go meters, one row per VM size, region and pricing) into the SkyPilot-format vms.csv rows that
// `npm run catalog:update` reads, with a sources.json, so that the update's GPU mapping (catalog-clouds.mjs, entry
// `azure`) stays the one place that says which GPU, link and network each Azure size has.
//
//   node scripts/catalog-azure-observations.mjs --observations FILE --hardware VMS_CSV --out DIR
//        --repo OWNER/NAME --path REPO_PATH --commit SHA
//
// The observation file names the VM size, region, price and GPU count but not the size's vCPUs, memory or the GPU
// name SkyPilot files use: those come from --hardware, a SkyPilot-format Azure vms.csv (anycloud-sh/catalog's
// azure/vms.csv), whose rows of one size are the same in every region. A size the hardware file does not list is
// left out and printed, and so is a size whose GPU count there differs from the observation's.
// The observation date (its `date` column, which must equal the day of `collected_at` on every Azure row) is the
// prices' as_of. The file covers only the sizes its collector tracks, so sources.json marks it an excerpt: the update
// keeps the other Azure offers with their own prices and dates.
// Several rows of one size, region and pricing (Azure can list two spot meters): the lowest price is kept and printed.
// A spot row without an on-demand row of its size and region cannot be written (a vms.csv row needs a Price): printed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OBSERVATION_HEADER = ['date', 'collected_at', 'source', 'provider', 'segment', 'pricing', 'gpu_model', 'sku', 'region',
  'geo', 'gpu_count', 'usd_per_hour', 'usd_per_gpu_hour', 'sample_size'];
const VMS_HEADER = 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation';
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const NAME = /^[A-Za-z0-9_.-]+$/;

export class ConvertError extends Error {}

// One CSV line split on commas; a quoted field ("V1,V2") is one field, without its quotes.
function fields(line) {
  const out = [];
  let cur = '', quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) { out.push(cur); cur = ''; } else cur += c;
  }
  out.push(cur);
  return out;
}

// {instance type: the hardware columns of its first row} from a SkyPilot-format Azure vms.csv. The anycloud file
// leaves "V1,V2" unquoted (11 fields): the two last fields are then the one Generation value.
export function readHardware(text) {
  const [header, ...lines] = text.split(/\r?\n/).filter((l) => l.trim());
  if (header.trim() !== VMS_HEADER) throw new ConvertError(`hardware file: header is not ${VMS_HEADER}`);
  const out = new Map();
  for (const line of lines) {
    let f = fields(line);
    if (f.length === 11 && f[9] === 'V1' && f[10] === 'V2') f = [...f.slice(0, 9), 'V1,V2'];
    if (f.length !== 10 || out.has(f[0]) || f[1] === '') continue;
    out.set(f[0], { accelerator: f[1], count: f[2], vcpus: f[3], memory_gib: f[4], gpu_info: f[5], generation: f[9] });
  }
  return out;
}

// The Azure rows of an observation file, checked: header, one date, prices > 0.
export function readObservations(text) {
  const [header, ...lines] = text.split(/\r?\n/).filter((l) => l.trim());
  if (!header || header.trim() !== OBSERVATION_HEADER.join(',')) throw new ConvertError(`observations: header is not ${OBSERVATION_HEADER.join(',')}`);
  const rows = [];
  lines.forEach((line, i) => {
    const f = fields(line);
    const r = Object.fromEntries(OBSERVATION_HEADER.map((k, j) => [k, f[j]]));
    if (r.source !== 'azure') return;
    const at = `observations line ${i + 2}`;
    if (f.length !== OBSERVATION_HEADER.length) throw new ConvertError(`${at}: ${f.length} fields, expected ${OBSERVATION_HEADER.length}`);
    if (!ISO_DAY.test(r.date) || !String(r.collected_at).startsWith(`${r.date}T`)) throw new ConvertError(`${at}: date ${r.date} and collected_at ${r.collected_at} disagree`);
    if (!['on_demand', 'spot'].includes(r.pricing)) throw new ConvertError(`${at}: pricing ${r.pricing} is neither on_demand nor spot`);
    if (!NAME.test(r.sku) || !NAME.test(r.region)) throw new ConvertError(`${at}: sku or region is no plain name`);
    const usd = Number(r.usd_per_hour);
    if (!(usd > 0)) throw new ConvertError(`${at}: usd_per_hour ${r.usd_per_hour} is no price`);
    rows.push({ ...r, usd, gpu_count: Number(r.gpu_count), line: i + 2 });
  });
  const dates = [...new Set(rows.map((r) => r.date))];
  if (dates.length !== 1) throw new ConvertError(`observations: the Azure rows carry ${dates.length} dates (${dates.join(', ')}), expected one`);
  return { date: dates[0], rows };
}

const csvValue = (v) => (v.includes(',') ? `"${v}"` : v);

// SkyPilot-format rows (text) from the observations and the hardware table, and what was left out and why.
export function convert(observations, hardware) {
  const notes = [];
  const prices = new Map(); // "sku|region" -> {sku, region, on_demand, spot}
  for (const r of observations.rows) {
    const hw = hardware.get(r.sku);
    if (!hw) { notes.push(`left out ${r.sku} ${r.region} ${r.pricing} (line ${r.line}): the hardware file does not list the size`); continue; }
    if (Number(hw.count) !== r.gpu_count) {
      notes.push(`left out ${r.sku} ${r.region} ${r.pricing} (line ${r.line}): ${r.gpu_count} GPUs in the observation, ${hw.count} in the hardware file`);
      continue;
    }
    const key = `${r.sku}|${r.region}`;
    if (!prices.has(key)) prices.set(key, { sku: r.sku, region: r.region });
    const p = prices.get(key);
    if (p[r.pricing] !== undefined) {
      notes.push(`two ${r.pricing} prices for ${r.sku} ${r.region} (${p[r.pricing]} and ${r.usd} USD/h): the lower one is kept`);
      p[r.pricing] = Math.min(p[r.pricing], r.usd);
    } else p[r.pricing] = r.usd;
  }
  const lines = [VMS_HEADER];
  for (const p of [...prices.values()].sort((a, b) => (a.sku + a.region < b.sku + b.region ? -1 : 1))) {
    if (p.on_demand === undefined) { notes.push(`left out ${p.sku} ${p.region}: a spot price (${p.spot} USD/h) without an on-demand price`); continue; }
    const hw = hardware.get(p.sku);
    lines.push([p.sku, hw.accelerator, hw.count, hw.vcpus, hw.memory_gib, hw.gpu_info, String(p.on_demand),
      p.spot === undefined ? '' : String(p.spot), p.region, csvValue(hw.generation)].join(','));
  }
  return { text: `${lines.join('\n')}\n`, rows: lines.length - 1, notes };
}

function parseArgs(argv) {
  const opts = {};
  const names = { '--observations': 'observations', '--hardware': 'hardware', '--out': 'out', '--repo': 'repo', '--path': 'path', '--commit': 'commit' };
  for (let i = 0; i < argv.length; i++) {
    const k = names[argv[i]];
    if (!k) throw new ConvertError(`unknown option ${argv[i]}`);
    if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new ConvertError(`${argv[i]} needs a value`);
    opts[k] = argv[++i];
  }
  const missing = Object.keys(names).filter((n) => !opts[names[n]]);
  if (missing.length) throw new ConvertError(`missing ${missing.join(', ')}`);
  if (!/^[0-9a-f]{40}$/.test(opts.commit)) throw new ConvertError('--commit needs the 40-hex commit of the observation file');
  return opts;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const observations = readObservations(fs.readFileSync(opts.observations, 'utf8'));
  const { text, rows, notes } = convert(observations, readHardware(fs.readFileSync(opts.hardware, 'utf8')));
  fs.mkdirSync(opts.out, { recursive: true });
  fs.writeFileSync(path.join(opts.out, 'azure-vms.csv'), text);
  const sources = {
    about: `Azure rows of ${opts.repo} ${opts.path} (Azure Retail Prices API, Linux pay-as-you-go, observed ${observations.date}) in SkyPilot format, written by scripts/catalog-azure-observations.mjs; vCPUs, memory and GPU name from the hardware file.`,
    files: {
      azure: { file: 'azure-vms.csv', repo: opts.repo, repo_path: opts.path, commit: opts.commit, as_of: observations.date, excerpt: true,
        described: 'a daily GPU price index: Azure Retail Prices API, Linux pay-as-you-go meters' },
    },
  };
  fs.writeFileSync(path.join(opts.out, 'sources.json'), `${JSON.stringify(sources, null, 2)}\n`);
  for (const n of notes) console.log(`  ${n}`);
  console.log(`azure: ${observations.rows.length} observation rows of ${observations.date} -> ${rows} vms.csv rows in ${opts.out}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    console.error(err instanceof ConvertError ? `catalog-azure-observations: ${err.message}` : err.stack || String(err));
    process.exit(err instanceof ConvertError ? 2 : 1);
  }
}
