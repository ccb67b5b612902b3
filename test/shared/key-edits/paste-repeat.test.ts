/**
 * Paste repeatedly… (new-user pass nupose 5): a blink — three まばたき keys, 0 → 1 → 0 over 6 frames — pasted 3 times
 * every 90 frames from frame 90 as one edit. Keys land at 90, 93, 96, 180, …, 276; the key the motion already had at
 * 93 is replaced (as Paste replaces it), not doubled; a copy shorter apart than the copied keys is refused.
 * The expected frames and weights are worked out by hand from the blink below.
 */
import { describe, expect, it } from 'vitest';
import { MORPH, buildTracks, buildVmd } from '../../../shared/vmd';
import { copyKeys, pasteKeysRepeatedly, repeatPastePlan, revertDiff, type EditOutcome, type KeyEdit } from '../../../shared/key-edits';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';

function blink(): VmdDocument {
  return buildVmd({
    morphs: [
      { name: 'まばたき', frame: 0, weight: 0 },
      { name: 'まばたき', frame: 3, weight: 1 },
      { name: 'まばたき', frame: 6, weight: 0 },
      { name: 'まばたき', frame: 93, weight: 0.3 },
      { name: '笑い', frame: 0, weight: 0.5 },
    ],
  });
}

function ok<T extends KeyEdit>(o: EditOutcome<T>): T {
  if (!o.ok) throw new Error(o.error.message);
  return o.value;
}

/** (frame, weight) of every key of `name`, by frame. */
function keysOf(d: VmdDocument, name: string): [number, number][] {
  const t = buildTracks(d);
  const tr = t.morphs.index.get(name)!;
  const out: [number, number][] = [];
  for (let k = t.morphs.start[tr]; k < t.morphs.start[tr + 1]; k++) {
    const r = t.morphs.record[k];
    out.push([d.morph.view.getUint32(r * MORPH.SIZE + MORPH.FRAME, true), +d.morph.view.getFloat32(r * MORPH.SIZE + MORPH.WEIGHT, true).toFixed(3)]);
  }
  return out;
}

describe('Paste repeatedly', () => {
  it('pastes a blink 3 times every 90 frames as one edit, replacing the key already at 93', () => {
    const d = blink();
    const clip = copyKeys(d, [0, 1, 2].map((record) => ({ kind: 'morph' as const, record })));
    expect(repeatPastePlan(clip, 90, 3, 90)).toEqual({ pastes: 3, keys: 9, first: 90, last: 276, span: 7 });
    const e = ok(pasteKeysRepeatedly(d, buildTracks(d), clip, 90, 3, 90));
    expect(e.diff.label).toBe('paste keys repeatedly');
    expect(keysOf(e.doc, 'まばたき')).toEqual([
      [0, 0], [3, 1], [6, 0],
      [90, 0], [93, 1], [96, 0],
      [180, 0], [183, 1], [186, 0],
      [270, 0], [273, 1], [276, 0],
    ]);
    // 5 records + 9 pasted − the one at 93 replaced in place; 笑い untouched.
    expect(e.doc.morph.count).toBe(13);
    expect(keysOf(e.doc, '笑い')).toEqual([[0, 0.5]]);
    // The pasted keys are the ones returned (the selection after the paste).
    expect(e.records.length).toBe(9);
    // One edit: reverting its diff gives the motion back.
    expect(Buffer.from(revertDiff(e.doc, e.diff).morph.bytes).equals(Buffer.from(d.morph.bytes))).toBe(true);
  });

  it('refuses copies closer than the copied keys span, and a count below 1', () => {
    const d = blink();
    const clip = copyKeys(d, [0, 1, 2].map((record) => ({ kind: 'morph' as const, record })));
    const close = pasteKeysRepeatedly(d, buildTracks(d), clip, 90, 3, 6);
    expect(close.ok ? null : [close.error.code, close.error.detail]).toEqual(['E_RANGE', { key: 'paste.refusal.every', params: { every: 6, span: 7 } }]);
    const none = pasteKeysRepeatedly(d, buildTracks(d), clip, 90, 0, 90);
    expect(none.ok ? null : none.error.code).toBe('E_RANGE');
    // Exactly the span apart: the copies touch, none overlaps.
    const tight = ok(pasteKeysRepeatedly(d, buildTracks(d), clip, 100, 2, 7));
    expect(keysOf(tight.doc, 'まばたき').slice(4)).toEqual([[100, 0], [103, 1], [106, 0], [107, 0], [110, 1], [113, 0]]);
  });
});
