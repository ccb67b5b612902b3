/**
 * Mirror left/right. Every change is an involution on the raw bytes, so mirroring twice gives the
 * original file byte for byte:
 * - names: 左 (Shift_JIS 8D B6) ↔ 右 (89 45), walked character by character so a trail byte is never
 *   mistaken for a lead byte. Both are two bytes, so a swapped name always fits its field; bytes after
 *   the NUL (padding garbage) are left alone.
 * - bone position (x, y, z) → (−x, y, z); rotation (x, y, z, w) → (x, −y, −z, w);
 * - camera: target X and the Y and Z Euler angles negated; light: direction X negated (the scene is
 *   mirrored, so is where the light comes from);
 * - IK names swapped like bone names. Self-shadow keys are unchanged.
 * Negation flips the float's sign bit (no float round trip, −0 stays distinguishable).
 */
import { BONE, CAMERA, IK, LIGHT, type BlockKind } from '../vmd/vmd-layout';
import { blockFromRecords, fixedBlock, ikBlock, ikBlockFromRecords, withBlocks, type Block, type VmdDocument } from '../vmd/vmd-document';
import { copyRecord } from '../edit-core/record-util';
import { edited, finishReport, newReport, type EditResult } from '../edit-core/report';

const LEFT = [0x8d, 0xb6] as const;
const RIGHT = [0x89, 0x45] as const;

function isLead(b: number): boolean {
  return (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc);
}

/** Swaps 左/右 in a fixed name field in place (up to the first NUL); returns whether anything changed. */
export function swapLeftRight(bytes: Uint8Array, start: number, length: number): boolean {
  let changed = false;
  const end = start + length;
  for (let i = start; i < end && bytes[i] !== 0; ) {
    const b = bytes[i];
    if (isLead(b) && i + 1 < end) {
      const t = bytes[i + 1];
      if (b === LEFT[0] && t === LEFT[1]) {
        bytes[i] = RIGHT[0];
        bytes[i + 1] = RIGHT[1];
        changed = true;
      } else if (b === RIGHT[0] && t === RIGHT[1]) {
        bytes[i] = LEFT[0];
        bytes[i + 1] = LEFT[1];
        changed = true;
      }
      i += 2;
    } else {
      i += 1;
    }
  }
  return changed;
}

/** Flips the sign bit of the little-endian float32 at offset o. */
function negate(rec: Uint8Array, o: number): void {
  rec[o + 3] ^= 0x80;
}

/**
 * The mirror rule for the record of `kind` at byte `o` of `bytes`, in place: the one place the rule is
 * written (the whole-motion mirror below, its sliced form in the editor, and mirror paste all use it).
 * Returns how many names were swapped. Shadow keys have no side and stay as they are.
 */
export function mirrorRecordAt(kind: BlockKind, bytes: Uint8Array, o: number): number {
  switch (kind) {
    case 'bone': {
      const swapped = swapLeftRight(bytes, o + BONE.NAME, BONE.NAME_LENGTH) ? 1 : 0;
      negate(bytes, o + BONE.POSITION);
      negate(bytes, o + BONE.ROTATION + 4);
      negate(bytes, o + BONE.ROTATION + 8);
      return swapped;
    }
    case 'morph':
      // A weight has no side: only the name's 左/右.
      return swapLeftRight(bytes, o, 15) ? 1 : 0;
    case 'camera':
      // Target X and the Y and Z Euler angles.
      negate(bytes, o + CAMERA.TARGET);
      negate(bytes, o + CAMERA.ROTATION + 4);
      negate(bytes, o + CAMERA.ROTATION + 8);
      return 0;
    case 'light':
      negate(bytes, o + LIGHT.DIRECTION);
      return 0;
    case 'ik': {
      // Every IK bone name's 左/右 swapped; the record keeps its length.
      const c = o + IK.COUNT;
      const n = (bytes[c] | (bytes[c + 1] << 8) | (bytes[c + 2] << 16) | (bytes[c + 3] << 24)) >>> 0;
      let swapped = 0;
      for (let j = 0; j < n; j++) if (swapLeftRight(bytes, o + IK.HEADER + j * IK.ITEM, IK.ITEM_NAME_LENGTH)) swapped++;
      return swapped;
    }
    case 'shadow':
      return 0;
  }
}

/** True when the name field at [start, start + length) holds 左 or 右 (what swapLeftRight would change). */
export function hasLeftRight(bytes: Uint8Array, start: number, length: number): boolean {
  const end = start + length;
  for (let i = start; i < end && bytes[i] !== 0; ) {
    const b = bytes[i];
    if (isLead(b) && i + 1 < end) {
      const t = bytes[i + 1];
      if ((b === LEFT[0] && t === LEFT[1]) || (b === RIGHT[0] && t === RIGHT[1])) return true;
      i += 2;
    } else i += 1;
  }
  return false;
}

