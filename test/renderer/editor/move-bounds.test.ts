// New-user pass nuchaos, finding 9: a key drag released over the document tabs (left of the timeline) ended in
// "Cannot move keys before frame 0 — A key would move to frame -2". The drag now stops at frame 0 (as MMD's
// does): its move is clamped to what keeps every selected key at frame 0 or later.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clampMove, moveBounds } from '../../../renderer/src/editor/move-bounds';
import { readVmd } from '../../../shared/vmd';
import { MAX_FRAME, moveDiff, RecordSet } from '../../../shared/key-edits';
import { buildTracks } from '../../../shared/vmd/tracks';
import { corpusDir } from '../../helpers/corpus';

const bytes = new Uint8Array(readFileSync(path.join(corpusDir, 'mmd-viewer-js/vmd/wavefile_v2.vmd')));
const r = readVmd(bytes);
if (!r.ok) throw new Error(r.error.message);
const doc = r.value;
const tracks = buildTracks(doc);
/** Bone record i's frame, read from the bytes (records of 111 bytes after the count at 50, frame at 15). */
const frameInFile = (i: number) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(54 + 111 * i + 15, true);

describe('the move a key drag may make', () => {
  it('no key before frame 0: the earliest selected key lands on 0 at most; a clamped move is not refused', () => {
    // Three keys well apart in the file, none at frame 0; the earliest decides.
    const later = Array.from({ length: doc.bone.count }, (_, i) => i).filter((i) => frameInFile(i) > 30);
    const picked = [later[0], later[Math.floor(later.length / 2)], later[later.length - 1]];
    const frames = picked.map(frameInFile);
    const earliest = Math.min(...frames), latest = Math.max(...frames);
    expect(earliest).toBeGreaterThan(0);
    const sets = { bone: RecordSet.of(picked) };
    const b = moveBounds(doc, sets);
    expect(b).toEqual({ min: -earliest, max: MAX_FRAME - latest });
    // The pointer went far left (over the tabs): the move is clamped, and that move is one the editor makes.
    const far = -(earliest + 40);
    expect(moveDiff(doc, tracks, sets, far).ok).toBe(false);
    expect(clampMove(far, b)).toBe(-earliest);
    expect(moveDiff(doc, tracks, sets, clampMove(far, b)).ok).toBe(true);
    // Within the bounds a move is as dragged.
    expect(clampMove(7, b)).toBe(7);
    expect(clampMove(-1, b)).toBe(-1);
  });

  it('a key at frame 0 selected: it does not move left at all', () => {
    const first = Array.from({ length: doc.bone.count }, (_, i) => i).find((i) => frameInFile(i) === 0)!;
    expect(first).toBeGreaterThanOrEqual(0);
    const b = moveBounds(doc, { bone: RecordSet.of([first]) });
    expect(clampMove(-25, b)).toBe(0);
  });
});
