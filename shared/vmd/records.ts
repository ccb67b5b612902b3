/**
 * Field accessors over a document's raw records (offsets from vmd-layout.ts). Reads go straight to
 * the bytes; setters write one field of a record in place (callers copy a record before editing).
 */
import { BONE, CAMERA, FRAME_OFFSET, IK, LIGHT, MORPH, SHADOW, type BlockKind } from './vmd-layout';
import type { Block, FixedBlock, IkBlock } from './vmd-document';
import { viewOf } from './vmd-document';
import { decodeName, nameLength } from './sjis';

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

/** Byte offset of record i inside its block. */
export function recordOffset(block: Block, i: number): number {
  return block.kind === 'ik' ? block.offsets[i] : i * block.size;
}

export function frameOf(block: Block, i: number): number {
  return block.view.getUint32(recordOffset(block, i) + FRAME_OFFSET[block.kind], true);
}

/** Sets the frame number of a record given as its own bytes. */
export function setRecordFrame(kind: BlockKind, record: Uint8Array, frame: number): void {
  viewOf(record).setUint32(FRAME_OFFSET[kind], frame, true);
}

export function recordFrame(kind: BlockKind, record: Uint8Array): number {
  return viewOf(record).getUint32(FRAME_OFFSET[kind], true);
}

function f32x3(v: DataView, o: number): Vec3 {
  return [v.getFloat32(o, true), v.getFloat32(o + 4, true), v.getFloat32(o + 8, true)];
}

// ---- bone ----
export function boneNameBytes(b: FixedBlock, i: number): Uint8Array {
  const o = i * BONE.SIZE;
  return b.bytes.subarray(o, o + BONE.NAME_LENGTH);
}
export function boneName(b: FixedBlock, i: number): string {
  return decodeName(b.bytes, i * BONE.SIZE, BONE.NAME_LENGTH);
}
export function bonePosition(b: FixedBlock, i: number): Vec3 {
  return f32x3(b.view, i * BONE.SIZE + BONE.POSITION);
}
export function boneRotation(b: FixedBlock, i: number): Quat {
  const o = i * BONE.SIZE + BONE.ROTATION;
  const v = b.view;
  return [v.getFloat32(o, true), v.getFloat32(o + 4, true), v.getFloat32(o + 8, true), v.getFloat32(o + 12, true)];
}
export function boneInterpolation(b: FixedBlock, i: number): Uint8Array {
  const o = i * BONE.SIZE + BONE.INTERPOLATION;
  return b.bytes.subarray(o, o + BONE.INTERPOLATION_LENGTH);
}

// ---- morph ----
export function morphName(b: FixedBlock, i: number): string {
  return decodeName(b.bytes, i * MORPH.SIZE, MORPH.NAME_LENGTH);
}
export function morphNameBytes(b: FixedBlock, i: number): Uint8Array {
  const o = i * MORPH.SIZE;
  return b.bytes.subarray(o, o + MORPH.NAME_LENGTH);
}
export function morphWeight(b: FixedBlock, i: number): number {
  return b.view.getFloat32(i * MORPH.SIZE + MORPH.WEIGHT, true);
}

// ---- camera ----
export interface CameraKey {
  frame: number;
  distance: number;
  target: Vec3;
  rotation: Vec3;
  fov: number;
  perspective: number;
}
export function cameraKey(b: FixedBlock, i: number): CameraKey {
  const o = i * CAMERA.SIZE;
  const v = b.view;
  return {
    frame: v.getUint32(o + CAMERA.FRAME, true),
    distance: v.getFloat32(o + CAMERA.DISTANCE, true),
    target: f32x3(v, o + CAMERA.TARGET),
    rotation: f32x3(v, o + CAMERA.ROTATION),
    fov: v.getUint32(o + CAMERA.FOV, true),
    perspective: b.bytes[o + CAMERA.PERSPECTIVE],
  };
}
export function cameraInterpolation(b: FixedBlock, i: number): Uint8Array {
  const o = i * CAMERA.SIZE + CAMERA.INTERPOLATION;
  return b.bytes.subarray(o, o + CAMERA.INTERPOLATION_LENGTH);
}

// ---- light ----
export function lightKey(b: FixedBlock, i: number): { frame: number; color: Vec3; direction: Vec3 } {
  const o = i * LIGHT.SIZE;
  return {
    frame: b.view.getUint32(o + LIGHT.FRAME, true),
    color: f32x3(b.view, o + LIGHT.COLOR),
    direction: f32x3(b.view, o + LIGHT.DIRECTION),
  };
}

// ---- self-shadow ----
export function shadowKey(b: FixedBlock, i: number): { frame: number; mode: number; distance: number } {
  const o = i * SHADOW.SIZE;
  return {
    frame: b.view.getUint32(o + SHADOW.FRAME, true),
    mode: b.bytes[o + SHADOW.MODE],
    distance: b.view.getFloat32(o + SHADOW.DISTANCE, true),
  };
}

// ---- IK / visibility ----
export interface IkKey {
  frame: number;
  visible: number;
  iks: { name: string; enabled: number }[];
}
export function ikKey(b: IkBlock, i: number): IkKey {
  const o = b.offsets[i];
  const n = b.view.getUint32(o + IK.COUNT, true);
  const iks: IkKey['iks'] = [];
  for (let j = 0; j < n; j++) {
    const p = o + IK.HEADER + j * IK.ITEM;
    iks.push({ name: decodeName(b.bytes, p, IK.ITEM_NAME_LENGTH), enabled: b.bytes[p + IK.ITEM_ENABLED] });
  }
  return { frame: b.view.getUint32(o + IK.FRAME, true), visible: b.bytes[o + IK.VISIBLE], iks };
}

/**
 * A copy of the 20-byte name field of every IK bone the keys of `b` list, one per spelling (the bytes up to the
 * NUL: what follows it does not count), in order of first appearance. Two spellings that decode alike (右足ＩＫ and
 * 右足ＩＫ with a character cut after it, which decodeName drops) are kept apart: MMD compares the bytes, so they
 * are two switches in the file, and a rule that renames by bytes (a mirror's table of Latin pairs) can rename one
 * and not the other. The mirror's report (ikSwaps) and the first display/IK key the editor makes (ikRecordAt) both
 * walk the names with it; before, the latter kept only the first spelling of each decoded name, and a report
 * walking them so would miss a rename of the second.
 */
export function ikNameFields(b: IkBlock): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  for (let i = 0; i < b.count; i++) {
    const o = b.offsets[i];
    const n = b.view.getUint32(o + IK.COUNT, true);
    for (let j = 0; j < n; j++) {
      const p = o + IK.HEADER + j * IK.ITEM;
      const key = String.fromCharCode(...b.bytes.subarray(p, p + nameLength(b.bytes, p, IK.ITEM_NAME_LENGTH)));
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(b.bytes.slice(p, p + IK.ITEM_NAME_LENGTH));
    }
  }
  return out;
}
