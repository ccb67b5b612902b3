// export-vrma from the command line carries the fingers, eyes and toes of a model that has them (Gene_light
// playing its own 02_laugh, which keys the fingers), read back by hand here: the GLB's JSON chunk, the
// VRMC_vrm_animation humanoid table and the rotation accessors' floats out of the BIN chunk, composed root to
// finger: the finger's segment points as the model's finger does playing the VMD, at a frame where it bends.
// A round trip VMD → VRMA → VMD gives the fingers back (a thumb off the hand's line kept its twist). The command also says, on stderr and in
// --json, which keyed bones it left out (Gene's hair: bones no humanoid joint carries), and the batch's report.
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../electron/cli/main';
import type { CliIo } from '../../electron/cli/io';
import { buildTracks } from '../../shared/vmd';
import { buildSkeleton, MotionPoser, Pose } from '../../shared/skeleton';
import { motionToVrma, vrmaToMotion } from '../../shared/bvh/vrma';
import { readVrma, writeVrma } from '../../electron/vrma/vrma-io';
import { corpusModel, corpusMotion, corpusPath, corpusPresent } from '../helpers/corpus';
import { rotationAngleDeg } from '../helpers/motion-error';
import { qmul, rotate } from '../helpers/quat';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function run(argv: string[], cwd: string) {
  const out: string[] = [], err: string[] = [];
  const io: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), cwd, isTTY: false };
  const code = await runCli(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

interface Gltf {
  nodes: { name?: string; children?: number[]; translation?: number[]; rotation?: number[] }[];
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
  it("the humanoid holds every finger, the eyes and the toes; a finger's segment points as the model's finger does; the hair it leaves out is said", async () => {
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
    // A finger's segment as the VRMA plays it, composed here from the file's local rotations (root to the
    // finger) at a frame where the motion keys the finger farthest from rest, against the same segment of
    // the model playing the VMD (shared/skeleton), Z mirrored into glTF's right-handed space.
    const doc = corpusMotion('gene/motion/02_laugh.vmd');
    const model = corpusModel('gene/Gene_light.pmx');
    const tracks = buildTracks(doc).bones;
    const skel = buildSkeleton(model.bones);
    const poser = new MotionPoser(skel, doc, buildTracks(doc), model);
    const pose = new Pose(skel);
    const parentOf = new Map<number, number>();
    g.json.nodes.forEach((n, i) => n.children?.forEach((c) => parentOf.set(c, i)));
    const anim = g.json.animations[0];
    const localAt = (node: number, frame: number): number[] => {
      const ch = anim.channels.find((c) => c.target.node === node && c.target.path === 'rotation');
      if (!ch) return g.json.nodes[node].rotation ?? [0, 0, 0, 1];
      const sampler = anim.samplers[ch.sampler];
      // The key times are whole 30 fps frames: the element at the frame.
      expect(element(g, sampler.input, frame, 1)[0]).toBeCloseTo(frame / 30, 5);
      return element(g, sampler.output, frame, 4);
    };
    for (const [bone, next, part, nextPart] of [['左人指１', '左人指２', 'leftIndexProximal', 'leftIndexIntermediate'], ['左親指０', '左親指１', 'leftThumbMetacarpal', 'leftThumbProximal'], ['右小指２', '右小指３', 'rightLittleIntermediate', 'rightLittleDistal']]) {
      const t = tracks.index.get(bone)!;
      let best = tracks.start[t], bestAngle = 0;
      for (let k = tracks.start[t]; k < tracks.start[t + 1]; k++) {
        const a = rotationAngleDeg(tracks.rotation.subarray(4 * k, 4 * k + 4), [0, 0, 0, 1]);
        if (a > bestAngle) [best, bestAngle] = [k, a];
      }
      expect(bestAngle, bone).toBeGreaterThan(5);
      const frame = tracks.frames[best];
      let w = [0, 0, 0, 1];
      for (let n: number | undefined = human[part].node; n !== undefined; n = parentOf.get(n)) w = qmul(localAt(n, frame), w);
      const seg = rotate(w, g.json.nodes[human[nextPart].node].translation!);
      poser.poseAt(pose, frame);
      const b = model.bones.findIndex((x) => x.name === bone), c = model.bones.findIndex((x) => x.name === next);
      const P = pose.worldPosition;
      const mmd = [0, 1, 2].map((i) => P[3 * c + i] - P[3 * b + i]);
      const want = [mmd[0], mmd[1], -mmd[2]];
      const cos = (seg[0] * want[0] + seg[1] * want[1] + seg[2] * want[2]) / (Math.hypot(...seg) * Math.hypot(...want));
      expect((Math.acos(Math.min(1, cos)) * 180) / Math.PI, `${part} at frame ${frame}`).toBeLessThan(0.05);
    }
    // Gene's hair is keyed off rest and hangs from 頭 below no humanoid joint: left out, and said.
    const warning = JSON.parse(r.out).warnings.find((w: string) => w.includes('keyed bones are not in the humanoid skeleton'));
    expect(warning).toMatch(/^\d+ keyed bones are not in the humanoid skeleton and were left out: .*前髪1_1/);
    expect(r.err).toContain(`vmd-studio: warning: ${corpusPath('gene/motion/02_laugh.vmd')}: ${warning}`);
    // The batch's per-file report says the same.
    mkdirSync(path.join(dir, 'in'));
    copyFileSync(corpusPath('gene/motion/02_laugh.vmd'), path.join(dir, 'in', 'laugh.vmd'));
    const b = await run(['batch', 'export-vrma', 'in', '-o', 'out', '--model', corpusPath('gene/Gene_light.pmx'), '--jobs', '1', '--quiet', '--report', 'report.json'], dir);
    expect(b.code, b.err).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')).results[0].report.warnings).toContain(warning);
  });

  it('VMD → VRMA → VMD: the fingers and eyes come back as the model played them (world rotations within 2°, the first 200 frames)', async () => {
    const model = corpusModel('gene/Gene_light.pmx');
    const doc = corpusMotion('gene/motion/02_laugh.vmd');
    const v = motionToVrma(doc, model);
    if (!v.ok) throw new Error(v.error.message);
    const back = await readVrma(await writeVrma(v.value.vrma));
    if (!back.ok) throw new Error(back.error.message);
    const r = vrmaToMotion(back.value, model, { footIk: false });
    if (!r.ok) throw new Error(r.error.message);
    const skel = buildSkeleton(model.bones);
    const pa = new MotionPoser(skel, doc, buildTracks(doc), model), pb = new MotionPoser(skel, r.value.doc, buildTracks(r.value.doc), model);
    const A = new Pose(skel), B = new Pose(skel);
    // A thumb points off the hand's line: its twist is what a T-pose rest can lose (23° at 親指０ when it did).
    const names = ['左親指０', '左親指１', '右親指２', '左人指１', '右中指３', '左小指２', '左目', '右目'];
    let worst = 0, at = '';
    for (let f = 0; f < 200; f += 3) {
      pa.poseAt(A, f);
      pb.poseAt(B, f);
      for (const n of names) {
        const b = model.bones.findIndex((x) => x.name === n);
        const d = rotationAngleDeg(A.worldRotation.subarray(4 * b, 4 * b + 4), B.worldRotation.subarray(4 * b, 4 * b + 4));
        if (d > worst) [worst, at] = [d, `${n} at ${f}`];
      }
    }
    expect(worst, at).toBeLessThan(2);
  });
});
