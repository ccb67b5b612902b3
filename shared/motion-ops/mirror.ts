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
 * - names in Latin letters name sides too (eyeBlinkLeft, brow_sad_geo_L, LeftArm, arm.L): a pair swaps when
 *   both its names make sense, judged on the motion's names and the model's where one is known
 *   (side-names.ts sidePairs); bone, morph and IK names alike (nameMirror).
 * - morph names: 左 ↔ 右 too, but MMD's standard eye morphs name the left wink without a side (ウィンク, and
 *   its right ウィンク右; ウィンク２ and ｳｨﾝｸ２右): those pair by a small table (morphMirror), judged on the
 *   names the motion (and the model, where one is known) holds. A name of another length is written with
 *   the field's padding byte after it, so mirroring twice gives the bytes back where the padding is
 *   uniform (NULs, or MMD's 0xFD).
 * Negation flips the float's sign bit (no float round trip) except on an exact zero, which keeps its bytes:
 * a key the mirror leaves equal is byte-identical, and −0 stays −0 only where the file had it.
 */
import { BONE, CAMERA, IK, LIGHT, MORPH, type BlockKind } from '../vmd/vmd-layout';
import { blockFromRecords, fixedBlock, ikBlock, ikBlockFromRecords, withBlocks, type Block, type VmdDocument } from '../vmd/vmd-document';
import { copyRecord, keyProgress } from '../edit-core/record-util';
import { decodeName, encodeSjis, nameLength } from '../vmd/sjis';
import { edited, finishReport, newReport, type EditResult } from '../edit-core/report';
import { cutName, otherSideName, sidePairs } from './side-names';
import { ikNameFields } from '../vmd/records';

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

/**
 * The mirror rule for the names of one kind of field (bone, morph or IK name), for one motion (and model):
 * the pairs of a table (MMD's side-less winks, names in Latin letters), else 左 ⇄ 右. See nameMirror.
 */
export interface NameMirror {
  /** Mirrors the name field at `o` (the field's length: the rule's) in place; true when it changed. */
  apply(bytes: Uint8Array, o: number): boolean;
  /** Whether apply would change the name field at `o` (nothing is written). */
  changes(bytes: Uint8Array, o: number): boolean;
  /** The pairs swapped besides 左/右: side-less morphs as [left, right], then names in Latin letters. */
  readonly pairs: readonly (readonly [string, string])[];
  /**
   * Whether the name field at `o` is one the rule keeps because the model has it and not its other side, or its
   * other side and not it (modelSided); absent: no model known. A bone key of such a name is left as it is, its
   * values too (wholeBoneMirror).
   */
  oneSided?(bytes: Uint8Array, o: number): boolean;
}

/** The mirror rule for morph names (morphMirror). */
export type MorphMirror = NameMirror;

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
 * A name rule for fields of `length` bytes: the pairs of `pairs` (both ways), else 左 ⇄ 右. A pair's names
 * are written with the field's padding after them (writeName), so mirroring twice gives the bytes back.
 */
function tableMirror(length: number, pairs: readonly (readonly [string, string])[]): NameMirror {
  const table = new Map<string, Uint8Array>();
  for (const [l, r] of pairs) {
    const lb = encodeSjis(l), rb = encodeSjis(r);
    table.set(String.fromCharCode(...lb), rb);
    table.set(String.fromCharCode(...rb), lb);
  }
  return {
    pairs,
    apply(bytes, o) {
      if (table.size) {
        const to = table.get(nameKey(bytes, o, length));
        if (to) {
          writeName(bytes, o, length, to);
          return true;
        }
      }
      return swapLeftRight(bytes, o, length);
    },
    changes(bytes, o) {
      return (table.size > 0 && table.has(nameKey(bytes, o, length))) || hasLeftRight(bytes, o, length);
    },
  };
}

/** The pairs of sidePairs' map, each once. */
function pairList(m: Map<string, string>): [string, string][] {
  const out: [string, string][] = [];
  for (const [a, b] of m) if (a < b) out.push([a, b]);
  return out;
}

/**
 * The name rule for fields of `length` bytes (BONE.NAME_LENGTH, MORPH.NAME_LENGTH, IK.ITEM_NAME_LENGTH) of
 * a motion whose names there are `names`, for a model whose names are `model` (none: no model known):
 * 左 ⇄ 右, and the pairs of names in Latin letters that side-names.ts sidePairs accepts.
 */
export function nameMirror(length: number, names: Iterable<string>, model: Iterable<string> = []): NameMirror {
  return tableMirror(length, pairList(sidePairs(length, names, model)));
}

/** The bone-name rule (nameMirror) for a motion's bone names and the model's. */
export function boneMirror(names: Iterable<string>, model: Iterable<string> = []): NameMirror {
  return nameMirror(BONE.NAME_LENGTH, names, model);
}

/**
 * `rule` (a name rule for fields of `length` bytes) with MMD's rule for a model whose names are `model`: a name the
 * rule renames stays as it is where the model has one of the two names only (Gene's one-sided 右腕xcIK is not
 * renamed 左腕xcIK, a bone Gene does not have); a pair the model names neither side of swaps as without a model
 * (a track or switch for it does nothing on this model either way). The rule maps each pair onto itself, so
 * mirroring twice gives every name back. Without a model, `rule` itself.
 *
 * A name in Latin letters whose other side (side-names.ts otherSideName: arm_L ⇄ arm_R, hair.L, LeftEar, R_Tail)
 * the model lacks is one-sided too: sidePairs makes no pair of it, so the rule leaves it alone, but before it was
 * judged a centre bone ('none') and the whole-motion mirror mirrored its keys in place; now it is kept, name and
 * values, and listed, as a one-sided 右/左 name is.
 */
function modelSided(rule: NameMirror, length: number, model: Iterable<string>): NameMirror {
  const inModel = new Set<string>();
  for (const n of model) inModel.add(cutName(n, length));
  if (!inModel.size) return rule;
  const field = new Uint8Array(length);
  /** Per name's bytes: 'swap' (the rule renames it, and the model has both names or neither), 'one' (one only), 'none'. */
  const judged = new Map<string, 'swap' | 'one' | 'none'>();
  const judge = (bytes: Uint8Array, o: number) => {
    const k = nameKey(bytes, o, length);
    let j = judged.get(k);
    if (j === undefined) {
      j = 'none';
      const name = decodeName(bytes, o, length);
      if (rule.changes(bytes, o)) {
        field.set(bytes.subarray(o, o + length));
        rule.apply(field, 0);
        j = inModel.has(name) === inModel.has(decodeName(field, 0, length)) ? 'swap' : 'one';
      } else {
        const other = latinOtherSide(name, length);
        if (other !== null && inModel.has(name) !== inModel.has(other)) j = 'one';
      }
      judged.set(k, j);
    }
    return j;
  };
  const swaps = (bytes: Uint8Array, o: number) => judge(bytes, o) === 'swap';
  return {
    pairs: rule.pairs,
    apply: (bytes, o) => swaps(bytes, o) && rule.apply(bytes, o),
    changes: swaps,
    oneSided: (bytes, o) => judge(bytes, o) === 'one',
  };
}

/** The other side of a name in Latin letters (otherSideName), where the two names are each other's; else null. */
function latinOtherSide(name: string, length: number): string | null {
  const to = otherSideName(name, length);
  if (!to || to.name === name) return null;
  return otherSideName(to.name, length)?.name === name ? to.name : null;
}

/**
 * The IK-name rule (nameMirror) for a motion's display/IK keys' bone names and the model's bones. With a model,
 * MMD's rule for bones holds for the IK switches too (modelSided): a name whose other side the model lacks stays as
 * it is (Gene's one-sided 右腕xcIK is not renamed 左腕xcIK, which left the model's own arm IK with no switch in the
 * key); the switch's state is kept as it is either way.
 */
export function ikMirror(names: Iterable<string>, model: Iterable<string> = []): NameMirror {
  const length = IK.ITEM_NAME_LENGTH;
  return modelSided(nameMirror(length, names, model), length, model);
}

/**
 * The whole-motion mirror's bone rule (mirror, the editor's Whole Motion mirror): boneMirror, and with a model
 * MMD's rule (modelSided) — a bone whose other side the model lacks (Gene's one-sided 右腕xcIK, 右肩連) keeps its
 * keys as they are, name and values, as mirror paste leaves it (it writes no key for the bone the model lacks,
 * and mirroring the pose leaves such a bone alone). Before, its track was renamed to the bone the model lacks
 * (右腕xcIK → 左腕xcIK), which did nothing on the model, and the model's own bone lost its keys. Mirror paste keeps
 * boneMirror: it leaves such keys out rather than pasting them unchanged.
 */
export function wholeBoneMirror(names: Iterable<string>, model: Iterable<string> = []): NameMirror {
  const modelNames = [...model];
  return modelSided(boneMirror(names, modelNames), BONE.NAME_LENGTH, modelNames);
}

/**
 * The morph-name mirror for a motion whose morph names are `names`, on a model whose morph names are
 * `model` (none: no model known). Names with 左 or 右 swap them. A side-less left name of
 * SIDELESS_MORPH_PAIRS swaps with its right name — the pair whose both names are there (motion or model)
 * first, else the first pair of the name there — unless the names hold that morph's 左 form (ウィンク左: a
 * model naming both sides), where 左 and 右 swap and the side-less name stays (a centre morph). Names in
 * Latin letters pair as nameMirror pairs them (eyeBlinkLeft ⇄ eyeBlinkRight, brow_sad_geo_L ⇄ brow_sad_geo_R).
 */
export function morphMirror(names: Iterable<string>, model: Iterable<string> = []): MorphMirror {
  const motion = [...names], modelNames = [...model];
  const have = new Set([...motion, ...modelNames]);
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
  return tableMirror(MORPH.NAME_LENGTH, [...pairs, ...pairList(sidePairs(MORPH.NAME_LENGTH, motion, modelNames))]);
}

/**
 * The distinct names of a block of bone or morph keys, gathered a range of records at a time (`scan`; the
 * editor's sliced Mirror yields between ranges). A name's bytes are hashed and compared, and only a new one
 * decoded: a motion repeats a few hundred names over up to millions of keys.
 */
export function nameScanner(block: Block): { scan(from: number, to: number): void; readonly names: Set<string> } {
  const names = new Set<string>();
  if (block.kind !== 'morph' && block.kind !== 'bone') return { scan: () => {}, names };
  const [at, length] = block.kind === 'bone' ? [BONE.NAME, BONE.NAME_LENGTH] : [MORPH.NAME, MORPH.NAME_LENGTH];
  const b = block.bytes, size = block.size;
  const seen = new Map<number, number[]>();
  const same = (p: number, o: number) => {
    for (let i = 0; i < length; i++) {
      if (b[p + i] !== b[o + i]) return false;
      if (b[o + i] === 0) return true;
    }
    return true;
  };
  return {
    names,
    scan(from, to) {
      for (let i = from, o = at + from * size; i < to; i++, o += size) {
        let h = 0;
        for (let k = 0; k < length && b[o + k] !== 0; k++) h = (Math.imul(h, 31) + b[o + k]) | 0;
        const list = seen.get(h);
        if (list?.some((p) => same(p, o))) continue;
        if (list) list.push(o);
        else seen.set(h, [o]);
        names.add(decodeName(b, o, length));
      }
    },
  };
}

/** The distinct names of a block of bone or morph keys (none for other kinds): nameScanner over all of it. */
export function namesOf(block: Block): Set<string> {
  const s = nameScanner(block);
  s.scan(0, block.count);
  return s.names;
}

/** The distinct morph names of a block of morph keys. */
export function morphNamesOf(block: Block): Set<string> {
  return block.kind === 'morph' ? namesOf(block) : new Set();
}

/** The distinct bone names of a block of display/IK keys. */
export function ikNamesOf(block: Block): Set<string> {
  const names = new Set<string>();
  if (block.kind !== 'ik') return names;
  for (let i = 0; i < block.count; i++) {
    const o = block.offsets[i];
    const n = block.view.getUint32(o + IK.COUNT, true);
    for (let j = 0; j < n; j++) names.add(decodeName(block.bytes, o + IK.HEADER + j * IK.ITEM, IK.ITEM_NAME_LENGTH));
  }
  return names;
}

/** The morph mirror for `block`'s names and, where a model is known, its morph names. */
export function morphMirrorFor(block: Block, modelMorphs: Iterable<string> = []): MorphMirror {
  return morphMirror(morphNamesOf(block), modelMorphs);
}

/**
 * The name rule for a block of bone, morph or display/IK keys (undefined for the kinds without names), from
 * its own names and the model's (`model`: its bone names for bone and IK keys, its morph names for morphs).
 */
export function mirrorFor(block: Block, model: Iterable<string> = []): NameMirror | undefined {
  switch (block.kind) {
    case 'bone':
      return wholeBoneMirror(namesOf(block), model);
    case 'morph':
      return morphMirror(namesOf(block), model);
    case 'ik':
      return ikMirror(ikNamesOf(block), model);
    default:
      return undefined;
  }
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
  return { changed, names: pairNames(to) };
}

/**
 * The IK switch names the IK-name rule `im` renames in `block` (display/IK keys), for the report: "A ⇄ B" where
 * the keys name both (the switches change places), else "A → B". A name the rule keeps (one whose other side
 * the model lacks) is not listed.
 */
export function ikSwaps(block: Block, im: NameMirror): string[] {
  const to = new Map<string, string>();
  if (block.kind !== 'ik') return [];
  // Each spelling (ikNameFields): one the rule renames is listed even where another that decodes alike is not.
  for (const field of ikNameFields(block)) {
    const name = decodeName(field, 0, IK.ITEM_NAME_LENGTH);
    if (im.apply(field, 0)) to.set(name, decodeName(field, 0, IK.ITEM_NAME_LENGTH));
  }
  return pairNames(to);
}

/**
 * The bone tracks of `block` (bone keys) the bone rule `bm` leaves as they are (wholeBoneMirror: bones whose other
 * side the model lacks), for the report, in the order of their first key.
 */
export function oneSidedBones(block: Block, bm: NameMirror): string[] {
  const out: string[] = [];
  if (block.kind !== 'bone' || !bm.oneSided) return out;
  const seen = new Set<string>();
  for (let i = 0, o = BONE.NAME; i < block.count; i++, o += block.size) {
    const k = nameKey(block.bytes, o, BONE.NAME_LENGTH);
    if (seen.has(k)) continue;
    seen.add(k);
    if (bm.oneSided(block.bytes, o)) out.push(decodeName(block.bytes, o, BONE.NAME_LENGTH));
  }
  return out;
}

/** Renamings as the reports list them: "A ⇄ B" for two names that change places, else "A → B". */
function pairNames(to: Map<string, string>): string[] {
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
  return names;
}

/**
 * Negates the little-endian float32 at offset o by flipping its sign bit, except an exact zero (+0 or
 * −0), which stays as it is: a value the mirror leaves equal keeps its bytes (an identity key comes back
 * byte-identical, not with −0 written into it), and since a zero is never flipped, mirroring twice still
 * gives every byte back.
 */
function negate(rec: Uint8Array, o: number): void {
  if (nonZero(rec, o)) rec[o + 3] ^= 0x80;
}

/** True when the little-endian float32 at offset o is not an exact zero (negate would change its bytes). */
function nonZero(bytes: Uint8Array, o: number): boolean {
  return bytes[o] !== 0 || bytes[o + 1] !== 0 || bytes[o + 2] !== 0 || (bytes[o + 3] & 0x7f) !== 0;
}

/**
 * Whether the mirror rule changes a value of the record of `kind` at byte `o` (names aside): a field it
 * negates holds something other than an exact zero. A bone key at rest with no side in its name, a camera
 * looking straight on, come back byte-identical, so the reports count only the keys whose bytes change.
 */
export function mirrorChangesValues(kind: BlockKind, bytes: Uint8Array, o: number): boolean {
  switch (kind) {
    case 'bone':
      return nonZero(bytes, o + BONE.POSITION) || nonZero(bytes, o + BONE.ROTATION + 4) || nonZero(bytes, o + BONE.ROTATION + 8);
    case 'camera':
      return nonZero(bytes, o + CAMERA.TARGET) || nonZero(bytes, o + CAMERA.ROTATION + 4) || nonZero(bytes, o + CAMERA.ROTATION + 8);
    case 'light':
      return nonZero(bytes, o + LIGHT.DIRECTION);
    default:
      return false;
  }
}

/**
 * The mirror rule for the record of `kind` at byte `o` of `bytes`, in place: the one place the rule is
 * written (the whole-motion mirror below, its sliced form in the editor, and mirror paste all use it).
 * `names`: the name rule for this kind of record (mirrorFor); without one, 左/右 only (and for morphs
 * MMD's side-less winks). Returns how many names were swapped. Shadow keys have no side and stay as they are.
 */
export function mirrorRecordAt(kind: BlockKind, bytes: Uint8Array, o: number, names?: NameMirror): number {
  switch (kind) {
    case 'bone': {
      // A one-sided bone of the model (wholeBoneMirror) is left as it is, its values too.
      if (names?.oneSided?.(bytes, o + BONE.NAME)) return 0;
      const swapped = (names ? names.apply(bytes, o + BONE.NAME) : swapLeftRight(bytes, o + BONE.NAME, BONE.NAME_LENGTH)) ? 1 : 0;
      negate(bytes, o + BONE.POSITION);
      negate(bytes, o + BONE.ROTATION + 4);
      negate(bytes, o + BONE.ROTATION + 8);
      return swapped;
    }
    case 'morph':
      // A weight has no side: only the name (左/右, or a side-less pair of morphMirror's table).
      return (names ? names.apply(bytes, o + MORPH.NAME) : swapLeftRight(bytes, o + MORPH.NAME, MORPH.NAME_LENGTH)) ? 1 : 0;
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
      for (let j = 0; j < n; j++) {
        const at = o + IK.HEADER + j * IK.ITEM;
        if (names ? names.apply(bytes, at) : swapLeftRight(bytes, at, IK.ITEM_NAME_LENGTH)) swapped++;
      }
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

/** Bone record: the name mirrored by `names` (without one, only 左/右 swapped), position X and rotation Y, Z negated. */
export function mirrorBoneRecord(r: Uint8Array, names?: NameMirror): number {
  return mirrorRecordAt('bone', r, 0, names);
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

/** Display/IK record: every IK bone name mirrored by `names` (without one, 左/右 swapped); the record keeps its length. */
export function mirrorIkRecord(r: Uint8Array, names?: NameMirror): number {
  return mirrorRecordAt('ik', r, 0, names);
}

/** The mirror rule for a record of `kind`, names by `names` (shadow keys have no side and stay as they are). */
export function mirrorRecord(kind: BlockKind, r: Uint8Array, names?: NameMirror): number {
  return mirrorRecordAt(kind, r, 0, names);
}

/**
 * Mirrors records [from, to) of `block`, whose bytes were copied to `bytes` (same layout), in place in
 * `bytes`. Returns how many names were swapped. The editor's sliced mirror runs this a range at a time.
 * Names by `names`, else by the block's own names (mirrorFor; a sliced caller passes the rule it chose once).
 */
export function mirrorRecordsInto(block: Block, bytes: Uint8Array, from: number, to: number, names?: NameMirror): number {
  let swapped = 0;
  names ??= mirrorFor(block);
  if (block.kind === 'ik') {
    for (let i = from; i < to; i++) swapped += mirrorRecordAt('ik', bytes, block.offsets[i], names);
  } else if (block.kind !== 'shadow') {
    for (let i = from, o = from * block.size; i < to; i++, o += block.size) swapped += mirrorRecordAt(block.kind, bytes, o, names);
  }
  return swapped;
}

/**
 * A mirrored copy of a whole block (mirroring it again, with the same name rule, gives the block's
 * bytes back). Names by `names`, else by the block's own names.
 */
export function mirroredBlock(block: Block, names?: NameMirror): Block {
  const bytes = block.bytes.slice();
  mirrorRecordsInto(block, bytes, 0, block.count, names);
  return block.kind === 'ik' ? ikBlock(bytes, block.offsets) : fixedBlock(block.kind, bytes);
}

export interface MirrorOptions {
  /** Also mirror the light direction (default true). */
  light?: boolean;
  /** The morph names of the model the motion is for, where one is known (morphMirror prefers its pairs). */
  modelMorphs?: Iterable<string>;
  /** The bone names of that model, where one is known (bone and IK names in Latin letters pair by them). */
  modelBones?: Iterable<string>;
  /** Told the keys mirrored of the total as it goes (the one-file command's progress line on a big motion). */
  progress?: (done: number, total: number) => void;
}

export function mirror(doc: VmdDocument, opts: MirrorOptions = {}): EditResult {
  const report = newReport('mirror');
  let namesSwapped = 0;
  const tell = keyProgress(doc.bone.count + doc.morph.count + doc.camera.count + doc.light.count + doc.ik.count, opts.progress);

  const modelBones = [...(opts.modelBones ?? [])];
  const bm = wholeBoneMirror(namesOf(doc.bone), modelBones);
  const bones: Uint8Array[] = [];
  for (let i = 0; i < doc.bone.count; i++) {
    const r = copyRecord(doc.bone, i);
    const kept = bm.oneSided?.(r, BONE.NAME) ?? false;
    const swapped = mirrorBoneRecord(r, bm);
    namesSwapped += swapped;
    if (!kept && (swapped || mirrorChangesValues('bone', r, 0))) report.byKind.bone.changed++;
    bones.push(r);
    tell.key();
  }
  tell.block(doc.bone.count);
  report.byKind.bone.kept = bones.length;
  const oneSided = oneSidedBones(doc.bone, bm);
  if (oneSided.length) report.oneSidedBones = oneSided;

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
    tell.key();
  }
  tell.block(doc.morph.count);
  report.byKind.morph.kept = morphs.length;

  const cameras: Uint8Array[] = [];
  for (let i = 0; i < doc.camera.count; i++) {
    const r = copyRecord(doc.camera, i);
    mirrorCameraRecord(r);
    if (mirrorChangesValues('camera', r, 0)) report.byKind.camera.changed++;
    cameras.push(r);
    tell.key();
  }
  tell.block(doc.camera.count);
  report.byKind.camera.kept = cameras.length;

  const mirrorLight = opts.light ?? true;
  const lights: Uint8Array[] = [];
  for (let i = 0; i < doc.light.count; i++) {
    const r = copyRecord(doc.light, i);
    if (mirrorLight) {
      mirrorLightRecord(r);
      if (mirrorChangesValues('light', r, 0)) report.byKind.light.changed++;
    }
    lights.push(r);
    tell.key();
  }
  tell.block(doc.light.count);
  report.byKind.light.kept = lights.length;

  const im = ikMirror(ikNamesOf(doc.ik), modelBones);
  const iks: Uint8Array[] = [];
  for (let i = 0; i < doc.ik.count; i++) {
    const r = copyRecord(doc.ik, i);
    const swapped = mirrorIkRecord(r, im);
    namesSwapped += swapped;
    if (swapped) report.byKind.ik.changed++;
    iks.push(r);
    tell.key();
  }
  tell.block(doc.ik.count);
  report.byKind.ik.kept = iks.length;
  const ikNames = ikSwaps(doc.ik, im);
  if (ikNames.length) report.iksSwapped = ikNames;
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
