// import-bvh on CMU 131_01 onto Gene: the capture's RThumb flips out and back (171° between capture frames 236
// and 237, 179° back at 242→243, read with a BVH reader of the pass's own), which became a one-frame 135° thumb
// at output frame 60 with no word. Now the report names where the largest error is and lists the glitches
// (bone, frames, degrees) in a warning; --despike replaces them, and the played thumb no longer jumps out of
// its neighbours' path (sampled here from the VMD with the player, not from the import's own figures).
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../electron/cli/main';
import type { CliIo } from '../../electron/cli/io';
import { buildTracks, readVmd } from '../../shared/vmd';
import { sampleBoneInto } from '../../shared/vmd/sample';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { rotationAngleDeg } from '../helpers/motion-error';
import { ensureBuilt } from '../helpers/build';
import { initialFormValues, validateOpForm } from '../../shared/batch/op-form';
import { runBatch } from '../../electron/batch/engine';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const GENE = 'gene/Gene_light.pmx';
const WALK = 'bvh11/resources/131_01.bvh';

async function run(argv: string[], cwd: string) {
  const out: string[] = [], err: string[] = [];
  const io: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), cwd, isTTY: false };
  const code = await runCli(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

/** How far the thumb at output frame g is off the halfway turn between g − 1 and g + 1 (the player's samples). */
function thumbJump(file: string, g: number): number {
  const r = readVmd(new Uint8Array(readFileSync(file)));
  if (!r.ok) throw new Error(r.error.message);
  const t = buildTracks(r.value).bones;
  const k = t.names.indexOf('右親指１');
  const q = (f: number) => {
    const p = new Float64Array(3), o = new Float64Array(4);
    sampleBoneInto(t, k, f, p, o, 0);
    return Array.from(o);
  };
  const a = q(g - 1), b = q(g + 1), m = q(g);
  // The halfway turn between a and b, written out (normalized sum on the same side).
  const s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
  const h = a.map((x, i) => x + s * b[i]);
  return rotationAngleDeg(m, h);
}

describe.skipIf(!corpusPresent)('capture glitches in import-bvh (CMU 131_01 onto Gene)', () => {
  it('names the bone and frame of the largest error and lists the glitches; --despike replaces them', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmds-spikes-'));
    dirs.push(dir);
    const plain = await run(['import-bvh', corpusPath(WALK), '--model', corpusPath(GENE), '-o', 'walk.vmd', '--json'], dir);
    expect(plain.code, plain.err).toBe(0);
    const j = JSON.parse(plain.out);
    // The thumb's flip at capture frames 237–242 (output 59.25–60.5) first.
    expect(j.spikes.length).toBeGreaterThanOrEqual(1);
    expect(j.spikes[0]).toMatchObject({ joint: 'RThumb', bone: '右親指１', captureFrom: 237, captureTo: 242, fromFrame: 59.25, toFrame: 60.5, fixed: false });
    expect(j.spikes[0].deg).toBeGreaterThan(150);
    expect(j.maxRotationErrorAt.bone).toBe('右親指１');
    expect(j.warnings.join('\n')).toMatch(/^\d+ capture glitch(es)? \(a joint flipping out and back within 0\.1 s, kept as a one-frame turn\): 右親指１ frames 59\.25–60\.5 \(\d+°\)/m);
    const line = await run(['import-bvh', corpusPath(WALK), '--model', corpusPath(GENE), '-o', 'walk_line.vmd'], dir);
    expect(line.out).toContain(`at every capture frame (largest at 右親指１, frame ${Math.round(j.maxRotationErrorAt.frame * 100) / 100}; the capture itself`);
    expect(line.err).toContain('capture glitches');
    expect(line.err).toContain('--despike');
    // The played thumb at output frame 60 jumps far off its neighbours' path (135° from rest against 60°, 64°).
    expect(thumbJump(path.join(dir, 'walk.vmd'), 60)).toBeGreaterThan(45);

    const fixed = await run(['import-bvh', corpusPath(WALK), '--model', corpusPath(GENE), '-o', 'walk_fixed.vmd', '--despike', '--json'], dir);
    expect(fixed.code, fixed.err).toBe(0);
    const jf = JSON.parse(fixed.out);
    expect(jf.spikes.length).toBe(j.spikes.length);
    expect(jf.spikes.every((s: { fixed: boolean }) => s.fixed)).toBe(true);
    expect(jf.warnings.join('\n')).toMatch(/capture glitch(es)? \(a joint flipping out and back within 0\.1 s\) replaced by the interpolation of the frames either side: 右親指１ frames 59\.25–60\.5/);
    expect(thumbJump(path.join(dir, 'walk_fixed.vmd'), 60)).toBeLessThan(15);
    // Mended, the largest error at every capture frame is no longer the thumb's 42°.
    expect(jf.maxRotationErrorDegAllFrames).toBeLessThan(j.maxRotationErrorDegAllFrames);
  });
});

