/**
 * Motion capture and other programs' formats: `import-bvh` (BVH onto a model → VMD), `export-bvh`
 * (a VMD played on a model, IK solved → BVH), `import-vrma` and `export-vrma` (VRM Animation). The
 * conversions are shared/bvh's; the glTF container is read and written by electron/vrma (gltf-transform).
 * Exit status: 0 written, 1 a file failed, 2 bad arguments. The output is never one of the inputs and an
 * existing output is kept unless --overwrite; every write is atomic.
 */
import path from 'node:path';
import { writeOutput } from '../output';
import { outputRefusal, readInputBytes, sameFile } from '../../fs/files';
import { readVmd, writeVmd, type CodecError, type VmdDocument } from '../../../shared/vmd';
import type { ModelData } from '../../../shared/pmx';
import { loadModelFile, modelOptionTakes } from '../../fs/model-file';
import { readBvh } from '../../../shared/bvh/bvh-reader';
import { importBvh, reportFrame, type ImportReport } from '../../../shared/bvh/import';
import type { Diagnostic } from '../../../shared/vmd';
import { bvhMapWarnings, captureWarnings, exportBvhWarnings, exportVrmaWarnings, humanoidExportWarnings, unknownExpressionWarnings, vrmaMapWarnings } from '../../batch/op-warnings';
import { exportBvh } from '../../../shared/bvh/export';
import { optValue, parseArgs, UsageError, type ParsedArgs, oneInputError, outputRequired } from '../args';
import type { CliIo, CommandInfo } from '../io';
import { displayPath, formatCount, formatMeasure } from '../format';
import { plural } from '../../../shared/i18n/plural';
import { guarded } from '../signals';
import { cliProgress } from '../progress';
import { failWith, jsonSuccess, printWarnings } from './edit-output';
import { warningFields } from '../../../shared/edit-core/report';
import { wrongKindError, type Wanted } from '../file-kind';
import { readVrma, writeVrma } from '../../vrma/vrma-io';
import { captureOptions } from '../../batch/ops';
import { checkOptions } from '../../../shared/batch/options';
import { loadMapping, optionsFromArgs } from './op-options';
import { vrmaToMotion, motionToVrma, parseExpressionMap, DEFAULT_EXPRESSION_MAP } from '../../../shared/bvh/vrma';

type Loaded<T> = { ok: true; value: T } | { ok: false; error: CodecError };

/** Input, model and output paths, checked: the output must differ from both inputs. No --model: null, the standard skeleton. */
async function paths(a: ParsedArgs, io: CliIo, outExt: string): Promise<{ input: string; model: string | null; output: string; givens: string[] }> {
  if (a.positionals.length !== 1) throw oneInputError();
  const outArg = optValue(a, 'output');
  if (!outArg) throw outputRequired();
  const modelArg = optValue(a, 'model');
  if (modelArg === '') throw new UsageError('--model needs a .pmx or .pmd file (leave it out for the standard MMD skeleton)');
  const input = path.resolve(io.cwd, a.positionals[0]);
  const model = modelArg === undefined ? null : path.resolve(io.cwd, modelArg);
  const output = path.resolve(io.cwd, outArg);
  if (path.extname(output).toLowerCase() !== outExt) throw new UsageError(`-o must name a ${outExt} file`);
  if ((await sameFile(input, output)) || (model !== null && (await sameFile(model, output)))) throw new UsageError('the output must be a different file (inputs are never modified)');
  return { input, model, output, givens: [a.positionals[0], ...(modelArg === undefined ? [] : [modelArg]), outArg] };
}

async function writeOut(io: CliIo, a: ParsedArgs, output: string, bytes: Uint8Array, givens: string[]): Promise<number | null> {
  const w = await writeOutput(output, bytes, a.flags.has('overwrite'));
  if (!w.ok) return failWith(io, w.error, output, givens);
  return null;
}

/**
 * The capture options given (those `names` lists), read by the one reader batch import-bvh uses
 * (electron/batch/ops.ts captureOptions); --map's file is read first. Bad options: a UsageError.
 */
