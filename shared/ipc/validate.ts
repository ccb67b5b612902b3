/**
 * Argument checks for every request, run by main (IPC) and by the browser-mode server before a service
 * sees the arguments: whatever arrives from a renderer is untrusted. Each returns null when the
 * arguments are acceptable, else a one-line reason (sent back as E_ARGUMENT). Fields are looked up as
 * own properties only: `constructor`, `__proto__` and the like are unknown fields, never a throw.
 */
import type { RequestName } from './contract';
import { isLocale } from '../i18n/locale';
import { BATCH_OPS, MAX_BATCH_JOBS } from '../batch/types';
import { FILE_FILTERS } from './file-types';
import { plural } from '../i18n/plural';
import { MAX_RECOVERY_LABEL, RECOVERY_DOC_ID, RECOVERY_SESSION_ID } from './recovery-types';

type Check = (args: unknown[]) => string | null;

const MAX_PATH = 4096;

/**
 * The largest motion or pose file the app opens or saves: 256 MiB holds about 2.4 million bone keys,
 * far beyond any dance or capture. A save carries one such file, so it also bounds a save's body.
 */
export const MAX_MOTION_FILE_BYTES = 256 * 1024 * 1024;

/** What an export may be written as: a video (MP4, WebM) or a picture of a PNG sequence. */
export const EXPORT_EXTENSIONS: readonly string[] = ['.mp4', '.webm', '.png'];

/** The largest chunk of an export one request carries (the renderer sends 4 MiB at most). */
export const MAX_EXPORT_CHUNK_BYTES = 16 * 1024 * 1024;

/** The largest joint map file (.csv, .json) saved: a map is a few dozen rows. */
export const MAX_MAP_BYTES = 4 * 1024 * 1024;

/** The largest scene file (.vmdscene) opened or saved: a scene names a few paths, and the most actors it may hold. */
export const MAX_SCENE_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The settings' `ui` bag holds a few panel sizes and toggles: at most this many keys, each name at most
 * MAX_UI_KEY_LENGTH characters, each string value at most MAX_UI_STRING_LENGTH, and the whole bag at most
 * MAX_UI_BYTES of JSON (checked once merged with what is stored: the bag cannot grow call by call).
 */
export const MAX_UI_KEYS = 256;
export const MAX_UI_KEY_LENGTH = 128;
export const MAX_UI_STRING_LENGTH = 4096;
export const MAX_UI_BYTES = 64 * 1024;
/**
 * A window's size and position in pixels: larger than any desktop of screens side by side, far below
 * what breaks a window system (a width of 1e308 was stored and handed to the next start).
 */
export const MAX_WINDOW_EXTENT = 32768;

/** Why a `ui` bag (already merged, or a patch) is refused, or null. */
export function uiBagProblem(ui: Record<string, unknown>): string | null {
  const keys = Object.keys(ui);
  if (keys.length > MAX_UI_KEYS) return `ui holds ${keys.length} keys; at most ${MAX_UI_KEYS}`;
  for (const k of keys) {
    if (RESERVED_KEYS.includes(k)) return `ui: reserved key "${k}"`;
    if (k.length === 0 || k.length > MAX_UI_KEY_LENGTH) return `ui: a key of ${k.length} characters (1 to ${MAX_UI_KEY_LENGTH})`;
    const v = ui[k];
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `ui.${k}: not a finite number`;
      continue;
    }
    if (typeof v !== 'string') return `ui.${k}: a string, number, true/false or null is needed`;
    if (v.length > MAX_UI_STRING_LENGTH) return `ui.${k}: a string of ${v.length} characters; at most ${MAX_UI_STRING_LENGTH}`;
  }
  const bytes = JSON.stringify(ui).length;
  if (bytes > MAX_UI_BYTES) return `ui is ${bytes} characters of JSON; at most ${MAX_UI_BYTES}`;
  return null;
}

