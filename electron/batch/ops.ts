/**
 * Batch operations as byte transforms: `prepareOp(op, options)` validates the options once and returns
 * a function from one input file's bytes to the output bytes plus the edit's report. The batch workers,
 * the in-process fallback and the one-file CLI commands all run edits through here, so an option means
 * the same everywhere. Options are spelled as on the command line without dashes; values may be
 * strings (CLI) or numbers/booleans (UI).
 */
import {
  buildTracks,
  emptyVmd,
  inspectVmd,
  inspectVpd,
  isVmd,
  readVmd,
  readVpd,
  vpdToVmd,
  writeVmd,
  writeVpd,
  type CodecError,
} from '../../shared/vmd';
import {
  mirror,
  parseChannels,
  parseCurveSpec,
  parseMapping,
  poseAtFrame,
  preset,
  rename,
  reportSummary,
  shift,
  speed,
  trim,
  type EditResult,
  type NameMapping,
} from '../../shared/edits';
import type { BoneChannel, CameraChannel } from '../../shared/vmd/interpolation';
import type { BatchOp } from '../../shared/batch/types';

export type OpOptions = Record<string, string | number | boolean | string[]>;

export type TaskOutput = { ok: true; bytes: Uint8Array; report: Record<string, unknown> } | { ok: false; error: CodecError };

export interface PreparedOp {
  op: BatchOp;
  /** File extensions this op reads (lower case, with dot). */
  inputExtensions: string[];
  /** Output file extension for an input extension. */
  outputExtension: (inputExt: string) => string;
  run: (bytes: Uint8Array, inputExt: string) => TaskOutput;
}

export const BATCH_OPS: readonly BatchOp[] = ['mirror', 'trim', 'speed', 'shift', 'preset', 'rename', 'convert', 'pose', 'inspect'];

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

function fromEdit(r: EditResult): TaskOutput {
  if (!r.ok) return r;
  return { ok: true, bytes: writeVmd(r.doc), report: reportSummary(r.report) };
}

function vmdOnly(fn: (doc: import('../../shared/vmd').VmdDocument) => EditResult): PreparedOp['run'] {
  return (bytes) => {
    const d = readVmd(bytes);
    if (!d.ok) return d;
    return fromEdit(fn(d.value));
  };
}

const same = (ext: string) => ext;

/** VMD bytes → the pose at `frame` as VPD bytes (the `pose` op, and `convert` of a VMD). */
function poseFile(bytes: Uint8Array, frame: number): TaskOutput {
  const d = readVmd(bytes);
  if (!d.ok) return d;
  const p = poseAtFrame(d.value, frame);
  if (!p.ok) return p;
  return { ok: true, bytes: writeVpd(p.pose), report: reportSummary(p.report) };
}

/** An empty document, only for validating preset options up front. */
const emptyProbe = emptyVmd('');

/**
 * Validates options and returns the transform. Throws OpOptionError for bad options (the CLI turns it
 * into exit status 2). For `rename`, options.mapText (the mapping file's text) must be filled in by the
 * caller; options.map is only its name.
 */
