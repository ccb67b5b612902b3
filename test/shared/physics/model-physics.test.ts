// Rigid bodies and joints of PMX and PMD models: every field of the corpus models against the record's bytes
// read by hand here (DataView at the record's offset, layouts written out below) and against an independent
// parser (mmd-parser); bad counts and out-of-range indices give typed errors with byte offsets.
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { readModel, readPmx, readPmd, type ModelData } from '../../../shared/pmx';
import { corpusPresent, readCorpus } from '../../helpers/corpus';
import { tinyPmx } from '../pmx-fixtures';

const MMDParser = createRequire(import.meta.url)('mmd-parser') as { Parser: new () => { parsePmx(b: ArrayBuffer, ltr: boolean): any; parsePmd(b: ArrayBuffer, ltr: boolean): any } };
const c = corpusPresent ? it : it.skip;

function load(rel: string): { bytes: Uint8Array; m: ModelData } {
  const bytes = readCorpus(rel);
  const r = readModel(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return { bytes, m: r.value };
}
const f32s = (dv: DataView, o: number, n: number) => Array.from({ length: n }, (_, k) => dv.getFloat32(o + 4 * k, true));
const fround = (a: number[]) => a.map(Math.fround);

describe('model physics reader', () => {
  c('Gene_light.pmx: every rigid body and joint field equals the bytes at its record and mmd-parser', () => {
    const { bytes, m } = load('gene/Gene_light.pmx');
    expect(m.physicsError).toBeNull();
    expect([m.rigidBodies.length, m.joints.length]).toEqual([87, 92]);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const boneSize = bytes[9 + 5], rigidSize = bytes[9 + 7];
    const idx = (o: number, s: number) => (s === 1 ? dv.getInt8(o) : s === 2 ? dv.getInt16(o, true) : dv.getInt32(o, true));
    for (const b of m.rigidBodies) {
      // bone idx | group u8 | mask u16 | shape u8 | size, position, rotation f32×3 | mass … friction f32×5 | mode u8
      let o = b.offset;
      expect(b.bone).toBe(idx(o, boneSize)); o += boneSize;
      expect([b.group, b.mask, b.shape]).toEqual([bytes[o], dv.getUint16(o + 1, true), bytes[o + 3]]); o += 4;
      expect([...b.size, ...b.position, ...b.rotation]).toEqual(f32s(dv, o, 9)); o += 36;
      expect([b.mass, b.linearDamping, b.angularDamping, b.restitution, b.friction]).toEqual(f32s(dv, o, 5)); o += 20;
      expect(b.mode).toBe(bytes[o]);
    }
    for (const j of m.joints) {
      let o = j.offset;
      expect(j.type).toBe(bytes[o]); o += 1;
      expect([j.bodyA, j.bodyB]).toEqual([idx(o, rigidSize), idx(o + rigidSize, rigidSize)]); o += 2 * rigidSize;
      expect([...j.position, ...j.rotation, ...j.linearLower, ...j.linearUpper, ...j.angularLower, ...j.angularUpper, ...j.linearSpring, ...j.angularSpring]).toEqual(f32s(dv, o, 24));
    }
    const ref = new MMDParser.Parser().parsePmx(bytes.slice().buffer, false);
    m.rigidBodies.forEach((b, i) => {
      const r = ref.rigidBodies[i];
      expect([b.name, b.bone, b.group, b.mask, b.shape, b.mode]).toEqual([r.name, r.boneIndex, r.groupIndex, r.groupTarget, r.shapeType, r.type]);
      expect([...b.size, ...b.position, ...b.rotation, b.mass, b.linearDamping, b.angularDamping, b.restitution, b.friction]).toEqual(
        fround([r.width, r.height, r.depth, ...r.position, ...r.rotation, r.weight, r.positionDamping, r.rotationDamping, r.restitution, r.friction]),
      );
    });
    m.joints.forEach((j, i) => {
      const r = ref.constraints[i];
      expect([j.name, j.bodyA, j.bodyB]).toEqual([r.name, r.rigidBodyIndex1, r.rigidBodyIndex2]);
      expect([...j.position, ...j.rotation, ...j.linearLower, ...j.linearUpper, ...j.angularLower, ...j.angularUpper, ...j.linearSpring, ...j.angularSpring]).toEqual(
        fround([...r.position, ...r.rotation, ...r.translationLimitation1, ...r.translationLimitation2, ...r.rotationLimitation1, ...r.rotationLimitation2, ...r.springPosition, ...r.springRotation]),
      );
    });
    // Modes present in this model: follow-bone and physics bodies.
    expect(new Set(m.rigidBodies.map((b) => b.mode)).has(1)).toBe(true);
  });

  c('low-poly Miku (PMD): fields at each 83-byte body and 124-byte joint record; positions made model-space', () => {
    const { bytes, m } = load('mmd-viewer-js/model/low_miku/miku.pmd');
    expect(m.physicsError).toBeNull();
    expect(m.rigidBodies.length).toBeGreaterThan(0);
    expect(m.joints.length).toBeGreaterThan(0);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // The records are contiguous after a u32 count.
    const first = m.rigidBodies[0].offset;
    expect(dv.getUint32(first - 4, true)).toBe(m.rigidBodies.length);
    m.rigidBodies.forEach((b, i) => {
      const o = first + 83 * i;
      expect(b.offset).toBe(o);
      const bone = dv.getUint16(o + 20, true);
      expect(b.bone).toBe(bone === 0xffff ? -1 : bone);
      expect([b.group, b.mask, b.shape]).toEqual([bytes[o + 22], dv.getUint16(o + 23, true), bytes[o + 25]]);
      expect(b.size).toEqual(f32s(dv, o + 26, 3));
      const rel = f32s(dv, o + 38, 3), at = m.bones[bone === 0xffff ? 0 : bone].position;
      expect(b.position).toEqual([rel[0] + at[0], rel[1] + at[1], rel[2] + at[2]]);
      expect(b.rotation).toEqual(f32s(dv, o + 50, 3));
      expect([b.mass, b.linearDamping, b.angularDamping, b.restitution, b.friction]).toEqual(f32s(dv, o + 62, 5));
      expect(b.mode).toBe(bytes[o + 82]);
    });
    const jFirst = first + 83 * m.rigidBodies.length + 4;
    expect(dv.getUint32(jFirst - 4, true)).toBe(m.joints.length);
    m.joints.forEach((j, i) => {
      const o = jFirst + 124 * i;
      expect(j.offset).toBe(o);
      expect([j.bodyA, j.bodyB]).toEqual([dv.getUint32(o + 20, true), dv.getUint32(o + 24, true)]);
      expect([...j.position, ...j.rotation, ...j.linearLower, ...j.linearUpper, ...j.angularLower, ...j.angularUpper, ...j.linearSpring, ...j.angularSpring]).toEqual(f32s(dv, o + 28, 24));
    });
    expect(jFirst + 124 * m.joints.length).toBe(bytes.length);
    const ref = new MMDParser.Parser().parsePmd(bytes.slice().buffer, false);
    expect(m.rigidBodies.map((b) => b.name)).toEqual(ref.rigidBodies.map((r: any) => r.name));
    expect(m.joints.map((j) => j.name)).toEqual(ref.constraints.map((r: any) => r.name));
  });

  it('tiny PMX: the fixture body; a joint naming a missing body and a body naming a missing bone fail with offsets', () => {
    const w = tinyPmx();
    const full = w.build();
    const r = readPmx(full);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const b = r.value.rigidBodies[0];
    expect([b.name, b.nameEn, b.bone, b.group, b.mask, b.shape, b.mode]).toEqual(['剛体', 'rb', 0, 0, 0xffff, 0, 0]);
    expect([b.size, b.mass, b.linearDamping, b.friction]).toEqual([[1, 1, 1], 1, 0.5, 0.5]);
    // Append a joint to body 5 (the model has 1): replace the trailing joint count 0.
    const jointCountAt = full.length - 4;
    const name = [2, 0, 0, 0, 0x41, 0]; // text: i32 length 2, "A" in UTF-16LE
    const joint = new Uint8Array(4 + name.length * 2 + 1 + 2 + 96);
    const jv = new DataView(joint.buffer);
    jv.setInt32(0, 1, true);
    joint.set(name, 4); joint.set(name, 4 + name.length);
    const at = 4 + 2 * name.length;
    joint[at] = 0; joint[at + 1] = 0; joint[at + 2] = 5; // type 0, body A 0, body B 5 (index size 1)
    const bad = new Uint8Array(jointCountAt + joint.length);
    bad.set(full.subarray(0, jointCountAt));
    bad.set(joint, jointCountAt);
    const rb = readPmx(bad);
    expect(rb.ok).toBe(true);
    if (!rb.ok) return;
    expect(rb.value.physicsError?.code).toBe('E_PMX_INDEX');
    expect(rb.value.physicsError?.offset).toBe(jointCountAt + at + 2);
    expect(rb.value.rigidBodies).toEqual([]);
    // A body whose bone is 9 (the model has fewer).
    const bone = full.slice();
    const bodyAt = b.offset;
    bone[bodyAt] = 9;
    const rbone = readPmx(bone);
    expect(rbone.ok && rbone.value.physicsError).toMatchObject({ code: 'E_PMX_INDEX', offset: bodyAt });
    // A body count of 2^30 fails before allocating, at the count.
    const huge = full.slice();
    new DataView(huge.buffer).setInt32(w.marks.rigid, 1 << 30, true);
    const rh = readPmx(huge);
    expect(rh.ok && rh.value.physicsError).toMatchObject({ code: 'E_PMX_TRUNCATED', offset: w.marks.rigid + 4 });
  });

  // Bullet takes these without complaint and hands back NaN or Infinity (a size of 1e10, a mass of 1e20),
  // which the preview drew and a bake wrote into the VMD: the physics section is refused instead, naming the
  // record, the field and the offset; the model still loads, without physics.
  c('a NaN, an infinity, or a size or mass past 1e7 in a rigid body or joint: E_PMX_PHYSICS naming the field (PMX and PMD)', () => {
    const cases: [string, (dv: DataView, m: ModelData, bytes: Uint8Array) => void, RegExp][] = [
      // PMX body: bone index | group, mask, shape (4) | size (12) | position | rotation | mass …
      ['gene/Gene_light.pmx', (dv, m, b) => dv.setFloat32(m.rigidBodies[3].offset + b[9 + 5] + 4 + 36, NaN, true), /^rigid body 3 ".+": mass is NaN/],
      ['gene/Gene_light.pmx', (dv, m, b) => dv.setFloat32(m.rigidBodies[0].offset + b[9 + 5] + 4 + 4, 1e10, true), /^rigid body 0 ".+": size y is 1\.00e\+10, beyond ±10,000,000/],
      // PMX joint: type | body A, body B | position, rotation, limits (4 × 12) | linear spring | angular spring
      ['gene/Gene_light.pmx', (dv, m, b) => dv.setFloat32(m.joints[5].offset + 1 + 2 * b[9 + 7] + 84 + 8, Infinity, true), /^joint 5 ".+": angular spring z is Infinity/],
      // PMD body (83 bytes): name 20 | bone 2 | group, mask, shape (4) | size | position | rotation | mass …
      ['mmd-viewer-js/model/low_miku/miku.pmd', (dv, m) => dv.setFloat32(m.rigidBodies[2].offset + 26 + 12, -Infinity, true), /^rigid body 2 ".+": position x is -Infinity/],
      ['mmd-viewer-js/model/low_miku/miku.pmd', (dv, m) => dv.setFloat32(m.rigidBodies[1].offset + 62, 1e20, true), /^rigid body 1 ".+": mass is 1\.00e\+20, beyond/],
      // PMD joint (124 bytes): name 20 | bodies 8 | position | rotation …
      ['mmd-viewer-js/model/low_miku/miku.pmd', (dv, m) => dv.setFloat32(m.joints[0].offset + 28 + 12, NaN, true), /^joint 0 ".+": rotation x is NaN/],
    ];
    for (const [rel, damage, message] of cases) {
      const { bytes, m } = load(rel);
      const bad = bytes.slice();
      damage(new DataView(bad.buffer, bad.byteOffset, bad.byteLength), m, bytes);
      const r = readModel(bad);
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.physicsError?.code, rel).toBe('E_PMX_PHYSICS');
      expect(r.value.physicsError?.message).toMatch(message);
      const what = /^(rigid body|joint) (\d+)/.exec(r.value.physicsError!.message)!;
      expect(r.value.physicsError?.offset).toBe((what[1] === 'joint' ? m.joints : m.rigidBodies)[Number(what[2])].offset);
      expect([r.value.rigidBodies.length, r.value.joints.length]).toEqual([0, 0]);
      expect(r.value.bones.length).toBe(m.bones.length);
    }
  });
});

void readPmd;
