// The inspector's many-key model: which fields are mixed, how entries are read (set or offset), and the
// edit they make on every selected key — checked on hand-built documents against values written here.
import { describe, expect, it } from 'vitest';
import { buildVmd, encodeIkRecord, ikBlockFromRecords, withBlocks, writeVmd, BONE, type VmdDocument } from '../../../shared/vmd';
import {
  editValues, entryEdit, frameDelta, parseEntry, revertDiff, roundTo, scalable, summarizeKeys, type KeyRef,
} from '../../../shared/key-edits';
import { accepted as ok } from '../../helpers/key-edit';

const f32 = Math.fround;
const deg = (a: number) => (a * Math.PI) / 180;
/** Quaternion of a rotation of `a` degrees about Y. */
const aboutY = (a: number) => [0, Math.sin(deg(a) / 2), 0, Math.cos(deg(a) / 2)];

const doc: VmdDocument = buildVmd({
  bones: [
    { name: 'センター', frame: 0, position: [1, 2, 3], rotation: aboutY(10) },
    { name: 'センター', frame: 10, position: [1, 5, 3], rotation: aboutY(10) },
    { name: 'センター', frame: 20, position: [1.00001, -4, 3], rotation: aboutY(40) },
    { name: '左腕', frame: 0, position: [9, 9, 9], rotation: [0, 0, 0, 1] },
  ],
  morphs: [
    { name: 'あ', frame: 0, weight: 0.5 },
    { name: 'あ', frame: 5, weight: 0.5 },
  ],
});
const refs: KeyRef[] = [0, 1, 2].map((record) => ({ kind: 'bone', record }));

function posOf(d: VmdDocument, r: number): number[] {
  return [0, 1, 2].map((c) => d.bone.view.getFloat32(r * BONE.SIZE + BONE.POSITION + 4 * c, true));
}

describe('mixed fields', () => {
  it('marks a field mixed only where the selected keys differ at the shown precision', () => {
    const s = summarizeKeys(doc, refs, refs[1])!;
    expect(s.count).toBe(3);
    expect(s.kind).toBe('bone');
    // X: 1 and 1.00001 are the same at 4 decimals; Y differs; Z is shared.
    expect(s.numbers.position!.map((f) => f.mixed)).toEqual([false, true, false]);
    // The active key's values are the ones shown.
    expect(s.numbers.position!.map((f) => f.value)).toEqual([1, 5, 3]);
    // Rotation Y: 10° twice and 40° once — mixed; X and Z are 0 on all three.
    expect(s.numbers.euler!.map((f) => f.mixed)).toEqual([false, true, false]);
    expect(s.numbers.euler![1].value).toBeCloseTo(10, 3);
    expect(s.frame).toEqual({ value: 10, mixed: true });
    expect(s.physics).toEqual({ value: true, mixed: false });
  });

  it('looks only at keys of the active kind; one key is never mixed', () => {
    const all: KeyRef[] = [...refs, { kind: 'morph', record: 0 }, { kind: 'morph', record: 1 }];
    const m = summarizeKeys(doc, all, { kind: 'morph', record: 0 })!;
    expect(m.count).toBe(2);
    expect(m.numbers.weight).toEqual([{ value: 0.5, mixed: false }]);
    expect(m.frame.mixed).toBe(true);
    const one = summarizeKeys(doc, [{ kind: 'bone', record: 2 }], { kind: 'bone', record: 2 })!;
    expect(one.count).toBe(1);
    expect(Object.values(one.numbers).flat().some((f) => f.mixed)).toBe(false);
    expect(summarizeKeys(doc, refs, { kind: 'bone', record: 99 })).toBeNull();
  });

  it('rounds as the field shows', () => {
    expect(roundTo(1.23456, 4)).toBe(1.2346);
    expect(Object.is(roundTo(-0.00001, 3), 0)).toBe(true);
  });
});

