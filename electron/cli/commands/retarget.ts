/**
 * `vmd-studio retarget MOTION.vmd --from SOURCE.pmx --to TARGET.pmx -o OUT.vmd` — a motion made for one
 * model, re-expressed for another (shared/retarget): bones matched by name (full/half width, 左/右 and
 * L/R, English names, semi-standard aliases; --map settles the rest), semi-standard bones the target
 * lacks folded into the bones it has, センター/グルーブ/IK translations scaled by the leg-length ratio
 * (--no-scale keeps them), arms turned for A- against T-pose, changed tracks re-fitted within
 * --pos-tol/--rot-tol. Exit status: 0 written, 1 a file failed (one line naming it), 2 bad arguments;
 * 130/143 after SIGINT/SIGTERM.
 */
import path from 'node:path';
import { writeOutput } from '../output';
import { outputRefusal, readInputBytes, sameFile } from '../../fs/files';
import { writeVmd } from '../../../shared/vmd';
import { convertFirstMessage, readVmdAs } from '../file-kind';
import { loadModelFile, modelOptionTakes } from '../../fs/model-file';
import { checkOptions } from '../../../shared/batch/options';
import { retarget, retargetOptions, retargetSummary, type RetargetDetails } from '../../../shared/retarget';
import { optValue, parseArgs, UsageError } from '../args';
import type { CliIo, CommandInfo } from '../io';
import { displayPath, formatCount, formatMeasure } from '../format';
import { guarded } from '../signals';
import { cliProgress } from '../progress';
import { loadMapping, OP_DETAILS, opOptions, specFor } from './op-options';
import { failWith, jsonSuccess, printWarnings } from './edit-output';
import { plural } from '../../../shared/i18n/plural';

/** Renamed tracks the summary line names before it says how many more (--json's retarget.renamed lists them all). */
const RENAMED_LISTED = 6;

/** The one-line summary of a retarget. */
export function retargetLine(d: RetargetDetails, report: Record<string, unknown>, standardSource = false, noScale = false, files: { from?: string | null; to?: string } = {}): string {
  const n = (v: unknown) => formatCount(Number(v ?? 0));
  // A model without a name is named by its file ("(target)" told nothing).
  const named = (name: string, file: string | null | undefined, none: string) => name || (file ? path.basename(file) : none);
  const parts = [`${standardSource && !d.sourceModel ? 'standard MMD skeleton' : named(d.sourceModel, files.from, '(source)')} → ${named(d.targetModel, files.to, '(target)')}`];
  parts.push(d.legRatio === 1 ? 'not scaled' : `leg ratio ${formatMeasure(d.legRatio)} (${plural(d.scaled.length, 'bone')} scaled)`);
  parts.push(`copied ${plural(d.copied.length, 'track')}`);
  // The re-fitted bones' own keys (folded tracks with them), as the app's panel says; the whole file's totals apart,
  // since they count the tracks left out too (low-poly Miku's wavefile_v2 onto Gene_light: "bone keys in all
  // 14,160 → 13,373", 894 of them left out, while the re-fitted bones' keys went 4,172 → 4,279).
  parts.push(`re-fitted ${d.refitted.length} (their keys ${n(report.refittedKeysBefore)} → ${n(report.refittedKeysAfter)}${d.folded.length ? ', folded tracks included' : ''}, max error ${formatMeasure(d.maxPositionError)}, ${formatMeasure(d.maxRotationErrorDeg)}°)`);
  // Not scaled, the leg IK is copied as it is and not corrected: said, as the other reasons are warned of.
  if (d.floor && !d.floor.applied && d.floor.why === 'not-scaled') parts.push(`feet on the floor: off (${noScale ? '--no-scale' : 'not scaled'})`);
  if (d.floor?.applied) parts.push(d.floor.frames ? `feet on the floor: leg IK moved at ${plural(formatCount(d.floor.frames), 'frame')}, at most ${formatMeasure(d.floor.maxCorrection)}` : 'feet on the floor: nothing to move');
  // A track a map row replaced is told of in its warning (not "folded 首→首", which read as nothing happening).
  const folded = d.folded.filter((f) => !d.replacedByMap.some((x) => x.track === f.bone));
  if (folded.length) parts.push(`folded ${folded.map((f) => `${f.bone}→${f.into.join('/')}`).join(', ')}`);
  // Keys now played under another name (MMD plays them by name): said, not left to --json's copied[].as.
  if (d.renamed.length) parts.push(`renamed ${d.renamed.length}: ${d.renamed.slice(0, RENAMED_LISTED).map((r) => `${r.bone} → ${r.as}`).join(', ')}${d.renamed.length > RENAMED_LISTED ? ` and ${d.renamed.length - RENAMED_LISTED} more` : ''}`);
  const arm = Math.max(d.armCompensationDeg.left, d.armCompensationDeg.right);
  if (arm > 0) parts.push(`arms turned ${formatMeasure(arm)}°`);
  parts.push(`unmatched ${d.unmatched.length} bone and ${plural(d.unmatchedMorphs.length, 'morph track')}`);
  parts.push(`bone keys in all ${n(report.boneKeysBefore)} → ${n(report.boneKeysAfter)}`);
  return parts.join('; ');
}

