/**
 * Batch operations as byte transforms: `prepareOp(op, options)` validates the options once and returns
 * a function from one input file's bytes to the output bytes plus the edit's report. The batch workers,
 * the in-process fallback and the one-file CLI commands all run edits through here, so an option means
 * the same everywhere. The document edits themselves (mirror … rename) and their option checks are
 * shared/batch/doc-edits.ts, which the editor uses too.
 */
import {
  buildTracks,
  inspectMotion,
  inspectVpd,
  readVmd,
  readVpd,
  saveVpd,
  vmdToVpd,
  vpdToVmd,
  writeVmd,
  writeVpd,
  type Diagnostic,
  type Outcome,
  type VmdDocument,
} from '../../shared/vmd';
import { poseAtFrame, reportSummary, type EditResult } from '../../shared/motion-ops';
import { warningFields } from '../../shared/edit-core/report';
import { prepareDocEdit, type DocEdit } from '../../shared/batch/doc-edits';
import type { FitProgress } from '../../shared/fit/motion-fit';
import { boolOpt, checkOptions, numOpt, refuse, type OpOptions, type OptionError } from '../../shared/batch/options';
import { BATCH_OPS, captureExt, type BatchOp } from '../../shared/batch/types';
import type { ModelData } from '../../shared/pmx';
import { loadModelFileSync, modelOptionTakes } from '../fs/model-file';
import { readBvh } from '../../shared/bvh/bvh-reader';
import { importBvh, type ImportOptions, type ImportReport } from '../../shared/bvh/import';
import { motionToVrma, parseExpressionMap, vrmaToMotion } from '../../shared/bvh/vrma';
import { exportBvh } from '../../shared/bvh/export';
import { readVrma, writeVrma } from '../vrma/vrma-io';
import { describeCapture } from '../mocap/capture-info';
import { mocapFormatOfExtension } from '../../shared/ipc/file-types';
import { fileKindByContent, fileKindName, fileKindOfExtension, misnamedError, NEITHER_MOTION_NOR_POSE } from '../../shared/ipc/file-kind';
import { mappingErrorIn, mappingTextFormat, parseMapping } from '../../shared/motion-ops/rename';
import { bakeNameWarnings, bvhMapWarnings, ikBakeNameWarnings, captureWarnings, exportBvhWarnings, exportVrmaWarnings, humanoidExportWarnings, physicsBakeWarnings, physicsOffKeysWarnings, trimRangeWarnings, unknownExpressionWarnings, vrmaMapWarnings, type MapFileInfo } from './op-warnings';
import { standardFigureModel } from '../../shared/skeleton/standard-figure';
import { retarget, retargetOptions, retargetSummary } from '../../shared/retarget';
import { physicsBake } from '../../shared/physics';
import { ikBake } from '../../shared/bake/ik-bake';
import { nodeBulletSync } from '../physics/bullet-node';

export type TaskOutput = Outcome<{ bytes: Uint8Array; report: Record<string, unknown> }>;

export interface PreparedOp {
  op: BatchOp;
  /** File extensions this op reads (lower case, with dot). */
  inputExtensions: string[];
  /** Output file extension for an input extension. */
  outputExtension: (inputExt: string) => string;
  /**
   * One input's output; a format read by an asynchronous library (.vrma) answers a promise. `name`: the
   * input as a warning about it names it (the batch: its file name; a one-file command: as typed).
   * `progress`: told the work done of the total as it goes, by the operations that fit (reduce, bake,
   * speed --refit; the one-file commands show it on stderr, progress.ts).
   */
  run: (bytes: Uint8Array, inputExt: string, name?: string, progress?: FitProgress) => TaskOutput | Promise<TaskOutput>;
}


function fromEdit(r: EditResult): TaskOutput {
  if (!r.ok) return r;
  return { ok: true, value: { bytes: writeVmd(r.value.doc), report: reportSummary(r.value.report) } };
}

/**
 * A VMD operation's input read: a file whose first bytes are another kind (a pose, a model, a PNG under a
 * .vmd name) is an error naming that kind, as in the one-file commands; else readVmd's result.
 */
