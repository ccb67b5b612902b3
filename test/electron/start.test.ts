/** `npm start` without an Electron binary: one line saying so, then the browser mode. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build';
import { findElectronBinary } from '../../electron/start.mjs';

describe('electron/start.mjs', () => {
  it('finds no binary in an empty override folder and says why, without trying to download', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-start-'));
    const prev = process.env.ELECTRON_OVERRIDE_DIST_PATH;
    process.env.ELECTRON_OVERRIDE_DIST_PATH = dir;
    try {
      const r = findElectronBinary();
      expect(r.path).toBe(null);
      expect(r.reason).toContain(dir);
    } finally {
      if (prev === undefined) delete process.env.ELECTRON_OVERRIDE_DIST_PATH;
      else process.env.ELECTRON_OVERRIDE_DIST_PATH = prev;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync(path.join(ROOT, 'dist/electron/serve.mjs')))('falls back to the browser mode with one explanatory line', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-start-'));
    const child = spawn(process.execPath, [path.join(ROOT, 'electron/start.mjs')], {
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: dir, VMD_STUDIO_NO_OPEN: '1', XDG_CONFIG_HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    try {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no URL printed:\n${out}`)), 20_000);
        child.stdout.on('data', () => {
          if (/http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(out)) {
            clearTimeout(t);
            resolve();
          }
        });
      });
      const lines = out.trim().split('\n');
      expect(lines[0]).toMatch(/^Electron is not available \(.+\); starting the browser mode instead\.$/);
      expect(lines.filter((l) => /electron/i.test(l))).toHaveLength(1);
      expect(lines[1]).toMatch(/^VMD Studio is running at http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