/** Bone record: names swapped, position X and rotation Y, Z negated (mirrorRecordAt). */
export function mirrorBoneRecord(r: Uint8Array): number {
  return mirrorRecordAt('bone', r, 0);
}

/** Morph record: the name's 左/右 swapped (a weight has no side). */
export function mirrorMorphRecord(r: Uint8Array): number {
  return mirrorRecordAt('morph', r, 0);
}

/** Camera record: target X and the Y and Z Euler angles negated. */
export function mirrorCameraRecord(r: Uint8Array): number {
  return mirrorRecordAt('camera', r, 0);
}

/** Light record: direction X negated. */
export function mirrorLightRecord(r: Uint8Array): number {
  return mirrorRecordAt('light', r, 0);
}

/** Display/IK record: every IK bone name's 左/右 swapped; the record keeps its length. */
export function mirrorIkRecord(r: Uint8Array): number {
  return mirrorRecordAt('ik', r, 0);
}

/** The mirror rule for a record of `kind` (shadow keys have no side and stay as they are). */
export function mirrorRecord(kind: BlockKind, r: Uint8Array): number {
  return mirrorRecordAt(kind, r, 0);
}

/**
 * Mirrors records [from, to) of `block`, whose bytes were copied to `bytes` (same layout), in place in
 * `bytes`. Returns how many names were swapped. The editor's sliced mirror runs this a range at a time.
 */
export function mirrorRecordsInto(block: Block, bytes: Uint8Array, from: number, to: number): number {
  let swapped = 0;
  if (block.kind === 'ik') {
    for (let i = from; i < to; i++) swapped += mirrorRecordAt('ik', bytes, block.offsets[i]);
  } else if (block.kind !== 'shadow') {
    for (let i = from, o = from * block.size; i < to; i++, o += block.size) swapped += mirrorRecordAt(block.kind, bytes, o);
  }
  return swapped;
}

/** A mirrored copy of a whole block (mirroring it again gives the block's bytes back). */
export function mirroredBlock(block: Block): Block {
  const bytes = block.bytes.slice();
  mirrorRecordsInto(block, bytes, 0, block.count);
  return block.kind === 'ik' ? ikBlock(bytes, block.offsets) : fixedBlock(block.kind, bytes);
}

export interface MirrorOptions {
  /** Also mirror the light direction (default true). */
  light?: boolean;
}

export function mirror(doc: VmdDocument, opts: MirrorOptions = {}): EditResult {
  const report = newReport('mirror');
  let namesSwapped = 0;

  const bones: Uint8Array[] = [];
  for (let i = 0; i < doc.bone.count; i++) {
    const r = copyRecord(doc.bone, i);
    namesSwapped += mirrorBoneRecord(r);
    bones.push(r);
  }
  report.byKind.bone.kept = report.byKind.bone.changed = bones.length;

  const morphs: Uint8Array[] = [];
  for (let i = 0; i < doc.morph.count; i++) {
    const r = copyRecord(doc.morph, i);
    if (mirrorMorphRecord(r)) {
      namesSwapped++;
      report.byKind.morph.changed++;
    }
    morphs.push(r);
  }
  report.byKind.morph.kept = morphs.length;

  const cameras: Uint8Array[] = [];
  for (let i = 0; i < doc.camera.count; i++) {
    const r = copyRecord(doc.camera, i);
    mirrorCameraRecord(r);
    cameras.push(r);
  }
  report.byKind.camera.kept = report.byKind.camera.changed = cameras.length;

  const mirrorLight = opts.light ?? true;
  const lights: Uint8Array[] = [];
  for (let i = 0; i < doc.light.count; i++) {
    const r = copyRecord(doc.light, i);
    if (mirrorLight) mirrorLightRecord(r);
    lights.push(r);
  }
  report.byKind.light.kept = lights.length;
  if (mirrorLight) report.byKind.light.changed = lights.length;

  const iks: Uint8Array[] = [];
  for (let i = 0; i < doc.ik.count; i++) {
    const r = copyRecord(doc.ik, i);
    const swapped = mirrorIkRecord(r);
    namesSwapped += swapped;
    if (swapped) report.byKind.ik.changed++;
    iks.push(r);
  }
  report.byKind.ik.kept = iks.length;
  report.byKind.shadow.kept = doc.shadow.count;
  report.extra.namesSwapped = namesSwapped;

  const out = withBlocks(doc, {
    bone: blockFromRecords('bone', bones),
    morph: blockFromRecords('morph', morphs),
    camera: blockFromRecords('camera', cameras),
    light: blockFromRecords('light', lights),
    ik: ikBlockFromRecords(iks),
  });
  return edited(out, finishReport(report));
}
