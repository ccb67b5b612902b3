/** Loading motion and model files for CLI commands: read, detect VMD/VPD/JSON by content and extension, errors as values. */
import { MAX_INPUT_BYTES, readInputBytes } from '../fs/files';
import { MAX_MOTION_FILE_BYTES } from '../../shared/ipc/validate';
import { ok, readVmd, readVpd, type CodecError, type Result, type VmdDocument, type VpdPose } from '../../shared/vmd';
import { vmdFromJson } from '../../shared/vmd/vmd-json';
import { fileKindByName, fileKindOf, misnamedError, NEITHER_MOTION_NOR_POSE, notAMotionError } from '../../shared/ipc/file-kind';
import { wrongKindMessage, type Wanted } from './file-kind';

/** A motion file read: a VMD's document or a VPD's pose, with the file's bytes. */
export type LoadedMotion = { format: 'vmd'; doc: VmdDocument; bytes: Uint8Array } | { format: 'vpd'; pose: VpdPose; bytes: Uint8Array };

/** What `loadMotion` returns: a read's `Result` (the diagnostics beside the value) of the loaded motion. */
export type Loaded = Result<LoadedMotion>;


/**
 * Reads a VMD, VPD or VMD-JSON file, chosen by its first bytes where they say, else by its extension. A
 * file of another kind (a model, a capture) is an error saying what it is and what `command` takes;
 * `given` is the file as the user typed it (for the advice); `says`: what the message says `command` takes
 * (sample: VMD motions, though a pose is read for its own message). A motion or pose named as the other (a
 * .vpd holding a VMD) is refused (misnamedError), unless `readMisnamed` (inspect, which describes it and warns).
 */
export async function loadMotion(file: string, command: string, given: string = file, says: Wanted = 'motion', readMisnamed = false): Promise<Loaded> {
  // A motion as JSON is text several times its VMD's size; anything else is read up to a motion's size.
  const r = await readInputBytes(file, { maxBytes: fileKindByName(file) === 'json' ? MAX_INPUT_BYTES : MAX_MOTION_FILE_BYTES });
  if (!r.ok) return r;
  const bytes = r.value;
  const withFile = (e: CodecError): Loaded => ({ ok: false, error: { ...e, file } });
  const misnamed = readMisnamed ? null : misnamedError(given, bytes);
  if (misnamed) return withFile(misnamed);
  // A song, an image, a model, a video or notes: what it is and what to do with it, in the app's words.
  const not = notAMotionError(given, bytes, file);
  if (not) return { ok: false, error: not };
  const kind = fileKindOf(file, bytes);
  const wrong = kind === 'vmd' || kind === 'vpd' || kind === 'json' ? null : wrongKindMessage(kind, says, command, given, undefined, bytes);
  if (wrong) return withFile({ code: 'E_VMD_MAGIC', message: wrong });
  if (kind === 'json') {
    const j = vmdFromJson(new TextDecoder('utf-8').decode(bytes));
    if (!j.ok) return withFile(j.error);
    return ok({ format: 'vmd', doc: j.value, bytes }, j.diagnostics);
  }
  // A name that says neither (notes.txt): say what it is not, both ways.
  if (kind === null) return withFile(NEITHER_MOTION_NOR_POSE);
  if (kind === 'vpd') {
    const p = readVpd(bytes);
    if (!p.ok) return withFile(p.error);
    return ok({ format: 'vpd', pose: p.value, bytes }, p.diagnostics);
  }
  const d = readVmd(bytes);
  if (!d.ok) return withFile(d.error);
  return ok({ format: 'vmd', doc: d.value, bytes }, d.diagnostics);
}