export function prepareOp(op: BatchOp, o: OpOptions): PreparedOp {
  const vmdOp = (run: PreparedOp['run']): PreparedOp => ({ op, inputExtensions: ['.vmd'], outputExtension: same, run });
  switch (op) {
    case 'mirror': {
      const light = !boolOpt(o, 'no-light', false);
      return vmdOp(vmdOnly((doc) => mirror(doc, { light })));
    }
    case 'trim': {
      const from = numOpt(o, 'from', { integer: true, min: 0, required: true })!;
      const to = numOpt(o, 'to', { integer: true, min: 0 });
      if (to !== undefined && to < from) throw new OpOptionError(`--to (${to}) must not be before --from (${from})`);
      const hold = !boolOpt(o, 'no-hold', false);
      const dropStatic = !boolOpt(o, 'keep-static', false);
      return vmdOp(vmdOnly((doc) => trim(doc, { from, to, hold, dropStatic })));
    }
    case 'speed': {
      const factor = numOpt(o, 'factor', { required: true })!;
      if (!(factor > 0)) throw new OpOptionError(`--factor must be greater than 0, got ${factor}`);
      return vmdOp(vmdOnly((doc) => speed(doc, { factor })));
    }
    case 'shift': {
      const by = numOpt(o, 'by', { integer: true, required: true })!;
      const clip = boolOpt(o, 'clip', false);
      const hold = !boolOpt(o, 'no-hold', false);
      return vmdOp(vmdOnly((doc) => shift(doc, { by, clip, hold })));
    }
    case 'preset': {
      const spec = strOpt(o, 'curve');
      if (!spec) throw new OpOptionError('--curve is required (linear, ease-in, ease-out, ease-in-out, mmd-default or x1,y1,x2,y2)');
      const c = parseCurveSpec(spec);
      if ('error' in c) throw new OpOptionError(c.error);
      const chSpec = strOpt(o, 'channels');
      let channels: BoneChannel[] | undefined;
      if (chSpec) {
        const p = parseChannels(chSpec, 'bone');
        if ('error' in p) throw new OpOptionError(p.error);
        channels = p.channels as BoneChannel[];
      }
      const camSpec = strOpt(o, 'camera-channels');
      let cameraChannels: CameraChannel[] | undefined;
      if (camSpec) {
        const p = parseChannels(camSpec, 'camera');
        if ('error' in p) throw new OpOptionError(p.error);
        cameraChannels = p.channels as CameraChannel[];
      }
      const camera = boolOpt(o, 'camera', false) || cameraChannels !== undefined;
      const bones = strOpt(o, 'bones');
      const from = numOpt(o, 'from', { min: 0 });
      const to = numOpt(o, 'to', { min: 0 });
      const probe = preset(emptyProbe, { curve: c.curve, bones, camera });
      if (!probe.ok) throw new OpOptionError(probe.error.message);
      return vmdOp(vmdOnly((doc) => preset(doc, { curve: c.curve, bones, channels, camera, cameraChannels, from, to })));
    }
    case 'rename': {
      const text = strOpt(o, 'mapText');
      if (text === undefined) throw new OpOptionError('--map MAPPING.json|csv is required');
      const fmt = strOpt(o, 'map')?.toLowerCase().endsWith('.csv') ? 'csv' : strOpt(o, 'map')?.toLowerCase().endsWith('.json') ? 'json' : undefined;
      const m = parseMapping(text, fmt);
      if ('error' in m) throw new OpOptionError(m.error);
      const mapping: NameMapping = m.mapping;
      const morphsToo = boolOpt(o, 'morphs', false);
      return vmdOp(vmdOnly((doc) => rename(doc, mapping, { morphsToo })));
    }
    case 'pose': {
      const frame = numOpt(o, 'frame', { min: 0 }) ?? 0;
      return {
        op,
        inputExtensions: ['.vmd'],
        outputExtension: () => '.vpd',
        run: (bytes) => poseFile(bytes, frame),
      };
    }
    case 'convert': {
      const frame = numOpt(o, 'frame', { min: 0 }) ?? 0;
      const skipLongNames = boolOpt(o, 'skip-long-names', false);
      return {
        op,
        inputExtensions: ['.vmd', '.vpd'],
        outputExtension: (ext) => (ext === '.vpd' ? '.vmd' : '.vpd'),
        run: (bytes, ext) => {
          if (ext === '.vpd' || !isVmd(bytes)) {
            const p = readVpd(bytes);
            if (!p.ok) return p;
            const v = vpdToVmd(p.value, { frame: Math.round(frame), skipLongNames });
            if (!v.ok) return v;
            return { ok: true, bytes: writeVmd(v.value), report: { edit: 'convert', bones: v.value.bone.count, morphs: v.value.morph.count, warnings: v.diagnostics.map((x) => x.message) } };
          }
          return poseFile(bytes, frame);
        },
      };
    }
    case 'inspect': {
      return {
        op,
        inputExtensions: ['.vmd', '.vpd'],
        outputExtension: () => '.json',
        run: (bytes) => {
          if (!isVmd(bytes)) {
            const p = readVpd(bytes);
            if (!p.ok) return p;
            const info = inspectVpd(p.value, p.diagnostics);
            return {
              ok: true,
              bytes: new TextEncoder().encode(JSON.stringify(info, null, 2) + '\n'),
              report: { edit: 'inspect', kind: info.kind, bone: info.counts.bone, morph: info.counts.morph },
            };
          }
          const d = readVmd(bytes);
          if (!d.ok) return d;
          const info = inspectVmd(d.value, buildTracks(d.value), d.diagnostics);
          return {
            ok: true,
            bytes: new TextEncoder().encode(JSON.stringify(info, null, 2) + '\n'),
            report: { edit: 'inspect', kind: info.kind, lastFrame: info.lastFrame, ...info.counts },
          };
        },
      };
    }
    default:
      throw new OpOptionError(`unknown batch operation "${String(op)}": use ${BATCH_OPS.join(', ')}`);
  }
}

