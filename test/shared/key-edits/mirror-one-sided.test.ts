// Mirror the pose at a frame and mirror paste on a model with one-sided bones (Gene_light: 右肩連 and the
// 右横髪 chain, a cape and side hair on the right only; the model has no 左肩連 or 左横髪*). MMD's rule: a bone
// whose other side the model lacks is left as it is. Before, mirrorPoseAt reset 右肩連 and 右横髪1_1 to the
// mirror of the rest pose and wrote their poses onto 左肩連 / 左横髪1_1, tracks for bones the model lacks.
// The motion is stand.vmd with 右肩連 and 右横髪1_1 posed at frame 60; the expectations come from those
// keys as written here and the mirror rule by hand (position x, rotation y and z negated).
import { describe, expect, it } from 'vitest';
import { blockFromRecords, buildTracks, buildVmd, decodeName, recordsOf, samplePose, withBlocks, BONE, type VmdDocument } from '../../../shared/vmd';
import { copyKeys, mirrorPasteKeys, mirrorPoseAt } from '../../../shared/key-edits';
import { corpusModel, corpusMotion, corpusPresent } from '../../helpers/corpus';
import { accepted } from '../../helpers/key-edit';

const CAPE = { name: '右肩連', frame: 60, position: [0.5, -0.25, 0.125] as [number, number, number], rotation: [0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)] as [number, number, number, number] };
const HAIR = { name: '右横髪1_1', frame: 60, position: [0, 0, 0] as [number, number, number], rotation: [0.3, -0.1, 0.2, Math.sqrt(1 - 0.14)] as [number, number, number, number] };

/** Bone keys of a document as name@frame → record bytes. */
function keys(doc: VmdDocument): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const r of recordsOf(doc.bone)) out.set(`${decodeName(r, BONE.NAME, BONE.NAME_LENGTH)}@${new DataView(r.buffer, r.byteOffset).getUint32(BONE.FRAME, true)}`, r.slice());
  return out;
}
const trackNames = (doc: VmdDocument) => new Set([...keys(doc).keys()].map((k) => k.split('@')[0]));

describe.skipIf(!corpusPresent)('mirror on a model with one-sided bones (Gene_light)', () => {
  const model = corpusModel('gene/Gene_light.pmx').bones.map((b) => b.name);
  const stand = corpusMotion('gene/motion/stand.vmd');
  const extra = buildVmd({ bones: [CAPE, HAIR] });
  const doc = withBlocks(stand, { bone: blockFromRecords('bone', [...recordsOf(stand.bone), ...recordsOf(extra.bone)]) });
  const tracks = buildTracks(doc);
  const before = keys(doc);

  it('the fixture: the model is one-sided there, and the motion has no key for the other side', () => {
    expect(model).toContain('右肩連');
    expect(model).toContain('右横髪1_1');
    expect(model).not.toContain('左肩連');
    expect(model).not.toContain('左横髪1_1');
    expect(trackNames(doc).has('左肩連')).toBe(false);
  });

  it('mirrorPoseAt leaves 右肩連 and 右横髪1_1 as they are and writes no track for a bone the model lacks; 右腕 ⇄ 左腕 still swap', () => {
    const r = accepted(mirrorPoseAt(doc, tracks, 60, undefined, model));
    const after = keys(r.doc);
    expect(after.get('右肩連@60')).toEqual(before.get('右肩連@60'));
    expect(after.get('右横髪1_1@60')).toEqual(before.get('右横髪1_1@60'));
    const added = [...trackNames(r.doc)].filter((n) => !trackNames(doc).has(n));
    expect(added.filter((n) => !model.includes(n))).toEqual([]);
    // A bone with both sides on the model is mirrored: 左腕 takes 右腕's pose with rotation y and z negated.
    const right = samplePose(tracks, 60).bones['右腕'].rotation;
    const left = samplePose(buildTracks(r.doc), 60).bones['左腕'].rotation;
    expect(left).toEqual([right[0], -right[1], -right[2], right[3]]);
  });

  it('mirrorPoseAt on the one-sided bone alone changes nothing and says why', () => {
    const r = mirrorPoseAt(doc, tracks, 60, [tracks.bones.index.get('右肩連')!], model);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.detail).toEqual({ key: 'editor.refusal.noCounterpartOnModel' });
  });

  it('mirror paste writes 左腕 from a copied 右腕 key, and nothing for a copied 右横髪1_1 key', () => {
    const rec = (name: string) => recordsOf(doc.bone).findIndex((x) => decodeName(x, BONE.NAME, BONE.NAME_LENGTH) === name && new DataView(x.buffer, x.byteOffset).getUint32(BONE.FRAME, true) === 60);
    const arm = recordsOf(doc.bone).findIndex((x) => decodeName(x, BONE.NAME, BONE.NAME_LENGTH) === '右腕');
    const clip = copyKeys(doc, [{ kind: 'bone', record: rec('右横髪1_1') }, { kind: 'bone', record: rec('右肩連') }, { kind: 'bone', record: arm }]);
    const r = accepted(mirrorPasteKeys(doc, tracks, clip, 200, 'all', [], model));
    const names = [...keys(r.doc).keys()].filter((k) => !before.has(k)).map((k) => k.split('@')[0]);
    expect(names).toEqual(['左腕']);
    const only = mirrorPasteKeys(doc, tracks, copyKeys(doc, [{ kind: 'bone', record: rec('右横髪1_1') }]), 200, 'all', [], model);
    expect(only.ok).toBe(false);
    if (!only.ok) expect(only.error.detail).toEqual({ key: 'editor.refusal.noCounterpartOnModel' });
  });
});
