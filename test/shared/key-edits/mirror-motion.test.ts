/**
 * Mirror of the whole motion as an editor step (issue 31, shared/key-edits/mirror-motion.ts). On every
 * corpus motion and on seeded random ones (names of random Shift_JIS pieces with 左/右, cut last
 * characters, garbage after the NUL; −0 and NaN among the values):
 * - the bytes after the step equal bytes mirrored here by hand, field by field (name bytes 8D B6 ↔ 89 45
 *   walked character by character, the corpus's wink and Latin-letter pairs renamed by a table written out
 *   here, the sign bits of bone position X and rotation Y/Z, camera target X and angles Y/Z, light
 *   direction X, an exact zero left as it is), and equal what the batch edit (motion-ops mirror) writes;
 * - its report is the batch edit's;
 * - the diff holds no bytes; revert gives the original bytes, re-applying the mirrored ones;
 * - the tracks and summary made from the old ones equal buildTracks / inspectVmd of the new document.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyDiff, applyDiffSteps, diffBytes, drain, isEmptyDiff, isMirrorOnly, mirrorDiffSteps, revertDiff, tracksAfterSteps, type EditDiff } from '../../../shared/key-edits';
import { mirror } from '../../../shared/motion-ops';
import {
  blockFromRecords, buildTracks, emptyVmd, encodeBoneRecord, encodeCameraRecord, encodeIkRecord, encodeLightRecord, encodeMorphRecord, encodeShadowRecord, ikBlockFromRecords,
  inspectVmd, mirroredInfo, readVmd, recordOffset, writeVmd, BONE, CAMERA, IK, LIGHT, MORPH,
  type VmdDocument,
} from '../../../shared/vmd';
import { corpusFiles, relName } from '../../helpers/corpus';
import { rng } from '../../helpers/rng';
import { expectSameTracks } from '../../helpers/same-tracks';

function open(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** Shift_JIS lead bytes (0x81–0x9F, 0xE0–0xFC): a two-byte character starts with one. */
const lead = (b: number) => (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc);

/** Swaps 左 (8D B6) and 右 (89 45) in the name field at [o, o + n) of `b`, up to the NUL, by hand. */
function swapByHand(b: Uint8Array, o: number, n: number): void {
  for (let i = o; i < o + n && b[i] !== 0; ) {
    if (lead(b[i]) && i + 1 < o + n) {
      if (b[i] === 0x8d && b[i + 1] === 0xb6) (b[i] = 0x89), (b[i + 1] = 0x45);
      else if (b[i] === 0x89 && b[i + 1] === 0x45) (b[i] = 0x8d), (b[i + 1] = 0xb6);
      i += 2;
    } else i++;
  }
}

/**
 * MMD's side-less wink morphs by their Shift_JIS bytes, [left, right]: ウィンク (83 45 83 42 83 93 83 4E) ⇄
 * ウィンク右 (+ 右 89 45), ウィンク２ (+ ２ 82 51) ⇄ ｳｨﾝｸ２右 (B3 A8 DD B8 82 51 89 45). No motion here names
 * ウィンク左, so the pairs always hold.
 */
const WINK = [0x83, 0x45, 0x83, 0x42, 0x83, 0x93, 0x83, 0x4e];
const WINK_PAIRS = [
  [WINK, [...WINK, 0x89, 0x45]],
  [[...WINK, 0x82, 0x51], [0xb3, 0xa8, 0xdd, 0xb8, 0x82, 0x51, 0x89, 0x45]],
];

