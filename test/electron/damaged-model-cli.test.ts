// A model whose bone numbers are damaged, through the built CLI as its own process (a hang fails the test at
// the time limit instead of holding the suite): Gene_light with 左腕捩連's append ratio made 3e38 (float32's
// largest numbers). Every pose of it looped 3e38 times, that is for ever: the preview, a bake, an export and a
// retarget hung. Now export-bvh plays the dance on it, and every number it writes is finite.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readModel } from '../../shared/pmx';
import { useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent, repoRoot } from '../helpers/corpus';
import { ensureBuilt } from '../helpers/build';

const mk = useTempDirs();

describe.skipIf(!corpusPresent)('a damaged model through the CLI', () => {
  it('an append ratio of 3e38: export-bvh ends (it never did) and writes only finite numbers', async () => {
    await ensureBuilt(['node']);
    const dir = mk('damaged-model');
    const bytes = new Uint8Array(readFileSync(corpusPath('gene/Gene_light.pmx')));
    const m = readModel(bytes);
    if (!m.ok) throw new Error(m.error.message);
    // The bone's append record as the file holds it: the source bone's index (the header's bone index size,
    // byte 14) and the ratio (float32), found by its bytes; it occurs once in the file.
    const i = m.value.bones.findIndex((b) => b.name === '左腕捩連');
    const b = m.value.bones[i], size = bytes[9 + 5];
    expect([b.appendRatio, size]).toEqual([0.5, 2]);
    const record = new Uint8Array(6);
    new DataView(record.buffer).setInt16(0, b.appendParent, true);
    new DataView(record.buffer).setFloat32(2, b.appendRatio, true);
    const hits = bytes.reduce<number[]>((h, _, k) => (record.every((x, j) => bytes[k + j] === x) ? [...h, k] : h), []);
    expect(hits).toHaveLength(1);
    new DataView(bytes.buffer, bytes.byteOffset).setFloat32(hits[0] + 2, 3e38, true);
    writeFileSync(path.join(dir, 'gene.pmx'), bytes);
    const damaged = readModel(bytes);
    expect(damaged.ok && Math.fround(damaged.value.bones[i].appendRatio)).toBe(Math.fround(3e38));

    const bin = path.join(repoRoot, 'electron/cli/vmd-studio.mjs');
    const r = spawnSync(process.execPath, [bin, 'export-bvh', corpusPath('gene/motion/02_laugh.vmd'), '--model', 'gene.pmx', '-o', 'laugh.bvh', '--quiet'], { cwd: dir, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
    expect(r.signal, 'killed at the time limit: the pose looped').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(path.join(dir, 'laugh.bvh'), 'utf8');
    const motion = text.slice(text.indexOf('MOTION'));
    const numbers = motion.split(/\s+/).slice(5).filter((t) => t !== '');
    expect(numbers.length).toBeGreaterThan(1000);
    expect(numbers.every((t) => Number.isFinite(Number(t)))).toBe(true);
  }, 120_000);
});
