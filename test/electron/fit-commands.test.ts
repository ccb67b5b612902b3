// reduce, bake and speed --refit from the command line (in-process, fake CliIo): the files they write
// re-read to the key counts they report, the errors they report match an independent re-sampling, and
// bad options are exit status 2. The batch op table offers the same options.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { blockFromRecords, buildTracks, emptyVmd, encodeBoneRecord, encodeIkRecord, ikBlockFromRecords, encodeMorphRecord, encodeShadowRecord, readVmd, writeVmd, type VmdDocument } from '../../shared/vmd';
import { editCommands } from '../../electron/cli/commands/edit';
import { UsageError } from '../../electron/cli/args';
import type { CliIo } from '../../electron/cli/io';
import { cliArgNames } from '../../shared/batch/op-specs';
import { prepareOp } from '../../electron/batch/ops';
import { playedErrors } from '../helpers/motion-error';
import { useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();

async function run(argv: string[], cwd: string) {
  const out: string[] = [], err: string[] = [];
  const io: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), cwd, isTTY: false };
  const [name, ...rest] = argv;
  let code: number;
  try {
    code = await editCommands[name].run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      code = 2;
      err.push(e.message);
    } else throw e;
  }
  return { code, out: out.join(''), err: err.join('') };
}

/** A dense (key on every frame) motion: two bones and a morph, smooth with a few turns. */
function dense(): VmdDocument {
  const bones = [];
  for (let f = 0; f <= 120; f++) {
    const a = f / 120;
    bones.push(encodeBoneRecord({ name: 'センター', frame: f, position: [Math.sin(6 * a), 0.5 * a, Math.cos(3 * a)], rotation: [0, Math.sin(a), 0, Math.cos(a)] }));
    const h = 0.4 * Math.sin(9 * a);
    bones.push(encodeBoneRecord({ name: '左腕', frame: f, position: [0, 0, 0], rotation: [Math.sin(h), 0, 0, Math.cos(h)] }));
  }
  const morphs = Array.from({ length: 121 }, (_, f) => encodeMorphRecord({ name: 'あ', frame: f, weight: Math.abs(Math.sin(f / 15)) }));
  return { ...emptyVmd('model'), bone: blockFromRecords('bone', bones), morph: blockFromRecords('morph', morphs) };
}