function readVmdInput(bytes: Uint8Array): ReturnType<typeof readVmd> {
  const kind = fileKindByContent(bytes);
  if (kind !== null && kind !== 'vmd') return { ok: false, error: { code: 'E_VMD_MAGIC', message: `${fileKindName(kind, bytes)}, not a VMD motion`, offset: 0 } };
  return readVmd(bytes);
}

/** `warn`: what the edit did that the user would want to know, said beside the edit's own warnings. */
function vmdOnly(fn: DocEdit, warn?: (doc: VmdDocument) => Diagnostic[]): PreparedOp['run'] {
  return (bytes, _ext, _name, progress) => {
    const d = readVmdInput(bytes);
    if (!d.ok) return d;
    const out = fromEdit(fn(d.value, progress));
    const extra = out.ok && warn ? warn(d.value) : [];
    if (out.ok && extra.length) Object.assign(out.value.report, withWarnings(out.value.report, extra));
    return out;
  };
}

/** A report's warnings and their codes with `more` added (coded, op-warnings.ts). */
function withWarnings(report: Record<string, unknown>, more: readonly Diagnostic[]): { warnings: string[]; warningCodes?: Diagnostic[] } {
  const codes = [...((report.warningCodes as Diagnostic[] | undefined) ?? []), ...more];
  return { warnings: [...((report.warnings as string[] | undefined) ?? []), ...more.map((d) => d.message)], ...(codes.length ? { warningCodes: codes } : {}) };
}

/** The warnings an edit adds to its report (trim: a range that holds no key); options already checked by prepareDocEdit. */
function editWarnings(op: BatchOp, o: OpOptions): ((doc: VmdDocument) => Diagnostic[]) | undefined {
  if (op !== 'trim') return undefined;
  const from = numOpt(o, 'from')!, to = numOpt(o, 'to'), hold = !boolOpt(o, 'no-hold', false);
  return (doc) => trimRangeWarnings(doc, from, to, hold);
}

const same = (ext: string) => ext;

/** VMD bytes → the pose at `frame` as VPD bytes (the `pose` op, and `convert` of a VMD). */
function poseFile(bytes: Uint8Array, frame: number, op: 'pose' | 'convert'): TaskOutput {
  const d = readVmdInput(bytes);
  if (!d.ok) return d;
  const p = poseAtFrame(d.value, frame, op === 'convert' ? 'convert to VPD' : 'pose');
  if (!p.ok) return p;
  return { ok: true, value: { bytes: writeVpd(p.value.pose), report: reportSummary(p.value.report) } };
}

/**
 * A motion edit (mirror) on a pose: the pose as a one-frame motion, edited, written over the pose's own text
 * (saveVpd: only the bones and morphs that changed are rewritten, as MMD writes them; every other line, the
 * header and the line endings stay). A name longer than a VMD's 15 bytes cannot go through the edit: its
 * section is kept as it is, and a warning says so.
 */
function poseEdit(bytes: Uint8Array, edit: DocEdit): TaskOutput {
  const p = readVpd(bytes);
  if (!p.ok) return p;
  const v = vpdToVmd(p.value, { frame: 0, skipLongNames: true });
  if (!v.ok) return v;
  const r = edit(v.value);
  if (!r.ok) return r;
  const pose = vmdToVpd(r.value.doc, buildTracks(r.value.doc), 0);
  const report = reportSummary(r.value.report);
  const skipped = v.diagnostics.filter((d) => d.code === 'W_NAME_SKIPPED').map((d) => ({ code: 'W_NAME_SKIPPED_KEPT', message: `${d.message}: kept as it is`, params: { name: d.params?.name ?? '', kind: d.params?.kind ?? 'bone' } }));
  return { ok: true, value: { bytes: saveVpd(bytes, pose), report: { ...report, ...withWarnings(report, skipped) } } };
}

