// Whole-motion edits applied to an open document (shared/batch/doc-edits.ts + diffDocuments): over
// every corpus VMD, the undo step made from the edit's result redoes to exactly the bytes the edit
// wrote and undoes to exactly the original file; options are checked as the CLI checks them.
import { describe, expect, it } from 'vitest';
import { readVmd, writeVmd, withBlocks, emptyVmd } from '../../shared/vmd';
import { applyDiff, diffBytes, diffDocuments, isEmptyDiff, revertDiff } from '../../shared/editor';
import { DOC_EDIT_OPS, OpOptionError, prepareDocEdit, type OpOptions } from '../../shared/batch/doc-edits';
import type { BatchOp } from '../../shared/batch/types';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';

const EDITS: [BatchOp, OpOptions][] = [
  ['mirror', {}],
  ['speed', { factor: 2 }],
  ['speed', { factor: 0.5 }],
  ['trim', { from: 10, to: 40 }],
  ['shift', { by: 15 }],
  ['shift', { by: -5, clip: true }],
  ['preset', { curve: 'ease-in-out', camera: true }],
  ['rename', { map: 'm.json', mapText: JSON.stringify({ センター: 'センター2', 左腕: '右腕' }) }],
];

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe.skipIf(!corpusPresent)('whole-motion edits as one undo step', () => {
  const files = corpusFiles('.vmd');
  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  for (const [op, o] of EDITS) {
    it(`${op} ${JSON.stringify(o)}: redo gives the edit's bytes, undo the file's, on every corpus VMD`, () => {
      const edit = prepareDocEdit(op, o)!;
      let changed = 0;
      for (const f of files) {
        const bytes = readCorpus(f);
        const r = readVmd(bytes);
        if (!r.ok) throw new Error(r.error.message);
        const out = edit(r.value);
        if (!out.ok) continue; // e.g. trim of a motion shorter than the range: the CLI reports it too
        const step = diffDocuments(r.value, out.doc, op);
        expect(step, relName(f)).not.toBeNull();
        expect(same(writeVmd(step!.doc), writeVmd(out.doc)), `${relName(f)} redo`).toBe(true);
        expect(same(writeVmd(applyDiff(r.value, step!.diff)), writeVmd(out.doc))).toBe(true);
        expect(same(writeVmd(revertDiff(step!.doc, step!.diff)), bytes), `${relName(f)} undo`).toBe(true);
        // The step keeps changed records only: never more than the two versions of every record.
        expect(diffBytes(step!.diff)).toBeLessThanOrEqual(bytes.length + writeVmd(out.doc).length);
        if (!isEmptyDiff(step!.diff)) changed++;
      }
      expect(changed, 'files the edit changed').toBeGreaterThan(0);
    });
  }

  it('an unchanged document gives an empty step; a header change cannot be a step', () => {
    const r = readVmd(readCorpus('mc-mmd-rust/default_anim/walk.vmd'));
    if (!r.ok) throw new Error(r.error.message);
    expect(isEmptyDiff(diffDocuments(r.value, withBlocks(r.value, {}), 'none')!.diff)).toBe(true);
    const renamed = { ...r.value, modelName: emptyVmd('other').modelName };
    expect(diffDocuments(r.value, renamed, 'model')).toBeNull();
  });

  it('checks options as the CLI does, and only the document edits are offered', () => {
    expect(DOC_EDIT_OPS).toEqual(['mirror', 'trim', 'speed', 'shift', 'preset', 'rename', 'reduce', 'bake']);
    for (const op of ['convert', 'pose', 'inspect'] as const) expect(prepareDocEdit(op, {})).toBeNull();
    const bad: [BatchOp, OpOptions][] = [
      ['speed', { factor: 0 }],
      ['speed', {}],
      ['trim', { from: 40, to: 10 }],
      ['shift', { by: 1.5 }],
      ['preset', { curve: 'wobbly' }],
      ['rename', {}],
    ];
    for (const [op, o] of bad) expect(() => prepareDocEdit(op, o), `${op} ${JSON.stringify(o)}`).toThrow(OpOptionError);
  });
});