/**
 * The pairs of names in Latin letters the corpus motions hold both of (as VMD's 15-byte fields cut them):
 * Gene's ARKit blend shapes and _L/_R morphs, the Minecraft Drink motion's _l/_r bones.
 */
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const LATIN_MORPHS = [
  ['browDownLeft', 'browDownRight'], ['browOuterUpLeft', 'browOuterUpRigh'], ['cheekSquintLeft', 'cheekSquintRigh'],
  ['eyeBlinkLeft', 'eyeBlinkRight'], ['eyeLookDownLeft', 'eyeLookDownRigh'], ['eyeLookInLeft', 'eyeLookInRight'],
  ['eyeLookOutLeft', 'eyeLookOutRight'], ['eyeLookUpLeft', 'eyeLookUpRight'], ['eyeSquintLeft', 'eyeSquintRight'],
  ['eyeWideLeft', 'eyeWideRight'], ['jawLeft', 'jawRight'], ['mouthDimpleLeft', 'mouthDimpleRigh'],
  ['mouthFrownLeft', 'mouthFrownRight'], ['mouthLeft', 'mouthRight'], ['mouthLowerDownL', 'mouthLowerDownR'],
  ['mouthPressLeft', 'mouthPressRight'], ['mouthSmileLeft', 'mouthSmileRight'], ['mouthStretchLef', 'mouthStretchRig'],
  ['mouthUpperUpLef', 'mouthUpperUpRig'], ['noseSneerLeft', 'noseSneerRight'],
  ['brow_sad_geo_L', 'brow_sad_geo_R'], ['brow_sed_geo_L', 'brow_sed_geo_R'], ['eye_angry_geo_L', 'eye_angry_geo_R'],
  ['eye_close_geo_L', 'eye_close_geo_R'], ['eye_sad_geo_L', 'eye_sad_geo_R'], ['eye_wink_geo_L', 'eye_wink_geo_R'],
].map(([l, r]) => [ascii(l), ascii(r)]);
const LATIN_BONES = [
  ['ball_leaf_l', 'ball_leaf_r'], ['index_04_leaf_l', 'index_04_leaf_r'], ['pinky_04_leaf_l', 'pinky_04_leaf_r'],
  ['ring_04_leaf_l', 'ring_04_leaf_r'], ['thumb_04_leaf_l', 'thumb_04_leaf_r'],
].map(([l, r]) => [ascii(l), ascii(r)]);

/**
 * A name field mirrored by hand: a pair of `pairs` renamed (name, NUL, the old name's place padded with the
 * byte after its NUL), else 左/右 swapped.
 */
function renameByHand(b: Uint8Array, o: number, pairs: number[][][]): void {
  let len = 0;
  while (len < 15 && b[o + len] !== 0) len++;
  const name = Array.from(b.subarray(o, o + len));
  const eq = (x: number[]) => x.length === name.length && x.every((v, i) => v === name[i]);
  const pair = pairs.find(([l, r]) => eq(l) || eq(r));
  if (!pair) return swapByHand(b, o, 15);
  const to = eq(pair[0]) ? pair[1] : pair[0];
  const pad = len + 1 < 15 ? b[o + len + 1] : 0;
  for (let i = 0; i < 15; i++) {
    if (i < to.length) b[o + i] = to[i];
    else if (i === to.length) b[o + i] = 0;
    else if (i <= len) b[o + i] = pad;
  }
}

/** A morph name field mirrored by hand: the wink and Latin-letter pairs, else 左/右. */
const morphByHand = (b: Uint8Array, o: number) => renameByHand(b, o, [...WINK_PAIRS, ...LATIN_MORPHS]);

/** The document's file bytes mirrored by hand, record by record, from the layout in FORMAT.md. */
function mirroredByHand(doc: VmdDocument, light = true): Uint8Array {
  const out = writeVmd(doc);
  const copy = open(out.slice());
  const put = (kind: 'bone' | 'morph' | 'camera' | 'light' | 'ik', edit: (b: Uint8Array, o: number) => void) => {
    const block = copy[kind];
    for (let i = 0; i < block.count; i++) edit(block.bytes, recordOffset(block, i));
  };
  // Negation by the sign bit, except an exact zero (+0 or −0), which is its own mirror and keeps its bytes.
  const sign = (b: Uint8Array, o: number) => {
    const v = new DataView(b.buffer, b.byteOffset).getFloat32(o, true);
    if (v !== 0) b[o + 3] ^= 0x80;
  };
  put('bone', (b, o) => {
    renameByHand(b, o, LATIN_BONES);
    sign(b, o + BONE.POSITION);
    sign(b, o + BONE.ROTATION + 4);
    sign(b, o + BONE.ROTATION + 8);
  });
  put('morph', morphByHand);
  put('camera', (b, o) => {
    sign(b, o + CAMERA.TARGET);
    sign(b, o + CAMERA.ROTATION + 4);
    sign(b, o + CAMERA.ROTATION + 8);
  });
  if (light) put('light', (b, o) => sign(b, o + LIGHT.DIRECTION));
  put('ik', (b, o) => {
    const n = new DataView(b.buffer, b.byteOffset).getUint32(o + IK.COUNT, true);
    for (let j = 0; j < n; j++) swapByHand(b, o + IK.HEADER + j * IK.ITEM, 20);
  });
  return writeVmd(copy);
}


