/**
 * A scene's layout as autosave keeps it (renderer/src/stores/autosave.ts, kept by the scene store's recoveryLayout):
 * the scene file Save Scene would write now, with one difference: an actor (or the camera) whose document was edited
 * or never saved names that document's recovery copy in its session instead of a path, since the file on disk (if
 * any) does not hold what the window did:
 *
 *   { "actors": [{ "model": "models/miku.pmx", "motion": null, "hidden": false, "recoveryCopy": "3" }, …],
 *     "camera": null, "cameraRecoveryCopy": "5", … }
 *
 * Both are fields an ordinary scene reader keeps as unknown fields (scene-file.ts `extra`), so the copy reads with
 * parseScene. Paths are relative to the scene's own file; an untitled scene's copy is written over
 * RECOVERY_UNTITLED_SCENE, a name with no folder, so every path in it is whole (absolute).
 */
import { ok, type Result } from '../vmd/errors';
import { parseScene, type Scene } from './scene-file';
import { RECOVERY_DOC_ID } from '../ipc/recovery-types';
import type { FileStamp } from '../ipc/file-stamp';

/** The actor's field naming its document's recovery copy (the copy's doc id). */
export const RECOVERY_COPY_FIELD = 'recoveryCopy';
/** The scene's field naming its camera document's recovery copy. */
export const CAMERA_RECOVERY_COPY_FIELD = 'cameraRecoveryCopy';
/** What an untitled scene's layout copy is written over (and read back against): no folder, so paths stay whole. */
export const RECOVERY_UNTITLED_SCENE = 'Untitled.vmdscene';
/** The layout copy's doc id in its session (recovery-types.ts RECOVERY_DOC_ID: `scene` for the scene file). */
export const SCENE_COPY_DOC = 'scene';

/** The scene layout a window would keep now (the scene store's recoveryLayout), for the autosave store. */
export interface RecoveryLayout {
  /** The layout less the frame: a new copy is due when it changes. */
  key: string;
  /** Documents the layout names by their copy (edited, or never saved): each needs a copy of its own. */
  pointed: readonly number[];
  /** The scene file, or null (untitled). */
  path: string | null;
  name: string;
  actors: number;
  /** The version of the scene file it was read as or last saved as. */
  stamp: FileStamp | null;
  /** The bytes: made when the copy is written. */
  bytes: () => Uint8Array;
}

/** A layout copy read back: the scene with no recovery fields left in it, and which document copy each part names. */
export interface ReadLayout {
  scene: Scene;
  /** Actor index → the recovery copy (doc id) its motion comes from. */
  actorCopies: Map<number, string>;
  /** The camera document's recovery copy, or null. */
  cameraCopy: string | null;
}

/** Reads a layout copy written over `scenePath` (its scene file, or RECOVERY_UNTITLED_SCENE when untitled). */
export function readRecoveryLayout(bytes: Uint8Array, scenePath: string | null): Result<ReadLayout> {
  const r = parseScene(bytes, scenePath ?? RECOVERY_UNTITLED_SCENE);
  if (!r.ok) return r;
  const actorCopies = new Map<number, string>();
  const docOf = (v: unknown) => (typeof v === 'string' && RECOVERY_DOC_ID.test(v) && v !== SCENE_COPY_DOC ? v : null);
  const actors = r.value.actors.map((a, i) => {
    if (!a.extra || !(RECOVERY_COPY_FIELD in a.extra)) return a;
    const { [RECOVERY_COPY_FIELD]: doc, ...rest } = a.extra;
    const d = docOf(doc);
    if (d) actorCopies.set(i, d);
    const out = { ...a };
    if (Object.keys(rest).length) out.extra = rest;
    else delete out.extra;
    return out;
  });
  const scene: Scene = { ...r.value, actors };
  let cameraCopy: string | null = null;
  if (scene.extra && CAMERA_RECOVERY_COPY_FIELD in scene.extra) {
    const { [CAMERA_RECOVERY_COPY_FIELD]: doc, ...rest } = scene.extra;
    cameraCopy = docOf(doc);
    if (Object.keys(rest).length) scene.extra = rest;
    else delete scene.extra;
  }
  return ok({ scene, actorCopies, cameraCopy });
}
