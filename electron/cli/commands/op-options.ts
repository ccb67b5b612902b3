/**
 * The edit operations' options on the command line: which values and flags each takes (derived from
 * the one schema the Batch dialog's form also uses, shared/batch/op-specs.ts), their help, and turning
 * parsed arguments into the operation's options (a mapping file read, bad options a UsageError).
 */
import path from 'node:path';
import { readBytes } from '../../fs/files';
import { formatError } from '../../../shared/vmd';
import { mappingErrorIn, parseMapping } from '../../../shared/motion-ops/rename';
import { mappingFormatOf } from '../../../shared/batch/doc-edits';
import type { BatchOp } from '../../../shared/batch/types';
import { BATCH_OPS } from '../../../shared/batch/types';
import { cliArgNames, cliUsage, OP_OPTION_SPECS } from '../../../shared/batch/op-specs';
import type { OpOptions } from '../../../shared/batch/doc-edits';
import { prepareOp } from '../../batch/ops';
import { MAX_MAP_BYTES } from '../../batch/engine';
import { optValue, UsageError, type ArgSpec, type ParsedArgs } from '../args';
import { hasString, tDynamic } from '../../../shared/i18n/strings';
import type { CliIo } from '../io';

/**
 * Options each operation takes (without the common -o/--overwrite/... ones), derived from the one
 * schema the Batch dialog's form also uses (shared/batch/op-specs.ts).
 */
export const OP_SPECS = Object.fromEntries(
  BATCH_OPS.map((op) => [op, { ...cliArgNames(op), help: cliUsage(op) }]),
) as Record<BatchOp, { values: string[]; flags: string[]; help: string }>;

