// `vmd-studio inspect` of motion capture (.bvh) and VRM Animation (.vrma) files: what each is, checked
// against the file's own text or JSON read here (not through the readers), and against what import-bvh
// reports for the same capture. A folder lists them too; a damaged file is an error naming its line or byte.
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();
const WALK = corpusPath('bvh11/resources/131_01.bvh');

const cli = (argv: string[], cwd: string) => runCliCaptured(argv, cwd);

/** The GLB's JSON chunk, read by hand (glTF 2.0 "Binary glTF Layout"). */
function glbJson(bytes: Buffer): { extensions: { VRMC_vrm_animation: { humanoid: { humanBones: Record<string, unknown> }; expressions?: { preset?: Record<string, unknown>; custom?: Record<string, unknown> } } }; animations: { samplers: { input: number }[] }[]; accessors: { max?: number[] }[] } {
  const len = bytes.readUInt32LE(12);
  expect(bytes.readUInt32LE(16)).toBe(0x4e4f534a); // "JSON"
  return JSON.parse(bytes.subarray(20, 20 + len).toString('utf8'));
}

describe.skipIf(!corpusPresent)('inspect: captures and VRM Animations', () => {
  it('a BVH: joints, End Sites, channels, frames and rate as its text says; the frames at 30 fps and the map import-bvh takes', async () => {
    const d = mk('inspect-bvh');
    const text = readFileSync(WALK, 'utf8');
    const r = await cli(['inspect', '--json', WALK], d);
    expect(r.code, r.err).toBe(0);
    const info = JSON.parse(r.out);
    expect(info.format).toBe('bvh');
    expect(info.joints.length).toBe((text.match(/^\s*(ROOT|JOINT)\s/gm) ?? []).length);
    expect(info.endSites).toBe((text.match(/^\s*End Site/gm) ?? []).length);
    expect(info.channels).toBe([...text.matchAll(/CHANNELS\s+(\d+)/g)].reduce((a, m) => a + Number(m[1]), 0));
    expect(info.frames).toBe(Number(/Frames:\s*(\d+)/.exec(text)![1]));
    expect(info.fps).toBe(Math.round(1 / Number(/Frame Time:\s*([\d.]+)/.exec(text)![1])));
    const imp = await cli(['import-bvh', WALK, '-o', 'w.vmd', '--json'], d);
    expect(imp.code, imp.err).toBe(0);
    const rep = JSON.parse(imp.out);
    expect(info.lastFrame).toBe(rep.lastFrame);
    expect(info.map.source).toBe(rep.map);
    // Every joint import-bvh mapped is one the table names, with the same part.
    for (const m of rep.mapped as { joint: string; part: string }[]) expect(info.map.mapped).toContainEqual({ joint: m.joint, part: m.part });
    const human = await cli(['inspect', WALK], d);
    expect(human.out).toContain('  capture (BVH)  31 joints, 7 end sites, root Hips; 96 channels\n  length  994 frames at 120 fps (8.28 s; frames 0–248 at 30 fps)\n');
  });

  it('a .vrma: its humanoid bones, expressions and length as its JSON chunk says', async () => {
    const d = mk('inspect-vrma');
    const made = await cli(['export-vrma', corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd'), '--model', corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), '-o', 'a.vrma', '--quiet'], d);
    expect(made.code, made.err).toBe(0);
    const j = glbJson(readFileSync(path.join(d, 'a.vrma')));
    const ext = j.extensions.VRMC_vrm_animation;
    const r = await cli(['inspect', '--json', 'a.vrma'], d);
    expect(r.code, r.err).toBe(0);
    const info = JSON.parse(r.out);
    expect(info.format).toBe('vrma');
    expect(info.humanBones.sort()).toEqual(Object.keys(ext.humanoid.humanBones).sort());
    expect(info.expressions.sort()).toEqual([...Object.keys(ext.expressions?.preset ?? {}), ...Object.keys(ext.expressions?.custom ?? {})].sort());
    const end = Math.max(...j.animations[0].samplers.map((s) => j.accessors[s.input].max![0]));
    expect(info.durationSeconds).toBeCloseTo(end, 6);
    expect(info.lastFrame).toBe(2809);
    // The table for people names them too, as a BVH's lists its joints (README: "by name"), not only counts.
    const human = await cli(['inspect', 'a.vrma'], d);
    expect(human.code, human.err).toBe(0);
    const row = (label: string) => (new RegExp(`^  ${label} +(.*)$`, 'm').exec(human.out)?.[1] ?? '').split(' ').sort();
    expect(row('bones')).toEqual(Object.keys(ext.humanoid.humanBones).sort());
    expect(row('expressions')).toEqual([...Object.keys(ext.expressions?.preset ?? {}), ...Object.keys(ext.expressions?.custom ?? {})].sort());
  });

  it('a folder lists them beside the motions; a cut file names its line or byte (exit 1)', async () => {
    const d = mk('inspect-folder');
    mkdirSync(path.join(d, 'in'));
    copyFileSync(WALK, path.join(d, 'in', 'walk.bvh'));
    writeFileSync(path.join(d, 'in', 'cut.bvh'), readFileSync(WALK, 'utf8').slice(0, 3000));
    writeFileSync(path.join(d, 'in', 'x.vrma'), 'glTF');
    copyFileSync(corpusPath('gene/motion/stand.vmd'), path.join(d, 'in', 'stand.vmd'));
    const r = await cli(['inspect', 'in'], d);
    expect(r.code).toBe(1);
    expect(r.out).toContain('in/walk.bvh\n  capture (BVH)');
    expect(r.out).toMatch(/in\/cut\.bvh\n {2}ERROR E_BVH_TRUNCATED: .*LeftWrist.* \(line \d+\)/);
    expect(r.out).toContain('in/x.vrma\n  ERROR E_VRMA_FORMAT: not a binary glTF (.vrma) file: 4 bytes, shorter than the 12-byte GLB header');
    expect(r.out).toContain('in/stand.vmd\n  motion');
  });

  it('a file whose name says neither motion nor pose: inspect says it is neither; a capture given to convert says which command takes it', async () => {
    const d = mk('inspect-unknown');
    writeFileSync(path.join(d, 'notes.txt'), 'hello\n');
    const r = await cli(['inspect', 'notes.txt'], d);
    expect(r.code).toBe(1);
    // Plain text: said as such, with what a motion is (nubegin 2; the app says the same).
    expect(r.out).toBe('notes.txt\n  ERROR E_VMD_MAGIC: plain text, not a motion: a motion is a .vmd file saved by MMD, starting with "Vocaloid Motion Data"\n\n');
    const c = await cli(['convert', WALK, '-o', 'x.vpd'], d);
    expect(c.code).toBe(1);
    expect(c.err).toMatch(/131_01\.bvh: a BVH capture, not a VMD motion or a VPD pose: convert it with vmd-studio import-bvh\n$/);
    // A .vpd that is not one still says what a pose must start with.
    writeFileSync(path.join(d, 'p.vpd'), 'hello\n');
    expect((await cli(['inspect', 'p.vpd'], d)).out).toContain('E_VPD_MAGIC: not a VPD file');
  });

  it('batch inspect writes the same description for each capture beside its motions', async () => {
    const d = mk('inspect-batch');
    mkdirSync(path.join(d, 'in'));
    copyFileSync(WALK, path.join(d, 'in', 'walk.bvh'));
    copyFileSync(corpusPath('gene/motion/stand.vmd'), path.join(d, 'in', 'stand.vmd'));
    const made = await cli(['export-vrma', corpusPath('gene/motion/02_laugh.vmd'), '-o', path.join('in', 'laugh.vrma'), '--quiet'], d);
    expect(made.code, made.err).toBe(0);
    const b = await cli(['batch', 'inspect', 'in', '-o', 'out', '--quiet'], d);
    expect(b.code, b.err).toBe(0);
    for (const [file, out] of [['walk.bvh', 'walk.json'], ['laugh.vrma', 'laugh.json']]) {
      const one = await cli(['inspect', '--json', path.join('in', file)], d);
      const { file: _f, ok: _o, ...info } = JSON.parse(one.out);
      expect(JSON.parse(readFileSync(path.join(d, 'out', out), 'utf8'))).toEqual(info);
    }
    expect(JSON.parse(readFileSync(path.join(d, 'out', 'stand.json'), 'utf8')).kind).toBe('motion');
  });
});
