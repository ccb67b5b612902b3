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
 * - morph names: 左 ↔ 右 too, but MMD's standard eye morphs name the left wink without a side (ウィンク, and
 *   its right ウィンク右; ウィンク２ and ｳｨﾝｸ２右): those pair by a small table (morphMirror), judged on the
 *   names the motion (and the model, where one is known) holds. A name of another length is written with
 *   the field's padding byte after it, so mirroring twice gives the bytes back where the padding is
 *   uniform (NULs, or MMD's 0xFD).
 * Negation flips the float's sign bit (no float round trip, −0 stays distinguishable).
 */
import { BONE, CAMERA, IK, LIGHT, MORPH, type BlockKind } from '../vmd/vmd-layout';
import { blockFromRecords, fixedBlock, ikBlock, ikBlockFromRecords, withBlocks, type Block, type VmdDocument } from '../vmd/vmd-document';
import { copyRecord } from '../edit-core/record-util';
import { decodeName, encodeSjis, nameLength } from '../vmd/sjis';
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

/**
 * MMD's standard morphs whose left one has no side in its name, as [left, right] (Animasa Miku's and most
 * models': ウィンク is the left wink, ウィンク右 the right one; ウィンク２ pairs with the half-width
 * ｳｨﾝｸ２右, which some models write full-width). The usual pair of a left name comes first.
 */
export const SIDELESS_MORPH_PAIRS: readonly (readonly [left: string, right: string])[] = [
  ['ウィンク', 'ウィンク右'],
  ['ウィンク２', 'ｳｨﾝｸ２右'],
  ['ウィンク２', 'ウィンク２右'],
];

/** The mirror rule for morph names, for one motion (and model): see morphMirror. */
export interface MorphMirror {
  /** Mirrors the morph name field at `o` (MORPH.NAME_LENGTH bytes) in place; true when it changed. */
  apply(bytes: Uint8Array, o: number): boolean;
  /** Whether apply would change the name field at `o` (nothing is written). */
  changes(bytes: Uint8Array, o: number): boolean;
  /** The side-less pairs in use, [left, right]. */
  readonly pairs: readonly (readonly [string, string])[];
}

/** A name field's bytes up to its NUL, one char per byte (a map key that needs no decoding). */
function nameKey(bytes: Uint8Array, o: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(o, o + nameLength(bytes, o, length)));
}

/** The name with 左 and 右 swapped (as swapLeftRight does to its bytes). */
function swapSides(name: string): string {
  return name.replace(/[左右]/g, (c) => (c === '左' ? '右' : '左'));
}

/**
 * Writes `name` into the field at [o, o + length): the name, a NUL, then the old name's place filled
 * with the field's padding byte (the byte after the old NUL); bytes past both names stay. Renaming back
 * gives the field's bytes back when its padding is one byte repeated (NULs, or MMD's 0xFD).
 */
function writeName(bytes: Uint8Array, o: number, length: number, name: Uint8Array): void {
  const old = nameLength(bytes, o, length);
  const pad = old + 1 < length ? bytes[o + old + 1] : 0;
  const n = Math.min(name.length, length);
  for (let i = 0; i < length; i++) {
    if (i < n) bytes[o + i] = name[i];
    else if (i === n) bytes[o + i] = 0;
    else if (i <= old) bytes[o + i] = pad;
  }
}

/**
 * The morph-name mirror for a motion whose morph names (and its model's, where one is known) are
 * `names`. Names with 左 or 右 swap them. A side-less left name of SIDELESS_MORPH_PAIRS swaps with its
 * right name — the pair whose both names are there first, else the first pair of the name there — unless
 * the names hold that morph's 左 form (ウィンク左: a model naming both sides), where 左 and 右 swap and
 * the side-less name stays (a centre morph).
 */
export function morphMirror(names: Iterable<string>): MorphMirror {
  const have = new Set(names);
  const pairs: [string, string][] = [];
  const used = new Set<string>();
  const take = (want: (l: string, r: string) => boolean) => {
    for (const [l, r] of SIDELESS_MORPH_PAIRS) {
      if (used.has(l) || used.has(r) || !want(l, r)) continue;
      // Both sides named with 左/右 (ウィンク左 and ウィンク右): the side-less one is not a side.
      if (have.has(swapSides(r)) || have.has(`${l}左`)) continue;
      used.add(l).add(r);
      pairs.push([l, r]);
    }
  };
  take((l, r) => have.has(l) && have.has(r));
  take((l, r) => have.has(l) || have.has(r));
  const table = new Map<string, Uint8Array>();
  for (const [l, r] of pairs) {
    const lb = encodeSjis(l), rb = encodeSjis(r);
    table.set(String.fromCharCode(...lb), rb);
    table.set(String.fromCharCode(...rb), lb);
  }
  const L = MORPH.NAME_LENGTH;
  return {
    pairs,
    apply(bytes, o) {
      if (table.size) {
        const to = table.get(nameKey(bytes, o, L));
        if (to) {
          writeName(bytes, o, L, to);
          return true;
        }
      }
      return swapLeftRight(bytes, o, L);
    },
    changes(bytes, o) {
      return (table.size > 0 && table.has(nameKey(bytes, o, L))) || hasLeftRight(bytes, o, L);
    },
  };
}