describe('entries', () => {
  it('reads sets and offsets, full-width digits, a degree sign; refuses junk', () => {
    expect(parseEntry('5')).toEqual({ mode: 'set', value: 5 });
    expect(parseEntry('-2.5')).toEqual({ mode: 'set', value: -2.5 });
    expect(parseEntry(' +5 ')).toEqual({ mode: 'offset', value: 5 });
    expect(parseEntry('+=0.5')).toEqual({ mode: 'offset', value: 0.5 });
    expect(parseEntry('-=10°')).toEqual({ mode: 'offset', value: -10 });
    expect(parseEntry('\u221210°')).toEqual({ mode: 'offset', value: -10 });
    expect(parseEntry('＋５')).toEqual({ mode: 'offset', value: 5 });
    expect(parseEntry('－３')).toEqual({ mode: 'set', value: -3 });
    expect(parseEntry('.5')).toEqual({ mode: 'set', value: 0.5 });
    for (const bad of ['', '—', 'abc', '5x', '+', '1..2', '--5']) expect(parseEntry(bad), bad).toBeNull();
  });

  // New-user pass numorph 8: "*0.5" in the weight of five selected まばたき keys was "Not a number".
  it('reads a scale: *0.8, ×0.8, *=0.8, full-width ＊, /2 and /=4 (a factor of ½ and ¼); refuses /0 and a bare *', () => {
    expect(parseEntry('*0.8')).toEqual({ mode: 'scale', value: 0.8 });
    expect(parseEntry('×0.8')).toEqual({ mode: 'scale', value: 0.8 });
    expect(parseEntry(' *= 1.5 ')).toEqual({ mode: 'scale', value: 1.5 });
    expect(parseEntry('＊０.５')).toEqual({ mode: 'scale', value: 0.5 });
    expect(parseEntry('/2')).toEqual({ mode: 'scale', value: 0.5 });
    expect(parseEntry('/=4')).toEqual({ mode: 'scale', value: 0.25 });
    expect(parseEntry('*-1')).toEqual({ mode: 'scale', value: -1 });
    for (const bad of ['*', '/0', '*abc', '**2', '*/2', '/']) expect(parseEntry(bad), bad).toBeNull();
  });

  it('turns a frame entry into a move: absolute relative to the active key, or by the offset', () => {
    expect(frameDelta({ mode: 'set', value: 25 }, 10)).toBe(15);
    expect(frameDelta({ mode: 'offset', value: -3 }, 10)).toBe(-3);
  });
});

