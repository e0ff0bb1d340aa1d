#!/usr/bin/env node
// Writes data/schema/*.schema.json from the engine's field tables (core/src/model/catalog_fields.cpp and
// data_fields.cpp), through the built wasm engine's "schemas" method; the "gpu" enums list the ids of
// data/gpus.json. `npm run schemas` builds first; tests/js/schemas.test.mjs checks the committed files are current.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { EngineClient } from '../web/src/engine/client.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const schemaDir = path.join(root, 'data/schema');

// { 'catalog.schema.json': text, ... } as the files should read.
export async function generateSchemas() {
  const factory = createRequire(import.meta.url)(path.join(root, 'dist/engine/gpuvalue_engine.cjs'));
  const mod = await factory();
  const client = new EngineClient(mod, new mod.Engine());
  const answer = client.tryCall('schemas', fs.readFileSync(path.join(root, 'data/gpus.json'), 'utf8'));
  if (!answer.ok) throw new Error(`data/gpus.json: ${answer.error.path}: ${answer.error.message}`);
  return Object.fromEntries(Object.entries(answer.schemas).map(([name, s]) => [name, `${JSON.stringify(s, null, 2)}\n`]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, text] of Object.entries(await generateSchemas())) {
    fs.writeFileSync(path.join(schemaDir, name), text);
    console.log(`wrote data/schema/${name}`);
  }
}