/** The distinct morph names of a block of morph keys. */
export function morphNamesOf(block: Block): Set<string> {
  const keys = new Set<string>();
  const names = new Set<string>();
  if (block.kind !== 'morph') return names;
  for (let i = 0, o = MORPH.NAME; i < block.count; i++, o += block.size) {
    const k = nameKey(block.bytes, o, MORPH.NAME_LENGTH);
    if (keys.has(k)) continue;
    keys.add(k);
    names.add(decodeName(block.bytes, o, MORPH.NAME_LENGTH));
  }
  return names;
}

/** The morph mirror for `block`'s names and, where a model is known, its morph names. */
export function morphMirrorFor(block: Block, modelMorphs: Iterable<string> = []): MorphMirror {
  return morphMirror([...morphNamesOf(block), ...modelMorphs]);
}

/**
 * What the morph mirror does to `block`: how many keys it renames, and the renamed names for the report,
 * "A ⇄ B" where both are tracks of the motion (they change places), else "A → B".
 */
export function morphSwaps(block: Block, mm: MorphMirror): { changed: number; names: string[] } {
  let changed = 0;
  const to = new Map<string, string>();
  if (block.kind !== 'morph') return { changed, names: [] };
  const field = new Uint8Array(MORPH.NAME_LENGTH);
  const seen = new Map<string, boolean>();
  for (let i = 0, o = MORPH.NAME; i < block.count; i++, o += block.size) {
    const k = nameKey(block.bytes, o, MORPH.NAME_LENGTH);
    let c = seen.get(k);
    if (c === undefined) {
      field.set(block.bytes.subarray(o, o + MORPH.NAME_LENGTH));
      c = mm.apply(field, 0);
      seen.set(k, c);
      if (c) to.set(decodeName(block.bytes, o, MORPH.NAME_LENGTH), decodeName(field, 0, MORPH.NAME_LENGTH));
    }
    if (c) changed++;
  }
  const names: string[] = [];
  const said = new Set<string>();
  for (const [a, b] of to) {
    if (said.has(a)) continue;
    said.add(a);
    if (to.get(b) === a) {
      said.add(b);
      names.push(`${a} ⇄ ${b}`);
    } else names.push(`${a} → ${b}`);
  }
  return { changed, names };
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
export function mirrorRecordAt(kind: BlockKind, bytes: Uint8Array, o: number, morphs?: MorphMirror): number {
  switch (kind) {
    case 'bone': {
      const swapped = swapLeftRight(bytes, o + BONE.NAME, BONE.NAME_LENGTH) ? 1 : 0;
      negate(bytes, o + BONE.POSITION);
      negate(bytes, o + BONE.ROTATION + 4);
      negate(bytes, o + BONE.ROTATION + 8);
      return swapped;
    }
    case 'morph':
      // A weight has no side: only the name (左/右, or a side-less pair of morphMirror's table).
      return (morphs ? morphs.apply(bytes, o + MORPH.NAME) : swapLeftRight(bytes, o + MORPH.NAME, MORPH.NAME_LENGTH)) ? 1 : 0;
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

/** Morph record: the name mirrored by `morphs` (without one, only 左/右 swapped); a weight has no side. */
export function mirrorMorphRecord(r: Uint8Array, morphs?: MorphMirror): number {
  return mirrorRecordAt('morph', r, 0, morphs);
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
export function mirrorRecord(kind: BlockKind, r: Uint8Array, morphs?: MorphMirror): number {
  return mirrorRecordAt(kind, r, 0, morphs);
}

/**
 * Mirrors records [from, to) of `block`, whose bytes were copied to `bytes` (same layout), in place in
 * `bytes`. Returns how many names were swapped. The editor's sliced mirror runs this a range at a time.
 * Morph names by `morphs`, else by the block's own names (morphMirrorFor).
 */
export function mirrorRecordsInto(block: Block, bytes: Uint8Array, from: number, to: number, morphs?: MorphMirror): number {
  let swapped = 0;
  if (block.kind === 'morph') morphs ??= morphMirrorFor(block);
  if (block.kind === 'ik') {
    for (let i = from; i < to; i++) swapped += mirrorRecordAt('ik', bytes, block.offsets[i]);
  } else if (block.kind !== 'shadow') {
    for (let i = from, o = from * block.size; i < to; i++, o += block.size) swapped += mirrorRecordAt(block.kind, bytes, o, morphs);
  }
  return swapped;
}

/**
 * A mirrored copy of a whole block (mirroring it again, with the same morph mirror, gives the block's
 * bytes back). Morph names by `morphs`, else by the block's own names.
 */
export function mirroredBlock(block: Block, morphs?: MorphMirror): Block {
  const bytes = block.bytes.slice();
  mirrorRecordsInto(block, bytes, 0, block.count, morphs);
  return block.kind === 'ik' ? ikBlock(bytes, block.offsets) : fixedBlock(block.kind, bytes);
}

export interface MirrorOptions {
  /** Also mirror the light direction (default true). */
  light?: boolean;
  /** The morph names of the model the motion is for, where one is known (morphMirror prefers its pairs). */
  modelMorphs?: Iterable<string>;
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

  const mm = morphMirrorFor(doc.morph, opts.modelMorphs);
  const swaps = morphSwaps(doc.morph, mm);
  if (swaps.names.length) report.morphsSwapped = swaps.names;
  const morphs: Uint8Array[] = [];
  for (let i = 0; i < doc.morph.count; i++) {
    const r = copyRecord(doc.morph, i);
    if (mirrorMorphRecord(r, mm)) {
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