describe('one edit on every selected key', () => {
  it('sets a typed value on each selected key and nothing else (one diff, undo gives the file back)', () => {
    const e = entryEdit('position', 1, parseEntry('7')!);
    const r = ok(editValues(doc, refs, e));
    for (const i of [0, 1, 2]) expect(posOf(r.doc, i)[1]).toBe(7);
    expect(posOf(r.doc, 0)).toEqual([1, 7, 3]);
    expect(posOf(r.doc, 2)).toEqual([f32(1.00001), 7, 3]);
    expect(posOf(r.doc, 3)).toEqual([9, 9, 9]);
    // Only the three Y fields changed in the file.
    const a = writeVmd(doc), b = writeVmd(r.doc);
    const changed: number[] = [];
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) changed.push(i);
    const yAt = (rec: number) => 54 + rec * BONE.SIZE + BONE.POSITION + 4;
    expect(changed.every((i) => [0, 1, 2].some((rec) => i >= yAt(rec) && i < yAt(rec) + 4))).toBe(true);
    expect(writeVmd(revertDiff(r.doc, r.diff))).toEqual(a);
  });

  it('adds a relative entry to each key’s own value', () => {
    const r = ok(editValues(doc, refs, entryEdit('position', 1, parseEntry('+5')!)));
    expect([0, 1, 2].map((i) => posOf(r.doc, i)[1])).toEqual([f32(2 + 5), f32(5 + 5), f32(-4 + 5)]);
    expect(posOf(r.doc, 0)[0]).toBe(1);
    const m = ok(editValues(doc, [{ kind: 'morph', record: 0 }], entryEdit('weight', 0, parseEntry('-=0.25')!)));
    expect(m.doc.morph.view.getFloat32(19, true)).toBe(0.25);
  });

  it('scales each key’s own weight or position component by a scale entry (the others untouched)', () => {
    // Positions Y 2, 5, -4 (keys 0–2) × 0.5 = 1, 2.5, -2; X and Z stay; key 3 is not selected.
    const r = ok(editValues(doc, refs, entryEdit('position', 1, parseEntry('*0.5')!)));
    expect([0, 1, 2].map((i) => posOf(r.doc, i)[1])).toEqual([1, 2.5, -2]);
    expect(posOf(r.doc, 0)).toEqual([1, 1, 3]);
    expect(posOf(r.doc, 3)).toEqual([9, 9, 9]);
    // The morph key's weight 0.5 / 2 = 0.25; × 3 = 1.5 (a weight over 1 is kept: a VMD stores any float).
    const m = ok(editValues(doc, [{ kind: 'morph', record: 0 }], entryEdit('weight', 0, parseEntry('/2')!)));
    expect(m.doc.morph.view.getFloat32(19, true)).toBe(0.25);
    const up = ok(editValues(doc, [{ kind: 'morph', record: 0 }], entryEdit('weight', 0, parseEntry('×3')!)));
    expect(up.doc.morph.view.getFloat32(19, true)).toBe(1.5);
    expect(['weight', 'position'].map((g) => scalable(g as 'weight'))).toEqual([true, true]);
    expect(['euler', 'quaternion', 'distance', 'target', 'cameraRotation', 'fov', 'color', 'direction', 'shadowDistance'].some((g) => scalable(g as 'weight'))).toBe(false);
  });

  it('turns each key by a relative Euler entry about its own angle', () => {
    const r = ok(editValues(doc, refs, entryEdit('euler', 1, parseEntry('\u221210°')!)));
    const s = summarizeKeys(r.doc, refs, refs[0])!;
    const angles = [0, 1, 2].map((i) => summarizeKeys(r.doc, [refs[i]], refs[i])!.numbers.euler![1].value);
    expect(angles[0]).toBeCloseTo(0, 2);
    expect(angles[1]).toBeCloseTo(0, 2);
    expect(angles[2]).toBeCloseTo(30, 2);
    expect(s.numbers.euler![1].mixed).toBe(true);
    // Position untouched by a rotation edit.
    expect(posOf(r.doc, 1)).toEqual([1, 5, 3]);
  });
});

describe('mixed display/IK switches', () => {
  const ikDoc = withBlocks(buildVmd({}), {
    ik: ikBlockFromRecords([
      encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '左足ＩＫ', enabled: 1 }, { name: '右足ＩＫ', enabled: 1 }] }),
      encodeIkRecord({ frame: 9, visible: 1, iks: [{ name: '左足ＩＫ', enabled: 0 }, { name: '右足ＩＫ', enabled: 1 }, { name: '左つま先ＩＫ', enabled: 1 }] }),
    ]),
  });

  it('lists the active key’s IK bones first, then the others’; mixed where the keys disagree', () => {
    const refs: KeyRef[] = [{ kind: 'ik', record: 0 }, { kind: 'ik', record: 1 }];
    const s = summarizeKeys(ikDoc, refs, refs[0])!;
    expect(s.display).toEqual({ value: true, mixed: false });
    expect(s.iks).toEqual([
      { name: '左足ＩＫ', keys: 2, value: true, mixed: true },
      { name: '右足ＩＫ', keys: 2, value: true, mixed: false },
      { name: '左つま先ＩＫ', keys: 1, value: true, mixed: false },
    ]);
  });
});