/** Per-operation help, shown by `OP --help` and all together by `batch --help`. */
export const OP_DETAILS: Record<BatchOp, string> = {
  mirror: `swap 左/右 in names; position x, rotation y/z, camera target x and angles y/z negated
           (--no-light keeps the light direction as it is). MMD's wink morphs swap as pairs:
           ウィンク ⇄ ウィンク右, ウィンク２ ⇄ ｳｨﾝｸ２右 (where the motion names both sides, 左 ⇄ 右).
           Names in Latin letters swap sides too: the words Left/Right (eyeBlinkLeft, LeftArm,
           leftUpperArm) and L/R set off by _ . - or a space (brow_sad_geo_L, arm.L, L toe); a name cut
           by the 15-byte field (mouthUpperUpLef) or glued (LThumb) only when the motion has both sides,
           or with --model when the model has both (the editor's Mirror pairs them by the actor's model)`,
  trim: `keep frames A..B (B defaults to the last frame) and move them to start at 0. By default the
           pose at A is held at frame 0 (interpolated like MMD), curves cut at A/B are re-fitted and the
           largest resulting pose error is reported; tracks at rest throughout are dropped
           (--keep-static keeps them); --no-hold only cuts and shifts`,
  speed: `frame' = round(frame / K); keys landing on a taken (name, frame) are left out, counted as lost.
           --refit: nothing dropped; output frame f plays what the input plays at f·K within the
           tolerances (default 0.01 units, 0.1°, 0.005) at every integer frame; cuts stay cuts`,
  reduce: `fewer keys, same motion: bone, morph and camera tracks re-fitted with MMD's curves so that
           playback stays within --pos-tol (units, default 0.01), --rot-tol (degrees, 0.1) and
           --morph-tol (weight, 0.005) at every integer and half frame; --bones "左*,右*" or "/regex/"
           limits bones and morphs, --from/--to the keys touched; reports keys before/after and the
           largest error per kind, measured by playing both files`,
  bake: `a key on every frame of every bone, morph and camera track (between --from and --to,
           widened to the nearest keys); exact at every integer frame, except the camera's fov, which a
           VMD stores as a whole number (the summary reports that error)`,
  shift: `frame' = frame + N; below 0 is an error unless --clip (cut there, holding the pose)`,
  preset: `curves: linear, ease-in, ease-out, ease-in-out, mmd-default, or x1,y1,x2,y2 in 0..127;
           --bones "左*,右*" (globs) or "/regex/"; channels x,y,z,r; --camera also sets the camera keys'
           curves (camera channels x,y,z,r,d(ist),v(fov)); --from A --to B: only the keys at frames A to B,
           both included (frame numbers; default the whole motion)`,
  rename: `mapping: JSON {"old":"new"} / {"bones":{..},"morphs":{..}} / [["old","new"]], or 2-column CSV
           (a third column, a ratio, is for retarget's morph rows);
           --morphs applies a plain mapping to morph names too`,
  'physics-bake': `(batch) the physics of --model MODEL.pmx|.pmd simulated under each motion and baked into it
           as keys with physics off (99, 15), reduced within --pos-tol/--rot-tol unless --raw; --warmup
           (default all: from frame 0), --resimulate / --no-resimulate (default: a previous bake of the
           baked bones simulated again) as the one-file command, which writes each file's same bytes; see
           vmd-studio physics-bake --help`,
  'ik-bake': `(batch) the IK of --model MODEL.pmx|.pmd under each motion baked into rotation keys of the
           chains' bones (足ＩＫ: 足, ひざ; つま先ＩＫ: 足首), that IK switched off over --from..--to; --bones
           IK names, comma-separated (default: every IK bone the motion has on in the range); reduced within
           --rot-tol unless --raw; as the one-file command, which writes each file's same bytes; see
           vmd-studio ik-bake --help`,
  retarget: `a motion made for the --from model (none: the standard MMD skeleton), for the --to model
           (.pmx/.pmd): bones matched by name (full/half width, 左/右 and L/R, English names,
           semi-standard aliases; --map settles the rest), semi-standard bones the target lacks folded
           into the bones it has (上半身2, 腕捩, 手捩, 足捩, ひざ捩, グルーブ, 足D…, 肩P, 全ての親, 腰キャンセル,
           足IK親, 親指０) keeping their world pose, センター/グルーブ/leg IK
           moves scaled by the leg-length ratio (--no-scale: as they are), arms turned for A- against
           T-pose; feet kept on the floor (--no-floor: not): where the source's toe is on or above its
           rest height the leg IK goal is raised so the target's toe does not go below its own, and a
           planted toe stays on it (the report gives the largest move and the frames touched); changed tracks re-fitted within --pos-tol/--rot-tol at every frame; reports what was
           folded, scaled, re-fitted and left unmatched (with key counts). Morphs: --map's morph rows
           (JSON "morphs"; in a CSV, a row whose names are morphs: the target has the morph and no such
           bone) may send one morph to several ("まばたき": ["まばたき", ["じと目", 0.8]]; CSV rows
           まばたき,まばたき and まばたき,じと目,0.8: a third column is a ratio, weight × ratio); tracks
           landing on one morph are added frame by frame, clamped to 0..1 (a warning names them). A
           target with no standard body bone is refused; a map row onto a bone the motion keys is warned of.
           Tolerances: --pos-tol (units, default 0.01), --rot-tol (degrees, default 0.1)`,
  'import-bvh': `(batch) every .bvh under the folder → .vmd, as vmd-studio import-bvh (see its --help): onto
           --model MODEL.pmx|.pmd, or without it the standard MMD skeleton; --map (joint,part rows),
           --scale, --fps, --no-foot-ik, --origin, --despike, --pos-tol (default 0.02), --rot-tol (default 0.5)`,
  'import-vrma': `(batch) every .vrma under the folder → .vmd, as vmd-studio import-vrma (see its --help): onto
           --model MODEL.pmx|.pmd, or without it the standard MMD skeleton; --map (JSON "morphs":
           expression → morph), --scale, --no-foot-ik, --origin, --despike, --pos-tol (default 0.02), --rot-tol (default 0.5)`,
  'export-bvh': `(batch) every .vmd under the folder → .bvh, as vmd-studio export-bvh: played on --model
           MODEL.pmx|.pmd (IK solved), or without it the standard MMD skeleton`,
  'export-vrma': `(batch) every .vmd under the folder → .vrma, as vmd-studio export-vrma: played on --model
           MODEL.pmx|.pmd, or without it the standard MMD skeleton; --map (JSON "morphs": expression → morph)`,
  pose: `(batch) VMD → VPD: the pose at --frame F`,
  convert: `(batch) VPD → VMD (one key per bone at --frame F) and VMD → VPD (pose at --frame F)`,
  inspect: `(batch) one JSON summary per file (.vmd, .vpd, and .bvh/.vrma as vmd-studio inspect --json gives them)`,
};