async function captureArgs(a: ParsedArgs, io: CliIo, names: { values: string[]; flags: string[] }): Promise<ReturnType<typeof captureOptions>> {
  const o = optionsFromArgs(a, names);
  if (o.map === '') throw new UsageError('--map needs a .csv or .json file');
  await loadMapping(o, io);
  if (typeof o.map === 'string') o.map = optValue(a, 'map')!;
  const c = checkOptions(() => captureOptions(o));
  if (!c.ok) throw new UsageError(c.error.message);
  return c.value;
}

function importLine(r: ImportReport): string {
  const unm = r.unmappedJoints.length ? `, unmapped ${r.unmappedJoints.length} (${r.unmappedJoints.join(' ')})` : '';
  return (
    `${plural(formatCount(r.frames), 'frame')} at ${formatMeasure(r.captureFps)} fps → 0–${r.lastFrame}; map ${r.map}: ${r.mapped.length} joints mapped${unm}; ` +
    `keys ${formatCount(r.keysRaw)} → ${formatCount(r.keysKept)}; ` +
    (r.footIk ? `foot IK, ${formatCount(r.contacts)} contacts; ` : 'no foot IK; ') +
    `scale ${formatMeasure(r.scale)}; max error ${formatMeasure(r.maxPositionError)} / ${formatMeasure(r.maxRotationErrorDeg)}° at output frames, ${formatMeasure(r.maxPositionErrorAllFrames)} / ${formatMeasure(r.maxRotationErrorDegAllFrames)}° at every capture frame ` +
    // Where that is, so that the person can look there (a capture glitch shows here first).
    `(${r.maxRotationErrorAt && r.maxRotationErrorDegAllFrames > 0 ? `largest at ${r.maxRotationErrorAt.bone}, frame ${reportFrame(r.maxRotationErrorAt.frame)}; ` : ''}` +
    // Not a part of the error before it: how far the capture itself strays between its own poses at the output
    // frames either side, measured on the capture alone. The fit may be off by its tolerance at those frames, so
    // the error between them can come that much nearer than this figure (ImportReport.unreachablePosition).
    `the capture itself strays up to ${formatMeasure(r.unreachablePosition)} / ${formatMeasure(r.unreachableRotationDeg)}° off the path between its poses at the output frames either side, turning back or off its arc within one output frame: keys on whole frames follow that only as near as the tolerance lets them)`
  );
}

/** An import's --json: its report with the English warning lines (the codes are for the lines said on stderr). */
function importJson(r: ImportReport, warnings: readonly Diagnostic[]): object {
  const { warningCodes: _codes, ...rest } = r;
  return { ...rest, warnings: warnings.map((w) => w.message) };
}

const COMMON_FLAGS = ['overwrite', 'json', 'quiet'];

type Paths = Awaited<ReturnType<typeof paths>>;


/**
 * What every command here does around its conversion, in order: an existing output is refused (unless
 * --overwrite); the input is read and `parse`d and the model loaded (each failure names its file); `convert`
 * runs (its failure names the input); its `bytes` are written atomically; then the report: --json the paths
 * and `report(value).json`, else (unless --quiet) one line "name: OUT: line"; its warnings on stderr. The exit status.
 */
