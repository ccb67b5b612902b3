/**
 * A file of the wrong kind given to a command, said the same way by every command: what the file is
 * (shared/ipc/file-kind.ts), what the command takes, and which command takes the file instead.
 */
import path from 'node:path';
import { failure, readVmd, success, type CodecError, type ErrorCode, type Outcome, type VmdDocument } from '../../shared/vmd';
import { fileKindByName, fileKindName, fileKindOf, misnamedError, notAMotionError, type FileKind } from '../../shared/ipc/file-kind';

/** What a command reads: a motion or a pose (convert, inspect), a VMD motion (the edits, export-*), a capture. */
export type Wanted = 'motion' | 'vmd' | 'vpd' | 'bvh' | 'vrma';

const WANTED: Readonly<Record<Wanted, { kinds: readonly FileKind[]; name: string; plural: string; code: ErrorCode }>> = {
  motion: { kinds: ['vmd', 'vpd', 'json'], name: 'a VMD motion or a VPD pose', plural: 'motions and poses (.vmd, .vpd, .json)', code: 'E_VMD_MAGIC' },
  vmd: { kinds: ['vmd'], name: 'a VMD motion', plural: 'VMD motions', code: 'E_VMD_MAGIC' },
  vpd: { kinds: ['vpd'], name: 'a VPD pose', plural: 'VPD poses (.vpd)', code: 'E_VPD_MAGIC' },
  bvh: { kinds: ['bvh'], name: 'a BVH capture', plural: 'BVH captures', code: 'E_BVH_SYNTAX' },
  vrma: { kinds: ['vrma'], name: 'a VRM Animation', plural: 'VRM Animations (.vrma)', code: 'E_VRMA_FORMAT' },
};

/**
 * What to do with a `kind` file instead, for `command` (which takes `wanted`); `given` is the file as typed.
 * `modelOption`: the command's option for a model (--model, --to), where it has one.
 */
function advice(kind: FileKind, wanted: Wanted, command: string, given: string, modelOption?: string): string {
  if ((kind === 'vpd' || kind === 'json') && wanted === 'vmd') {
    // Never the input's own name (a pose under a .vmd name).
    const stem = path.basename(given, path.extname(given));
    const vmdName = path.extname(given).toLowerCase() === '.vmd' ? `${stem}-motion.vmd` : `${stem}.vmd`;
    return `${command} works on VMD motions; convert the ${kind === 'vpd' ? 'pose' : 'JSON'} first: vmd-studio convert ${given} -o ${vmdName}`;
  }
  if (kind === 'pmx' || kind === 'pmd') {
    return `${command} works on ${WANTED[wanted].plural}${modelOption ? ` and takes a model with ${modelOption}` : ''}; vmd-studio inspect describes a model`;
  }
  if (kind === 'bvh' || kind === 'vrma') return `convert it with vmd-studio import-${kind}`;
  if (kind === 'vmd' && (wanted === 'bvh' || wanted === 'vrma')) return `vmd-studio export-${wanted} writes one from a VMD motion`;
  if (kind === 'scene') return `${command} works on ${WANTED[wanted].plural}; open a scene in the VMD Studio app (vmd-studio inspect lists what it holds)`;
  if (kind === 'audio') return `${command} works on ${WANTED[wanted].plural}; a song is loaded as a scene's music in the VMD Studio app (vmd-studio inspect names its format)`;
  if (kind === 'video') return `${command} works on ${WANTED[wanted].plural}; VMD Studio writes videos (Video…; Render → Video… in the desktop app) but does not read them`;
  if (kind === 'wav') return `${command} works on ${WANTED[wanted].plural}; a song is loaded as a scene's music in the VMD Studio app (vmd-studio inspect describes a WAV)`;
  return `${command} works on ${WANTED[wanted].plural}`;
}

/**
 * The message for a `kind` file given to `command`, or null when the command takes that kind. Also for a
 * check by name before reading (a UsageError's text). `bytes`: the file's, where read (the message names a song's or a video's format).
 */
export function wrongKindMessage(kind: FileKind | null, wanted: Wanted, command: string, given: string, modelOption?: string, bytes?: Uint8Array): string | null {
  if (kind === null || WANTED[wanted].kinds.includes(kind)) return null;
  return `${fileKindName(kind, bytes)}, not ${WANTED[wanted].name}: ${advice(kind, wanted, command, given, modelOption)}`;
}

/**
 * A VMD command's check before reading: an input named as a pose or JSON is refused with the convert
 * command that makes a motion of it (a UsageError's text), or null. Other kinds are said once read (their
 * content may be a motion under another name).
 */
export function convertFirstMessage(command: string, given: string): string | null {
  const kind = fileKindByName(given);
  return kind === 'vpd' || kind === 'json' ? wrongKindMessage(kind, 'vmd', command, given) : null;
}

/**
 * The error for `file`'s bytes when they are a motion or pose named as the other (misnamedError: refused, as MMD
 * and the app refuse it), or (by content, else by name) a kind `command` does not take; null
 * when they may be what it takes (its reader then says what is wrong, as a problem of that format).
 */
export function wrongKindError(file: string, bytes: Uint8Array, wanted: Wanted, command: string, given: string, modelOption?: string): CodecError | null {
  // A motion or pose under the other's name first: renaming it is what to do, whatever the command takes.
  const misnamed = misnamedError(given, bytes, file);
  if (misnamed) return misnamed;
  // Where a motion is wanted, a song, an image, a model, a video or notes is said in the app's words (what it is,
  // what to do with it); a command with a model option says where a model goes.
  const not = wanted === 'motion' || wanted === 'vmd' ? notAMotionError(given, bytes, file) : null;
  if (not) return not.params?.notMotion === 'model' && modelOption ? { ...not, message: `${not.message}; ${command} takes a model with ${modelOption}` } : not;
  const kind = fileKindOf(file, bytes);
  const message = wrongKindMessage(kind, wanted, command, given, modelOption, bytes);
  return message === null ? null : { code: WANTED[wanted].code, message, file };
}

/** A VMD command's input read: another kind of file is said as such (wrongKindError), else readVmd's result; errors name `file`. */
export function readVmdAs(file: string, bytes: Uint8Array, command: string, given: string, modelOption?: string): Outcome<VmdDocument> {
  const wrong = wrongKindError(file, bytes, 'vmd', command, given, modelOption);
  if (wrong) return failure(wrong);
  const d = readVmd(bytes);
  return d.ok ? success(d.value) : failure({ ...d.error, file });
}
