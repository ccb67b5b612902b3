// Where display/IK keys turn IK bones off (ikOffSpans) and the notes inspect and the File panel print for it
// (ikOffNotes). Keys and expected spans written by hand; the rule is the preview's (a key that does not name an
// IK bone leaves it as it was).
import { describe, expect, it } from 'vitest';
import { buildTracks, displayOffNotes, displayOffSpans, emptyVmd, encodeIkRecord, ikBlockFromRecords, ikOffNotes, ikOffSpans, summaryNotes, withBlocks } from '../../shared/vmd';

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

  it('display off: the frames the model is hidden in, in frame order; of two keys at one frame the first in the file rules', () => {
    const show = (frame: number, visible: number) => encodeIkRecord({ frame, visible, iks: [] });
    // Hidden 10–19 (shown again at 20); at 30 a key hides it and a second key at 30 shows it: the first in the file
    // is used (as for every track), so hidden 30–34 (shown at 35); hidden from 40 on.
    const hid = withBlocks(emptyVmd(), { ik: ikBlockFromRecords([show(40, 0), show(0, 1), show(10, 0), show(20, 1), show(30, 0), show(30, 1), show(35, 1)]) });
    const t = buildTracks(hid);
    expect(displayOffSpans(hid.ik, t)).toEqual([[10, 19], [30, 34], [40, null]]);
    expect(displayOffNotes(displayOffSpans(hid.ik, t), 60)).toEqual([{ code: 'N_HIDDEN', message: 'model hidden at frames 10–19, 30–34, 40–60 (display off)', params: { frames: '10–19, 30–34, 40–60' } }]);
    expect(displayOffNotes([[120, null]], 300)).toEqual([{ code: 'N_HIDDEN_FROM', message: 'model hidden from frame 120 (display off)', params: { from: 120 } }]);
    // Never hidden (the IK keys above all show the model): no span, no note.
    expect(displayOffSpans(doc.ik, tracks)).toEqual([]);
    // summaryNotes (inspect, the batch, the File panel) carries it after the IK notes.
    expect(summaryNotes([], t, 0, hid.ik).map((n) => n.code)).toEqual(['N_HIDDEN']);
  });
});