async function convertFile<I, V>(
  io: CliIo,
  a: ParsedArgs,
  p: Paths,
  name: string,
  steps: {
    /** What the input must be: another kind of file is said as such (electron/cli/file-kind.ts). */
    takes: Wanted;
    parse: (bytes: Uint8Array) => Loaded<I> | Promise<Loaded<I>>;
    convert: (input: I, model: ModelData) => Loaded<V>;
    bytes: (value: V) => Uint8Array | Promise<Uint8Array>;
    /** `warnings`: coded (op-warnings.ts), their English lines in `json`, said in the CLI's language on stderr. */
    report: (value: V) => { json: object; line: string; warnings?: readonly Diagnostic[] };
  },
): Promise<number> {
  const refused = await outputRefusal(p.output, a.flags.has('overwrite'));
  if (refused) return failWith(io, refused, p.output, p.givens);
  const b = await readInputBytes(p.input);
  if (!b.ok) return failWith(io, b.error, p.input, p.givens);
  const wrong = wrongKindError(p.input, b.value, steps.takes, name, p.givens[0], '--model');
  if (wrong) return failWith(io, wrong, p.input, p.givens);
  const input = await steps.parse(b.value);
  if (!input.ok) return failWith(io, input.error, p.input, p.givens);
  const model = await loadModelFile(p.model, modelOptionTakes('--model'));
  if (!model.ok) return failWith(io, model.error, p.model!, p.givens);
  const r = steps.convert(input.value, model.value);
  if (!r.ok) return failWith(io, r.error, p.input, p.givens);
  const failed = await writeOut(io, a, p.output, await steps.bytes(r.value), p.givens);
  if (failed !== null) return failed;
  const rep = steps.report(r.value);
  if (a.flags.has('json')) jsonSuccess(io, { input: p.input, model: p.model, output: p.output, ...rep.json });
  else if (!a.flags.has('quiet')) io.stdout(`${name}: ${displayPath(p.output, optValue(a, 'output')!, io.cwd)}: ${rep.line}\n`);
  printWarnings(io, warningFields(rep.warnings ?? []), displayPath(p.input, p.givens[0], io.cwd), p.model && optValue(a, 'model') ? displayPath(p.model, optValue(a, 'model')!, io.cwd) : null);
  return 0;
}

export const importBvhCommand: CommandInfo = {
  summary: 'BVH motion capture onto a PMX/PMD model → VMD (mapped, rest-aligned, feet planted, fitted to 30 fps)',
  usage: `vmd-studio import-bvh IN.bvh [--model MODEL.pmx|.pmd] -o OUT.vmd [--map FILE] [--scale S] [--fps N] [--pos-tol U --rot-tol DEG] [--foot-ik|--no-foot-ik] [--rest rest|first] [--origin] [--despike] [--overwrite] [--json] [--quiet]
  Without --model the motion is made for the standard MMD bones (the preview's built-in figure, about 20
  units tall), so it plays on any model that has them; with a model, on its bones and proportions.
  Joints are mapped by the built-in tables (CMU 3ds Max- and MotionBuilder-friendly, Mixamo, VRM humanoid
  names) or guessed from the hierarchy's shape; --map FILE (CSV joint,part or JSON {"joint": "part"}; a part
  is a VRM humanoid name such as leftUpperArm, or an MMD bone name such as 左腕; "-" unmaps) overrides rows.
  Each bone's rest pose is aligned to the capture's (its offsets; --rest first: its first frame). The hips'
  translation goes to センター, scaled by leg length (--scale S instead). --foot-ik (default when the model
  has 足ＩＫ) writes 足ＩＫ/つま先ＩＫ positions held still while a foot is in contact; --no-foot-ik keys
  the leg rotations and switches leg IK off. --origin moves the whole path so that it starts where the
  model stands at rest (frame 0's センター at X = Z = 0 of its rest; height and heading kept), as MMD's
  BVH loaders and the editor's import dialog place it; without it the capture's own place is kept. --fps N: the capture's frame rate when its Frame Time is wrong
  (a Frame Time that is not a number of seconds is then ignored, with a warning). Capture glitches (a joint
  flipping out and back within 0.1 s, far faster than it moves either side) are listed in a warning (bone,
  frames, degrees); --despike replaces them by the interpolation of the frames either side.
  Re-timed to 30 fps by the fitting engine (every capture frame a sample) within --pos-tol (default 0.02)
  and --rot-tol (default 0.5°).`,
  async run(argv, io) {
    const names = { values: ['map', 'scale', 'fps', 'pos-tol', 'rot-tol', 'rest'], flags: ['foot-ik', 'no-foot-ik', 'origin', 'despike'] };
    const a = parseArgs(argv, { values: ['output', 'model', ...names.values], flags: [...names.flags, ...COMMON_FLAGS], aliases: { o: 'output' } });
    const p = await paths(a, io, '.vmd');
    const { options: opts, map } = await captureArgs(a, io, names);
    // What the reader ignored (a broken Frame Time, with --fps), said with the import's own warnings.
    let read: Diagnostic[] = [];
    return guarded(() =>
      convertFile(io, a, p, 'import-bvh', {
        takes: 'bvh',
        parse: (bytes) => {
          const r = readBvh(bytes, { fps: opts.fps });
          if (r.ok) read = r.diagnostics;
          return r;
        },
        convert: (bvh, model) => {
          // The re-timing fit takes seconds on a long capture, told track by track (progress.ts).
          const progress = cliProgress(io, 'import-bvh', 'tracks', a.flags.has('quiet'));
          const r = importBvh(bvh, model, { ...opts, progress: progress.tell });
          progress.end();
          return r;
        },
        bytes: (v) => writeVmd(v.doc),
        report: (v) => {
          const warnings = [...captureWarnings(displayPath(p.input, p.givens[0], io.cwd), read, v.report, { standard: p.model === null, lists: false }), ...bvhMapWarnings(map)];
          return { json: importJson(v.report, warnings), line: importLine(v.report), warnings };
        },
      }),
    );
  },
};