function read(file: string): VmdDocument {
  const r = readVmd(new Uint8Array(readFileSync(file)));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('reduce / bake / speed --refit', () => {
  it('reduce writes fewer keys, reports counts the file re-reads to, and errors within tolerance', async () => {
    const d = mk('fit');
    const input = path.join(d, 'dense.vmd');
    writeFileSync(input, writeVmd(dense()));
    const r = await run(['reduce', 'dense.vmd', '-o', 'r.vmd', '--pos-tol', '0.02', '--rot-tol', '0.2', '--json'], d);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out);
    const out = read(path.join(d, 'r.vmd'));
    expect(rep.boneKeysBefore).toBe(242);
    expect(rep.boneKeysAfter).toBe(out.bone.count);
    expect(rep.morphKeysAfter).toBe(out.morph.count);
    expect(out.bone.count).toBeLessThan(60);
    const e = playedErrors(read(input), out);
    expect(e.position).toBeLessThanOrEqual(0.02 + 1e-6);
    expect(e.rotationDeg).toBeLessThanOrEqual(0.2 + 1e-6);
    expect(e.morph).toBeLessThanOrEqual(0.005 + 1e-6);
    // The report's figures are the same measurement (played at integer and half frames).
    expect(rep.maxPositionError).toBeCloseTo(e.position, 6);
    expect(rep.maxRotationErrorDeg).toBeCloseTo(e.rotationDeg, 4);
    const plain = await run(['reduce', 'dense.vmd', '-o', 'r2.vmd'], d);
    expect(plain.out).toMatch(/keys 363 → \d+/);
    expect(plain.out).not.toMatch(/step key/);
    expect(plain.out).toMatch(/max rotation error/);
  });

  it('the summary line says that step keys (IK/display, self-shadow, light) are kept beside the fitted count', async () => {
    const d = mk('fitsteps');
    const doc = dense();
    const withSteps: VmdDocument = {
      ...doc,
      shadow: blockFromRecords('shadow', [encodeShadowRecord({ frame: 0, mode: 1, distance: 0.1 }), encodeShadowRecord({ frame: 60, mode: 0, distance: 0.1 })]),
      ik: ikBlockFromRecords([encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '左足ＩＫ', enabled: 1 }] })]),
    };
    writeFileSync(path.join(d, 'steps.vmd'), writeVmd(withSteps));
    const r = await run(['reduce', 'steps.vmd', '-o', 'r.vmd'], d);
    expect(r.code, r.err).toBe(0);
    const out = read(path.join(d, 'r.vmd'));
    expect([out.shadow.count, out.ik.count]).toEqual([2, 1]);
    // Worded by what was asked (issue 30): "reduced; keys A → B", the step keys named beside the fitted count.
    const m = /reduced; keys 363 → (\d+) \(steps kept as they are: 1 IK\/display, 2 self-shadow\)/.exec(r.out);
    expect(m, r.out).not.toBeNull();
    expect(Number(m![1])).toBe(out.bone.count + out.morph.count);
    expect(r.out).not.toMatch(/added/);
  });

  it('--bones limits the fit, --from/--to the keys touched', async () => {
    const d = mk('fitsel');
    writeFileSync(path.join(d, 'dense.vmd'), writeVmd(dense()));
    expect((await run(['reduce', 'dense.vmd', '-o', 'b.vmd', '--bones', '左*'], d)).code).toBe(0);
    const t = buildTracks(read(path.join(d, 'b.vmd')));
    const count = (name: string) => t.bones.start[t.bones.index.get(name)! + 1] - t.bones.start[t.bones.index.get(name)!];
    expect(count('センター')).toBe(121);
    expect(count('左腕')).toBeLessThan(40);
    expect((await run(['reduce', 'dense.vmd', '-o', 'c.vmd', '--from', '60'], d)).code).toBe(0);
    const c = buildTracks(read(path.join(d, 'c.vmd')));
    const fr = Array.from(c.bones.frames.subarray(c.bones.start[0], c.bones.start[1]));
    for (let f = 0; f <= 60; f++) expect(fr).toContain(f);
    expect(fr.length).toBeLessThan(100);
  });

  it('bake puts a key on every frame; speed --refit re-times within tolerance and drops nothing', async () => {
    const d = mk('fitbake');
    const sparse = dense();
    const keep = (i: number) => i % 20 === 0 || i % 20 === 1; // every 10th frame of both bones
    const recs = Array.from({ length: sparse.bone.count }, (_, i) => sparse.bone.bytes.slice(i * 111, (i + 1) * 111)).filter((_, i) => keep(i));
    const doc = { ...sparse, bone: blockFromRecords('bone', recs) };
    writeFileSync(path.join(d, 's.vmd'), writeVmd(doc));
    const b = await run(['bake', 's.vmd', '-o', 'baked.vmd', '--json'], d);
    expect(b.code).toBe(0);
    expect(read(path.join(d, 'baked.vmd')).bone.count).toBe(242);
    // Exact at every frame, as the summary says; its figures are between frames.
    const exact = playedErrors(doc, read(path.join(d, 'baked.vmd')), { halfFrames: false });
    expect(exact.position).toBeLessThan(1e-5);
    expect(exact.rotationDeg).toBeLessThan(1e-3);
    const line = await run(['bake', 's.vmd', '-o', 'baked2.vmd'], d);
    expect(line.out).toMatch(/^bake: baked2\.vmd: baked; keys \d+ → \d+, exact at every frame; between frames \(at half frames\) max position error /);
    const s = await run(['speed', 's.vmd', '--factor', '1.5', '--refit', '-o', 'fast.vmd', '--json'], d);
    expect(s.code).toBe(0);
    const rep = JSON.parse(s.out);
    expect(rep.dropped).toBe(0);
    const e = playedErrors(doc, read(path.join(d, 'fast.vmd')), { factor: 1.5, halfFrames: false });
    expect(e.position).toBeLessThanOrEqual(0.01 + 1e-6);
    expect(e.rotationDeg).toBeLessThanOrEqual(0.1 + 1e-6);
    expect(rep.maxRotationErrorDeg).toBeCloseTo(e.rotationDeg, 4);
    // Without --refit speed behaves as before: frames scaled, collisions counted.
    const plain = await run(['speed', 's.vmd', '--factor', '1.5', '-o', 'plain.vmd', '--json'], d);
    expect(JSON.parse(plain.out).boneKeysBefore).toBeUndefined();
  });

  it.skipIf(!corpusPresent)("speed --refit on a camera file says how many of its cuts show as cuts (the real wavefile camera)", async () => {
    const d = mk('fitcam');
    const src = corpusPath('threejs/vmds/wavefile_camera.vmd');
    const cam = buildTracks(read(src)).camera.frames;
    let cuts = 0;
    for (let i = 1; i < cam.length; i++) if (cam[i] - cam[i - 1] === 1) cuts++;
    expect(cuts).toBeGreaterThan(5);
    const s = await run(['speed', src, '--factor', '0.5', '--refit', '-o', 'slow.vmd'], d);
    expect(s.code).toBe(0);
    expect(s.out).toContain(`camera cuts kept ${cuts} of ${cuts}`);
    // The line gives the fit's key counts, not kept / added / dropped (no input key stays at its frame).
    expect(s.out).toMatch(/^speed: slow\.vmd: re-fitted; keys 70 → \d+, /);
    expect(s.out).not.toMatch(/kept \d+, added/);
  });

  it('bad options are exit status 2, naming the option', async () => {
    const d = mk('fitbad');
    writeFileSync(path.join(d, 'dense.vmd'), writeVmd(dense()));
    for (const [args, re] of [
      [['--pos-tol', '0'], /pos-tol/],
      [['--rot-tol', 'x'], /rot-tol/],
      [['--from', '10', '--to', '5'], /--to/],
      [['--bones', '/[/'], /regular expression/],
    ] as const) {
      const r = await run(['reduce', 'dense.vmd', '-o', 'x.vmd', ...args], d);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(re);
    }
    expect((await run(['speed', 'dense.vmd', '-o', 'x.vmd', '--refit'], d)).code).toBe(2);
  });

  it('the batch option table offers the same options (CLI and Batch dialog share it)', async () => {
    expect(cliArgNames('reduce')).toEqual({ values: ['pos-tol', 'rot-tol', 'morph-tol', 'bones', 'from', 'to'], flags: [] });
    expect(cliArgNames('bake').values).toEqual(['from', 'to']);
    expect(cliArgNames('speed')).toEqual({ values: ['factor', 'pos-tol', 'rot-tol', 'morph-tol'], flags: ['refit'] });
    const p = prepareOp('reduce', { 'pos-tol': 0.05 });
    if (!p.ok) throw new Error(p.error.message);
    const op = p.value;
    const r = await op.run(writeVmd(dense()), '.vmd');
    expect(r.ok).toBe(true);
    if (r.ok) expect(read2(r.value.bytes).bone.count).toBeLessThan(242);
  });
});

function read2(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