/** Every operation's help in one column: names padded to the longest, continuation lines under the text. */
export const allDetails = () => {
  const w = Math.max(...BATCH_OPS.map((op) => op.length));
  const indent = '\n' + ' '.repeat(2 + w + 1);
  return 'Operations:\n' + BATCH_OPS.map((op) => `  ${op.padEnd(w)} ${OP_DETAILS[op].replace(/\n +/g, indent)}`).join('\n');
};

export function specFor(op: BatchOp, extra: ArgSpec): ArgSpec {
  const s = OP_SPECS[op];
  return {
    values: [...s.values, ...(extra.values ?? [])],
    flags: [...s.flags, ...(extra.flags ?? [])],
    aliases: { o: 'output', j: 'jobs', r: 'recursive', q: 'quiet', ...(extra.aliases ?? {}) },
  };
}

/** The given values and flags among `names`, from parsed arguments, named as on the command line. */
export function optionsFromArgs(a: ParsedArgs, names: { values: readonly string[]; flags: readonly string[] }): OpOptions {
  const o: OpOptions = {};
  for (const v of names.values) {
    const x = optValue(a, v);
    if (x !== undefined) o[v] = x;
  }
  for (const f of names.flags) if (a.flags.has(f)) o[f] = true;
  return o;
}

/** The op's options from parsed arguments, named as on the command line. */
export function opOptions(op: BatchOp, a: ParsedArgs): OpOptions {
  return optionsFromArgs(a, OP_SPECS[op]);
}

/** Paths in `file` options other than the map (retarget's models) resolved against the working folder. */
export function resolveFileOptions(op: BatchOp, o: OpOptions, io: CliIo): void {
  for (const s of OP_OPTION_SPECS[op]) if (s.kind === 'file' && s.name !== 'map' && typeof o[s.name] === 'string') o[s.name] = path.resolve(io.cwd, o[s.name] as string);
}

/**
 * Reads --map's file into `mapText` (and makes `map` absolute, for a batch's workers). A mapping that does not
 * parse is a bad argument naming the file as typed ("bones.csv line 1: expected two columns…"), for every
 * command that takes one (rename, retarget, their batches): the operation's own check says only "mapping".
 */
export async function loadMapping(o: OpOptions, io: CliIo): Promise<void> {
  if (typeof o.map === 'string') {
    const given = o.map;
    const file = path.resolve(io.cwd, given);
    const r = await readBytes(file, { maxBytes: MAX_MAP_BYTES });
    if (!r.ok) throw new UsageError(`mapping file: ${formatError(r.error)}`);
    o.map = file;
    o.mapText = new TextDecoder('utf-8').decode(r.value);
    const format = mappingFormatOf(given);
    const m = format === null ? null : parseMapping(o.mapText, format);
    if (m && !m.ok) throw new UsageError(mappingErrorIn(given, m.error).message);
  }
}

export function prepare(op: BatchOp, o: OpOptions) {
  const p = prepareOp(op, o);
  // The CLI phrases an option error with its dashes (the error's English message); in Japanese the app's line
  // for its problem (`opt.*`), the option named with its dashes. A problem with no such line: English.
  if (!p.ok) {
    const e = p.error;
    const common = ['required', 'number', 'integer', 'min', 'positive', 'boolean'].includes(e.problem) && hasString(`opt.${e.problem}`);
    throw new UsageError(e.message, common ? tDynamic(`opt.${e.problem}`, 'ja', { ...e.params, option: `--${e.option}` }) : undefined);
  }
  return p.value;
}