/**
 * Whether a file of the convert and inspect operations is read as a VMD or a VPD: by its first bytes where
 * they say, else by its extension (a damaged .vmd is a VMD problem, not "not a VPD file"). A file whose
 * bytes are another kind (a model, a capture) is an error naming that kind.
 */
function motionKind(bytes: Uint8Array, ext: string): Outcome<'vmd' | 'vpd'> {
  const kind = fileKindByContent(bytes) ?? fileKindOfExtension(ext);
  if (kind === 'vpd' || kind === 'vmd') return { ok: true, value: kind };
  if (kind === null) return { ok: false, error: { ...NEITHER_MOTION_NOR_POSE } };
  return { ok: false, error: { code: 'E_VMD_MAGIC', message: `${fileKindName(kind, bytes)}, not a VMD motion or a VPD pose` } };
}

/**
 * Validates options and returns the transform, or the first bad option as an error value (the CLI
 * turns it into exit status 2). For `rename`, options.mapText (the mapping file's text) must be filled
 * in by the caller; options.map is only its name.
 */
export function prepareOp(op: BatchOp, o: OpOptions): { ok: true; value: PreparedOp } | { ok: false; error: OptionError } {
  const p = prepareAnyOp(op, o);
  return p.ok && op !== 'inspect' ? { ok: true, value: refusingMisnamed(p.value) } : p;
}

/**
 * An operation that fails a motion or pose named as the other (misnamedError: a .vpd holding a VMD, a .vmd
 * holding a VPD), before reading it. The file's name, not its bytes, chose its output's name (convert: .vpd →
 * .vmd; an edit: the same extension), so taking it as what its bytes say wrote a VPD into a .vmd, a VMD into a
 * .vpd: files MMD and the app refuse. The one-file commands refuse it with the same words (file-kind.ts
 * wrongKindError, load.ts); inspect alone describes it, with a warning.
 */
function refusingMisnamed(p: PreparedOp): PreparedOp {
  return {
    ...p,
    run: (bytes, ext, name, progress) => {
      const misnamed = misnamedError(name ?? `the file${ext}`, bytes);
      return misnamed ? { ok: false, error: misnamed } : p.run(bytes, ext, name, progress);
    },
  };
}

function prepareAnyOp(op: BatchOp, o: OpOptions): { ok: true; value: PreparedOp } | { ok: false; error: OptionError } {
  // Mirror's --model: the model's bone and morph names, by which names in Latin letters pair (as the editor's
  // Mirror pairs them by the actor's model); read once, a bad model a bad option for the whole job.
  if (op === 'mirror' && typeof o.model === 'string' && o.model !== '') {
    const m = checkOptions(() => modelOption(o, 'model'));
    if (!m.ok) return m;
    o = { ...o, modelBones: m.value.bones.map((b) => b.name), modelMorphs: m.value.morphs.map((x) => x.name) };
  }
  const doc = prepareDocEdit(op, o);
  if (doc && doc.ok && op === 'mirror') {
    // Mirror takes poses too (a pose library's most common edit): a .vpd in, a .vpd out.
    const motion = vmdOnly(doc.value);
    const edit = doc.value;
    const run: PreparedOp['run'] = (bytes, ext, name, progress) => ((fileKindByContent(bytes) ?? fileKindOfExtension(ext)) === 'vpd' ? poseEdit(bytes, edit) : motion(bytes, ext, name, progress));
    return { ok: true, value: { op, inputExtensions: ['.vmd', '.vpd'], outputExtension: same, run } };
  }
  if (doc) return doc.ok ? { ok: true, value: { op, inputExtensions: ['.vmd'], outputExtension: same, run: vmdOnly(doc.value, editWarnings(op, o)) } } : doc;
  return checkOptions(() => fileOp(op, o));
}

/**
 * A model option (a .pmx/.pmd path: retarget's --from and --to, the captures' and physics-bake's --model), read
 * and parsed once per worker: an unreadable or bad model is a bad option for the whole job (OptionFailure
 * naming the option and the file).
 */
