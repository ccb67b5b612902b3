/**
 * `vmd-studio physics-bake MOTION --model MODEL -o OUT` (or `physics-bake MODEL MOTION -o OUT`) — the model's
 * physics under the motion written into the motion as keys with physics off (99, 15), reduced within
 * tolerance (shared/physics/bake.ts). `--model` as `retarget --from/--to`, `import-bvh --model` and
 * `batch physics-bake --model` take it; the two positionals are the form the command first had.
 */
import { writeOutput } from '../output';
import { writeVmd } from '../../../shared/vmd';

/** A motion given where physics-bake wants its model, without --model (both motions, or names that say neither). */
const MODEL_AND_MOTION = 'physics-bake takes a model and a motion: vmd-studio physics-bake MODEL.pmx MOTION.vmd -o OUT.vmd';
import { loadBullet, physicsBake, SEEK_SETTLE_FRAMES, type PhysicsBakeReport } from '../../../shared/physics';
import { nodeBulletLoader } from '../../physics/bullet-node';
import { optValue, parseArgs, UsageError } from '../args';
import { bakeArgs, bakeTolerances, readBakeInputs } from './bake-inputs';
import type { CommandInfo } from '../io';
import { displayPath, formatCount, formatMeasure } from '../format';
import { plural } from '../../../shared/i18n/plural';
import { failWith, jsonSuccess, printWarnings } from './edit-output';
import { guarded } from '../signals';
import { cliProgress } from '../progress';
import { bakeNameWarnings, physicsBakeWarnings, physicsOffKeysWarnings } from '../../batch/op-warnings';
import { warningFields } from '../../../shared/edit-core/report';

/** Where the simulation of a range from A > 0 started (--warmup), said in the report line. */
function simulatedFromText(r: PhysicsBakeReport): string {
  if (r.simulatedFrom === 0) return `simulated from frame 0 (as the motion plays from the start), keys written from ${r.from}`;
  if (r.simulatedFrom < r.from) return `simulated from frame ${r.simulatedFrom} (a warm-up of ${formatCount(r.from - r.simulatedFrom)} frames, after settling ${r.settleFrames} frames there), keys written from ${r.from}`;
  return `physics restarted at frame ${r.from}'s pose and settled ${r.settleFrames} frames (--warmup 0: the hair at ${r.from} is not where playing puts it)`;
}

/** Exit status with --strict when a bone was left out (a name too long for a VMD): OUT is written all the same. */
export const STRICT_LEFT_OUT = 3;

export function physicsBakeLine(r: PhysicsBakeReport): string {
  return (
    `${plural(r.bones.length, 'bone')} baked over frames ${r.from}–${r.to}, keys ${formatCount(r.rawKeys)} raw → ${formatCount(r.keptKeys)} kept, ${formatCount(r.replacedKeys)} replaced` +
    (r.resimulated && r.physicsOffKeys ? ` (${formatCount(r.physicsOffKeys)} of them baked before: the range was simulated again)` : '') +
    (r.edgeKeys ? `, ${formatCount(r.edgeKeys)} added at the range's ends giving physics back outside it` : '') +
    (r.from > 0 ? `; ${simulatedFromText(r)}` : '') +
    '; ' +
    (r.ikOff.length ? `IK off over the range: ${r.ikOff.join(', ')}; ` : '') +
    `played back with physics off against the simulation: ` +
    // The worst bone one can see first; the overall worst in brackets when it shows nothing (a weight, 錘).
    (r.worst && r.worstSeen && r.worst.bone !== r.worstSeen.bone
      ? `max position error ${formatMeasure(r.maxPositionErrorSeen)}, max rotation error ${formatMeasure(r.maxRotationErrorDegSeen)}° (${r.worstSeen.bone} at frame ${r.worstSeen.frame}) [bones without vertices: ${formatMeasure(r.maxPositionError)}, ${formatMeasure(r.maxRotationErrorDeg)}° (${r.worst.bone} at frame ${r.worst.frame})]`
      : `max position error ${formatMeasure(r.maxPositionError)}, max rotation error ${formatMeasure(r.maxRotationErrorDeg)}°` + (r.worst ? ` (${r.worst.bone} at frame ${r.worst.frame})` : '')) +
    // A physics bone left out stays simulated in MMD under its baked parent: said in the line a script reads, too.
    (r.namesTooLong.length ? `; NOT baked (name over 15 bytes, still simulated): ${r.namesTooLong.join(', ')}` : '') +
    (r.ikNamesTooLong.length ? `; IK NOT switched off (name over 20 bytes): ${r.ikNamesTooLong.join(', ')}` : '')
  );
}

