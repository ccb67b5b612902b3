/**
 * The batch operations that transform one motion (mirror, trim, speed, shift, preset, rename) as
 * document edits, with their options validated once. The batch engine, the one-file CLI commands and
 * the editor (applied to the open motion as one undo step) all run them through `prepareDocEdit`, so
 * an option means the same everywhere. Options are spelled as on the command line without dashes;
 * values may be strings (CLI) or numbers/booleans (UI).
 */
import { emptyVmd, type VmdDocument } from '../vmd';
import { mirror, parseChannels, parseCurveSpec, parseMapping, preset, rename, shift, speed, trim, type EditResult, type NameMapping } from '../edits';
import type { BoneChannel, CameraChannel } from '../vmd/interpolation';
import type { BatchOp } from './types';
import { FitOptionError, prepareFitEdit } from '../fit/fit-ops';

export type OpOptions = Record<string, string | number | boolean | string[]>;

export class OpOptionError extends Error {}

function raw(o: OpOptions, k: string): string | number | boolean | string[] | undefined {
  return o[k];
}

/** A numeric option, or undefined; throws OpOptionError on anything else. */
export function numOpt(o: OpOptions, k: string, what: { integer?: boolean; min?: number; required?: boolean } = {}): number | undefined {
  let v = raw(o, k);
  if (Array.isArray(v)) v = v[v.length - 1];
  if (v === undefined || v === '') {
    if (what.required) throw new OpOptionError(`--${k} is required`);
    return undefined;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new OpOptionError(`--${k} must be a number, got "${String(v)}"`);
  if (what.integer && !Number.isInteger(n)) throw new OpOptionError(`--${k} must be a whole number, got "${String(v)}"`);
  if (what.min !== undefined && n < what.min) throw new OpOptionError(`--${k} must be at least ${what.min}, got "${String(v)}"`);
  return n;
}

export function strOpt(o: OpOptions, k: string): string | undefined {
  const v = raw(o, k);
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v[v.length - 1];
  return String(v);
}

export function boolOpt(o: OpOptions, k: string, dflt: boolean): boolean {
  const v = raw(o, k);
  if (v === undefined) return dflt;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  throw new OpOptionError(`--${k} must be true or false, got "${String(v)}"`);
}

/** A channel list option (x,y,z,r …) of bone or camera curves, or undefined when not given. */
function channelsOpt(o: OpOptions, k: string, kind: 'bone' | 'camera'): number[] | undefined {
  const spec = strOpt(o, k);
  if (!spec) return undefined;
  const p = parseChannels(spec, kind);
  if ('error' in p) throw new OpOptionError(p.error);
  return p.channels;
}

/** An edit of one document. */
export type DocEdit = (doc: VmdDocument) => EditResult;

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

export const DOC_EDIT_OPS: readonly BatchOp[] = ['mirror', 'trim', 'speed', 'shift', 'preset', 'rename', 'reduce', 'bake'];

/** reduce, bake and speed --refit (shared/fit), their option errors as OpOptionError. */
function fitEdit(op: 'reduce' | 'bake' | 'speed', o: OpOptions): DocEdit {
  try {
    return prepareFitEdit(op, o);
  } catch (e) {
    if (e instanceof FitOptionError) throw new OpOptionError(e.message);
    throw e;
  }
}

/** An empty document, only for validating preset options up front. */
const emptyProbe = emptyVmd('');

/**
 * Validates the options of a document-edit operation and returns the edit; null for operations that
 * are not document edits. Throws OpOptionError for bad options. For `rename`, options.mapText (the
 * mapping file's text) must be filled in by the caller; options.map is only its name.
 */
export function prepareDocEdit(op: BatchOp, o: OpOptions): DocEdit | null {
  switch (op) {
    case 'mirror': {
      const light = !boolOpt(o, 'no-light', false);
      return (doc) => mirror(doc, { light });
    }
    case 'trim': {
      const from = numOpt(o, 'from', { integer: true, min: 0, required: true })!;
      const to = numOpt(o, 'to', { integer: true, min: 0 });
      if (to !== undefined && to < from) throw new OpOptionError(`--to (${to}) must not be before --from (${from})`);
      const hold = !boolOpt(o, 'no-hold', false);
      const dropStatic = !boolOpt(o, 'keep-static', false);
      return (doc) => trim(doc, { from, to, hold, dropStatic });
    }
    case 'speed': {
      const factor = numOpt(o, 'factor', { required: true })!;
      if (!(factor > 0)) throw new OpOptionError(`--factor must be greater than 0, got ${factor}`);
      if (boolOpt(o, 'refit', false)) return fitEdit('speed', o);
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
      if (!spec) throw new OpOptionError('--curve is required (linear, ease-in, ease-out, ease-in-out, mmd-default or x1,y1,x2,y2)');
      const c = parseCurveSpec(spec);
      if ('error' in c) throw new OpOptionError(c.error);
      const channels = channelsOpt(o, 'channels', 'bone') as BoneChannel[] | undefined;
      const cameraChannels = channelsOpt(o, 'camera-channels', 'camera') as CameraChannel[] | undefined;
      const camera = boolOpt(o, 'camera', false) || cameraChannels !== undefined;
      const bones = strOpt(o, 'bones');
      const from = numOpt(o, 'from', { min: 0 });
      const to = numOpt(o, 'to', { min: 0 });
      const probe = preset(emptyProbe, { curve: c.curve, bones, camera });
      if (!probe.ok) throw new OpOptionError(probe.error.message);
      return (doc) => preset(doc, { curve: c.curve, bones, channels, camera, cameraChannels, from, to });
    }
    case 'rename': {
      const text = strOpt(o, 'mapText');
      if (text === undefined) throw new OpOptionError('--map MAPPING.json|csv is required');
      const fmt = mappingFormatOf(strOpt(o, 'map'));
      if (fmt === null) throw new OpOptionError('--map must name a .csv or .json file');
      const m = parseMapping(text, fmt);
      if ('error' in m) throw new OpOptionError(m.error);
      const mapping: NameMapping = m.mapping;
      const morphsToo = boolOpt(o, 'morphs', false);
      return (doc) => rename(doc, mapping, { morphsToo });
    }
    case 'reduce':
    case 'bake':
      return fitEdit(op, o);
    default:
      return null;
  }
}
