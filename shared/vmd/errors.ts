/**
 * Errors and diagnostics as values. The codec never throws for bad input and never logs:
 * a failed read returns `{ ok: false, error }`, a recoverable oddity is a diagnostic beside the value.
 */

/** Stable string codes; they cross IPC and appear in `--json` output. */
export type ErrorCode =
  | 'E_VMD_MAGIC'
  | 'E_VMD_TRUNCATED'
  | 'E_VMD_COUNT'
  | 'E_VPD_MAGIC'
  | 'E_VPD_SYNTAX'
  | 'E_NAME_TOO_LONG'
  | 'E_JSON_SYNTAX'
  | 'E_JSON_SCHEMA'
  | 'E_ARGUMENT'
  | 'E_EDIT'
  | 'E_IO'
  | 'E_IO_NOT_FOUND'
  | 'E_IO_DENIED'
  | 'E_IO_EXISTS'
  /** A path that must be a folder is a file, or passes through one (Node's ENOTDIR). */
  | 'E_IO_NOT_DIR'
  | 'E_UNSUPPORTED'
  | 'E_PMX_MAGIC'
  | 'E_PMX_TRUNCATED'
  /** Scene file (.vmdscene): not JSON / JSON but not a scene / a newer version / a wrong field. */
  | 'E_SCENE_JSON'
  | 'E_SCENE_FORMAT'
  | 'E_SCENE_VERSION'
  | 'E_SCENE_SCHEMA'
  /** An audio file the platform's Web Audio cannot decode (the message names the format). */
  | 'E_AUDIO_DECODE'
  | 'E_CANCELLED'
  | 'E_INTERNAL';

export interface CodecError {
  code: ErrorCode;
  message: string;
  /** Byte offset in the input where the problem was found, when it has one. */
  offset?: number;
  /** File the error is about; filled in by whoever knows the path (the codec only sees bytes). */
  file?: string;
}

export interface Diagnostic {
  code: string;
  /** English text (the CLI prints it; the app shows its own translation of `code` with `params`). */
  message: string;
  offset?: number;
  /** The values the message names, for a translated text. */
  params?: Record<string, string | number>;
}

export type Result<T> =
  | { ok: true; value: T; diagnostics: Diagnostic[] }
  | { ok: false; error: CodecError };

export function ok<T>(value: T, diagnostics: Diagnostic[] = []): Result<T> {
  return { ok: true, value, diagnostics };
}

export function fail<T = never>(code: ErrorCode, message: string, offset?: number): Result<T> {
  return { ok: false, error: offset === undefined ? { code, message } : { code, message, offset } };
}

/** Thrown only inside the codec's own helpers and caught at the API boundary; never escapes a read. */
export class CodecFailure extends Error {
  constructor(readonly error: CodecError) {
    super(error.message);
  }
}

/** One line for people: "file: message (at byte N)". */
export function formatError(e: CodecError): string {
  const where = e.offset !== undefined ? ` (at byte ${e.offset})` : '';
  return `${e.file ? e.file + ': ' : ''}${e.message}${where}`;
}
