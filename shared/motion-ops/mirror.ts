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
import { blockFromRecords, ikBlockFromRecords, withBlocks, type VmdDocument } from '../vmd/vmd-document';
import { copyRecord } from '../edit-core/record-util';
import { finishReport, newReport, type EditResult } from '../edit-core/report';

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
 * The mirror rule for one record of a kind, in place (the whole-motion mirror below and the editor's
 * mirror paste both use these, so the rule is written once). Returns how many names were swapped.
 */
export function mirrorBoneRecord(r: Uint8Array): number {
  const swapped = swapLeftRight(r, BONE.NAME, BONE.NAME_LENGTH) ? 1 : 0;
  negate(r, BONE.POSITION);
  negate(r, BONE.ROTATION + 4);
  negate(r, BONE.ROTATION + 8);
  return swapped;
}

/** Morph record: the name's 左/右 swapped (a weight has no side). */
export function mirrorMorphRecord(r: Uint8Array): number {
  return swapLeftRight(r, 0, 15) ? 1 : 0;
}

/** Camera record: target X and the Y and Z Euler angles negated. */
export function mirrorCameraRecord(r: Uint8Array): number {
  negate(r, CAMERA.TARGET);
  negate(r, CAMERA.ROTATION + 4);
  negate(r, CAMERA.ROTATION + 8);
  return 0;
}

/** Light record: direction X negated. */
export function mirrorLightRecord(r: Uint8Array): number {
  negate(r, LIGHT.DIRECTION);
  return 0;
}

/** Display/IK record: every IK bone name's 左/右 swapped; the record keeps its length. */
export function mirrorIkRecord(r: Uint8Array): number {
  const n = new DataView(r.buffer, r.byteOffset, r.byteLength).getUint32(IK.COUNT, true);
  let swapped = 0;
  for (let j = 0; j < n; j++) if (swapLeftRight(r, IK.HEADER + j * IK.ITEM, IK.ITEM_NAME_LENGTH)) swapped++;
  return swapped;
}

/** The mirror rule for a record of `kind` (shadow keys have no side and stay as they are). */
export function mirrorRecord(kind: BlockKind, r: Uint8Array): number {
  switch (kind) {
    case 'bone': return mirrorBoneRecord(r);
    case 'morph': return mirrorMorphRecord(r);
    case 'camera': return mirrorCameraRecord(r);
    case 'light': return mirrorLightRecord(r);
    case 'ik': return mirrorIkRecord(r);
    case 'shadow': return 0;
  }
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
  return { ok: true, doc: out, report: finishReport(report) };
}