export const retargetCommand: CommandInfo = {
  summary: 'fit a motion made for one model to another (names, semi-standard bones, leg length, arm rest angle)',
  usage: `vmd-studio retarget MOTION.vmd [--from SOURCE.pmx] --to TARGET.pmx -o OUT.vmd [--map FILE] [--no-scale] [--no-floor] [--pos-tol U] [--rot-tol DEG] [--overwrite] [--json] [--quiet]
  ${OP_DETAILS.retarget}
  Without --from the motion is taken as made for the standard MMD skeleton (the preview's built-in figure,
  about 20 units tall, arms in MMD's A-pose): for a motion whose model you do not have.`,
  async run(argv, io) {
    const a = parseArgs(argv, specFor('retarget', { values: ['output'], flags: ['overwrite', 'json', 'quiet'] }));
    if (a.positionals.length !== 1) throw new UsageError('give exactly one motion file');
    const outArg = optValue(a, 'output');
    if (!outArg) throw new UsageError('-o OUT.vmd is required');
    const fromArg = optValue(a, 'from'), toArg = optValue(a, 'to');
    if (fromArg === '') throw new UsageError('--from needs a .pmx or .pmd file (leave it out for the standard MMD skeleton)');
    if (!toArg) throw new UsageError('--to TARGET.pmx (the model it should play on) is required');
    const o = opOptions('retarget', a);
    await loadMapping(o, io);
    const input = path.resolve(io.cwd, a.positionals[0]);
    const output = path.resolve(io.cwd, outArg);
    // No --from: the standard MMD skeleton (null in --json).
    const from = fromArg === undefined ? null : path.resolve(io.cwd, fromArg), to = path.resolve(io.cwd, toArg);
    const outExt = path.extname(output).toLowerCase();
    const convertFirst = convertFirstMessage('retarget', a.positionals[0]);
    if (convertFirst) return failWith(io, { code: 'E_VMD_MAGIC', message: convertFirst, file: input }, input, [a.positionals[0]]);
    if (outExt === '.json' || outExt === '.vpd') throw new UsageError('retarget writes a VMD motion: give -o a .vmd name');
    for (const f of [input, from, to]) if (f !== null && (await sameFile(f, output))) throw new UsageError('the output must be a different file (inputs are never modified)');
    const givens = [a.positionals[0], outArg, ...(fromArg === undefined ? [] : [fromArg]), toArg];
    // Options are checked before any file is read (bad options: exit status 2); the models come after.
    const checked = checkOptions(() => retargetOptions(o));
    if (!checked.ok) throw new UsageError(checked.error.message);
    const opts = checked.value!;
    return guarded(async () => {
      const refused = await outputRefusal(output, a.flags.has('overwrite'));
      if (refused) return failWith(io, refused, output, givens);
      const src = await loadModelFile(from, modelOptionTakes('--from'));
      if (!src.ok) return failWith(io, src.error, from!, givens);
      const dst = await loadModelFile(to, modelOptionTakes('--to'));
      if (!dst.ok) return failWith(io, dst.error, to, givens);
      const bytes = await readInputBytes(input);
      if (!bytes.ok) return failWith(io, bytes.error, input, givens);
      const doc = readVmdAs(input, bytes.value, 'retarget', a.positionals[0], '--from/--to');
      if (!doc.ok) return failWith(io, doc.error, input, givens);
      // The changed tracks are re-fitted: seconds on a large motion, told track by track (progress.ts).
      const progress = cliProgress(io, 'retarget', 'tracks', a.flags.has('quiet'));
      const r = retarget(doc.value, src.value, dst.value, { ...opts, progress: progress.tell });
      progress.end();
      // A target that cannot take the motion (E_RETARGET: no body bone) is named as the file at fault.
      if (!r.ok) return failWith(io, r.error, r.error.code === 'E_RETARGET' ? to : input, givens);
      const w = await writeOutput(output, writeVmd(r.value.doc), a.flags.has('overwrite'));
      if (!w.ok) return failWith(io, w.error, output, givens);
      const summary = retargetSummary(r.value);
      if (a.flags.has('json')) jsonSuccess(io, { input, output, from, to, ...summary });
      else if (!a.flags.has('quiet')) io.stdout(`retarget: ${displayPath(output, outArg, io.cwd)}: ${retargetLine(r.value.details, summary, from === null, opts.scale === false, { from, to })}\n`);
      printWarnings(io, summary, displayPath(input, a.positionals[0], io.cwd), displayPath(to, toArg, io.cwd));
      return 0;
    });
  },
};
