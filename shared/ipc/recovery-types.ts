/**
 * Autosave and recovery (electron/services/recovery-service.ts; renderer/src/stores/autosave.ts): what a kept copy of
 * an unsaved document says about itself, and the bounds the requests are checked against (validate.ts).
 */
import type { FileStamp } from './file-stamp';

/** A session (one window or one browser page) names itself with this: letters, digits, `-` and `_`. */
export const RECOVERY_SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** A document's key within its session (the workspace's document id as text, `scene` for the scene file). */
export const RECOVERY_DOC_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The longest name, actor or scene label a copy keeps. */
export const MAX_RECOVERY_LABEL = 512;

/** What a copy is of: a motion or pose document, or the scene file itself. */
export type RecoveryKind = 'motion' | 'camera' | 'light' | 'scene';
/** The format its bytes are in: what Save would write now. */
export type RecoveryFormat = 'vmd' | 'vpd' | 'vmdscene';

/** What the renderer sends with a copy's bytes. */
export interface RecoveryCopyInfo {
  /** The document's key in its session. */
  doc: string;
  /** Its file name ("dance.vmd"), or the name it would be saved under ("Untitled.vmd"). */
  name: string;
  /** Its file's absolute path, or null: never saved (untitled). */
  path: string | null;
  kind: RecoveryKind;
  format: RecoveryFormat;
  /** Keys it holds (bone, morph, camera, light, self-shadow, IK), for the dialog; a scene's layout: its actors. */
  keys: number;
  /** The actor (or "Camera") it belonged to in a scene, if any. */
  actor?: string;
  /**
   * The version of its file the document was read from or last saved as (contract.ts FileStamp): a Save of the
   * recovered document over its file sends it, so a file changed on disk since is asked about (E_IO_CHANGED).
   */
  stamp?: FileStamp;
}

/** A copy a gone session left, as listRecovery gives it. */
export interface RecoveryCopy extends RecoveryCopyInfo {
  session: string;
  /** When the copy was written (ms since the epoch). */
  savedAt: number;
  /** Its bytes' length. */
  bytes: number;
}

/** listRecovery's answer: the copies, and one line for each copy that could not be read (ignored). */
export interface RecoveryListing {
  copies: RecoveryCopy[];
  /** "dance.vmd (session …): the copy is incomplete (its bytes do not match what was written)" and the like. */
  notices: string[];
}
