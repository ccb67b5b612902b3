/**
 * Warnings for requests that run and write a file but almost certainly did not do what was meant (a morph
 * motion baked or exported as a still figure — a camera or light motion is refused, shared/vmd/inspect.ts
 * stageMotionRefusal —, a trim past the motion's end, a VRMA map whose rows are never
 * read), and the one order in which a capture import's warnings are listed. The one-file commands
 * (electron/cli/commands) and the batch operations (ops.ts) both take them from here, so a file gets the
 * same warning either way. Each is a Diagnostic: its English line (`message`, as the command line and --json
 * say it) with a code and values, so the batch's rows and the commands under --lang ja say it in the user's
 * language (`note.<code>` in shared/i18n/warning-strings.ts; a report takes them by warningFields). The output
 * bytes are never changed.
 */
import { frameAt } from '../../shared/edit-core/record-util';
import { buildTracks, BLOCK_KINDS, type Diagnostic, type VmdDocument } from '../../shared/vmd';
import { compareMotionToModel } from '../../shared/pmx';
import type { ModelData } from '../../shared/pmx';
import type { ImportReport } from '../../shared/bvh/import';
import { leftOutWarning } from '../../shared/bvh/take';
import { unusedMorphsWarning } from '../../shared/bvh/vrma';
import { count, plural, agree } from '../../shared/i18n/plural';

/** How many names a warning lists before it says how many more there are. */
const LISTED = 5;

/** `names` as a warning lists them: the first few, then how many more. */
export function fewNames(names: readonly string[]): string {
  const shown = names.slice(0, LISTED).map((n) => JSON.stringify(n)).join(' ');
  return names.length > LISTED ? `${shown} and ${names.length - LISTED} more` : shown;
}

const KIND_WORDS = { bone: 'bone', morph: 'morph', camera: 'camera', light: 'light', shadow: 'self-shadow', ik: 'IK/display' } as const;

/** Whose skeleton a warning names: `--model`'s, or the standard one (no --model). `note.whoWord.*`. */
type Who = 'model' | 'standard';
const WHO = { model: 'the model', standard: 'the standard skeleton' } as const;

/**
 * What the output of a motion that moves no bone is (`note.resultWord.*`): the bake's model at rest, the
 * BVH's or the VRMA's skeleton standing still (the VRMA's expressions moving all the same).
 */
type NoMoveResult = 'bake' | 'bvh' | 'vrma' | 'vrmaExpressions';
function resultText(result: NoMoveResult, who: Who, expressions: number): string {
  if (result === 'bake') return 'the bake is of the model standing at rest';
  if (result === 'bvh') return `the BVH is ${WHO[who]} standing still`;
  if (result === 'vrma') return `the VRMA is ${WHO[who]} standing still`;
  return `the VRMA's bones are ${WHO[who]} standing still; only its ${plural(expressions, 'expression')} ${agree(expressions, 'moves', 'move')}`;
}

/**
 * When a motion moves no bone of `model` (physics-bake, export-bvh, export-vrma): it has no bone keys (a morph motion;
 * a camera or light motion is refused before this), or none of its bone tracks names a bone the model has (a motion for another skeleton).
 * `result` says what the output then is. Null when some bone of the model is keyed.
 */
export function noBoneMovedWarning(doc: VmdDocument, model: ModelData, who: Who, result: NoMoveResult, expressions = 0): Diagnostic | null {
  const said = resultText(result, who, expressions);
  const words = { whoWord: who, resultWord: result, expressions };
  const tracks = buildTracks(doc).bones.names;
  if (tracks.length === 0) {
    // What keys it has instead ("only morph and IK/display keys", "no keys at all"): `onlyKinds`, said as the kinds' words.
    const kinds = BLOCK_KINDS.filter((k) => k !== 'bone' && doc[k].count > 0);
    const kindWords = kinds.map((k) => KIND_WORDS[k]);
    if (!kinds.length) return { code: 'W_NO_KEYS', message: `the motion has no bone keys (no keys at all): ${said}`, params: words };
    const only = kindWords.length > 1 ? `${kindWords.slice(0, -1).join(', ')} and ${kindWords[kindWords.length - 1]}` : kindWords[0];
    return { code: 'W_NO_BONE_KEYS', message: `the motion has no bone keys (only ${only} keys): ${said}`, params: { ...words, only, onlyKinds: kinds.join(',') } };
  }
  const cmp = compareMotionToModel({ bones: tracks, morphs: [] }, { bones: model.bones.map((b) => b.name), morphs: [] });
  if (cmp.matchedBones > 0) return null;
  const names = fewNames(cmp.missingBones);
  return { code: 'W_NO_MODEL_BONE', message: `${WHO[who]} has none of the motion's ${plural(count(tracks.length), 'bone track')} (${names}): ${said}`, params: { ...words, n: tracks.length, names } };
}

/** physics-bake's warning for a motion that moves none of the model's bones. */
export function physicsBakeWarnings(doc: VmdDocument, model: ModelData): Diagnostic[] {
  const w = noBoneMovedWarning(doc, model, 'model', 'bake');
  return w ? [w] : [];
}

