#!/usr/bin/env node
// `npm start` (after the builds): runs the desktop app with Electron when its binary is installed;
// otherwise says so in one line and falls back to the browser mode (`serve --open`).
//
// We do not `require('electron')` to find out: in electron 45 that module *downloads* the binary
// when it is missing, which fails (or hangs) on machines without internet. Instead we read the
// package's path.txt and check that the file it names exists, as its index.js does.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Absolute path of the installed Electron binary, or null with the reason. */
export function findElectronBinary() {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH, process.platform === 'win32' ? 'electron.exe' : 'electron');
    return existsSync(p) ? { path: p } : { path: null, reason: `ELECTRON_OVERRIDE_DIST_PATH has no binary (${p})` };
  }
  let pkgDir;
  try {
    pkgDir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) return { path: null, reason: 'the Electron binary was not downloaded (node_modules/electron/path.txt is missing)' };
  const bin = path.join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? { path: bin } : { path: null, reason: `the Electron binary is missing (${bin})` };
}

/**
 * The command line's arguments for the app: a relative path is resolved against the folder the user typed
 * it in. npm runs scripts in the project's folder and names the user's in INIT_CWD, so `npm start --
 * dance.vmd` from ~/mmd opens ~/mmd/dance.vmd, not the project's. Switches pass as they are.
 */
export function startArgs(args, cwd = process.env.INIT_CWD || process.cwd()) {
  return args.map((a) => (a.startsWith('-') || path.isAbsolute(a) || /^file:/i.test(a) ? a : path.resolve(cwd, a)));
}

function main() {
  const files = startArgs(process.argv.slice(2));
  const found = findElectronBinary();
  if (found.path) {
    const child = spawn(found.path, [root, ...files], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    return;
  }
  console.log(`Electron is not available (${found.reason}); starting the browser mode instead.`);
  // VMD_STUDIO_NO_OPEN=1 only prints the address (tests, remote shells).
  const open = process.env.VMD_STUDIO_NO_OPEN ? [] : ['--open'];
  const child = spawn(process.execPath, [path.join(root, 'dist/electron/serve.mjs'), ...open, ...files], { stdio: 'inherit' });
  const stop = (sig) => child.kill(sig);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
