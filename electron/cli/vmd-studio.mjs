#!/usr/bin/env node
// The `vmd-studio` command. The TypeScript sources are bundled to dist/ by `npm ci` (prepare) or `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const bundle = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/cli.mjs');
if (!existsSync(bundle)) {
  process.stderr.write('vmd-studio: not built yet; run `npm run build:node` in the project folder\n');
  process.exit(2);
}
await import(pathToFileURL(bundle).href);
