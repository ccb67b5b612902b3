/**
 * Whole-selection edits at 100,000 and 600,000 keys (issue 31), on the engine the editor runs: per edit,
 * the whole work (what the slices do in all) and the longest piece of it that runs without a break on the
 * main thread (the longest step between two yields of the sliced forms, or the whole edit where it is not
 * sliced: select-all, the move's check, delete), and what its undo step keeps. Medians of 3; reports numbers, asserts nothing.
 * Mirror is also timed as it ran before it was sliced (at once, keeping the bone block before it).
 * The page's heap and frame gaps at 600,000 keys are the e2e test's (test/e2e/big-edit.e2e.test.ts).
 */
import {
  applyDiffSteps, curvesDiffSteps, deleteRecords, diffBytes, diffDocuments, EDIT_KINDS, mirrorDiffSteps, moveDiff, RecordSet, revertDiff, shiftTracksSteps, tracksAfterSteps,
  type EditDiff, type EditKind, type RecordsByKind, type Steps,
} from '../../shared/key-edits';
import { mirror } from '../../shared/motion-ops';
import { buildBoneInterpolation, buildTracks, emptyVmd, encodeBoneRecord, fixedBlock, nameField, BONE, type MotionTracks, type VmdDocument } from '../../shared/vmd';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A motion of `bones` bones × `perBone` keys, frame-major like a dance. */
function motion(bones: number, perBone: number): VmdDocument {
  const ip = buildBoneInterpolation([[20, 20, 107, 107], [20, 20, 107, 107], [64, 0, 64, 127], [90, 10, 30, 117]]);
  const recs = new Uint8Array(bones * perBone * BONE.SIZE);
  const v = new DataView(recs.buffer);
  let o = 0;
  for (let i = 0; i < perBone; i++) {
    for (let b = 0; b < bones; b++, o += BONE.SIZE) {
      // A third of the bones on the left (左), a third on the right (右): what Mirror swaps.
      const side = ['左', '右', ''][b % 3];
      if (i === 0) recs.set(encodeBoneRecord({ name: nameField(`${side}bone${b}`, 15, 'bone'), frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1], interpolation: ip }), o);
      else recs.copyWithin(o, b * BONE.SIZE, (b + 1) * BONE.SIZE);
      v.setUint32(o + BONE.FRAME, i * 3, true);
      v.setFloat32(o + BONE.POSITION, Math.sin(i * 0.1 + b), true);
    }
  }
  return { ...emptyVmd('bench'), bone: fixedBlock('bone', recs) };
}