/** Runs the step's three parts as the editor does (diff, document, tracks) and checks each. */
function check(doc: VmdDocument, light = true): EditDiff {
  const step = drain(mirrorDiffSteps(doc, { light }, 'mirror'));
  const batch = mirror(doc, { light });
  if (!batch.ok) throw new Error('mirror refused');
  expect(step.report).toEqual(batch.value.report);
  expect(diffBytes(step.diff)).toBe(0);
  const expected = mirroredByHand(doc, light);
  expect(same(writeVmd(batch.value.doc), expected)).toBe(true);
  if (isEmptyDiff(step.diff)) {
    expect(same(expected, writeVmd(doc))).toBe(true);
    return step.diff;
  }
  expect(isMirrorOnly(step.diff)).toBe(true);
  const next = drain(applyDiffSteps(doc, step.diff, 'apply'));
  expect(same(writeVmd(next), expected)).toBe(true);
  expect(same(writeVmd(applyDiff(doc, step.diff)), expected)).toBe(true);
  // Undo and redo: mirrored again, in steps and at once.
  const back = drain(applyDiffSteps(next, step.diff, 'revert'));
  expect(same(writeVmd(back), writeVmd(doc))).toBe(true);
  expect(same(writeVmd(revertDiff(next, step.diff)), writeVmd(doc))).toBe(true);
  expect(same(writeVmd(drain(applyDiffSteps(back, step.diff, 'apply'))), expected)).toBe(true);
  // The tracks and summary made from the old ones, both ways.
  const tracks = buildTracks(doc);
  const after = drain(tracksAfterSteps(tracks, next, step.diff));
  expect(after).not.toBeNull();
  const rebuilt = buildTracks(next);
  expectSameTracks(after!, rebuilt);
  expect(mirroredInfo(inspectVmd(doc, tracks), after!)).toEqual(inspectVmd(next, rebuilt));
  expectSameTracks(drain(tracksAfterSteps(after!, back, step.diff))!, tracks);
  return step.diff;
}