/** Keys that name Object.prototype's machinery: refused in every free-form bag (settings.ui, batch options). */
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const FILTERS: readonly string[] = FILE_FILTERS;
const OPS: readonly string[] = BATCH_OPS;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function path(v: unknown, what: string, allowEmpty = false): string | null {
  if (typeof v !== 'string') return `${what} must be a string`;
  if (!allowEmpty && v.length === 0) return `${what} must not be empty`;
  if (v.length > MAX_PATH) return `${what} is longer than ${MAX_PATH} characters`;
  if (v.includes('\0')) return `${what} contains a NUL character`;
  return null;
}

function count(args: unknown[], min: number, max: number): string | null {
  if (args.length < min || args.length > max) {
    return min === max ? `expected ${plural(min, 'argument')}, got ${args.length}` : `expected ${min}–${max} arguments, got ${args.length}`;
  }
  return null;
}

/** Checks that an object has only known keys, each passing its check (undefined allowed = optional). */
function shape(v: unknown, what: string, fields: Record<string, (x: unknown) => boolean>): string | null {
  if (v === undefined) return null;
  if (!isObj(v)) return `${what} must be an object`;
  for (const [k, x] of Object.entries(v)) {
    const f = own(fields, k) ? fields[k] : undefined;
    if (typeof f !== 'function') return `${what}: unknown field "${k}"`;
    if (x !== undefined && !f(x)) return `${what}: bad value for "${k}"`;
  }
  return null;
}

const isStr = (x: unknown) => typeof x === 'string' && x.length <= MAX_PATH && !x.includes('\0');
const isBool = (x: unknown) => typeof x === 'boolean';
const isFiniteNum = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
const isFilter = (x: unknown) => typeof x === 'string' && FILTERS.includes(x);
const isStrOrNull = (x: unknown) => x === null || isStr(x);

/** A FileStamp sent back by a save (contract.ts): only its own fields, each of its kind. */
function isStamp(x: unknown): boolean {
  if (!isObj(x)) return false;
  const digits = (v: unknown) => typeof v === 'string' && /^-?[0-9]{1,40}$/.test(v);
  return (
    shape(x, 'expect', { size: (v) => isFiniteNum(v) && Number.isInteger(v) && (v as number) >= 0, mtimeNs: digits, ino: digits, sha256: (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v) }) === null &&
    ['size', 'mtimeNs', 'ino'].every((k) => own(x, k) && x[k] !== undefined)
  );
}
/** A save's options (saveFile, saveScene). */
const saveOptions = (v: unknown) => shape(v, 'options', { overwrite: isBool, backup: isBool, expect: isStamp, replaceChanged: isBool });

const exportId = (x: unknown) => (typeof x === 'string' && /^[0-9a-f]{1,64}$/.test(x) ? null : 'id must be an export id');

const pickCheck: Check = (a) => count(a, 0, 1) ?? shape(a[0], 'options', { title: isStr, defaultPath: isStr, filter: isFilter });
const noArgs: Check = (a) => count(a, 0, 0);

/** A coordinate: finite and within ±MAX_WINDOW_EXTENT. */
const isCoord = (x: unknown) => isFiniteNum(x) && Math.abs(x as number) <= MAX_WINDOW_EXTENT;
/** A size: 1 to MAX_WINDOW_EXTENT pixels. */
const isExtent = (x: unknown) => isFiniteNum(x) && (x as number) >= 1 && (x as number) <= MAX_WINDOW_EXTENT;

function isWindowState(x: unknown): boolean {
  if (!isObj(x)) return false;
  return (
    shape(x, 'window', { x: isCoord, y: isCoord, width: isExtent, height: isExtent, maximized: isBool }) === null &&
    own(x, 'width') &&
    isExtent(x.width) &&
    own(x, 'height') &&
    isExtent(x.height) &&
    own(x, 'maximized') &&
    isBool(x.maximized)
  );
}

function batchJob(v: unknown): string | null {
  if (!isObj(v)) return 'job must be an object';
  const e = shape(v, 'job', {
    op: (x) => typeof x === 'string' && OPS.includes(x),
    inputDir: (x) => isStr(x) && (x as string).length > 0,
    outputDir: (x) => isStr(x) && (x as string).length > 0,
    options: (x) =>
      isObj(x) &&
      Object.entries(x).every(
        ([k, o]) => !RESERVED_KEYS.includes(k) && (['string', 'number', 'boolean'].includes(typeof o) || (Array.isArray(o) && o.every((s) => typeof s === 'string'))),
      ),
    recursive: isBool,
    jobs: (x) => isFiniteNum(x) && (x as number) >= 1 && (x as number) <= MAX_BATCH_JOBS,
    overwrite: isBool,
    dryRun: isBool,
  });
  if (e) return e;
  for (const k of ['op', 'inputDir', 'outputDir', 'options']) if (!own(v, k) || v[k] === undefined) return `job: missing "${k}"`;
  return null;
}