/**
 * physics-bake's warning for keys of the baked bones inside the range that switch physics off (keyed by hand, or
 * a previous bake), played as keys without --resimulate: the bake kept them.
 */
export function physicsOffKeysWarnings(r: { physicsOffKeys: number; resimulated: boolean }): Diagnostic[] {
  if (r.resimulated || r.physicsOffKeys === 0) return [];
  const n = r.physicsOffKeys;
  return [{ code: 'W_BAKE_PHYSICS_OFF_KEYS', message: `${plural(count(n), 'key')} of the baked bones in the range ${agree(n, 'switches', 'switch')} physics off (keyed by hand, or a previous bake): ${agree(n, 'it was', 'they were')} played as keys; --resimulate simulates over ${agree(n, 'it', 'them')}`, params: { n } }];
}

/**
 * physics-bake's warnings for the bones a VMD cannot name (the bake leaves them out): physics bones over a bone
 * name's 15 bytes, IK bones over an IK key's 20. `long`: the command line's wording (why, in a second clause).
 */
export function bakeNameWarnings(r: { namesTooLong: readonly string[]; ikNamesTooLong: readonly string[] }, long = false): Diagnostic[] {
  return [
    ...r.namesTooLong.map((name) => long
      ? { code: 'W_BAKE_NAME_LONG_WHY', message: `physics bone "${name}" is not baked: its name is over 15 bytes, a VMD cannot name it`, params: { name } }
      : { code: 'W_BAKE_NAME_LONG', message: `physics bone "${name}" not baked: its name is over 15 bytes`, params: { name } }),
    ...r.ikNamesTooLong.map((name) => long
      ? { code: 'W_BAKE_IK_NAME_LONG_WHY', message: `IK bone "${name}" is not switched off: its name is over 20 bytes, a VMD's IK keys cannot name it`, params: { name } }
      : { code: 'W_BAKE_IK_NAME_LONG', message: `IK bone "${name}" not switched off: its name is over 20 bytes`, params: { name } }),
  ];
}

/**
 * ik-bake's warnings for the chains a VMD cannot name (the bake leaves them out, their IK on as the motion has it):
 * a chain link over a bone name's 15 bytes (its chain is not baked), an IK bone over an IK key's 20.
 */
export function ikBakeNameWarnings(r: { namesTooLong: readonly string[]; ikNamesTooLong: readonly string[] }): Diagnostic[] {
  return [
    ...r.ikNamesTooLong.map((name) => ({ code: 'W_IK_BAKE_IK_NAME_LONG', message: `IK bone "${name}" not baked (its IK left on): its name is over 20 bytes`, params: { name } })),
    ...r.namesTooLong.map((name) => ({ code: 'W_IK_BAKE_LINK_NAME_LONG', message: `IK link "${name}" not baked (its chain's IK left on): its name is over 15 bytes`, params: { name } })),
  ];
}

/** export-bvh's warning for a motion that moves none of the skeleton's bones (`standard`: no --model). */
export function exportBvhWarnings(doc: VmdDocument, model: ModelData, standard: boolean): Diagnostic[] {
  const w = noBoneMovedWarning(doc, model, standard ? 'standard' : 'model', 'bvh');
  return w ? [w] : [];
}

/** export-bvh's and export-vrma's warnings for what the motion moves that the file cannot carry: bones that reach no humanoid joint, morphs no expression took. */
export function humanoidExportWarnings(r: { leftOutBones: readonly string[]; unusedMorphs?: readonly string[] }): Diagnostic[] {
  return [leftOutWarning(r.leftOutBones), unusedMorphsWarning(r.unusedMorphs ?? [])].filter((w): w is Diagnostic => w !== null);
}

/**
 * export-vrma's warning for a motion that moves none of the skeleton's bones (`standard`: no --model), as
 * export-bvh's; `expressions`: how many expressions the VRMA carries all the same (a morph motion's).
 */
export function exportVrmaWarnings(doc: VmdDocument, model: ModelData, standard: boolean, expressions: number): Diagnostic[] {
  const w = noBoneMovedWarning(doc, model, standard ? 'standard' : 'model', expressions > 0 ? 'vrmaExpressions' : 'vrma', expressions);
  return w ? [w] : [];
}

/**
 * trim's warning for a range that holds no key of the motion: it starts after the last key, or ends before
 * the first. `hold`: what trim writes then (the pose held there) or, with --no-hold, nothing.
 */