describe('Mirror as an editor step (issue 31)', () => {
  const files = corpusFiles('.vmd');
  it.skipIf(!files.length)('on every corpus motion: the hand-mirrored bytes, the batch report, undo and redo, the tracks', () => {
    let bones = 0;
    for (const f of files) {
      const doc = open(new Uint8Array(readFileSync(f)));
      try {
        check(doc);
        if (doc.light.count) check(doc, false);
      } catch (e) {
        throw new Error(`${relName(f)}: ${(e as Error).message}`);
      }
      bones += doc.bone.count;
    }
    expect(bones).toBeGreaterThan(10_000);
  });

  it('on seeded random motions with tricky names and values', () => {
    const pieces = [[0x8d, 0xb6], [0x89, 0x45], [0x98, 0x72], [0x82, 0xd0], [0x82, 0xb6], [0x49, 0x4b], [0x81, 0x40], [0x8d], [0x89], [0x45], [0xb6], [0x33]];
    const specials = [0, -0, 1.5, -2.25, NaN, Infinity];
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
      const num = () => (r() < 0.15 ? pick(specials) : (r() - 0.5) * 20);
      const name = (len: number) => {
        const out = new Uint8Array(len);
        let i = 0;
        const parts = 1 + Math.floor(r() * 5);
        for (let p = 0; p < parts && i < len; p++) for (const b of pick(pieces)) if (i < len) out[i++] = b;
        // Sometimes garbage after the NUL (kept as is), sometimes a lead byte cut by the field's end.
        if (i < len - 2 && r() < 0.3) for (let j = i + 1; j < len; j++) out[j] = Math.floor(r() * 256);
        if (r() < 0.1) out[len - 1] = 0x8d;
        return out;
      };
      const boneNames = Array.from({ length: 1 + Math.floor(r() * 12) }, () => name(15));
      const morphNames = Array.from({ length: Math.floor(r() * 6) }, () => name(15));
      const frame = () => Math.floor(r() * 60);
      const bones = Array.from({ length: Math.floor(r() * 200) }, () =>
        encodeBoneRecord({ name: pick(boneNames), frame: frame(), position: [num(), num(), num()], rotation: [num(), num(), num(), num()] }),
      );
      const morphs = morphNames.length ? Array.from({ length: Math.floor(r() * 50) }, () => encodeMorphRecord({ name: pick(morphNames), frame: frame(), weight: num() })) : [];
      const cameras = Array.from({ length: Math.floor(r() * 20) }, () => encodeCameraRecord({ frame: frame(), distance: num(), target: [num(), num(), num()], rotation: [num(), num(), num()], fov: 30 }));
      const lights = Array.from({ length: Math.floor(r() * 5) }, () => encodeLightRecord({ frame: frame(), color: [0.6, 0.6, 0.6], direction: [num(), num(), num()] }));
      const shadows = Array.from({ length: Math.floor(r() * 3) }, () => encodeShadowRecord({ frame: frame(), mode: 1, distance: 0.1 }));
      const iks = Array.from({ length: Math.floor(r() * 4) }, () =>
        encodeIkRecord({ frame: frame(), visible: 1, iks: Array.from({ length: Math.floor(r() * 4) }, () => ({ name: name(20), enabled: r() < 0.5 ? 1 : 0 })) }),
      );
      const doc = open(
        writeVmd({
          ...emptyVmd('random'),
          bone: blockFromRecords('bone', bones),
          morph: blockFromRecords('morph', morphs),
          camera: blockFromRecords('camera', cameras),
          light: blockFromRecords('light', lights),
          shadow: blockFromRecords('shadow', shadows),
          ik: ikBlockFromRecords(iks),
        }),
      );
      try {
        check(doc);
        check(doc, false);
      } catch (e) {
        throw new Error(`seed ${seed}: ${(e as Error).message}`);
      }
    }
  });

  it('leaves out blocks nothing would change, and a motion without sides is unchanged', () => {
    const morphOnly = open(writeVmd({ ...emptyVmd('m'), morph: blockFromRecords('morph', [encodeMorphRecord({ name: 'あ', frame: 0, weight: 1 })]) }));
    expect(isEmptyDiff(check(morphOnly))).toBe(true);
    // Keys the mirror maps onto themselves (centre bones with X, rotation Y and Z exactly 0, a camera looking
    // straight on, a light from straight above): nothing changes, so no block is named and the report counts none.
    const atRest = open(
      writeVmd({
        ...emptyVmd('m'),
        bone: blockFromRecords('bone', [
          encodeBoneRecord({ name: '全ての親', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }),
          encodeBoneRecord({ name: 'センター', frame: 0, position: [0, 3, -2], rotation: [0.5, 0, 0, Math.sqrt(0.75)] }),
        ]),
        camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0.1, 0, 0], fov: 30 })]),
        light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [0.6, 0.6, 0.6], direction: [0, -1, 0.5] })]),
      }),
    );
    expect(isEmptyDiff(check(atRest))).toBe(true);
    const rest = drain(mirrorDiffSteps(atRest, {}, 'mirror')).report.byKind;
    expect([rest.bone.changed, rest.camera.changed, rest.light.changed]).toEqual([0, 0, 0]);
    const withSides = open(
      writeVmd({
        ...emptyVmd('m'),
        bone: blockFromRecords('bone', [encodeBoneRecord({ name: 'センター', frame: 0, position: [1, 2, 3], rotation: [0, 0, 0, 1] })]),
        morph: blockFromRecords('morph', [encodeMorphRecord({ name: 'あ', frame: 0, weight: 1 }), encodeMorphRecord({ name: 'ウィンク右', frame: 3, weight: 1 })]),
        light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [1, 1, 1], direction: [-0.5, -1, 0.5] })]),
      }),
    );
    expect(check(withSides).blocks.map((b) => b.kind)).toEqual(['bone', 'morph', 'light']);
    expect(check(withSides, false).blocks.map((b) => b.kind)).toEqual(['bone', 'morph']);
    const step = drain(mirrorDiffSteps(withSides, {}, 'mirror'));
    expect(step.report.byKind.morph.changed).toBe(1);
    expect(step.report.extra.namesSwapped).toBe(1);
    expect(MORPH.SIZE).toBe(23);
  });
});
