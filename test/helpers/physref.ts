/**
 * The independent physics reference (../shared/tools/physref: babylon-mmd's own MMD runtime and Bullet, headless):
 * run from a temp copy (the shared folder may be read-only) that reaches this checkout's node_modules, which
 * holds the babylon-mmd and @babylonjs/core versions it pins. Results are cached in the temp folder by their
 * arguments and the tool's source, so several tests (and reruns) share one run. Nothing it writes enters the
 * repository.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
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

/** Runs physref on MODEL and MOTION (a path, or '-' for none) with its command-line arguments. */
export function physref(model: string, motion: string, args: string[]): PhysrefOut {
  const src = readFileSync(path.join(PHYSREF_SRC, 'physref.mjs'));
  const key = createHash('sha256').update(src).update(JSON.stringify([model, motion, args])).digest('hex').slice(0, 16);
  const base = path.join(os.tmpdir(), `vmd-physref-${os.userInfo().uid}`);
  const out = path.join(base, `${key}.json`);
  if (!existsSync(out)) {
    const tool = path.join(base, 'tool');
    if (!existsSync(path.join(tool, 'physref.mjs'))) {
      mkdirSync(base, { recursive: true });
      cpSync(PHYSREF_SRC, tool, { recursive: true });
      if (!existsSync(path.join(tool, 'node_modules'))) symlinkSync(path.join(ROOT, 'node_modules'), path.join(tool, 'node_modules'));
    }
    const tmp = `${out}.${process.pid}.tmp`;
    const r = spawnSync(process.execPath, ['physref.mjs', model, motion, ...args, '--out', tmp], { cwd: tool, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`physref failed: ${r.stderr}`);
    renameSync(tmp, out);
  }
  return JSON.parse(readFileSync(out, 'utf8')) as PhysrefOut;
}