export const exportBvhCommand: CommandInfo = {
  summary: 'a VMD played on a PMX/PMD model (IK solved) → BVH on the model\'s humanoid skeleton',
  usage: `vmd-studio export-bvh IN.vmd [--model MODEL.pmx|.pmd] -o OUT.bvh [--overwrite] [--json] [--quiet]
  Without --model the motion is played on the standard MMD skeleton (the preview's built-in figure).
  Writes the model's humanoid bones (下半身 as the hips with its position, 上半身…頭, shoulders to wrists,
  legs to ankles; the eyes 左目/右目, the fingers 親指０…小指３ and the toes 足先EX where the model has them;
  chain ends' tips as End Sites) named as VRM humanoid bones, at 30 fps, in the model's units,
  right-handed (Z mirrored from MMD), the motion as played: append and IK solved. import-bvh reads it back.
  Bones the motion moves that reach none of them (sleeves, hair) are named in a warning.`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'model'], flags: COMMON_FLAGS, aliases: { o: 'output' } });
    const p = await paths(a, io, '.bvh');
    return guarded(() =>
      convertFile(io, a, p, 'export-bvh', {
        takes: 'vmd',
        parse: (bytes) => readVmd(bytes),
        convert: (doc, model) => {
          const r = exportBvh(doc, model);
          return r.ok ? { ok: true, value: { ...r.value, warnings: [...exportBvhWarnings(doc, model, p.model === null), ...humanoidExportWarnings(r.value.report)] } } : r;
        },
        bytes: (v) => new TextEncoder().encode(v.text),
        report: ({ report: rep, warnings }) => ({
          json: { ...rep, warnings: warnings.map((w) => w.message) },
          line: `${plural(formatCount(rep.frames), 'frame')}, ${plural(formatCount(rep.joints.length), 'joint')}${rep.missingBones.length ? `; motion bones ${p.model === null ? 'the standard skeleton' : 'the model'} lacks: ${rep.missingBones.join(' ')}` : ''}`,
          warnings,
        }),
      }),
    );
  },
};

