/**
 * Errors and diagnostics as values. The codec never throws for bad input and never logs:
 * a failed read returns `{ ok: false, error }`, a recoverable oddity is a diagnostic beside the value.
 */

/** Stable string codes; they cross IPC and appear in `--json` output. Each has an `err.<code>` string (en, ja). */
export const ERROR_CODES = [
  'E_VMD_MAGIC',
  'E_VMD_TRUNCATED',
  'E_VMD_COUNT',
  'E_VPD_MAGIC',
  'E_VPD_SYNTAX',
  'E_NAME_TOO_LONG',
  /** A name with characters Shift_JIS cannot hold (a VMD stores names in Shift_JIS). */
  'E_NAME_ENCODING',
  'E_JSON_SYNTAX',
  'E_JSON_SCHEMA',
  'E_ARGUMENT',
  'E_EDIT',
  'E_IO',
  'E_IO_NOT_FOUND',
  'E_IO_DENIED',
  'E_IO_EXISTS',
  /**
   * A save over a file that another program changed since the document was opened or last saved (its size,
   * modification time, inode or bytes differ from SaveOptions.expect): nothing is written.
   */
  'E_IO_CHANGED',
  /** A path that must be a folder is a file, or passes through one (Node's ENOTDIR). */
  'E_IO_NOT_DIR',
  /**
   * A network (UNC: `\\host\share\…`, `//host/share/…`, WebDAV `\\host@SSL@443\…`) or device path (`\\?\…`,
   * `\\.\…`, CON, NUL…) that a scene file names: not opened unless the person chooses it in a dialog (opening
   * it would connect to that host, and on Windows send the user's NTLM hash).
   */
  'E_IO_REMOTE',
  /** A file whose name is not valid UTF-8 text: a listing sees it, but no path string can name it to open it. */
  'E_IO_NAME_NOT_UTF8',
  'E_UNSUPPORTED',
  'E_PMX_MAGIC',
  'E_PMX_TRUNCATED',
  /** A model's index (face → vertex, morph offset → vertex/bone/material, PMD morph → base entry) outside its table. */
  'E_PMX_INDEX',
  /** A vertex's deform type other than BDEF1/2/4, SDEF, QDEF. */
  'E_PMX_DEFORM',
  /** A morph type the format does not define, or a PMD morph before its base morph. */
  'E_PMX_MORPH',
  /**
   * A rigid body's shape, mode or group, or a joint's type, that the format does not define; or a number of
   * theirs Bullet cannot take (NaN, infinite, past ±10⁷: pmx-reader.ts's MAX_PHYSICS_MAGNITUDE).
   */
  'E_PMX_PHYSICS',
  /** A bone's position that is NaN, infinite or past ±10⁷ (pmx-reader.ts's MAX_BONE_POSITION). */
  'E_PMX_NUMBER',
  /** A model whose physics cannot be simulated (none, or its physics section unreadable). */
  'E_PHYSICS',
  /**
   * IK bake: no IK to bake (a model without IK bones, an IK bone name the model lacks, or IK the motion has off over
   * the whole range); params.reason says which: 'no-ik', 'unknown' (name, list), 'off' (names, from, to), 'names'.
   */
  'E_IK',
  /** Scene file (.vmdscene): not JSON / JSON but not a scene / a newer version / a wrong field. */
  'E_SCENE_JSON',
  'E_SCENE_FORMAT',
  'E_SCENE_VERSION',
  'E_SCENE_SCHEMA',
  /** A scene file that is text in another encoding than UTF-8 (UTF-16, Shift_JIS): the message says which and to save it as UTF-8. */
  'E_SCENE_ENCODING',
  /** An audio file the platform's Web Audio cannot decode (the message names the format). */
  'E_AUDIO_DECODE',
  /** A WAV whose header is whole but which holds no sample (an empty data chunk, or the samples cut off: wav.ts wavWithoutSamples). */
  'E_AUDIO_NO_SAMPLES',
  /** A file given as a song that its first bytes say is something else (a picture, a motion: audio-format.ts notAudioKind). */
  'E_NOT_AUDIO',
  /** A batch job stopped by its caller (a result, never recognised by its message). */
  'E_CANCELLED',
  /** A batch job is already running. */
  'E_BUSY',
  /** Key editing refused: nothing to act on (no key selected, nothing copied). */
  'E_EMPTY',
  /** Key editing refused: a key would move outside frames 0..MAX_FRAME. */
  'E_RANGE',
  /**
   * A motion whose keys run over more frames than an operation samples frame by frame (shared/edit-core/
   * dense-limit.ts): one key far past the rest, say.
   */
  'E_SPAN',
  /** Key editing refused: a key would land on a frame its track already has a key at. */
  'E_COLLISION',
  /** Key editing refused: inserting a key where the track already has one. */
  'E_EXISTS',
  'E_INTERNAL',
  /** BVH motion capture: a hierarchy or motion line that is not BVH (the error names the line). */
  'E_BVH_SYNTAX',
  /** BVH: the file ends before the hierarchy closes or before the frames it declares. */
  'E_BVH_TRUNCATED',
  /** BVH: a CHANNELS line whose count disagrees with the channels named, or a frame with the wrong number of values. */
  'E_BVH_CHANNELS',
  /** BVH: a value that is not a finite number (NaN, Infinity, text) in OFFSET or a frame. */
  'E_BVH_NUMBER',
  /** BVH: more frames, joints or channels than the file can hold or the importer takes (refused before allocating). */
  'E_BVH_TOO_LARGE',
  /** VRM Animation (.vrma): not glTF with a VRMC_vrm_animation extension, or one this reader cannot interpret. */
  'E_VRMA_FORMAT',
  /** Retargeting onto a model: the model lacks the bones a motion needs (センター, the limbs), or the map names none. */
  'E_RETARGET',
  /** A file to open holds nothing (0 bytes): said as such, not as a read or write failure (issue 30). */
  'E_FILE_EMPTY',
  /**
   * A camera or light motion (no bone keys: inspect.ts stageMotionKind) given to an operation that plays a
   * motion on a model (physics-bake, export-bvh, export-vrma, pose, convert to VPD); params kind, camera, light.
   */
  'E_CAMERA_MOTION',
  /** A mouth-timing list or .lab file (shared/key-edits/mouth-timings.ts) with a line that is not one: `line`, `problem` say which and why. */
  'E_TIMINGS',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one error shape of the app: the codec's, the services' over IPC (`IpcError` is this type) and the
 * batch engine's. `message` is English for the CLI and logs; the UI phrases `code` (and `option`) itself.
 */
export interface CodecError {
  code: ErrorCode;
  message: string;
  /** Byte offset in the input where the problem was found, when it has one. */
  offset?: number;
  /** File the error is about; filled in by whoever knows the path (the codec only sees bytes). */
  file?: string;
  /**
   * The option the error names, spelled as on the command line without dashes (`from`, `factor`): the one an
   * `E_ARGUMENT` error is about, or the one that would avoid a refusal (shift's `clip`). The message names it
   * as the CLI does (`--clip`); the app phrases `problem` with the option as its form names it (`optionRefusal`).
   */
  option?: string;
  /** What is wrong, for the app's own phrasing (the string `opt.<problem>`), with `option` and `params`. */
  problem?: string;
  /** The values the message names, for the app's phrasing (e.g. a count error's `block` and `count`). */
  params?: Record<string, string | number>;
  /** 1-based line in a text input (BVH, a map file) where the problem was found, when it has one. */
  line?: number;
}

/**
 * An `E_ARGUMENT` error about a value given to a parser of one option's text (a curve, a channel list, a
 * name pattern, a name map): `problem` says what is wrong (the app's string is `opt.<problem>`), `params`
 * the values it names, `message` the CLI's English. `option` is set by whoever knows which option the
 * text came from (shared/batch/options.ts `refuseWith`).
 */
export interface ArgumentError<P extends string = string> extends CodecError {
  code: 'E_ARGUMENT';
  problem: P;
  params: Record<string, string | number>;
}

export interface Diagnostic {
  code: string;
  /** English text (the CLI prints it; the app shows its own translation of `code` with `params`). */
  message: string;
  offset?: number;
  /** The values the message names, for a translated text. */
  params?: Record<string, string | number>;
}

/**
 * A value or an error, nothing beside it: what a service answers over IPC (`IpcResult` is this type)
 * and what the parsers of one option's text return (with `ArgumentError`).
 */
export type Outcome<T, E extends CodecError = CodecError> = Success<T> | Failure<E>;

/** An `Outcome` that succeeded. */
export type Success<T> = { ok: true; value: T };

/** An `Outcome` that failed. */
export type Failure<E extends CodecError = CodecError> = { ok: false; error: E };

/** An `Outcome`'s success: the value alone (a read's, with diagnostics, is `ok`). */
export function success<T>(value: T): Success<T> {
  return { ok: true, value };
}

/** An `Outcome`'s failure: the typed error alone. */
export function failure<E extends CodecError>(error: E): Failure<E> {
  return { ok: false, error };
}

/** The error of a run stopped on purpose (Cancel, an aborted signal): a failure told apart by its code. */
export type CancelledError = CodecError & { code: 'E_CANCELLED' };

/** A cancelled run's outcome (`cancelled()`). */
export type Cancelled = Failure<CancelledError>;

/** The outcome of a run stopped on purpose; nothing is reported to the user as an error. */
export function cancelled(message = 'cancelled'): Cancelled {
  return { ok: false, error: { code: 'E_CANCELLED', message } };
}

/** Whether an outcome is a cancellation (its error's code is `E_CANCELLED`). */
export function isCancelled(o: { ok: true } | { ok: false; error: CodecError }): o is Cancelled {
  return !o.ok && o.error.code === 'E_CANCELLED';
}

/**
 * A read's outcome: an `Outcome` whose value comes with the diagnostics found on the way (beside the value,
 * as recoverable oddities are; a `Result<T>` is an `Outcome<T>` wherever one is asked for).
 */
export type Result<T> = (Success<T> & { diagnostics: Diagnostic[] }) | Failure;

export function ok<T>(value: T, diagnostics: Diagnostic[] = []): Result<T> {
  return { ok: true, value, diagnostics };
}

export function fail<T = never>(code: ErrorCode, message: string, offset?: number, params?: Record<string, string | number>): Result<T> {
  const error: CodecError = offset === undefined ? { code, message } : { code, message, offset };
  return { ok: false, error: params ? { ...error, params } : error };
}

/**
 * A refusal that names an option: `message` is the CLI's English (`… (use --clip to cut off …)`); the app
 * says `opt.<problem>` with `params` and the option as its form labels it (the Batch dialog's checkbox), so
 * neither surface names the other's control. One shape for every such refusal (shift, trim, pose, convert).
 */
export function optionRefusal<C extends ErrorCode>(code: C, message: string, option: string, problem: string, params: Record<string, string | number> = {}): CodecError & { code: C } {
  return { code, message, option, problem, params };
}

/** Thrown only inside the codec's own helpers and caught at the API boundary; never escapes a read. */
export class CodecFailure extends Error {
  constructor(readonly error: CodecError) {
    super(error.message);
  }
}

/** One line for people: "file: message (at byte N)". */
export function formatError(e: CodecError): string {
  const where = e.line !== undefined ? ` (line ${e.line})` : e.offset !== undefined ? ` (at byte ${e.offset})` : '';
  return `${e.file ? e.file + ': ' : ''}${e.message}${where}`;
}