/** A mocap job's id: a few letters, digits and dashes (the renderer makes it). */
const isJobId = (x: unknown) => typeof x === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(x);
const isMocapFormat = (x: unknown) => x === 'bvh' || x === 'vrma';
const isPosNum = (x: unknown) => isFiniteNum(x) && (x as number) > 0;
/** Map rows: [joint, target] pairs of short strings, at most a few thousand. */
const isRows = (x: unknown) =>
  Array.isArray(x) && x.length <= 4096 && x.every((r) => Array.isArray(r) && r.length === 2 && r.every((s) => typeof s === 'string' && s.length <= 256 && !s.includes('\0')));
const mocapOptions = (x: unknown) =>
  shape(x, 'options', { scale: isPosNum, fps: (v) => isPosNum(v) && (v as number) <= 10000, footIk: isBool, positionTol: isPosNum, rotationTolDeg: isPosNum, rest: (v) => v === 'rest' || v === 'first', origin: isBool, despike: isBool }) === null;
const bytesWithin = (x: unknown, max: number, what: string) =>
  !(x instanceof Uint8Array) ? `${what} must be a Uint8Array` : x.byteLength === 0 ? `${what} must not be empty` : x.byteLength > max ? `${what}: ${x.byteLength} bytes is more than ${max}` : null;

function mocapImportJob(v: unknown): string | null {
  const e = shape(v, 'job', { id: isJobId, format: isMocapFormat, name: isStr, bytes: () => true, model: (x) => x === null || isStr(x), modelBytes: () => true, options: (x) => isObj(x) && mocapOptions(x), map: isRows, morphs: isRows });
  if (e) return e;
  if (!isObj(v)) return 'job must be an object';
  for (const k of ['id', 'format', 'name', 'bytes', 'model']) if (!own(v, k) || v[k] === undefined) return `job: missing "${k}"`;
  // model null: the standard MMD skeleton, no file.
  // modelBytes (a dropped model's) go with a model's name; together they are at most one motion file's room.
  if (v.modelBytes !== undefined && v.model === null) return 'job: modelBytes needs the model\'s name in "model"';
  const both = v.bytes instanceof Uint8Array && v.modelBytes instanceof Uint8Array ? v.bytes.byteLength + v.modelBytes.byteLength : 0;
  if (both > MAX_MOTION_FILE_BYTES) return `job: bytes and modelBytes: ${both} bytes is more than ${MAX_MOTION_FILE_BYTES}`;
  return (
    bytesWithin(v.bytes, MAX_MOTION_FILE_BYTES, 'job: bytes') ??
    (v.modelBytes === undefined ? null : bytesWithin(v.modelBytes, MAX_MOTION_FILE_BYTES, 'job: modelBytes')) ??
    (v.model === null ? null : path(v.model, 'job: model'))
  );
}

function mocapExportJob(v: unknown): string | null {
  const e = shape(v, 'job', { id: isJobId, format: isMocapFormat, vmd: () => true, model: (x) => x === null || isStr(x), morphs: isRows });
  if (e) return e;
  if (!isObj(v)) return 'job must be an object';
  for (const k of ['id', 'format', 'vmd', 'model']) if (!own(v, k) || v[k] === undefined) return `job: missing "${k}"`;
  return bytesWithin(v.vmd, MAX_MOTION_FILE_BYTES, 'job: vmd') ?? (v.model === null ? null : path(v.model, 'job: model'));
}

const sessionId = (x: unknown) => (typeof x === 'string' && RECOVERY_SESSION_ID.test(x) ? null : 'session must be a recovery session id');
const docId = (x: unknown) => (typeof x === 'string' && RECOVERY_DOC_ID.test(x) ? null : 'doc must be a recovery document id');
const isLabel = (x: unknown) => typeof x === 'string' && x.length > 0 && x.length <= MAX_RECOVERY_LABEL && !x.includes('\0');

