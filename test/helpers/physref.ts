/**
 * The independent physics reference (../shared/tools/physref: babylon-mmd's own MMD runtime and Bullet, headless):
 * run from a temp copy (the shared folder may be read-only) that reaches this checkout's node_modules, which
 * holds the babylon-mmd and @babylonjs/core versions it pins. Results are cached in the temp folder by their
 * arguments and the tool's source, so several tests (and reruns) share one run. Nothing it writes enters the
 * repository.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './build';

export const PHYSREF_SRC = path.resolve(ROOT, '../shared/tools/physref');
export const physrefPresent = existsSync(path.join(PHYSREF_SRC, 'physref.mjs'));

export interface PhysrefFrame {
  frame: number;
  bones: Record<string, { position: [number, number, number]; rotation: [number, number, number, number] }>;
}
export interface PhysrefOut {
  bones: { key: string; index: number; name: string; physicsMode: number; rigidBodies: number[] }[];
  frames: PhysrefFrame[];
  nonFiniteValues: number;
}

/**
 * The tool's working copy for this checkout: a folder named by this checkout's path and the tool's source, so a
 * copy made for another checkout (or an older tool) is never reused: its node_modules link may point at a checkout
 * that is gone. It is built under a temporary name and renamed into place, so a test running in parallel sees
 * either no copy or a whole one.
 */
function toolCopy(base: string, src: Buffer): string {
  const id = createHash('sha256').update(ROOT).update(src).digest('hex').slice(0, 12);
  const tool = path.join(base, `tool-${id}`);
  const modules = path.join(ROOT, 'node_modules');
  if (existsSync(path.join(tool, 'physref.mjs')) && realpathOr(path.join(tool, 'node_modules')) === realpathOr(modules)) return tool;
  mkdirSync(base, { recursive: true });
  const building = `${tool}.${process.pid}.${Date.now()}.tmp`;
  mkdirSync(building);
  for (const name of readdirSync(PHYSREF_SRC)) {
    if (name === 'node_modules') continue; // the tool resolves its packages from this checkout
    const from = path.join(PHYSREF_SRC, name);
    if (!statSync(from).isFile()) continue;
    writeFileSync(path.join(building, name), readFileSync(from)); // contents only: the shared copy may be read-only
  }
  symlinkSync(modules, path.join(building, 'node_modules'));
  try {
    renameSync(building, tool);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another test finished first: its copy is the same
    if (!existsSync(path.join(tool, 'physref.mjs'))) throw new Error(`physref: could not set up ${tool}`);
  }
  return tool;
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return '';
  }
}

/** Runs physref on MODEL and MOTION (a path, or '-' for none) with its command-line arguments. */
export function physref(model: string, motion: string, args: string[]): PhysrefOut {
  const src = readFileSync(path.join(PHYSREF_SRC, 'physref.mjs'));
  const key = createHash('sha256').update(src).update(JSON.stringify([model, motion, args])).digest('hex').slice(0, 16);
  const base = path.join(os.tmpdir(), `vmd-physref-${os.userInfo().uid}`);
  const out = path.join(base, `${key}.json`);
  if (!existsSync(out)) {
    const tool = toolCopy(base, src);
    const tmp = `${out}.${process.pid}.tmp`;
    const r = spawnSync(process.execPath, ['physref.mjs', model, motion, ...args, '--out', tmp], { cwd: tool, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`physref failed (in ${tool}): ${r.stderr}`);
    renameSync(tmp, out);
  }
  return JSON.parse(readFileSync(out, 'utf8')) as PhysrefOut;
}