export function trimRangeWarnings(doc: VmdDocument, from: number, to: number | undefined, hold: boolean): Diagnostic[] {
  let first = Infinity, last = -1;
  for (const kind of BLOCK_KINDS) {
    const b = doc[kind];
    for (let i = 0; i < b.count; i++) {
      const f = frameAt(b, i);
      if (f < first) first = f;
      if (f > last) last = f;
    }
  }
  if (last < 0) return [];
  if (from > last) {
    const message = `--from ${from} is after the motion's last key (frame ${last}): no key is kept${hold ? `, the output is the pose at frame ${last} held at frame 0` : ', the output has no keys'}`;
    return [{ code: hold ? 'W_TRIM_AFTER_END_HOLD' : 'W_TRIM_AFTER_END', message, params: { from, last } }];
  }
  if (to !== undefined && to < first) {
    const message = `--to ${to} is before the motion's first key (frame ${first}): no key is kept${hold ? `, the output is the pose at frame ${first} held at frame ${to - from}` : ', the output has no keys'}`;
    return [{ code: hold ? 'W_TRIM_BEFORE_START_HOLD' : 'W_TRIM_BEFORE_START', message, params: { to, first, at: to - from } }];
  }
  return [];
}

/** What a map file gave a VRMA conversion (captureOptions' `map`): its name as given, how it was read, its row counts. */
export interface MapFileInfo {
  name: string;
  format: 'csv' | 'json';
  bones: number;
  morphs: ReadonlyMap<string, string>;
}

/**
 * The rows of a VRMA conversion's --map that nothing reads: a VRMA's humanoid bones are named by the VRM
 * standard, so only the JSON "morphs" section (expression → morph) is used; a CSV map has no such section.
 */
export function vrmaMapWarnings(op: 'import-vrma' | 'export-vrma', map: MapFileInfo | undefined): Diagnostic[] {
  if (!map) return [];
  const params = { map: map.name, op, n: map.bones };
  if (map.format === 'csv') return [{ code: 'W_VRMA_MAP_CSV', message: `--map ${map.name}: ${op} reads only a JSON map's "morphs" section ({"morphs": {"happy": "笑い"}}), not a CSV map: its ${plural(count(map.bones), 'row')} are ignored`, params }];
  if (map.bones > 0) return [{ code: 'W_VRMA_MAP_BONES', message: `--map ${map.name}: ${plural(count(map.bones), 'bone row')} ignored (the "bones" section, or rows outside "morphs"): ${op} maps the VRM humanoid bones by their standard names and reads only the "morphs" section`, params }];
  return [];
}

/**
 * import-bvh's warning for a JSON --map with a "morphs" section: a BVH has joints only, no morphs or
 * expressions, so those rows have nothing to name (the "bones" section is read as ever).
 */
export function bvhMapWarnings(map: MapFileInfo | undefined): Diagnostic[] {
  if (!map || map.morphs.size === 0) return [];
  const n = map.morphs.size;
  return [{ code: 'W_BVH_MAP_MORPHS', message: `--map ${map.name}: ${plural(count(n), '"morphs" row')} ignored: a BVH has joints only, no morphs or expressions, so import-bvh reads only the map's joint rows (the "bones" section)`, params: { map: map.name, n } }];
}

/** import-vrma's warning for --map "morphs" rows that name no expression of the file being imported. */
export function unknownExpressionWarnings(map: MapFileInfo | undefined, expressions: Readonly<Record<string, number>>): Diagnostic[] {
  if (!map || map.format !== 'json') return [];
  const unknown = [...map.morphs.keys()].filter((k) => !Object.prototype.hasOwnProperty.call(expressions, k));
  if (!unknown.length) return [];
  const names = fewNames(unknown);
  return [{ code: 'W_VRMA_MAP_EXPRESSIONS', message: `--map ${map.name}: "morphs" rows naming no expression of the file (left out): ${names}`, params: { map: map.name, names } }];
}

/**
 * A capture import's warnings, in the one order import-bvh, import-vrma and their batch operations list
 * them: what the reader ignored in the input (labelled with the file, as an error about it would be), then
 * what the import could not keep. `lists`: also the joints left unmapped and the parts the model lacks, for
 * the batch's report (the one-file commands print those in their report line and JSON).
 */
export function captureWarnings(file: string, read: readonly Diagnostic[], r: ImportReport, opts: { standard: boolean; lists: boolean }): Diagnostic[] {
  const who: Who = opts.standard ? 'standard' : 'model';
  return [
    // The reader's note with the file's name; an --fps over a right Frame Time plays slower or faster (`paceWord`).
    ...read.map((d) => ({ code: d.code, message: `${file}: ${d.message}`, params: { ...d.params, file, ...(d.code === 'W_BVH_FPS_OVERRIDE' ? { paceWord: d.params?.slower ? 'slower' : 'faster' } : {}) } })),
    ...(opts.lists && r.unmappedJoints.length ? [{ code: 'W_CAPTURE_UNMAPPED', message: `unmapped joints: ${r.unmappedJoints.join(' ')}`, params: { names: r.unmappedJoints.join(' ') } }] : []),
    ...(opts.lists && r.unboundParts.length ? [{ code: 'W_CAPTURE_PARTS_LACKING', message: `parts ${WHO[who]} lacks: ${r.unboundParts.join(' ')}`, params: { whoWord: who, names: r.unboundParts.join(' ') } }] : []),
    // The import's own (an older report without codes: its English lines).
    ...r.warnings.map((message) => r.warningCodes?.find((d) => d.message === message) ?? { code: 'W_IMPORT', message }),
  ];
}
