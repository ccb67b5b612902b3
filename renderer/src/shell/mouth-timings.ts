/**
 * Import timings… (the morph panel's lip-sync row; Edit → Import Mouth Timings…): a timing list or a Julius/HTK .lab
 * file picked, read (readTimingFile), decoded and parsed (shared/key-edits/mouth-timings.ts) and held in the lip-sync
 * store as a preview the mode's row shows (how many keys, on which morphs, over which frames; or the bad line); Apply
 * keys it on the shown actor's motion at the mode's Weight with the tap mode's own key-making (keyMouthTimings), one
 * undo step. A .lab file's times are taken at MMD's 30 fps.
 */
import { decodeTimingText, findMouthShapes, keyMouthTimings, mouthTimingKeys, MOUTH_SHAPE_LABEL, parseMouthTimings, VOWELS, type MorphKeyEntry, type MouthShape } from '../../../shared/key-edits';
import { buildTracks } from '../../../shared/vmd/tracks';
import { emptyVmd } from '../../../shared/vmd/vmd-build';
import { useApi } from '../api';
import { useHistoryStore } from '../stores/history';
import { useLipSyncStore } from '../stores/lip-sync';
import { useNotifyStore } from '../stores/notify';
import { usePreviewStore } from '../stores/preview';
import { useSceneStore } from '../stores/scene';
import { useSettingsStore } from '../stores/settings';
import { useWorkspaceStore } from '../stores/workspace';
import { readyFaceDocument } from './app-actions';
import { pickPath } from './file-dialog';

/** Frames a second a .lab file's times are keyed at: MMD's. */
export const TIMING_FPS = 30;

/** Asks for a timing file and previews it (importTimingFile). False when none was chosen or it could not be read. */
export async function importMouthTimings(): Promise<boolean> {
  const settings = useSettingsStore();
  const picked = await pickPath({ mode: 'open', title: settings.t('lipSync.importDialog'), filter: 'timings' });
  return picked ? importTimingFile(picked.path) : false;
}

/**
 * Reads the timing file at `path` and shows its preview in the lip-sync row (the mode turns on): its timings, or
 * the line that is not one. False when it could not be read (said in a notice) or holds a bad line.
 */
export async function importTimingFile(path: string): Promise<boolean> {
  const r = await useApi().readTimingFile(path);
  if (!r.ok) {
    useNotifyStore().error(r.error);
    return false;
  }
  const result = parseMouthTimings(decodeTimingText(r.value.bytes), r.value.name, TIMING_FPS);
  useLipSyncStore().setPending({ path, name: r.value.name, result });
  return result.ok;
}

/** The shown model's mouth-shape morphs, as the tap mode finds them. */
function shapes(): Partial<Record<MouthShape, string>> {
  return findMouthShapes(usePreviewStore().modelOutline?.morphs ?? []).found;
}

/** The motion Apply keys (the shown actor's: with the camera document active, that actor's), as it stands. */
function targetTracks() {
  const scene = useSceneStore(), ws = useWorkspaceStore();
  const id = scene.active?.kind === 'camera' ? scene.shownActorId : ws.activeId;
  return ws.get(id)?.tracks ?? null;
}

export interface TimingPreview {
  timings: number;
  keys: number;
  from: number;
  to: number;
  /** The model's morphs the keys go on, by their names. */
  names: string[];
  /** The vowels the model lacks, and how many timings close the mouth for them. */
  missing: string[];
  closedForMissing: number;
}

/** What Apply would key now (the pending file, the shown model, the Weight), or null with nothing pending or nothing to key. */
export function timingPreview(): TimingPreview | null {
  const ls = useLipSyncStore();
  const p = ls.pending;
  if (!p?.result.ok || !p.result.value.timings.length) return null;
  const found = shapes();
  if (!Object.keys(found).length) return null;
  const timings = p.result.value.timings;
  const tracks = targetTracks();
  // No motion yet: Apply starts one, whose tracks are empty — the same count as tracks with no mouth key.
  const entries: MorphKeyEntry[] = mouthTimingKeys(tracks ?? buildTracks(emptyVmd()), timings, found, ls.weight);
  const missing = VOWELS.filter((v) => !found[v]);
  return {
    timings: timings.length,
    keys: entries.length,
    from: timings[0].frame,
    to: timings[timings.length - 1].frame,
    names: Object.values(found),
    missing: missing.map((v) => MOUTH_SHAPE_LABEL[v]),
    closedForMissing: timings.filter((t) => t.shape !== 'closed' && !found[t.shape]).length,
  };
}


/** Apply: the pending timings keyed on the shown actor's motion at the Weight, one undo step; the preview closes. */
export function applyMouthTimings(): boolean {
  const ls = useLipSyncStore();
  const p = ls.pending;
  if (!p?.result.ok) return false;
  const found = shapes();
  if (!Object.keys(found).length) {
    useNotifyStore().warning({ key: 'lipSync.none' });
    return false;
  }
  if (!readyFaceDocument()) return false;
  const timings = p.result.value.timings;
  let keys = 0;
  const r = useHistoryStore().run((doc, tracks) => {
    const out = keyMouthTimings(doc, tracks, timings, found, ls.weight);
    if (out.ok) keys = out.value.records.length;
    return out;
  });
  if (!r) return false;
  ls.setPending(null);
  useNotifyStore().success({ key: 'lipSync.imported', params: { keys, file: p.name, from: timings[0].frame, to: timings[timings.length - 1].frame } });
  return true;
}