export const importVrmaCommand: CommandInfo = {
  summary: 'VRM Animation (.vrma) onto a PMX/PMD model → VMD (humanoid bones and expressions → morphs)',
  usage: `vmd-studio import-vrma IN.vrma [--model MODEL.pmx|.pmd] -o OUT.vmd [--map FILE] [--scale S] [--pos-tol U --rot-tol DEG] [--foot-ik|--no-foot-ik] [--origin] [--despike] [--overwrite] [--json] [--quiet]
  Without --model: the standard MMD bones (the preview's built-in figure), as import-bvh (--origin too).
  As import-bvh, from the humanoid bones of a VRM Animation; expressions become morph keys
  (aa/ih/ou/ee/oh → あ/い/う/え/お, blink → まばたき, …). --map FILE's "morphs" section (JSON
  {"morphs": {"happy": "笑い"}}) replaces rows of that table; "-" leaves an expression out. Nothing else
  of the map is read: bone rows, a CSV map and rows naming an expression the file lacks are warned of.`,
  async run(argv, io) {
    const names = { values: ['map', 'scale', 'pos-tol', 'rot-tol'], flags: ['foot-ik', 'no-foot-ik', 'origin', 'despike'] };
    const a = parseArgs(argv, { values: ['output', 'model', ...names.values], flags: [...names.flags, ...COMMON_FLAGS], aliases: { o: 'output' } });
    const p = await paths(a, io, '.vmd');
    const { options: opts, morphs, map } = await captureArgs(a, io, names);
    const expressions = parseExpressionMap(morphs);
    return guarded(() =>
      convertFile(io, a, p, 'import-vrma', {
        takes: 'vrma',
        parse: (bytes) => readVrma(bytes),
        convert: (vrma, model) => {
          const r = vrmaToMotion(vrma, model, { ...opts, expressions });
          return r.ok ? { ok: true, value: { ...r.value, mapWarnings: [...vrmaMapWarnings('import-vrma', map), ...unknownExpressionWarnings(map, vrma.expressions)] } } : r;
        },
        bytes: (v) => writeVmd(v.doc),
        report: (v) => {
          const warnings = [...captureWarnings(displayPath(p.input, p.givens[0], io.cwd), [], v.report, { standard: p.model === null, lists: false }), ...v.mapWarnings];
          return { json: importJson(v.report, warnings), line: `${importLine(v.report)}; morph keys ${formatCount(v.report.morphKeys)}`, warnings };
        },
      }),
    );
  },
};

export const exportVrmaCommand: CommandInfo = {
  summary: 'a VMD played on a PMX/PMD model (IK solved) → VRM Animation (.vrma) for VRM models',
  usage: `vmd-studio export-vrma IN.vmd [--model MODEL.pmx|.pmd] -o OUT.vrma [--map FILE] [--overwrite] [--json] [--quiet]
  Without --model the motion is played on the standard MMD skeleton (the preview's built-in figure).
  Writes the humanoid bones' rotations and the hips' translation (meters: model units × 0.08) at 30 fps
  as played (append and IK solved), and the morphs of the expression table as expressions
  (あ/い/う/え/お → aa/ih/ou/ee/oh, えー for ee where the motion has no え, まばたき → blink, …; --map FILE's
  "morphs" section edits it). The humanoid bones include the eyes, fingers and toes where the model has
  them; bones and morphs the motion moves that the file cannot carry are named in a warning.`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'model', 'map'], flags: COMMON_FLAGS, aliases: { o: 'output' } });
    const p = await paths(a, io, '.vrma');
    const { morphs, map } = await captureArgs(a, io, { values: ['map'], flags: [] });
    const expressions = parseExpressionMap(morphs);
    const mapWarnings = vrmaMapWarnings('export-vrma', map);
    return guarded(() =>
      convertFile(io, a, p, 'export-vrma', {
        takes: 'vmd',
        parse: (bytes) => readVmd(bytes),
        convert: (doc, model) => {
          const r = motionToVrma(doc, model, { expressions });
          return r.ok ? { ok: true, value: { ...r.value, warnings: [...exportVrmaWarnings(doc, model, p.model === null, r.value.report.expressions.length), ...mapWarnings] } } : r;
        },
        bytes: (v) => writeVrma(v.vrma),
        report: ({ report: rep, warnings }) => {
          const all = [...warnings, ...humanoidExportWarnings(rep)];
          return {
            json: { ...rep, warnings: all.map((w) => w.message) },
            line: `${plural(formatCount(rep.frames), 'frame')}, ${plural(formatCount(rep.bones.length), 'humanoid bone')}, ${plural(formatCount(rep.expressions.length), 'expression')}`,
            warnings: all,
          };
        },
      }),
    );
  },
};

export const mocapCommands: Record<string, CommandInfo> = {
  'import-bvh': importBvhCommand,
  'export-bvh': exportBvhCommand,
  'import-vrma': importVrmaCommand,
  'export-vrma': exportVrmaCommand,
};

export { DEFAULT_EXPRESSION_MAP };
