// Fingers, eyes and toes through BVH: a corpus motion that keys the fingers (Gene's 02_laugh) exported on
// the model it was made for (Gene_light: 親指０–２, 人指１–３ …, 左目/右目, 左つま先EX) holds those joints,
// and a finger joint's rotation, read from the BVH text by this file's own parse (channels composed here,
// Z mirrored here), is the VMD key's rotation at a keyed frame. The BVH read back with its joints renamed
// as Mixamo names them binds its fingers onto the model's finger bones.
import { describe, expect, it } from 'vitest';
import { exportBvh } from '../../../shared/bvh/export';
import { readBvh } from '../../../shared/bvh/bvh-reader';
import { importBvh } from '../../../shared/bvh/import';
import { buildTracks } from '../../../shared/vmd';
import { sampleBoneInto } from '../../../shared/vmd/sample';
import { corpusModel, corpusMotion, corpusPresent } from '../../helpers/corpus';
import { rotationAngleDeg } from '../../helpers/motion-error';
import { axisAngle, qmul } from '../../helpers/quat';

interface ParsedJoint {
  name: string;
  channels: string[];
  start: number;
}

/** The joints (in file order, with their channel columns) and the frame rows of a BVH text. */
function parseBvh(text: string): { joints: ParsedJoint[]; rows: number[][] } {
  const lines = text.split('\n').map((l) => l.trim());
  const joints: ParsedJoint[] = [];
  let col = 0;
  let i = 0;
  for (; lines[i] !== 'MOTION'; i++) {
    const m = /^(ROOT|JOINT) (\S+)$/.exec(lines[i]);
    if (m) joints.push({ name: m[2], channels: [], start: col });
    const c = /^CHANNELS (\d+) (.*)$/.exec(lines[i]);
    if (c) {
      joints[joints.length - 1].channels = c[2].split(' ');
      col += Number(c[1]);
    }
  }
  const rows = lines.slice(i + 3).filter((l) => l !== '').map((l) => l.split(' ').map(Number));
  return { joints, rows };
}

/** A joint's rotation at a row, channels composed in file order (first outermost), as an MMD quaternion (Z mirrored). */
function jointRotation(j: ParsedJoint, row: number[]): number[] {
  let q = [0, 0, 0, 1];
  j.channels.forEach((ch, c) => {
    if (!ch.endsWith('rotation')) return;
    const axis = [ch[0] === 'X' ? 1 : 0, ch[0] === 'Y' ? 1 : 0, ch[0] === 'Z' ? 1 : 0];
    q = qmul(q, axisAngle(axis, (row[j.start + c] * Math.PI) / 180));
  });
  // Right-handed (BVH) → MMD: mirror Z; a rotation's x and y turn sign.
  return [-q[0], -q[1], q[2], q[3]];
}

const FINGER_PARTS = ['ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal', 'IndexProximal', 'IndexIntermediate', 'IndexDistal', 'MiddleProximal', 'MiddleIntermediate', 'MiddleDistal', 'RingProximal', 'RingIntermediate', 'RingDistal', 'LittleProximal', 'LittleIntermediate', 'LittleDistal'];

