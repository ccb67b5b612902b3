/** electron-builder.yml: valid against electron-builder's own schema, associations, files, icons, dependencies. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENE_EXTENSION } from '../../shared/scene/scene-file';
import { DOCUMENT_EXTENSIONS } from '../../shared/ipc/file-types';
import { ROOT } from '../helpers/build';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(s: string): unknown };
const config = yaml.load(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Minimal glob → RegExp for electron-builder's `files` patterns (**, *, leading !). */
function globRe(g: string): RegExp {
  const s = g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\/?/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '(?:.*/)?');
  return new RegExp(`^${s}$`);
}
function included(file: string): boolean {
  let inc = false;
  for (const p of config.files as string[]) {
    if (p.startsWith('!')) {
      if (globRe(p.slice(1)).test(file)) inc = false;
    } else if (globRe(p).test(file)) inc = true;
  }
  return inc;
}

describe('electron-builder configuration', () => {
  it('is valid against the installed electron-builder schema', () => {
    const Ajv = require('ajv');
    const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
    const validate = ajv.compile(schema);
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 3))).toEqual([]);
    expect(ok).toBe(true);
  });

  it('names the app and targets AppImage + deb, NSIS and dmg', () => {
    expect(config.productName).toBe('VMD Studio');
    expect(config.appId).toMatch(/^[a-z0-9]+(\.[a-z0-9-]+)+$/i);
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('associates .vmd, .vpd, .vmdscene, .bvh and .vrma, one entry each, with their MIME types and icons present in build/', () => {
    const assoc = config.fileAssociations as Record<string, string>[];
    expect(assoc.map((a) => a.ext).sort()).toEqual(['bvh', 'vmd', 'vmdscene', 'vpd', 'vrma']);
    // Every extension the app opens from a double-click (argv) is associated, and nothing else.
    expect(assoc.map((a) => '.' + a.ext).sort()).toEqual([...DOCUMENT_EXTENSIONS].sort());
    const byExt = Object.fromEntries(assoc.map((a) => [a.ext, a]));
    expect(byExt.vmd.mimeType).toBe('application/x-vmd');
    expect(byExt.vpd.mimeType).toBe('application/x-vpd');
    expect(byExt.vmdscene.mimeType).toBe('application/x-vmdscene');
    expect('.' + byExt.vmdscene.ext).toBe(SCENE_EXTENSION);
    for (const a of assoc) {
      // electron-builder looks for <icon>.ico on Windows and <icon>.icns on macOS in buildResources.
      for (const ext of ['ico', 'icns', 'png']) expect(existsSync(path.join(ROOT, 'build', `${a.icon}.${ext}`)), `${a.icon}.${ext}`).toBe(true);
    }
    expect(config.linux.mimeTypes).toEqual(expect.arrayContaining(['application/x-vmd', 'application/x-vpd', 'application/x-vmdscene', 'application/x-bvh', 'model/x-vrma']));
  });

  it('has app icons in every format, valid PNG/ICO/ICNS headers, and Linux sizes up to 512', () => {
    const b = (f: string) => readFileSync(path.join(ROOT, 'build', f));
    expect(b('icon.png').subarray(1, 4).toString()).toBe('PNG');
    expect(b('icon.png').readUInt32BE(16)).toBeGreaterThanOrEqual(512); // width from IHDR
    expect(b('icon.ico').readUInt16LE(2)).toBe(1);
    expect(b('icon.ico').readUInt16LE(4)).toBeGreaterThanOrEqual(3);
    expect(b('icon.icns').subarray(0, 4).toString()).toBe('icns');
    expect(b('icon.icns').readUInt32BE(4)).toBe(b('icon.icns').length);
    const sizes = readdirSync(path.join(ROOT, 'build/icons')).map((f) => parseInt(f, 10));
    expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 256, 512]));
    expect(config.win.icon).toBe('build/icon.ico');
    expect(config.mac.icon).toBe('build/icon.icns');
  });

  it('packs the entry point, preload, renderer and batch workers, and no sources or maps', () => {
    expect(pkg.main).toBe('dist/electron/main.cjs');
    for (const f of ['package.json', pkg.main, 'dist/electron/preload.cjs', 'dist/renderer/index.html', 'dist/renderer/assets/index-abc.js', 'dist/cli/batch-worker.mjs']) {
      expect(included(f), f).toBe(true);
    }
    for (const f of ['electron/main.ts', 'renderer/src/App.vue', 'test/e2e/harness.ts', 'dist/electron/main.cjs.map', 'build/make-icons.mjs']) {
      expect(included(f), f).toBe(false);
    }
    // That the main process loads the preload and the page from these packed paths is tested on main
    // itself, run against the scripted Electron stand-in (main-wiring.test.ts).
  });

  it('lists runtime packages in dependencies and build tools (electron included) in devDependencies', () => {
    expect(pkg.devDependencies.electron).toBeDefined();
    expect(pkg.dependencies.electron).toBeUndefined();
    expect(pkg.devDependencies['electron-builder']).toBeDefined();
    // Every package imported by code that ships (shared, electron, renderer) must be a dependency.
    const imports = new Set<string>();
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|vue|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) {
          const src = readFileSync(p, 'utf8');
          for (const m of src.matchAll(/^\s*import\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm)) imports.add(m[1]);
          for (const m of src.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) imports.add(m[1]);
        }
      }
    };
    for (const d of ['shared', 'electron', 'renderer/src']) walk(path.join(ROOT, d));
    const bare = [...imports].filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !s.startsWith('/'));
    expect(bare).toEqual(expect.arrayContaining(['vue', 'pinia'])); // the scan sees real imports
    const pkgName = (s: string) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]);
    // electron is provided by the runtime; build-time-only modules are excluded explicitly.
    const providedByRuntime = new Set(['electron']);
    const missing = [...new Set(bare.map(pkgName))].filter((n) => !providedByRuntime.has(n) && !pkg.dependencies[n]);
    expect(missing).toEqual([]);
  });
});
