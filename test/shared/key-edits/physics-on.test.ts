/**
 * Key panel "Physics on" (editValues with physicsOff: false) writes into bytes 2–3 of a key's interpolation
 * block the pair the motion's other physics-on keys use. babylon-mmd's physics_toggle_test files hold 0/0
 * on every physics-on key (the rows' x1 copy there is 20/20 or 90/0): a key turned on there gets 0/0, since
 * babylon-mmd reads anything but 0/0 as off (FORMAT.md). MMD's own wavefile_v2.vmd holds the copy of x1 of
 * Z and rotation (14/14): a key turned off and on again there gets that copy back. A key already on keeps
 * its bytes. Expected files are the originals with bytes set here by FORMAT.md's layout (bone records from
 * byte 54, 111 bytes each, interpolation at +47).
 */
import { describe, expect, it } from 'vitest';
import { editValues, setValuesAt, type EditOutcome, type KeyEdit } from '../../../shared/key-edits';
import { buildTracks, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

const BONES_AT = 54, SIZE = 111, IP = 47;

function open(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function ok<T extends KeyEdit>(o: EditOutcome<T>): T {
  if (!o.ok) throw new Error(o.error.message);
  return o.value;
}

const boneCount = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getUint32(50, true);
/** Bytes 2, 3 of record i's interpolation block (the physics flag pair), and its x1 copy (bytes 17, 18). */
const pair = (b: Uint8Array, i: number) => [b[BONES_AT + i * SIZE + IP + 2], b[BONES_AT + i * SIZE + IP + 3]];
const copy = (b: Uint8Array, i: number) => [b[BONES_AT + i * SIZE + IP + 17], b[BONES_AT + i * SIZE + IP + 18]];

describe.skipIf(!corpusPresent)('Physics on writes the pair the motion uses', () => {
  for (const name of ['physics_toggle_test_yyb10th.vmd', 'physics_toggle_test_v2_yyb10th.vmd']) {
    it(`babylon-mmd's ${name}: physics-off keys turned on get 0/0, keys already on keep their bytes`, () => {
      const bytes = readCorpus(`babylon-mmd/res/motion/${name}`).slice();
      const n = boneCount(bytes);
      const off: number[] = [];
      for (let i = 0; i < n; i++) {
        const p = pair(bytes, i);
        if (p[0] === 99 && p[1] === 15) off.push(i);
        // The file's convention, read here: every physics-on key holds 0/0, its x1 copy is not 0/0.
        else {
          expect(p).toEqual([0, 0]);
          expect(copy(bytes, i)).not.toEqual([0, 0]);
        }
      }
      expect(off.length).toBeGreaterThan(0);
      // Every bone key selected (on and off ones), "Physics on" ticked.
      const refs = Array.from({ length: n }, (_, record) => ({ kind: 'bone' as const, record }));
      const out = writeVmd(ok(editValues(open(bytes), refs, { physicsOff: false })).doc);
      const expected = bytes.slice();
      for (const i of off) expected[BONES_AT + i * SIZE + IP + 2] = expected[BONES_AT + i * SIZE + IP + 3] = 0;
      expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
    });
  }

  it('the one key the audit turned on (D1 at frame 60: 99/15, copy 20/20) gets 0/0, nothing else changes', () => {
    const bytes = readCorpus('babylon-mmd/res/motion/physics_toggle_test_yyb10th.vmd').slice();
    const doc = open(bytes);
    const tracks = buildTracks(doc);
    const t = tracks.bones.index.get('D1');
    expect(t).toBeDefined();
    // The key at frame 60, found in the file: name D1 (44 31 00), frame 60.
    let at = -1;
    for (let i = 0; i < boneCount(bytes); i++) {
      const o = BONES_AT + i * SIZE;
      if (bytes[o] === 0x44 && bytes[o + 1] === 0x31 && bytes[o + 2] === 0 && new DataView(bytes.buffer).getUint32(o + 15, true) === 60) at = i;
    }
    expect(at).toBeGreaterThanOrEqual(0);
    expect(pair(bytes, at)).toEqual([99, 15]);
    expect(copy(bytes, at)).toEqual([20, 20]);
    const e = ok(setValuesAt(doc, tracks, { kind: 'bone', track: t! }, 60, { physicsOff: false }));
    expect(e.record).toBe(at);
    const expected = bytes.slice();
    expected[BONES_AT + at * SIZE + IP + 2] = expected[BONES_AT + at * SIZE + IP + 3] = 0;
    expect(Buffer.from(writeVmd(e.doc)).equals(Buffer.from(expected))).toBe(true);
  });

  it("MMD's wavefile_v2.vmd (x1 copies, 14/14): a key turned off and on again gets its copy back", () => {
    const bytes = readCorpus('mmd-viewer-js/vmd/wavefile_v2.vmd').slice();
    const n = boneCount(bytes);
    let copies = 0;
    for (let i = 0; i < n; i++) if (pair(bytes, i)[0] === copy(bytes, i)[0] && pair(bytes, i)[1] === copy(bytes, i)[1]) copies++;
    expect(copies).toBe(n);
    const refs = [0, 1, n - 1].map((record) => ({ kind: 'bone' as const, record }));
    const offDoc = ok(editValues(open(bytes), refs, { physicsOff: true })).doc;
    const offBytes = writeVmd(offDoc);
    for (const r of refs) expect(pair(offBytes, r.record)).toEqual([99, 15]);
    const back = writeVmd(ok(editValues(offDoc, refs, { physicsOff: false })).doc);
    expect(Buffer.from(back).equals(Buffer.from(bytes))).toBe(true);
  });
});
