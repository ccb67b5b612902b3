// Whole-motion edits applied to an open document (shared/batch/doc-edits.ts + diffDocuments): over
// every corpus VMD, the undo step made from the edit's result redoes to exactly the bytes the edit
// wrote and undoes to exactly the original file; options are checked as the CLI checks them.
import { describe, expect, it } from 'vitest';
import { readVmd, writeVmd, withBlocks, emptyVmd } from '../../shared/vmd';
import { applyDiff, diffBytes, diffDocuments, isEmptyDiff, revertDiff } from '../../shared/key-edits';
import { DOC_EDIT_OPS, prepareDocEdit, type DocEdit, type OpOptions } from '../../shared/batch/doc-edits';
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

function mustPrepare(op: BatchOp, o: OpOptions): DocEdit {
  const p = prepareDocEdit(op, o);
  if (!p?.ok) throw new Error(`${op}: ${p ? p.error.message : 'not a document edit'}`);
  return p.value;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe.skipIf(!corpusPresent)('whole-motion edits as one undo step', () => {
  const files = corpusFiles('.vmd');
  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  for (const [op, o] of EDITS) {
    it(`${op} ${JSON.stringify(o)}: redo gives the edit's bytes, undo the file's, on every corpus VMD`, () => {
      const edit = mustPrepare(op, o);
      let changed = 0;
      for (const f of files) {
        const bytes = readCorpus(f);
        const r = readVmd(bytes);
        if (!r.ok) throw new Error(r.error.message);
        const out = edit(r.value);
        if (!out.ok) continue; // e.g. trim of a motion shorter than the range: the CLI reports it too
        const step = diffDocuments(r.value, out.value.doc, op);
        expect(same(writeVmd(step.doc), writeVmd(out.value.doc)), `${relName(f)} redo`).toBe(true);
        expect(same(writeVmd(applyDiff(r.value, step.diff)), writeVmd(out.value.doc))).toBe(true);
        expect(same(writeVmd(revertDiff(step.doc, step.diff)), bytes), `${relName(f)} undo`).toBe(true);
        // The step keeps changed records only: never more than the two versions of every record.
        expect(diffBytes(step.diff)).toBeLessThanOrEqual(bytes.length + writeVmd(out.value.doc).length);
        if (!isEmptyDiff(step.diff)) changed++;
      }
      expect(changed, 'files the edit changed').toBeGreaterThan(0);
    });
  }

  it('an unchanged document gives an empty step; a header change is a step that undoes and redoes to exact bytes', () => {
    const bytes = readCorpus('mc-mmd-rust/default_anim/walk.vmd');
    const r = readVmd(bytes);
    if (!r.ok) throw new Error(r.error.message);
    expect(isEmptyDiff(diffDocuments(r.value, withBlocks(r.value, {}), 'none').diff)).toBe(true);
    // Retargeting names the target model in the header: the model name alone, then with the bone block.
    const renamed = { ...r.value, modelName: emptyVmd('other').modelName };
    const step = diffDocuments(r.value, renamed, 'model');
    expect(isEmptyDiff(step.diff)).toBe(false);
    expect(step.diff.blocks).toHaveLength(0);
    expect(same(writeVmd(applyDiff(r.value, step.diff)), writeVmd(renamed))).toBe(true);
    expect(same(writeVmd(revertDiff(renamed, step.diff)), bytes)).toBe(true);
    expect(diffBytes(step.diff)).toBe(2 * (r.value.header.length + r.value.modelName.length + r.value.trailing.length));
    const both = { ...withBlocks(r.value, { bone: emptyVmd().bone }), modelName: renamed.modelName };
    const s2 = diffDocuments(r.value, both, 'both');
    expect(s2.diff.blocks.map((b) => b.kind)).toEqual(['bone']);
    const redone = writeVmd(applyDiff(r.value, s2.diff));
    expect(same(redone, writeVmd(both))).toBe(true);
    expect(same(writeVmd(revertDiff(both, s2.diff)), bytes)).toBe(true);
    expect(readVmd(redone).ok && (readVmd(redone) as { ok: true; value: { modelName: Uint8Array } }).value.modelName).toEqual(renamed.modelName);
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
    for (const [op, o] of bad) expect(prepareDocEdit(op, o), `${op} ${JSON.stringify(o)}`).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
  });

  it('returns a bad option as a value naming the option and the problem, with the CLI wording as its message', () => {
    const cases: [BatchOp, OpOptions, object][] = [
      ['speed', { factor: 0 }, { option: 'factor', problem: 'positive', message: '--factor must be greater than 0, got 0' }],
      ['speed', {}, { option: 'factor', problem: 'required', message: '--factor is required' }],
      ['speed', { factor: 2, refit: true, 'pos-tol': 'x' }, { option: 'pos-tol', problem: 'number', message: '--pos-tol must be a number, got "x"' }],
      ['trim', { from: 40, to: 10 }, { option: 'to', problem: 'order', params: { value: 10, other: 'from', min: 40 }, message: '--to (10) must not be before --from (40)' }],
      ['trim', { from: -1 }, { option: 'from', problem: 'min', message: '--from must be at least 0, got "-1"' }],
      ['shift', { by: 1.5 }, { option: 'by', problem: 'integer', message: '--by must be a whole number, got "1.5"' }],
      ['mirror', { 'no-light': 'maybe' }, { option: 'no-light', problem: 'boolean', message: '--no-light must be true or false, got "maybe"' }],
      ['preset', { curve: 'wobbly' }, { option: 'curve', problem: 'curveUnknown', params: { value: 'wobbly' } }],
      ['preset', { curve: '0,0,128,127' }, { option: 'curve', problem: 'curveRange', message: 'curve values must be in 0..127, got "0,0,128,127"' }],
      ['preset', { curve: 'linear', channels: 'x,w' }, { option: 'channels', problem: 'channelUnknown', params: { value: 'w' }, message: 'unknown bone channel "w": use x, y, z, r' }],
      ['preset', { curve: 'linear', 'camera-channels': ',' }, { option: 'camera-channels', problem: 'channelsNone', message: 'no camera channels given' }],
      ['preset', { curve: 'linear', bones: '/(/' }, { option: 'bones', problem: 'pattern', params: { value: '/(/' } }],
      ['reduce', { bones: '/(/' }, { option: 'bones', problem: 'pattern', params: { value: '/(/' } }],
      ['rename', { map: 'm.csv', mapText: 'old,new\na\n' }, { option: 'map', problem: 'mapColumns', params: { line: 2, columns: 1 }, message: 'mapping line 2: expected two columns old,new, got 1 column' }],
      ['rename', { map: 'm.json', mapText: '{"a": 1}' }, { option: 'map', problem: 'mapEntry', params: { entry: 1 }, message: 'mapping: entry 1 must map a name to a string' }],
      ['rename', { map: 'm.txt', mapText: '' }, { option: 'map', problem: 'mapFormat', message: '--map must name a .csv or .json file' }],
      ['reduce', { from: 5, to: 2 }, { option: 'to', problem: 'order' }],
    ];
    for (const [op, o, error] of cases) {
      const p = prepareDocEdit(op, o);
      expect(p, `${op} ${JSON.stringify(o)}`).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT', ...error } });
    }
  });
});
