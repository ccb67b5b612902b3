/**
 * The batch operations that transform one motion (mirror, trim, speed, shift, preset, rename) as
 * document edits, with their options validated once. The batch engine, the one-file CLI commands and
 * the editor (applied to the open motion as one undo step) all run them through `prepareDocEdit`, so
 * an option means the same everywhere. Options are spelled as on the command line without dashes;
 * values may be strings (CLI) or numbers/booleans (UI).
 */
import type { Outcome, VmdDocument } from '../vmd';
import { mirror, namePattern, parseChannels, parseCurveSpec, parseMapping, preset, rename, shift, speed, trim, type EditResult, type NameMapping } from '../motion-ops';
import type { BoneChannel, CameraChannel } from '../vmd/interpolation';
import { DOC_EDIT_OPS, type BatchOp } from './types';
import { prepareFitEdit } from './fit-ops';
import type { FitProgress } from '../fit/motion-fit';
import { boolOpt, checkOptions, checkOrder, numOpt, refuse, refuseWith, strOpt, type OpOptions, type OptionError } from './options';

export type { OpOptions } from './options';

/** A channel list option (x,y,z,r …) of bone or camera curves, or undefined when not given. */
function channelsOpt(o: OpOptions, k: string, kind: 'bone' | 'camera'): number[] | undefined {
  const spec = strOpt(o, k);
  if (!spec) return undefined;
  const p = parseChannels(spec, kind);
  if (!p.ok) refuseWith(k, p.error);
  return p.value;
}

/** An edit of one document; `progress` is told how far a fitting edit (reduce, bake, speed --refit) or mirror has got. */
export type DocEdit = (doc: VmdDocument, progress?: FitProgress) => EditResult;

/** A document edit ready to run, or the first bad option as a value. */
export type PreparedEdit = Outcome<DocEdit, OptionError>;

/** The operations that are document edits (the others write another kind of file: convert, pose, inspect). */
/**
 * The format a mapping file's name says: 'csv' or 'json'; undefined when no name is given (the text
 * came without one); null for any other name (refused: a map is only ever a .csv or .json file).
 */
export function mappingFormatOf(name: string | undefined): 'csv' | 'json' | undefined | null {
  if (name === undefined) return undefined;
  const n = name.toLowerCase();
  return n.endsWith('.csv') ? 'csv' : n.endsWith('.json') ? 'json' : null;
}

export { DOC_EDIT_OPS } from './types';

/**
 * Validates the options of a document-edit operation and returns the edit, or the first bad option as
 * an error value; null for operations that are not document edits. For `rename`, options.mapText (the
 * mapping file's text) must be filled in by the caller; options.map is only its name.
 */
export function prepareDocEdit(op: BatchOp, o: OpOptions): PreparedEdit | null {
  if (!(DOC_EDIT_OPS as readonly BatchOp[]).includes(op)) return null;
  return checkOptions(() => docEdit(op, o)!);
}

/**
 * Mirror's options, validated as prepareDocEdit validates them: the editor runs Mirror on the open motion
 * as a step of its own (shared/key-edits/mirror-motion.ts, in slices on a big motion), with these.
 */
export function prepareMirror(o: OpOptions): Outcome<{ light: boolean }, OptionError> {
  return checkOptions(() => ({ light: !boolOpt(o, 'no-light', false) }));
}

/** The edit for `op`; throws OptionFailure (caught by prepareDocEdit) for a bad option. */
function docEdit(op: BatchOp, o: OpOptions): DocEdit | null {
  switch (op) {
    case 'mirror': {
      const light = !boolOpt(o, 'no-light', false);
      // The model's names, where --model gave one (electron/batch/ops.ts reads it into these two lists).
      const names = (k: 'modelBones' | 'modelMorphs') => (Array.isArray(o[k]) ? (o[k] as string[]) : undefined);
      const modelBones = names('modelBones'), modelMorphs = names('modelMorphs');
      return (doc, progress) => mirror(doc, { light, ...(modelBones ? { modelBones } : {}), ...(modelMorphs ? { modelMorphs } : {}), ...(progress ? { progress } : {}) });
    }
    case 'trim': {
      const from = numOpt(o, 'from', { integer: true, min: 0, required: true })!;
      const to = numOpt(o, 'to', { integer: true, min: 0 });
      checkOrder(from, to);
      const hold = !boolOpt(o, 'no-hold', false);
      const dropStatic = !boolOpt(o, 'keep-static', false);
      return (doc) => trim(doc, { from, to, hold, dropStatic });
    }
    case 'speed': {
      const factor = numOpt(o, 'factor', { required: true, positive: true })!;
      if (boolOpt(o, 'refit', false)) return prepareFitEdit('speed', o);
      return (doc) => speed(doc, { factor });
    }
    case 'shift': {
      const by = numOpt(o, 'by', { integer: true, required: true })!;
      const clip = boolOpt(o, 'clip', false);
      const hold = !boolOpt(o, 'no-hold', false);
      return (doc) => shift(doc, { by, clip, hold });
    }
    case 'preset': {
      const spec = strOpt(o, 'curve');
      if (!spec) refuse('curve', 'required', {}, '--curve is required (linear, ease-in, ease-out, ease-in-out, mmd-default or x1,y1,x2,y2)');
      const c = parseCurveSpec(spec);
      if (!c.ok) refuseWith('curve', c.error);
      const curve = c.value;
      const channels = channelsOpt(o, 'channels', 'bone') as BoneChannel[] | undefined;
      const cameraChannels = channelsOpt(o, 'camera-channels', 'camera') as CameraChannel[] | undefined;
      const camera = boolOpt(o, 'camera', false) || cameraChannels !== undefined;
      const bones = strOpt(o, 'bones');
      const from = numOpt(o, 'from', { min: 0 });
      const to = numOpt(o, 'to', { min: 0 });
      if (bones !== undefined) {
        const p = namePattern(bones);
        if (!p.ok) refuseWith('bones', p.error);
      }
      return (doc) => preset(doc, { curve, bones, channels, camera, cameraChannels, from, to });
    }
    case 'rename': {
      const text = strOpt(o, 'mapText');
      if (text === undefined) refuse('map', 'required', {}, '--map MAPPING.json|csv is required');
      const fmt = mappingFormatOf(strOpt(o, 'map'));
      if (fmt === null) refuse('map', 'mapFormat');
      const m = parseMapping(text, fmt);
      if (!m.ok) refuseWith('map', m.error);
      const mapping: NameMapping = m.value;
      const morphsToo = boolOpt(o, 'morphs', false);
      return (doc) => rename(doc, mapping, { morphsToo });
    }
    case 'reduce':
    case 'bake':
      return prepareFitEdit(op, o);
    default:
      return null;
  }
}