function modelOption(o: OpOptions, k: 'from' | 'to' | 'model'): ModelData {
  const file = o[k];
  if (typeof file !== 'string' || file === '') return refuse(k, 'required', {}, `--${k} ${k === 'from' ? 'SOURCE' : k === 'to' ? 'TARGET' : 'MODEL'}.pmx is required`);
  const m = loadModelFileSync(file, modelOptionTakes(`--${k}`));
  if (!m.ok) return refuse(k, 'invalid', { detail: `--${k}: ${file}: ${m.error.message}${m.error.offset !== undefined ? ` (at byte ${m.error.offset})` : ''}` });
  return m.value;
}

/** The model an optional model option names, or the standard MMD skeleton when it is absent or empty. */
function modelOrStandard(o: OpOptions, k: 'from' | 'model'): { model: ModelData; standard: boolean } {
  return typeof o[k] === 'string' && o[k] !== '' ? { model: modelOption(o, k), standard: false } : { model: standardFigureModel(), standard: true };
}

/**
 * The options of the capture conversions (import-bvh, import-vrma, export-vrma and their batch
 * operations: the one place they are read), named as on the command line: --map's text (its "morphs" section returned apart, for VRM expressions),
 * --scale, --fps, --foot-ik/--no-foot-ik, --rest rest|first, --origin, --despike, --pos-tol, --rot-tol. Throws OptionFailure.
 */
export function captureOptions(o: OpOptions): { options: ImportOptions; morphs?: Map<string, string>; map?: MapFileInfo } {
  const given = typeof o.map === 'string' && /\.json$/i.test(o.map) ? 'json' : undefined;
  const rows = typeof o.mapText === 'string' ? parseMapping(o.mapText, given) : null;
  // Named as rename's and retarget's maps are (cli/commands/op-options.ts loadMapping): "joints.csv line 2: …".
  if (rows && !rows.ok) return refuse('map', 'invalid', { detail: typeof o.map === 'string' ? mappingErrorIn(o.map, rows.error).message : `--map: ${rows.error.message}` });
  const fps = numOpt(o, 'fps', { positive: true });
  if (fps !== undefined && fps > 10000) return refuse('fps', 'invalid', { detail: `--fps must be at most 10000, got ${fps}` });
  const footIk = boolOpt(o, 'foot-ik', false), noFootIk = boolOpt(o, 'no-foot-ik', false);
  if (footIk && noFootIk) return refuse('foot-ik', 'invalid', { detail: 'give --foot-ik or --no-foot-ik, not both' });
  const rest = o.rest;
  if (rest !== undefined && rest !== 'rest' && rest !== 'first') return refuse('rest', 'invalid', { detail: `--rest must be "rest" or "first", got "${String(rest)}"` });
  const options: ImportOptions = {
    scale: numOpt(o, 'scale', { positive: true }),
    fps,
    footIk: footIk ? true : noFootIk ? false : undefined,
    rest,
    ...(boolOpt(o, 'origin', false) ? { origin: true } : {}),
    ...(boolOpt(o, 'despike', false) ? { despike: true } : {}),
    positionTol: numOpt(o, 'pos-tol', { positive: true }),
    rotationTolDeg: numOpt(o, 'rot-tol', { positive: true }),
    ...(rows ? { map: rows.value.bones } : {}),
  };
  if (!rows) return { options };
  const map: MapFileInfo = { name: typeof o.map === 'string' ? o.map : '', format: mappingTextFormat(o.mapText as string, given), bones: rows.value.bones.size, morphs: rows.value.morphs };
  return { options, morphs: rows.value.morphs, map };
}

/**
 * A capture import's VMD and its report line (the counts import-bvh --json gives, and what was left out):
 * `file`, the input as its reader's warnings name it; `more`, warnings of the conversion's options (--map).
 */
