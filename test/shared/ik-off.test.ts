// Where display/IK keys turn IK bones off (ikOffSpans) and the notes inspect and the File panel print for it
// (ikOffNotes). Keys and expected spans written by hand; the rule is the preview's (a key that does not name an
// IK bone leaves it as it was).
import { describe, expect, it } from 'vitest';
import { buildTracks, emptyVmd, encodeIkRecord, ikBlockFromRecords, ikOffNotes, ikOffSpans, withBlocks } from '../../shared/vmd';

const key = (frame: number, iks: [string, number][]) => encodeIkRecord({ frame, visible: 1, iks: iks.map(([name, enabled]) => ({ name, enabled })) });

describe('IK off spans and notes', () => {
  // 左足ＩＫ off 5–9 and from 20; 髪IK off from 5 (key 10 does not name it: still off); 右足IK on throughout.
  const doc = withBlocks(emptyVmd(), {
    ik: ikBlockFromRecords([key(20, [['左足ＩＫ', 0]]), key(0, [['左足ＩＫ', 1], ['右足IK', 1]]), key(5, [['左足ＩＫ', 0], ['髪IK', 0]]), key(10, [['左足ＩＫ', 1]])]),
  });
  const tracks = buildTracks(doc);

  it('spans in frame order, whatever the file order; a key not naming a bone keeps its state', () => {
    expect(ikOffSpans(doc.ik, tracks)).toEqual([
      { name: '左足ＩＫ', spans: [[5, 9], [20, null]] },
      { name: '髪IK', spans: [[5, null]] },
    ]);
  });

  it('notes: leg IK apart (full- or half-width), one open span as "from frame", several ending at the last frame', () => {
    expect(ikOffNotes(ikOffSpans(doc.ik, tracks), 30).map((n) => [n.code, n.message])).toEqual([
      ['N_LEG_IK_OFF', 'leg IK off at frames 5–9, 20–30 (FK legs): 左足ＩＫ'],
      ['N_IK_OFF_FROM', 'IK off from frame 5: 髪IK'],
    ]);
    // Bones off over the same frames share a note; a half-width leg IK is a leg IK.
    expect(ikOffNotes([{ name: '右足IK', spans: [[0, null]] }, { name: '左つま先ＩＫ', spans: [[0, null]] }], 0)).toEqual([
      { code: 'N_LEG_IK_OFF_FROM', message: 'leg IK off from frame 0 (FK legs): 右足IK, 左つま先ＩＫ', params: { from: 0, names: '右足IK, 左つま先ＩＫ' } },
    ]);
  });
});
