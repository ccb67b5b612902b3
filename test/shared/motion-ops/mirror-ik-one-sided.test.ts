// Mirror and the IK switches of 表示・IK keys on a model with a one-sided IK bone (Gene_light: 右腕xcIK, an arm IK
// on the right only; the model has no 左腕xcIK). MMD's rule for bones holds for the switch names: a name whose
// other side the model lacks stays as it is. Before, every mirror (mirror paste, Whole Motion mirror, the CLI's
// `mirror --model`) renamed 右腕xcIK → 左腕xcIK, a switch for a bone Gene does not have, and the key lost the
// model's own one. The leg IKs, which Gene has on both sides, still swap.
// Expected keys are written out by hand from the keys below (左/右 swapped in the leg names, 右腕xcIK kept,
// each switch's state and place in the record unchanged); records are read field by field here.
import { describe, expect, it } from 'vitest';
import { applyDiff, copyKeys, drain, mirrorDiffSteps, mirrorPasteKeys, revertDiff } from '../../../shared/key-edits';
import { mirror } from '../../../shared/motion-ops';
import { buildTracks, decodeName, encodeIkRecord, ikBlockFromRecords, withBlocks, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { corpusModel, corpusMotion, corpusPresent } from '../../helpers/corpus';
import { accepted } from '../../helpers/key-edit';

type IkKey = { frame: number; visible: number; iks: [string, number][] };

/** The display/IK keys of a document, read field by field: frame u32 | visible u8 | n u32 | n × (name 20 | on u8). */
function ikKeys(doc: VmdDocument): IkKey[] {
  const out: IkKey[] = [];
  const b = doc.ik.bytes, v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let o = 0; o < b.length; ) {
    const frame = v.getUint32(o, true), visible = b[o + 4], n = v.getUint32(o + 5, true);
    const iks: [string, number][] = [];
    for (let j = 0; j < n; j++) iks.push([decodeName(b, o + 9 + 21 * j, 20), b[o + 9 + 21 * j + 20]]);
    out.push({ frame, visible, iks });
    o += 9 + 21 * n;
  }
  return out;
}

const KEYS: IkKey[] = [
  { frame: 0, visible: 1, iks: [['右足ＩＫ', 1], ['右つま先ＩＫ', 1], ['左足ＩＫ', 1], ['左つま先ＩＫ', 1], ['右腕xcIK', 1]] },
  { frame: 10, visible: 1, iks: [['右足ＩＫ', 0], ['右つま先ＩＫ', 1], ['左足ＩＫ', 1], ['左つま先ＩＫ', 1], ['右腕xcIK', 0]] },
];
/** KEYS mirrored on Gene, by hand: the leg names swap sides, 右腕xcIK stays. */
const MIRRORED: IkKey[] = [
  { frame: 0, visible: 1, iks: [['左足ＩＫ', 1], ['左つま先ＩＫ', 1], ['右足ＩＫ', 1], ['右つま先ＩＫ', 1], ['右腕xcIK', 1]] },
  { frame: 10, visible: 1, iks: [['左足ＩＫ', 0], ['左つま先ＩＫ', 1], ['右足ＩＫ', 1], ['右つま先ＩＫ', 1], ['右腕xcIK', 0]] },
];

describe.skipIf(!corpusPresent)('mirror keeps a one-sided IK switch on its model (Gene_light 右腕xcIK)', () => {
  const gene = corpusModel('gene/Gene_light.pmx');
  const bones = gene.bones.map((b) => b.name);
  const stand = corpusMotion('gene/motion/stand.vmd');
  const doc = withBlocks(stand, { ik: ikBlockFromRecords(KEYS.map((k) => encodeIkRecord({ frame: k.frame, visible: k.visible, iks: k.iks.map(([name, enabled]) => ({ name, enabled })) }))) });

  it('the fixture: Gene has 右腕xcIK and both leg IKs, and no 左腕xcIK', () => {
    const iks = gene.bones.filter((b) => b.ik).map((b) => b.name);
    expect(iks).toEqual(expect.arrayContaining(['右腕xcIK', '右足ＩＫ', '左足ＩＫ', '右つま先ＩＫ', '左つま先ＩＫ']));
    expect(bones).not.toContain('左腕xcIK');
    expect(ikKeys(doc)).toEqual(KEYS);
  });

  it('mirror paste of the key at 10 writes the legs swapped and 右腕xcIK as it is', () => {
    const tracks = buildTracks(doc);
    const clip = copyKeys(doc, [{ kind: 'ik', record: 1 }]);
    const r = accepted(mirrorPasteKeys(doc, tracks, clip, 100, 'all', [], bones));
    expect(ikKeys(r.doc)).toEqual([...KEYS, { ...MIRRORED[1], frame: 100 }]);
  });

  it('without a model, mirror paste still swaps every 左/右 (no model to ask)', () => {
    const clip = copyKeys(doc, [{ kind: 'ik', record: 1 }]);
    const r = accepted(mirrorPasteKeys(doc, buildTracks(doc), clip, 100, 'all'));
    expect(ikKeys(r.doc)[2].iks.map(([n]) => n)).toEqual(['左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ', '左腕xcIK']);
  });

  it('the whole-motion mirror (CLI, batch) keeps 右腕xcIK and reports the IK names it swapped', () => {
    const r = mirror(doc, { modelBones: bones });
    if (!r.ok) throw new Error(r.error.message);
    expect(ikKeys(r.value.doc)).toEqual(MIRRORED);
    expect(r.value.report.iksSwapped).toEqual(['右足ＩＫ ⇄ 左足ＩＫ', '右つま先ＩＫ ⇄ 左つま先ＩＫ']);
    // Mirroring twice gives the keys back.
    const back = mirror(r.value.doc, { modelBones: bones });
    if (!back.ok) throw new Error(back.error.message);
    expect(writeVmd(back.value.doc)).toEqual(writeVmd(doc));
  });

  it("the editor's Whole Motion mirror step does the same, and its undo gives the bytes back", () => {
    const step = drain(mirrorDiffSteps(doc, { modelBones: bones }, 'mirror'));
    const after = applyDiff(doc, step.diff);
    expect(ikKeys(after)).toEqual(MIRRORED);
    expect(step.report.iksSwapped).toEqual(['右足ＩＫ ⇄ 左足ＩＫ', '右つま先ＩＫ ⇄ 左つま先ＩＫ']);
    expect(writeVmd(revertDiff(after, step.diff))).toEqual(writeVmd(doc));
  });
});
