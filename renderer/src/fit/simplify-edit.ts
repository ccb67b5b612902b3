/**
 * Simplify on selected keys as one pure computation, run by the fitting worker (fit-worker-core.ts)
 * and, where there is no worker, on the main thread (fit-client.ts): the edit (shared/fit/simplify.ts)
 * and how far its result plays from the original over the selected tracks and span (shared/fit/measure.ts,
 * every integer and half frame, as the Whole Motion dialog's Reduce preview does), written into the
 * report's extra figures. The Simplify store (stores/simplify.ts) shows the report and previews the result.
 */
import { measureErrors, recordErrors } from '../../../shared/fit/measure';
import type { FitProgress, Tolerances } from '../../../shared/fit/motion-fit';
import { simplifyKeys, simplifyScope, type SelectedKey, type SimplifyScope } from '../../../shared/fit/simplify';
import type { EditResult } from '../../../shared/edit-core/report';
import { blockFromRecords, emptyBlocks, recordBytes, withBlocks, type VmdDocument } from '../../../shared/vmd/vmd-document';
import { buildTracks, type MotionTracks, type NamedTracks } from '../../../shared/vmd/tracks';

/**
 * `doc` with only these tracks' keys (the others are byte-identical in input and result, so they
 * play 0 apart): measuring the pair plays only what Simplify touched, not every track of the motion.
 */
function onlyTracks(doc: VmdDocument, tracks: MotionTracks, sel: SimplifyScope['tracks']): VmdDocument {
  const pick = (t: NamedTracks, names: ReadonlySet<string>, kind: 'bone' | 'morph') => {
    const recs: Uint8Array[] = [];
    for (const name of names) {
      const i = t.index.get(name);
      if (i !== undefined) for (let k = t.start[i]; k < t.start[i + 1]; k++) recs.push(recordBytes(doc[kind], t.record[k]));
    }
    return blockFromRecords(kind, recs);
  };
  return withBlocks(doc, { ...emptyBlocks(), bone: pick(tracks.bones, sel.bones, 'bone'), morph: pick(tracks.morphs, sel.morphs, 'morph'), camera: sel.camera ? doc.camera : emptyBlocks().camera });
}

/**
 * Simplify on `keys` with these tolerances, its report's extra carrying keysBefore/keysAfter (bone +
 * morph + camera keys of the whole motion) and the largest errors played back over the selected
 * tracks and span (outside it nothing changes). `progress` hears the tracks refitted.
 */
export function simplifyEdit(doc: VmdDocument, keys: readonly SelectedKey[], tol: Partial<Tolerances>, progress?: FitProgress): EditResult {
  const out = simplifyKeys(doc, keys, tol, progress);
  if (!out.ok) return out;
  const scope = simplifyScope(doc, keys)!; // simplifyKeys succeeded: the keys have a scope
  recordErrors(out.value.report.extra, measureErrors(onlyTracks(doc, buildTracks(doc), scope.tracks), onlyTracks(out.value.doc, buildTracks(out.value.doc), scope.tracks), { halfFrames: true, from: scope.from, to: scope.to }), true);
  return out;
}
