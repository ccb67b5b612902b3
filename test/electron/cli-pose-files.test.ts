// Poses through the CLI keep VPD's text: `convert A.vpd -o B.vpd` writes the pose byte for byte (before, it
// went through the writer: "-0.000000" became "0.000000" and LF became CR LF). A face preset made a motion
// (微笑.vpd: 6 morphs, no bone) is inspected as a facial (morph) motion (before: "unknown", as under 11 keys).
// `mirror POSE.vpd -o OUT.vpd` and the batch's mirror of a folder of poses mirror poses and write VPDs (before:
// refused, "convert the pose first"; the batch counted the .vpd files as not processed). The expected values are
// read from the input's text by the parse below and mirrored by hand: 左 ⇄ 右, position x, rotation y and z negated.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);
const vpds = corpusFiles('.vpd');

describe.skipIf(!corpusPresent)('poses through the CLI', () => {
  it.each(vpds.map((f) => [relName(f), f]))('convert %s -o OUT.vpd writes it byte for byte', async (_n, f) => {
    const dir = mk('pose-convert');
    writeFileSync(path.join(dir, 'in.vpd'), readCorpus(f));
    const r = await cli(dir, 'convert', 'in.vpd', '-o', 'out.vpd', '--quiet');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(Buffer.compare(readFileSync(path.join(dir, 'out.vpd')), Buffer.from(readCorpus(f)))).toBe(0);
  });

  it('convert 微笑.vpd -o smile.vmd, then inspect: a morph motion of 6 morph keys', async () => {
    const dir = mk('pose-face');
    writeFileSync(path.join(dir, 'smile.vpd'), readCorpus('mc-mmd-rust/CustomMorphs/微笑.vpd'));
    expect((await cli(dir, 'convert', 'smile.vpd', '-o', 'smile.vmd', '--quiet')).code).toBe(0);
    const r = await cli(dir, 'inspect', 'smile.vmd', '--json');
    expect(r.code).toBe(0);
    const info = JSON.parse(r.out);
    expect(info.counts).toMatchObject({ bone: 0, morph: 6, camera: 0, light: 0 });
    expect(info.kind).toBe('morph');
  });

  it('mirror 01.vpd -o OUT.vpd: each bone takes its other side\'s pose mirrored; a line whose values stay is kept byte for byte', async () => {
    const dir = mk('pose-mirror');
    const input = readCorpus('threejs/vpds/01.vpd');
    writeFileSync(path.join(dir, '01.vpd'), input);
    const r = await cli(dir, 'mirror', '01.vpd', '-o', '01m.vpd');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = new Uint8Array(readFileSync(path.join(dir, '01m.vpd')));
    const a = sections(input), b = sections(out);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    let mirroredOnes = 0;
    for (const [name, v] of b) {
      const other = a.get(name.replace(/^[左右]/, (c) => (c === '左' ? '右' : '左')))!;
      const want = [-other[0], other[1], other[2], other[3], -other[4], -other[5], other[6]];
      v.forEach((x, i) => expect(x, `${name}[${i}]`).toBeCloseTo(want[i], 6));
      if (want.some((x, i) => Math.abs(x - a.get(name)![i]) > 1e-6)) mirroredOnes++;
    }
    expect(mirroredOnes).toBeGreaterThan(20);
    // Line by line: the same lines, and one that differs holds other values (an unchanged one is byte for byte).
    const la = latin1(input).split('\n'), lb = latin1(out).split('\n');
    expect(lb.length).toBe(la.length);
    lb.forEach((l, i) => {
      if (l === la[i]) return;
      const num = (s: string) => s.split('//')[0].replace(/;\s*$/, '').split(',').map(Number);
      expect(num(l).some((x, k) => Math.fround(x) !== Math.fround(num(la[i])[k])), `line ${i + 1}`).toBe(true);
    });
    expect(latin1(out).endsWith('}\n\n')).toBe(true);
  });

  it('mirror of a pose to a .vmd name is refused, saying to give a .vpd name', async () => {
    const dir = mk('pose-mirror-vmd');
    writeFileSync(path.join(dir, '01.vpd'), readCorpus('threejs/vpds/01.vpd'));
    const r = await cli(dir, 'mirror', '01.vpd', '-o', '01m.vmd');
    expect(r.code).toBe(2);
    expect(r.err).toContain('mirror of a pose writes a VPD pose: give -o a .vpd name');
  });

  it('batch mirror of a folder of poses writes each pose mirrored, as the one-file command does', async () => {
    const dir = mk('pose-mirror-batch');
    mkdirSync(path.join(dir, 'poses'));
    for (const n of ['01', '02']) writeFileSync(path.join(dir, 'poses', `${n}.vpd`), readCorpus(`threejs/vpds/${n}.vpd`));
    const r = await cli(dir, 'batch', 'mirror', 'poses', '-o', 'out', '--json');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body.written).toBe(2);
    expect(body.notTaken ?? 0).toBe(0);
    for (const n of ['01', '02']) {
      expect((await cli(dir, 'mirror', path.join('poses', `${n}.vpd`), '-o', `${n}m.vpd`, '--quiet')).code).toBe(0);
      expect(Buffer.compare(readFileSync(path.join(dir, 'out', `${n}.vpd`)), readFileSync(path.join(dir, `${n}m.vpd`)))).toBe(0);
    }
  });
});

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');

/** A VPD's bone sections by name: position x, y, z and rotation x, y, z, w, read from the text here. */
function sections(bytes: Uint8Array): Map<string, number[]> {
  const lines = new TextDecoder('shift_jis').decode(bytes).split(/\r?\n/);
  const out = new Map<string, number[]>();
  lines.forEach((l, i) => {
    const m = /^Bone\d+\{(.*)$/.exec(l);
    if (!m) return;
    const nums = (s: string) => s.split('//')[0].trim().replace(/;$/, '').split(',').map(Number);
    out.set(m[1].trim(), [...nums(lines[i + 1]), ...nums(lines[i + 2])]);
  });
  return out;
}