describe.skipIf(!corpusPresent)('BVH fingers, eyes and toes (Gene_light, 02_laugh)', () => {
  const model = corpusModel('gene/Gene_light.pmx');
  const doc = corpusMotion('gene/motion/02_laugh.vmd');
  const out = exportBvh(doc, model);
  if (!out.ok) throw new Error(out.error.message);
  const bvh = parseBvh(out.value.text);
  const tracks = buildTracks(doc).bones;

  it('writes every finger, both eyes and both toes as joints', () => {
    const names = bvh.joints.map((j) => j.name);
    for (const s of ['left', 'right']) for (const f of FINGER_PARTS) expect(names).toContain(`${s}${f}`);
    expect(names).toEqual(expect.arrayContaining(['leftEye', 'rightEye', 'leftToes', 'rightToes']));
  });

  it("a finger joint's rotation is the VMD key's rotation at the key's frame", () => {
    // Bones whose parent bone plays the joint's parent part (Gene: 人指１ under 手首, 中指２ under 中指１, 親指０ under 手首, 親指２ under 親指１).
    const checks: [string, string][] = [['左人指１', 'leftIndexProximal'], ['右中指２', 'rightMiddleIntermediate'], ['左親指０', 'leftThumbMetacarpal'], ['右親指２', 'rightThumbDistal']];
    const pos = new Float64Array(3), rot = new Float64Array(4);
    let checked = 0;
    for (const [bone, part] of checks) {
      const t = tracks.index.get(bone);
      expect(t, bone).toBeDefined();
      // The key turned farthest from rest (a finger that bends).
      let best = -1, bestAngle = 0;
      for (let k = tracks.start[t!]; k < tracks.start[t! + 1]; k++) {
        const a = rotationAngleDeg(tracks.rotation.subarray(4 * k, 4 * k + 4), [0, 0, 0, 1]);
        if (a > bestAngle) [best, bestAngle] = [k, a];
      }
      expect(bestAngle, `${bone} bends somewhere`).toBeGreaterThan(5);
      const frame = tracks.frames[best];
      sampleBoneInto(tracks, t!, frame, pos, rot, 0);
      const j = bvh.joints.find((x) => x.name === part)!;
      expect(j, part).toBeDefined();
      const got = jointRotation(j, bvh.rows[frame]);
      expect(rotationAngleDeg(got, rot), `${bone} at frame ${frame} (${bestAngle.toFixed(1)}° from rest)`).toBeLessThan(0.01);
      checked++;
    }
    expect(checked).toBe(4);
  });

  it('a capture with finger joints (Mixamo names) imports onto the finger bones', () => {
    // The exported BVH with its joints renamed as Mixamo names them (mixamorig: prefix, LeftHandIndex1…).
    const mixamo: Record<string, string> = { hips: 'Hips', spine: 'Spine', chest: 'Spine1', neck: 'Neck', head: 'Head' };
    for (const [s, S] of [['left', 'Left'], ['right', 'Right']]) {
      Object.assign(mixamo, { [`${s}Shoulder`]: `${S}Shoulder`, [`${s}UpperArm`]: `${S}Arm`, [`${s}LowerArm`]: `${S}ForeArm`, [`${s}Hand`]: `${S}Hand`, [`${s}UpperLeg`]: `${S}UpLeg`, [`${s}LowerLeg`]: `${S}Leg`, [`${s}Foot`]: `${S}Foot`, [`${s}Toes`]: `${S}ToeBase`, [`${s}Eye`]: `${S}Eye` });
      Object.assign(mixamo, { [`${s}ThumbMetacarpal`]: `${S}HandThumb1`, [`${s}ThumbProximal`]: `${S}HandThumb2`, [`${s}ThumbDistal`]: `${S}HandThumb3` });
      for (const [f, mf] of [['Index', 'Index'], ['Middle', 'Middle'], ['Ring', 'Ring'], ['Little', 'Pinky']]) {
        Object.assign(mixamo, { [`${s}${f}Proximal`]: `${S}Hand${mf}1`, [`${s}${f}Intermediate`]: `${S}Hand${mf}2`, [`${s}${f}Distal`]: `${S}Hand${mf}3` });
      }
    }
    // The first 40 frames are enough (a whole import fits every frame).
    const [head, motion] = out.value.text.split('MOTION\n');
    const rows = motion.split('\n').slice(2, 42);
    const text = head.replace(/^(\s*(?:ROOT|JOINT) )(\S+)$/gm, (_, a: string, n: string) => `${a}mixamorig:${mixamo[n] ?? n}`) + `MOTION\nFrames: ${rows.length}\nFrame Time: 0.033333\n${rows.join('\n')}\n`;
    const b = readBvh(new TextEncoder().encode(text));
    if (!b.ok) throw new Error(b.error.message);
    const r = importBvh(b.value, model, { footIk: false });
    if (!r.ok) throw new Error(r.error.message);
    const mapped = new Map(r.value.report.mapped.map((x) => [x.joint, x.bone]));
    expect(mapped.get('mixamorig:LeftHandIndex1')).toBe('左人指１');
    expect(mapped.get('mixamorig:RightHandThumb1')).toBe('右親指０');
    expect(mapped.get('mixamorig:LeftHandPinky3')).toBe('左小指３');
    // The imported key of a finger, read through the written motion's tracks: the capture's (the VMD's) rotation.
    const got = buildTracks(r.value.doc).bones;
    const t = tracks.index.get('左人指１')!, g = got.index.get('左人指１');
    expect(g).toBeDefined();
    const a = new Float64Array(4), c = new Float64Array(4), p = new Float64Array(3);
    let worst = 0;
    for (let f = 0; f < rows.length; f++) {
      sampleBoneInto(tracks, t, f, p, a, 0);
      sampleBoneInto(got, g!, f, p, c, 0);
      worst = Math.max(worst, rotationAngleDeg(a, c));
    }
    expect(worst).toBeLessThan(1);
  });
});