/** Runs steps to the end; returns the result, the whole time and the longest step (ms). */
function timedSteps<T>(steps: Steps<T>): { value: T; total: number; longest: number } {
  const t0 = performance.now();
  let longest = 0;
  for (;;) {
    const s0 = performance.now();
    const r = steps.next();
    longest = Math.max(longest, performance.now() - s0);
    if (r.done) return { value: r.value, total: performance.now() - t0, longest };
  }
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

export function benchEdits(): void {
  console.log('\nWhole-selection edits (editor engine; total / longest uninterrupted piece, median of 3; undo keeps)');
  for (const [bones, perBone] of [[100, 1000], [100, 6000]] as const) {
    const keys = bones * perBone;
    const doc = motion(bones, perBone);
    const tracks = buildTracks(doc);
    const counts = Object.fromEntries(EDIT_KINDS.map((k) => [k, doc[k].count])) as Record<EditKind, number>;
    const label = `${(keys / 1000).toFixed(0)}k keys`;
    const rows: Record<string, { total: number[]; longest: number[]; keeps: number }> = {};
    const add = (name: string, total: number, longest: number, keeps = 0) => {
      const r = (rows[name] ??= { total: [], longest: [], keeps });
      r.total.push(total);
      r.longest.push(longest);
    };
    /**
     * A diff made (its time in `made`) applied and the tracks brought along, then undone and redone the same
     * way: a row for the edit (made + apply + tracks, with what its undo step keeps), one for its undo and,
     * when `redoName` is given, one for its redo (apply + tracks from the undone document).
     */
    const applyAndUndo = (name: string, undoName: string, made: { total: number; longest: number }, d: EditDiff, tracksSteps: (t: MotionTracks, doc: VmdDocument, d: EditDiff) => Steps<MotionTracks | null>, redoName?: string) => {
      const applied = timedSteps(applyDiffSteps(doc, d, 'apply'));
      const tr = timedSteps(tracksSteps(tracks, applied.value, d));
      add(name, made.total + applied.total + tr.total, Math.max(made.longest, applied.longest, tr.longest), diffBytes(d));
      const undo = timedSteps(applyDiffSteps(applied.value, d, 'revert'));
      const undoTr = timedSteps(tracksSteps(tr.value!, undo.value, d));
      add(undoName, undo.total + undoTr.total, Math.max(undo.longest, undoTr.longest));
      if (!redoName) return;
      const redo = timedSteps(applyDiffSteps(undo.value, d, 'apply'));
      const redoTr = timedSteps(tracksSteps(undoTr.value!, redo.value, d));
      add(redoName, redo.total + redoTr.total, Math.max(redo.longest, redoTr.longest));
    };
    for (let run = 0; run < 3; run++) {
      const sel = timed(() => {
        const s: RecordsByKind = {};
        for (const k of EDIT_KINDS) s[k] = RecordSet.all(counts[k]);
        return s;
      });
      add('select all (bit set)', sel.ms, sel.ms);
      const diff = timed(() => moveDiff(doc, tracks, sel.value, 5));
      if (!diff.value.ok) throw new Error(diff.value.error.message);
      applyAndUndo('move all 5 frames (check + apply + tracks)', 'undo of the move', { total: diff.ms, longest: diff.ms }, diff.value.value, shiftTracksSteps);
      const del = timed(() => deleteRecords(doc, sel.value));
      const deleted = del.value;
      if (!deleted.ok) throw new Error(deleted.error.message);
      add('delete all', del.ms, del.ms, diffBytes(deleted.value.diff));
      // The step keeps the tracks of the motion before it (workspace DocumentStep.kept): no rebuild on undo.
      const back = timed(() => revertDiff(deleted.value.doc, deleted.value.diff));
      add('undo of delete all (tracks kept by the step)', back.ms, back.ms);
      const records = sel.value.bone!.toArray();
      const made = timedSteps(curvesDiffSteps(doc, 'bone', records, { 0: [53, 0, 127, 127] }));
      const pd = made.value;
      if (!pd.ok) throw new Error(pd.error.message);
      applyAndUndo('curve preset on all (diff + apply + tracks)', 'undo of the preset', made, pd.value, tracksAfterSteps, 'redo of the preset (curves written again)');
      // A curve-handle drag with every key selected: the drag itself writes nothing (the pane draws the
      // curve); its release is one packed curve diff on channel X's (x1, y1), made, applied and put in the tracks.
      const dragMade = timedSteps(curvesDiffSteps(doc, 'bone', records, { 0: [60, 10, 107, 107] }));
      const dd = dragMade.value;
      if (!dd.ok) throw new Error(dd.error.message);
      applyAndUndo('curve-handle drag release (diff + apply + tracks)', 'undo of the curve-handle drag', dragMade, dd.value, tracksAfterSteps, 'redo of the curve-handle drag (curves written again)');
      // Mirror the whole motion: as it ran before (the batch edit, a whole-block diff and buildTracks, at
      // once), and as the editor runs it now (a diff of no bytes, mirrored and its tracks updated in steps).
      const old = timed(() => {
        const r = mirror(doc);
        if (!r.ok) throw new Error('mirror refused');
        const step = diffDocuments(doc, r.value.doc, 'mirror');
        buildTracks(r.value.doc);
        return step;
      });
      add('Mirror, at once as before (edit + diff + buildTracks)', old.ms, old.ms, diffBytes(old.value.diff));
      const mm = timedSteps(mirrorDiffSteps(doc, {}, 'mirror'));
      applyAndUndo('Mirror whole motion (scan + mirror + tracks)', 'undo of Mirror (mirror again + tracks)', mm, mm.value.diff, tracksAfterSteps);
    }
    console.log(`  ${label} (${mb(doc.bone.bytes.length)} of bone records):`);
    for (const [name, r] of Object.entries(rows)) {
      console.log(`    ${name.padEnd(54)} ${median(r.total).toFixed(1).padStart(8)} ms total, ${median(r.longest).toFixed(1).padStart(8)} ms longest piece, undo keeps ${mb(r.keeps)}`);
    }
  }
}
