/**
 * ↑/↓ in the timeline (timeline-rows.ts neighbourTrack): the active track moves to the track row above or
 * below over the rows as listed, passing group rows, a collapsed group's tracks (not listed) and the camera
 * group's add row; it stays at either end, and starts at the first (↓) or last (↑) row with none active.
 */
import { describe, expect, it } from 'vitest';
import { neighbourRow, neighbourTrack, type Row } from '../../../renderer/src/editor/timeline-rows';

const group = (id: string, collapsed = false): Row => ({ type: 'group', id, label: id, count: 0, collapsed, members: [] });
const track = (kind: 'bone' | 'morph' | 'camera' | 'ik', t: number, extra: Partial<Row> = {}): Row =>
  ({ type: 'track', id: `${kind}:${t}`, kind, track: t, name: `${kind}${t}`, group: 'g', keys: 1, ...extra }) as Row;

describe('neighbourTrack', () => {
  // 表示・IK, then two bone groups (the second collapsed: its tracks are not listed), morphs, the camera add row.
  const rows: Row[] = [
    group('ik'), track('ik', 0),
    group('center'), track('bone', 3), track('bone', 0),
    group('arms', true),
    group('morphs'), track('morph', 1),
    group('camera'), track('camera', 0, { add: 'camera' }),
  ];

  it('moves down and up through the listed tracks, over group rows', () => {
    expect(neighbourTrack(rows, { kind: 'ik', track: 0 }, 1)).toEqual({ kind: 'bone', track: 3 });
    expect(neighbourTrack(rows, { kind: 'bone', track: 3 }, 1)).toEqual({ kind: 'bone', track: 0 });
    // The collapsed group is passed over: from the last センター row straight to the morph.
    expect(neighbourTrack(rows, { kind: 'bone', track: 0 }, 1)).toEqual({ kind: 'morph', track: 1 });
    expect(neighbourTrack(rows, { kind: 'morph', track: 1 }, -1)).toEqual({ kind: 'bone', track: 0 });
    expect(neighbourTrack(rows, { kind: 'bone', track: 3 }, -1)).toEqual({ kind: 'ik', track: 0 });
  });

  it('stays at either end (the add row is not a track to make active)', () => {
    expect(neighbourTrack(rows, { kind: 'morph', track: 1 }, 1)).toBeNull();
    expect(neighbourTrack(rows, { kind: 'ik', track: 0 }, -1)).toBeNull();
  });

  it('with no active track (or one not listed), ↓ takes the first track and ↑ the last', () => {
    expect(neighbourTrack(rows, null, 1)).toEqual({ kind: 'ik', track: 0 });
    expect(neighbourTrack(rows, null, -1)).toEqual({ kind: 'morph', track: 1 });
    expect(neighbourTrack(rows, { kind: 'bone', track: 7 }, 1)).toEqual({ kind: 'ik', track: 0 });
    expect(neighbourTrack([group('ik')], null, 1)).toBeNull();
  });
});

describe('neighbourRow: a scene\'s rows, the actor\'s and then the camera document\'s', () => {
  // Actor (scene entry 1) rows, then the camera document's (entry 2) group: camera, light, self-shadow.
  const rows: Row[] = [
    group('center'), track('bone', 0, { doc: 1 }), track('bone', 1, { doc: 1 }),
    group('camera'), track('camera', 0, { doc: 2 }), ({ ...track('camera', 0, { doc: 2 }), kind: 'light', id: 'light' }) as Row,
  ];

  it('goes on from the actor\'s last row to the camera row, and back from the camera row to the actor\'s', () => {
    expect(neighbourRow(rows, 1, { kind: 'bone', track: 1 }, 1)).toMatchObject({ kind: 'camera', track: 0, doc: 2 });
    expect(neighbourRow(rows, 2, { kind: 'camera', track: 0 }, 1)).toMatchObject({ kind: 'light', track: 0, doc: 2 });
    expect(neighbourRow(rows, 2, { kind: 'camera', track: 0 }, -1)).toMatchObject({ kind: 'bone', track: 1, doc: 1 });
    // The active track is looked for among the active document's rows only.
    expect(neighbourRow(rows, 1, { kind: 'camera', track: 0 }, 1)).toMatchObject({ kind: 'bone', track: 0, doc: 1 });
  });
});

