// export-vrma from the command line carries the fingers, eyes and toes of a model that has them (Gene_light
// playing its own 02_laugh, which keys the fingers), read back by hand here: the GLB's JSON chunk, the
// VRMC_vrm_animation humanoid table and a rotation accessor's floats out of the BIN chunk. A finger node's
// local rotation is the model's finger rotation turned into the VRMA's T-pose frame (conjugated by the hand's
// rest turn), so its angle is the VMD key's angle at a keyed frame. The command also says, on stderr and in
// --json, which keyed bones it left out (Gene's hair: bones no humanoid joint carries), and the batch's report.
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../electron/cli/main';
import type { CliIo } from '../../electron/cli/io';
import { buildTracks } from '../../shared/vmd';
import { sampleBoneInto } from '../../shared/vmd/sample';
import { corpusMotion, corpusPath, corpusPresent } from '../helpers/corpus';
import { rotationAngleDeg } from '../helpers/motion-error';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function run(argv: string[], cwd: string) {
  const out: string[] = [], err: string[] = [];
  const io: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), cwd, isTTY: false };
  const code = await runCli(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

interface Gltf {
  nodes: { name?: string }[];
  accessors: { bufferView: number; byteOffset?: number; count: number; componentType: number; type: string }[];
  bufferViews: { byteOffset?: number; byteLength: number; byteStride?: number }[];
  animations: { channels: { sampler: number; target: { node: number; path: string } }[]; samplers: { input: number; output: number }[] }[];
  extensions: { VRMC_vrm_animation: { humanoid: { humanBones: Record<string, { node: number }> } } };
}

/** A GLB's JSON and BIN chunks (glTF 2.0 binary: 12-byte header, then chunks of length, type, data). */
function readGlb(bytes: Uint8Array): { json: Gltf; bin: DataView } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(dv.getUint32(0, true)).toBe(0x46546c67); // 'glTF'
  let o = 12;
  let json: Gltf | null = null, bin: DataView | null = null;
  while (o < bytes.byteLength) {
    const len = dv.getUint32(o, true), type = dv.getUint32(o + 4, true);
    if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(bytes.subarray(o + 8, o + 8 + len)));
    if (type === 0x004e4942) bin = new DataView(bytes.buffer, bytes.byteOffset + o + 8, len);
    o += 8 + len;
  }
  return { json: json!, bin: bin! };
}

/** Element i of a float accessor (n components). */
function element(g: { json: Gltf; bin: DataView }, accessor: number, i: number, n: number): number[] {
  const a = g.json.accessors[accessor];
  expect(a.componentType).toBe(5126);
  const v = g.json.bufferViews[a.bufferView];
  const stride = v.byteStride ?? 4 * n;
  const at = (v.byteOffset ?? 0) + (a.byteOffset ?? 0) + i * stride;
  return Array.from({ length: n }, (_, c) => g.bin.getFloat32(at + 4 * c, true));
}

describe.skipIf(!corpusPresent)('export-vrma of a model with fingers (Gene_light, 02_laugh)', () => {
  it('the humanoid holds every finger, the eyes and the toes; a finger turns by its VMD key; the hair it leaves out is said', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmds-fingers-'));
    dirs.push(dir);
    const r = await run(['export-vrma', corpusPath('gene/motion/02_laugh.vmd'), '--model', corpusPath('gene/Gene_light.pmx'), '-o', 'laugh.vrma', '--json'], dir);
    expect(r.code, r.err).toBe(0);
    const g = readGlb(new Uint8Array(readFileSync(path.join(dir, 'laugh.vrma'))));
    const human = g.json.extensions.VRMC_vrm_animation.humanoid.humanBones;
    for (const s of ['left', 'right']) {
      for (const f of ['ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal', 'IndexProximal', 'IndexIntermediate', 'IndexDistal', 'MiddleProximal', 'MiddleIntermediate', 'MiddleDistal', 'RingProximal', 'RingIntermediate', 'RingDistal', 'LittleProximal', 'LittleIntermediate', 'LittleDistal', 'Eye', 'Toes']) {
        expect(human[`${s}${f}`], `${s}${f}`).toBeDefined();
      }
    }
    // The finger's rotation channel, sampled at a frame where the motion keys 左人指１ farthest from rest.
    const tracks = buildTracks(corpusMotion('gene/motion/02_laugh.vmd')).bones;
    const pos = new Float64Array(3), rot = new Float64Array(4);
    for (const [bone, part] of [['左人指１', 'leftIndexProximal'], ['右小指２', 'rightLittleIntermediate']]) {
      const t = tracks.index.get(bone)!;
      let best = tracks.start[t], bestAngle = 0;
      for (let k = tracks.start[t]; k < tracks.start[t + 1]; k++) {
        const a = rotationAngleDeg(tracks.rotation.subarray(4 * k, 4 * k + 4), [0, 0, 0, 1]);
        if (a > bestAngle) [best, bestAngle] = [k, a];
      }
      expect(bestAngle, bone).toBeGreaterThan(5);
      const frame = tracks.frames[best];
      sampleBoneInto(tracks, t, frame, pos, rot, 0);
      const node = human[part].node;
      const anim = g.json.animations[0];
      const ch = anim.channels.find((c) => c.target.node === node && c.target.path === 'rotation')!;
      expect(ch, part).toBeDefined();
      const sampler = anim.samplers[ch.sampler];
      // The key times are whole 30 fps frames: the element at the key's frame.
      expect(element(g, sampler.input, frame, 1)[0]).toBeCloseTo(frame / 30, 5);
      const q = element(g, sampler.output, frame, 4);
      expect(Math.abs(rotationAngleDeg(q, [0, 0, 0, 1]) - rotationAngleDeg(rot, [0, 0, 0, 1])), `${part} at frame ${frame}`).toBeLessThan(0.05);
    }
    // Gene's hair is keyed off rest and hangs from 頭 below no humanoid joint: left out, and said.
    const warning = JSON.parse(r.out).warnings.find((w: string) => w.includes('keyed bones are not in the humanoid skeleton'));
    expect(warning).toMatch(/^\d+ keyed bones are not in the humanoid skeleton and were left out: .*前髪1_1/);
    expect(r.err).toContain(`vmd-studio: warning: ${warning}`);
    // The batch's per-file report says the same.
    mkdirSync(path.join(dir, 'in'));
    copyFileSync(corpusPath('gene/motion/02_laugh.vmd'), path.join(dir, 'in', 'laugh.vmd'));
    const b = await run(['batch', 'export-vrma', 'in', '-o', 'out', '--model', corpusPath('gene/Gene_light.pmx'), '--jobs', '1', '--quiet', '--report', 'report.json'], dir);
    expect(b.code, b.err).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')).results[0].report.warnings).toContain(warning);
  });
});
