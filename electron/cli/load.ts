/** Loading motion files for CLI commands: read, detect VMD/VPD/JSON by content and extension, errors as values. */
import path from 'node:path';
import { MAX_INPUT_BYTES, readInputBytes } from '../fs/files';
import { MAX_MOTION_FILE_BYTES } from '../../shared/ipc/validate';
import { isVmd, ok, readVmd, readVpd, type CodecError, type Result, type VmdDocument, type VpdPose } from '../../shared/vmd';
import { vmdFromJson } from '../../shared/vmd/vmd-json';
import { looksLikeVpd } from '../../shared/vmd/vpd';

/** A motion file read: a VMD's document or a VPD's pose, with the file's bytes. */
export type LoadedMotion = { format: 'vmd'; doc: VmdDocument; bytes: Uint8Array } | { format: 'vpd'; pose: VpdPose; bytes: Uint8Array };

/** What `loadMotion` returns: a read's `Result` (the diagnostics beside the value) of the loaded motion. */
export type Loaded = Result<LoadedMotion>;

/** Formats a file is read as, by extension (content decides for VMD). */
export function formatOf(file: string): 'vmd' | 'vpd' | 'json' | 'pmx' | 'pmd' | null {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.vmd' || ext === '.vpd' || ext === '.json' || ext === '.pmx' || ext === '.pmd') return ext.slice(1) as 'vmd';
  return null;
}

/** Reads a VMD, VPD or VMD-JSON file. */
export async function loadMotion(file: string): Promise<Loaded> {
  const fmt = formatOf(file);
  // A motion as JSON is text several times its VMD's size; anything else is read up to a motion's size.
  const r = await readInputBytes(file, { maxBytes: fmt === 'json' ? MAX_INPUT_BYTES : MAX_MOTION_FILE_BYTES });
  if (!r.ok) return r;
  const bytes = r.value;
  const withFile = (e: CodecError): Loaded => ({ ok: false, error: { ...e, file } });
  if (fmt === 'json') {
    const j = vmdFromJson(new TextDecoder('utf-8').decode(bytes));
    if (!j.ok) return withFile(j.error);
    return ok({ format: 'vmd', doc: j.value, bytes }, j.diagnostics);
  }
  // A name that says neither (notes.txt, a capture given to a motion command): say what it is not, both ways.
  if (fmt === null && !isVmd(bytes) && !looksLikeVpd(bytes)) {
    const ext = path.extname(file).toLowerCase();
    const capture = ext === '.bvh' ? 'import-bvh' : ext === '.vrma' ? 'import-vrma' : null;
    const message = capture
      ? `a ${ext === '.bvh' ? 'BVH capture' : 'VRM Animation'}, not a VMD motion or a VPD pose: convert it with vmd-studio ${capture}`
      : 'not a VMD motion or a VPD pose: it starts with neither "Vocaloid Motion Data" nor "Vocaloid Pose Data file"';
    return withFile(capture ? { code: 'E_VMD_MAGIC', message } : { code: 'E_VMD_MAGIC', message, offset: 0 });
  }
  if (fmt === 'vpd' || (fmt !== 'vmd' && !isVmd(bytes))) {
    const p = readVpd(bytes);
    if (!p.ok) return withFile(p.error);
    return ok({ format: 'vpd', pose: p.value, bytes }, p.diagnostics);
  }
  const d = readVmd(bytes);
  if (!d.ok) return withFile(d.error);
  return ok({ format: 'vmd', doc: d.value, bytes }, d.diagnostics);
}