/** What keepRecoveryCopy says about its bytes (recovery-types.ts RecoveryCopyInfo). */
function recoveryInfo(v: unknown): string | null {
  const e = shape(v, 'info', {
    doc: (x) => docId(x) === null,
    name: isLabel,
    path: (x) => x === null || (isStr(x) && (x as string).length > 0),
    kind: (x) => x === 'motion' || x === 'camera' || x === 'light' || x === 'scene',
    format: (x) => x === 'vmd' || x === 'vpd' || x === 'vmdscene',
    keys: (x) => isFiniteNum(x) && Number.isInteger(x) && (x as number) >= 0,
    actor: isLabel,
    stamp: isStamp,
  });
  if (e) return e;
  if (!isObj(v)) return 'info must be an object';
  for (const k of ['doc', 'name', 'path', 'kind', 'format', 'keys']) if (!own(v, k) || v[k] === undefined) return `info: missing "${k}"`;
  return null;
}

/** Validators by request name. */
export const VALIDATORS: Record<RequestName, Check> = {
  openFile: (a) => count(a, 1, 2) ?? path(a[0], 'path') ?? shape(a[1], 'options', { recent: isBool }),
  pickFile: pickCheck,
  pickSaveFile: pickCheck,
  pickFolder: pickCheck,
  createFolder: (a) => count(a, 1, 1) ?? path(a[0], 'path'),
  readFileHead: (a) => count(a, 1, 1) ?? path(a[0], 'path'),
  listDirectory: (a) => count(a, 1, 2) ?? path(a[0], 'path', true) ?? shape(a[1], 'options', { filter: isFilter, showHidden: isBool }),
  saveFile: (a) =>
    count(a, 2, 3) ??
    path(a[0], 'path') ??
    (a[1] instanceof Uint8Array ? null : 'bytes must be a Uint8Array') ??
    ((a[1] as Uint8Array).byteLength <= MAX_MOTION_FILE_BYTES ? null : `bytes: ${(a[1] as Uint8Array).byteLength} bytes is more than the largest motion file (${MAX_MOTION_FILE_BYTES})`) ??
    saveOptions(a[2]),
  listRecent: noArgs,
  clearRecent: noArgs,
  readModelFile: (a) => count(a, 1, 2) ?? path(a[0], 'path') ?? shape(a[1], 'options', { recent: isBool }),
  readAsset: (a) => count(a, 2, 2) ?? path(a[0], 'modelPath') ?? path(a[1], 'relative'),
  openScene: (a) => count(a, 1, 1) ?? path(a[0], 'path'),
  saveScene: (a) =>
    count(a, 2, 3) ??
    path(a[0], 'path') ??
    (a[1] instanceof Uint8Array ? null : 'bytes must be a Uint8Array') ??
    ((a[1] as Uint8Array).byteLength <= MAX_SCENE_FILE_BYTES ? null : `bytes: ${(a[1] as Uint8Array).byteLength} bytes is more than the largest scene file (${MAX_SCENE_FILE_BYTES})`) ??
    saveOptions(a[2]),
  readAudioFile: (a) => count(a, 1, 1) ?? path(a[0], 'path'),
  getSettings: noArgs,
  setSettings: (a) =>
    count(a, 1, 1) ??
    shape(a[0], 'settings', {
      locale: (x) => x === null || isLocale(x),
      lastDirectory: isStrOrNull,
      previewModel: isStrOrNull,
      window: isWindowState,
      ui: isObj,
    }) ??
    (a[0] === undefined ? 'settings must be an object' : null) ??
    // Say what is wrong with the bag (too many keys, a value too long), not only that it is.
    (own(a[0] as object, 'ui') && isObj((a[0] as Record<string, unknown>).ui) ? uiBagProblem((a[0] as Record<string, Record<string, unknown>>).ui) : null),
  startBatch: (a) => count(a, 1, 1) ?? batchJob(a[0]),
  cancelBatch: (a) => count(a, 1, 1) ?? (typeof a[0] === 'string' && a[0].length > 0 && a[0].length < 200 ? null : 'jobId must be a non-empty string'),
  appInfo: noArgs,
  beginExportFile: (a) => count(a, 1, 2) ?? path(a[0], 'path') ?? shape(a[1], 'options', { overwrite: isBool }),
  writeExportChunk: (a) =>
    count(a, 3, 3) ??
    exportId(a[0]) ??
    (isFiniteNum(a[1]) && Number.isInteger(a[1]) && (a[1] as number) >= 0 && (a[1] as number) <= Number.MAX_SAFE_INTEGER ? null : 'position must be a whole number ≥ 0') ??
    (a[2] instanceof Uint8Array ? null : 'bytes must be a Uint8Array') ??
    ((a[2] as Uint8Array).byteLength <= MAX_EXPORT_CHUNK_BYTES ? null : `bytes: a chunk is at most ${MAX_EXPORT_CHUNK_BYTES} bytes`),
  finishExportFile: (a) => count(a, 1, 1) ?? exportId(a[0]),
  abortExportFile: (a) => count(a, 1, 1) ?? exportId(a[0]),
  setDocumentState: (a) =>
    count(a, 1, 1) ??
    (isObj(a[0]) ? null : 'state must be an object') ??
    shape(a[0], 'state', { path: isStrOrNull, name: isStrOrNull, dirty: isBool, unsaved: (x) => Array.isArray(x) && x.length <= 1000 && x.every(isStr), scene: isStr, nameDirty: isBool, stageMotion: (x) => x === 'camera' || x === 'light', busy: isBool }) ??
    (own(a[0] as object, 'dirty') && typeof (a[0] as Record<string, unknown>).dirty === 'boolean' ? null : 'state: "dirty" must be a boolean'),
  closeWindow: noArgs,
  diskSpace: (a) => count(a, 1, 1) ?? path(a[0], 'path'),
  revealFile: (a) => count(a, 2, 2) ?? path(a[0], 'path') ?? (a[1] === 'open' || a[1] === 'folder' ? null : 'how must be "open" or "folder"'),
  importMocap: (a) => count(a, 1, 1) ?? mocapImportJob(a[0]),
  cancelMocap: (a) => count(a, 1, 1) ?? (isJobId(a[0]) ? null : 'id must be a mocap job id'),
  exportMocap: (a) => count(a, 2, 3) ?? path(a[0], 'path') ?? mocapExportJob(a[1]) ?? shape(a[2], 'options', { overwrite: isBool }),
  readMapFile: (a) => count(a, 1, 1) ?? path(a[0], 'path'),
  readTimingFile: (a) => count(a, 1, 1) ?? path(a[0], 'path'),
  fileStamp: (a) => count(a, 1, 1) ?? path(a[0], 'path'),
  beginRecovery: (a) => count(a, 1, 1) ?? sessionId(a[0]),
  keepRecoveryCopy: (a) => count(a, 3, 3) ?? sessionId(a[0]) ?? recoveryInfo(a[1]) ?? bytesWithin(a[2], MAX_MOTION_FILE_BYTES, 'bytes'),
  dropRecoveryCopy: (a) => count(a, 2, 2) ?? sessionId(a[0]) ?? docId(a[1]),
  listRecovery: noArgs,
  readRecoveryCopy: (a) => count(a, 2, 2) ?? sessionId(a[0]) ?? docId(a[1]),
  discardRecovery: (a) => count(a, 1, 2) ?? sessionId(a[0]) ?? (a[1] === undefined ? null : docId(a[1])),
  saveMapFile: (a) => count(a, 2, 3) ?? path(a[0], 'path') ?? bytesWithin(a[1], MAX_MAP_BYTES, 'bytes') ?? shape(a[2], 'options', { overwrite: isBool }),
};

/** Null when `args` are acceptable for request `name`, else the reason. Unknown names are refused too. */
export function validateRequest(name: string, args: unknown[]): string | null {
  if (!Object.prototype.hasOwnProperty.call(VALIDATORS, name)) return `unknown request "${name}"`;
  if (!Array.isArray(args)) return 'arguments must be an array';
  return VALIDATORS[name as RequestName](args);
}