// --despike was not in the Batch window's form (nor in `batch import-bvh`'s options): a folder of captures was
// imported with its glitches whatever one chose. Now the form's Remove glitches and `batch --despike` give each
// file what `import-bvh --despike` writes (the standard skeleton, which has the thumb: the same three flips).
describe.skipIf(!corpusPresent)('Remove glitches in a batch of captures (import-bvh --despike)', () => {
  it('the CLI batch and the form\'s job write the one-file --despike bytes; unticked, the glitches stay', { timeout: 300_000 }, async () => {
    await ensureBuilt(['node']);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmds-spikes-batch-'));
    dirs.push(dir);
    mkdirSync(path.join(dir, 'in'));
    copyFileSync(corpusPath(WALK), path.join(dir, 'in', 'walk.bvh'));
    const one = await run(['import-bvh', path.join('in', 'walk.bvh'), '-o', 'fixed.vmd', '--despike', '--quiet'], dir);
    expect(one.code, one.err).toBe(0);
    const plain = await run(['import-bvh', path.join('in', 'walk.bvh'), '-o', 'plain.vmd', '--quiet'], dir);
    expect(plain.code, plain.err).toBe(0);
    const bytes = (f: string) => readFileSync(path.join(dir, f));
    expect(bytes('fixed.vmd').equals(bytes('plain.vmd'))).toBe(false);

    const cli = await run(['batch', 'import-bvh', 'in', '-o', 'cli', '--despike', '--jobs', '1', '--quiet', '--report', 'r.json'], dir);
    expect(cli.code, cli.err).toBe(0);
    expect(bytes(path.join('cli', 'walk.vmd')).equals(bytes('fixed.vmd'))).toBe(true);
    const rep = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8'));
    expect(rep.results[0].report.warnings.join('\n')).toMatch(/^3 capture glitches \(a joint flipping out and back within 0\.1 s\) replaced by the interpolation of the frames either side: 右親指１ frames 59\.25–60\.5/m);

    // The app: the form with Remove glitches ticked, its job run by the engine as the Batch window runs it.
    const values = initialFormValues('import-bvh');
    expect(values.despike).toBe(false);
    const checked = validateOpForm('import-bvh', { ...values, despike: true });
    expect(checked.errors).toEqual({});
    expect(checked.options.despike).toBe(true);
    const app = await runBatch({ op: 'import-bvh', inputDir: path.join(dir, 'in'), outputDir: path.join(dir, 'app'), options: checked.options, jobs: 1 });
    expect(app.ok && app.value.ok).toBe(1);
    expect(bytes(path.join('app', 'walk.vmd')).equals(bytes('fixed.vmd'))).toBe(true);
    const off = await runBatch({ op: 'import-bvh', inputDir: path.join(dir, 'in'), outputDir: path.join(dir, 'off'), options: validateOpForm('import-bvh', values).options, jobs: 1 });
    expect(off.ok && off.value.ok).toBe(1);
    expect(bytes(path.join('off', 'walk.vmd')).equals(bytes('plain.vmd'))).toBe(true);
  });
});