/**
 * Whether to simulate over keys that switch physics off in the range: the app's default, 'auto' (a previous bake of
 * exactly the bones baked is simulated again; keys holding some bones by hand are played as keys), so the CLI and
 * Bake physics… write the same bytes for the same motion.
 */
function resimulateOf(flags: Set<string>): boolean | 'auto' {
  if (flags.has('resimulate') && flags.has('no-resimulate')) throw new UsageError('give --resimulate or --no-resimulate, not both');
  return flags.has('resimulate') ? true : flags.has('no-resimulate') ? false : 'auto';
}

export const physicsBakeCommand: CommandInfo = {
  summary: 'simulate a model\'s physics under a motion and bake it into the motion (keys with physics off, reduced)',
  usage: `vmd-studio physics-bake MOTION.vmd --model MODEL.pmx|.pmd -o OUT.vmd [--from A --to B] [--raw]
                           [--warmup N|all] [--resimulate | --no-resimulate] [--strict] [--pos-tol U] [--rot-tol DEG] [--overwrite] [--json] [--quiet]
       vmd-studio physics-bake MODEL.pmx|.pmd MOTION.vmd -o OUT.vmd [options as above]
  Simulates the model's rigid bodies (Bullet, MMD's rules) under the motion at its 30 fps and writes a key
  for every physics-driven bone, so that OUT shows the simulated motion with those bones' physics off.
  The baked keys carry MMD's physics-off flag (99, 15): MMD plays them even with its physics on.
  Keys the motion had for those bones inside A..B are replaced; every other key is written byte for byte.
  Where the motion's keys switch a baked bone's physics off inside A..B (物理OFF keyed by hand to hold hair
  or a skirt, or a previous bake), the bone follows those keys, as MMD simulates it, so the bake keeps them
  (a warning counts them), unless they are a previous bake (keys on every bone the bake bakes and on no other:
  then the range is simulated again, as the app's Bake physics… does); --resimulate simulates over them always,
  --no-resimulate never. Outside A..B physics stays as the motion had
  it: each baked bone gets a key at A-1 and, when the motion goes on, at B+1 with the motion's value and
  physics state. From A > 0 the simulation runs from frame 0 (--warmup) and keys are written over A..B, so
  the hair at A is where it swings when the motion plays from the start; after B the bones are simulated
  live again from where the keys left them (a range ending mid-swing may jump at B+1).
  Chains are fitted parent first, each bone's keys placing it at its simulated world transform under its
  parent as that parent's keys play, so errors do not add up down a chain. IK chains with baked links are
  switched off over A..B by IK keys (at A, and at B+1 back to the motion's state when the motion goes on),
  so IK does not bend the baked bones again when OUT plays with physics off.
  --model MODEL    the model whose physics is simulated (or give it beside the motion, without --model)
  --from A --to B  frames to bake (default 0 to the motion's last key)
  --warmup N|all   frames simulated before A without writing keys (default all: from frame 0, as the
                   motion plays; it costs the simulation of frames 0..A, about a quarter of baking them).
                   N: from frame A-N, restarting there at that frame's pose and settling ${SEEK_SETTLE_FRAMES} frames
                   (2 s) first; 0: restarted at A's pose (the hair at A then jumps from what playing shows)
  --raw            a key on every frame (no reduction)
  --resimulate     simulate the baked bones over A..B even where the motion's keys switch their physics
                   off (a previous bake; without it such keys are played as keys, as MMD does, unless they
                   are a previous bake of these bones)
  --no-resimulate  play such keys as keys, a previous bake too
  --pos-tol U      tolerance for world positions, in units (default 0.01)
  --rot-tol DEG    tolerance for world rotations, in degrees (default 0.1)
  --overwrite      replace an existing OUT
  --strict         exit status 3 (OUT still written) when a physics bone could not be baked or an IK bone not
                   switched off because its name is too long for a VMD (see below)
  Exit status: 0 baked (names too long only warned of, and named in the report line), 1 a file failed,
  2 a bad command line, 3 with --strict: baked, but a bone named in the report line was left out.
  The report: baked bones, raw and kept key counts, the IK switched off, the largest error measured by
  playing OUT with physics off against the simulation at every frame, and names a VMD cannot hold (physics
  bones over 15 bytes: not baked; IK bones over 20 bytes: not switched off).`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'model', 'from', 'to', 'warmup', 'pos-tol', 'rot-tol'], flags: ['raw', 'resimulate', 'no-resimulate', 'strict', 'overwrite', 'json', 'quiet'], aliases: { o: 'output' } });
    const args = bakeArgs(a, 'give a model (--model MODEL.pmx|.pmd) and a motion (.vmd)');
    const { givens, outArg, from, to } = args;
    const warmupArg = optValue(a, 'warmup');
    const warmup = warmupArg === undefined || warmupArg === 'all' ? undefined : /^\d+$/.test(warmupArg) && Number.isSafeInteger(Number(warmupArg)) ? Number(warmupArg) : null;
    if (warmup === null) throw new UsageError(`--warmup takes "all" or a whole number of frames >= 0, got "${warmupArg}"`);
    const [posTol, rotTol] = bakeTolerances(a, ['pos-tol', 'rot-tol']);
    const inputs = await readBakeInputs(io, 'physics-bake', args, MODEL_AND_MOTION);
    if (typeof inputs === 'number') return inputs;
    const { model, motion, modelFile, motionFile, output } = inputs;
    const bullet = await loadBullet(nodeBulletLoader);
    // Simulating, fitting and measuring take seconds on a long motion: said as a percentage (progress.ts).
    const progress = cliProgress(io, 'physics-bake', null, a.flags.has('quiet'));
    const r = physicsBake(bullet, model, motion, { from, to, warmup, raw: a.flags.has('raw'), resimulate: resimulateOf(a.flags), positionTolerance: posTol, rotationToleranceDeg: rotTol, progress: progress.tell });
    progress.end();
    if (!r.ok) return failWith(io, { ...r.error, file: r.error.file ?? (r.error.code.startsWith('E_PMX') || r.error.code === 'E_PHYSICS' ? modelFile : r.error.code === 'E_SPAN' || r.error.code === 'E_CAMERA_MOTION' ? motionFile : undefined) }, undefined, givens);
    // A motion that moves none of the model's bones (a camera or morph motion, one for another skeleton) bakes
    // the model at rest: written all the same, and said.
    const warnings = [...physicsBakeWarnings(motion, model), ...physicsOffKeysWarnings(r.value.report)];
    return guarded(async () => {
      const w = await writeOutput(output, writeVmd(r.value.doc), a.flags.has('overwrite'));
      if (!w.ok) return failWith(io, w.error, output, [outArg]);
      if (a.flags.has('json')) jsonSuccess(io, { output, ...r.value.report, warnings: warnings.map((w) => w.message) });
      else if (!a.flags.has('quiet')) io.stdout(`physics-bake: ${displayPath(output, outArg, io.cwd)}: ${physicsBakeLine(r.value.report)}\n`);
      printWarnings(io, warningFields([...warnings, ...bakeNameWarnings(r.value.report, true)]), displayPath(motionFile, givens[1], io.cwd));
      const rep = r.value.report;
      return a.flags.has('strict') && (rep.namesTooLong.length > 0 || rep.ikNamesTooLong.length > 0) ? STRICT_LEFT_OUT : 0;
    });
  },
};