function captureOutput(edit: 'import-bvh' | 'import-vrma', standard: boolean, r: Outcome<{ doc: VmdDocument; report: ImportReport & { morphKeys?: number } }>, file: string, read: readonly Diagnostic[] = [], more: readonly Diagnostic[] = []): TaskOutput {
  if (!r.ok) return r;
  const x = r.value.report;
  const warnings = warningFields([...captureWarnings(file, read, x, { standard, lists: true }), ...more]);
  const morphKeys = x.morphKeys === undefined ? {} : { morphKeys: x.morphKeys };
  return {
    ok: true,
    value: {
      bytes: writeVmd(r.value.doc),
      report: { edit, frames: x.frames, captureFps: x.captureFps, lastFrame: x.lastFrame, map: x.map, mapped: x.mapped.length, keysRaw: x.keysRaw, keysKept: x.keysKept, ...morphKeys, footIk: x.footIk, contacts: x.contacts, scale: x.scale, maxPositionError: x.maxPositionError, maxRotationErrorDeg: x.maxRotationErrorDeg, ...warnings },
    },
  };
}

/** The operations that write another kind of file (pose, convert, inspect, retarget); throws OptionFailure for a bad option. */
function fileOp(op: BatchOp, o: OpOptions): PreparedOp {
  switch (op) {
    case 'pose': {
      const frame = numOpt(o, 'frame', { min: 0 }) ?? 0;
      return {
        op,
        inputExtensions: ['.vmd'],
        outputExtension: () => '.vpd',
        run: (bytes) => poseFile(bytes, frame, 'pose'),
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
          const kind = motionKind(bytes, ext);
          if (!kind.ok) return kind;
          if (kind.value === 'vpd') {
            const p = readVpd(bytes);
            if (!p.ok) return p;
            const v = vpdToVmd(p.value, { frame: Math.round(frame), skipLongNames });
            if (!v.ok) return v;
            return { ok: true, value: { bytes: writeVmd(v.value), report: { edit: 'convert', bones: v.value.bone.count, morphs: v.value.morph.count, ...warningFields(v.diagnostics) } } };
          }
          return poseFile(bytes, frame, 'convert');
        },
      };
    }
    case 'inspect': {
      return {
        op,
        inputExtensions: ['.vmd', '.vpd', '.bvh', '.vrma'],
        outputExtension: () => '.json',
        run: (bytes, ext) => {
          // A file's description as pretty JSON, and its report line.
          const json = (info: object, report: Record<string, unknown>): TaskOutput => ({ ok: true, value: { bytes: new TextEncoder().encode(JSON.stringify(info, null, 2) + '\n'), report: { edit: 'inspect', ...report } } });
          const capture = mocapFormatOfExtension(ext);
          if (capture) {
            // A capture: what `vmd-studio inspect` says of it (electron/mocap/capture-info.ts).
            return describeCapture(bytes, capture).then((c): TaskOutput => {
              if (!c.ok) return c;
              const info = c.value;
              return json(info, info.format === 'bvh' ? { kind: 'bvh', frames: info.frames, fps: info.fps, lastFrame: info.lastFrame, joints: info.joints.length } : { kind: 'vrma', lastFrame: info.lastFrame, humanBones: info.humanBones.length, expressions: info.expressions.length });
            });
          }
          const kind = motionKind(bytes, ext);
          if (!kind.ok) return kind;
          if (kind.value === 'vpd') {
            const p = readVpd(bytes);
            if (!p.ok) return p;
            const info = inspectVpd(p.value, p.diagnostics);
            return json(info, { kind: info.kind, bone: info.counts.bone, morph: info.counts.morph });
          }
          const d = readVmd(bytes);
          if (!d.ok) return d;
          // As `vmd-studio inspect --json` says it: with every note (where the display/IK keys turn IK off and hide
          // the model among them), also as the report's warnings, which the Batch dialog's rows say in the UI's language.
          const { info, notes } = inspectMotion(d.value, buildTracks(d.value), d.diagnostics);
          return json(info, { kind: info.kind, lastFrame: info.lastFrame, ...info.counts, ...warningFields(notes) });
        },
      };
    }
    case 'physics-bake':
      return physicsBakeOp(o);
    case 'ik-bake':
      return ikBakeOp(o);
    case 'import-bvh':
    case 'import-vrma': {
      const { options: opts, morphs, map } = captureOptions(o);
      const { model, standard } = modelOrStandard(o, 'model');
      const expressions = parseExpressionMap(morphs);
      return {
        op,
        inputExtensions: [captureExt(op)!],
        outputExtension: () => '.vmd',
        run:
          op === 'import-bvh'
            ? (bytes, _ext, name = 'the input') => {
                const b = readBvh(bytes, { fps: opts.fps });
                return b.ok ? captureOutput(op, standard, importBvh(b.value, model, opts), name, b.diagnostics, bvhMapWarnings(map)) : b;
              }
            : async (bytes, _ext, name = 'the input') => {
                const v = await readVrma(bytes);
                return v.ok ? captureOutput(op, standard, vrmaToMotion(v.value, model, { ...opts, expressions }), name, [], [...vrmaMapWarnings(op, map), ...unknownExpressionWarnings(map, v.value.expressions)]) : v;
              },
      };
    }
    case 'export-bvh':
    case 'export-vrma': {
      const { morphs, map } = captureOptions(o);
      const { model, standard } = modelOrStandard(o, 'model');
      const expressions = parseExpressionMap(morphs);
      return {
        op,
        inputExtensions: ['.vmd'],
        outputExtension: () => (op === 'export-bvh' ? '.bvh' : '.vrma'),
        run:
          op === 'export-bvh'
            ? (bytes) => {
                const d = readVmdInput(bytes);
                if (!d.ok) return d;
                const r = exportBvh(d.value, model);
                if (!r.ok) return r;
                const x = r.value.report;
                return { ok: true, value: { bytes: new TextEncoder().encode(r.value.text), report: { edit: op, frames: x.frames, joints: x.joints.length, missingBones: x.missingBones.length, ...warningFields([...exportBvhWarnings(d.value, model, standard), ...humanoidExportWarnings(x)]) } } };
              }
            : async (bytes) => {
                const d = readVmdInput(bytes);
                if (!d.ok) return d;
                const r = motionToVrma(d.value, model, { expressions });
                if (!r.ok) return r;
                const x = r.value.report;
                return { ok: true, value: { bytes: await writeVrma(r.value.vrma), report: { edit: op, frames: x.frames, bones: x.bones.length, expressions: x.expressions.length, ...warningFields([...exportVrmaWarnings(d.value, model, standard, x.expressions.length), ...vrmaMapWarnings(op, map), ...humanoidExportWarnings(x)]) } } };
              },
      };
    }
    case 'retarget': {
      const opts = retargetOptions(o);
      // No --from: the motions are taken as made for the standard MMD skeleton.
      const from = modelOrStandard(o, 'from').model, to = modelOption(o, 'to');
      return {
        op,
        inputExtensions: ['.vmd'],
        outputExtension: same,
        run: (bytes) => {
          const d = readVmdInput(bytes);
          if (!d.ok) return d;
          const r = retarget(d.value, from, to, opts);
          if (!r.ok) return r;
          return { ok: true, value: { bytes: writeVmd(r.value.doc), report: retargetSummary(r.value) } };
        },
      };
    }
    default:
      return refuse('op', 'invalid', { detail: `unknown batch operation "${String(op)}": use ${BATCH_OPS.join(', ')}` });
  }
}


/**
 * physics-bake's --warmup: "all" (or left out: from frame 0, the default) or a whole number of frames ≥ 0, as the
 * one-file command takes it (cli/commands/physics-bake.ts). Throws OptionFailure.
 */
function warmupOpt(o: OpOptions): number | 'all' | undefined {
  const v = o.warmup;
  if (v === undefined || v === 'all') return v;
  return numOpt(o, 'warmup', { integer: true, min: 0 });
}

/**
 * physics-bake's --resimulate / --no-resimulate: neither is 'auto' (a previous bake of exactly the bones baked is
 * simulated again), as the one-file command and Bake physics… default to, so a batch writes their bytes.
 */
function resimulateOpt(o: OpOptions): boolean | 'auto' {
  const on = boolOpt(o, 'resimulate', false), off = boolOpt(o, 'no-resimulate', false);
  if (on && off) return refuse('resimulate', 'invalid', { detail: 'give --resimulate or --no-resimulate, not both' });
  return on ? true : off ? false : 'auto';
}

/**
 * `physics-bake`: one model (read once, here, as the worker prepares) simulated under every motion. Bullet is
 * made synchronously from its wasm file (prepareOp is synchronous). Throws OptionFailure for a bad option.
 */
function physicsBakeOp(o: OpOptions): PreparedOp {
  const model = modelOption(o, 'model');
  const from = numOpt(o, 'from', { min: 0 });
  const to = numOpt(o, 'to', { min: 0 });
  const warmup = warmupOpt(o);
  const raw = boolOpt(o, 'raw', false);
  const resimulate = resimulateOpt(o);
  const posTol = numOpt(o, 'pos-tol', { positive: true });
  const rotTol = numOpt(o, 'rot-tol', { positive: true });
  const bullet = nodeBulletSync();
  return {
    op: 'physics-bake',
    inputExtensions: ['.vmd'],
    outputExtension: same,
    run: (input) => {
      const d = readVmdInput(input);
      if (!d.ok) return d;
      const r = physicsBake(bullet, model, d.value, { from, to, warmup, raw, resimulate, positionTolerance: posTol, rotationToleranceDeg: rotTol });
      if (!r.ok) return r;
      const { bones, namesTooLong, ikNamesTooLong, ikOff, ...figures } = r.value.report;
      return {
        ok: true,
        value: {
          bytes: writeVmd(r.value.doc),
          report: { edit: 'physics-bake', ...figures, worst: figures.worst ? `${figures.worst.bone} @${figures.worst.frame}` : null, worstSeen: figures.worstSeen ? `${figures.worstSeen.bone} @${figures.worstSeen.frame}` : null, bakedBones: bones.length, ikOff: ikOff.join(', '), ...warningFields([...physicsBakeWarnings(d.value, model), ...physicsOffKeysWarnings(r.value.report), ...bakeNameWarnings({ namesTooLong, ikNamesTooLong })]) },
        },
      };
    },
  };
}

/**
 * `ik-bake`: one model (read once, here, as the worker prepares) whose IK is baked under every motion
 * (shared/bake/ik-bake.ts, as `vmd-studio ik-bake` and Bake IK to FK… run it). Throws OptionFailure for a bad option.
 */
function ikBakeOp(o: OpOptions): PreparedOp {
  const model = modelOption(o, 'model');
  const from = numOpt(o, 'from', { integer: true, min: 0 });
  const to = numOpt(o, 'to', { integer: true, min: 0 });
  if (from !== undefined && to !== undefined && to < from) return refuse('to', 'invalid', { detail: `--to (${to}) must not be before --from (${from})` });
  const raw = boolOpt(o, 'raw', false);
  const rotTol = numOpt(o, 'rot-tol', { positive: true });
  const bones = typeof o.bones === 'string' && o.bones.trim() !== '' ? o.bones.split(/[,、，]/).map((s) => s.trim()).filter(Boolean) : undefined;
  return {
    op: 'ik-bake',
    inputExtensions: ['.vmd'],
    outputExtension: same,
    run: (input) => {
      const d = readVmdInput(input);
      if (!d.ok) return d;
      const r = ikBake(model, d.value, { from, to, bones, raw, rotationToleranceDeg: rotTol });
      if (!r.ok) return r;
      const { bones: keyed, namesTooLong, ikNamesTooLong, ikOff, worst, ...figures } = r.value.report;
      return {
        ok: true,
        value: {
          bytes: writeVmd(r.value.doc),
          report: { edit: 'ik-bake', ...figures, worst: worst ? `${worst.bone} @${worst.frame}` : null, bakedBones: keyed.length, ikOff: ikOff.join(', '), ...warningFields(ikBakeNameWarnings({ namesTooLong, ikNamesTooLong })) },
        },
      };
    },
  };
}
