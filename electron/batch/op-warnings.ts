/**
 * Warnings for requests that run and write a file but almost certainly did not do what was meant (a morph
 * motion baked or exported as a still figure — a camera or light motion is refused, shared/vmd/inspect.ts
 * stageMotionRefusal —, a trim past the motion's end, a VRMA map whose rows are never
 * read), and the one order in which a capture import's warnings are listed. The one-file commands
 * (electron/cli/commands) and the batch operations (ops.ts) both take them from here, so a file gets the
 * same warning either way. English, as the command line speaks; the output bytes are never changed.
 */
import { frameAt } from '../../shared/edit-core/record-util';
import { buildTracks, BLOCK_KINDS, type Diagnostic, type VmdDocument } from '../../shared/vmd';
import { compareMotionToModel } from '../../shared/pmx';
import type { ModelData } from '../../shared/pmx';
import type { ImportReport } from '../../shared/bvh/import';
import { leftOutWarning } from '../../shared/bvh/take';
import { unusedMorphsWarning } from '../../shared/bvh/vrma';
import { plural, agree } from '../../shared/i18n/plural';

/** How many names a warning lists before it says how many more there are. */
const LISTED = 5;

/** `names` as a warning lists them: the first few, then how many more. */
export function fewNames(names: readonly string[]): string {
  const shown = names.slice(0, LISTED).map((n) => JSON.stringify(n)).join(' ');
  return names.length > LISTED ? `${shown} and ${names.length - LISTED} more` : shown;
}

const KIND_WORDS = { bone: 'bone', morph: 'morph', camera: 'camera', light: 'light', shadow: 'self-shadow', ik: 'IK/display' } as const;

/** What keys a motion without bone keys has, for the warning ("only camera and light keys", "no keys at all"). */
function otherKeys(doc: VmdDocument): string {
  const kinds = BLOCK_KINDS.filter((k) => k !== 'bone' && doc[k].count > 0).map((k) => KIND_WORDS[k]);
  return kinds.length ? `only ${kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1]}` : kinds[0]} keys` : 'no keys at all';
}

/**
 * When a motion moves no bone of `model` (physics-bake, export-bvh, export-vrma): it has no bone keys (a morph motion;
 * a camera or light motion is refused before this), or none of its bone tracks names a bone the model has (a motion for another skeleton).
 * `result` says what the output then is. Null when some bone of the model is keyed.
 */
export function noBoneMovedWarning(doc: VmdDocument, model: ModelData, whose: string, result: string): string | null {
  const tracks = buildTracks(doc).bones.names;
  if (tracks.length === 0) return `the motion has no bone keys (${otherKeys(doc)}): ${result}`;
  const cmp = compareMotionToModel({ bones: tracks, morphs: [] }, { bones: model.bones.map((b) => b.name), morphs: [] });
  if (cmp.matchedBones > 0) return null;
  return `${whose} has none of the motion's ${plural(tracks.length, 'bone track')} (${fewNames(cmp.missingBones)}): ${result}`;
}

/** physics-bake's warning for a motion that moves none of the model's bones. */
export function physicsBakeWarnings(doc: VmdDocument, model: ModelData): string[] {
  const w = noBoneMovedWarning(doc, model, 'the model', 'the bake is of the model standing at rest');
  return w ? [w] : [];
}

/**
 * physics-bake's warning for keys of the baked bones inside the range that switch physics off (keyed by hand, or
 * a previous bake), played as keys without --resimulate: the bake kept them.
 */
export function physicsOffKeysWarnings(r: { physicsOffKeys: number; resimulated: boolean }): string[] {
  if (r.resimulated || r.physicsOffKeys === 0) return [];
  const n = r.physicsOffKeys;
  return [`${plural(n, 'key')} of the baked bones in the range ${agree(n, 'switches', 'switch')} physics off (keyed by hand, or a previous bake): ${agree(n, 'it was', 'they were')} played as keys; --resimulate simulates over ${agree(n, 'it', 'them')}`];
}

/** export-bvh's warning for a motion that moves none of the skeleton's bones (`standard`: no --model). */
export function exportBvhWarnings(doc: VmdDocument, model: ModelData, standard: boolean): string[] {
  const who = standard ? 'the standard skeleton' : 'the model';
  const w = noBoneMovedWarning(doc, model, who, `the BVH is ${who} standing still`);
  return w ? [w] : [];
}

/** export-bvh's and export-vrma's warnings for what the motion moves that the file cannot carry: bones that reach no humanoid joint, morphs no expression took. */
export function humanoidExportWarnings(r: { leftOutBones: readonly string[]; unusedMorphs?: readonly string[] }): string[] {
  return [leftOutWarning(r.leftOutBones), unusedMorphsWarning(r.unusedMorphs ?? [])].filter((w): w is string => w !== null);
}

/**
 * export-vrma's warning for a motion that moves none of the skeleton's bones (`standard`: no --model), as
 * export-bvh's; `expressions`: how many expressions the VRMA carries all the same (a morph motion's).
 */
export function exportVrmaWarnings(doc: VmdDocument, model: ModelData, standard: boolean, expressions: number): string[] {
  const who = standard ? 'the standard skeleton' : 'the model';
  const result = expressions > 0 ? `the VRMA's bones are ${who} standing still; only its ${plural(expressions, 'expression')} ${agree(expressions, 'moves', 'move')}` : `the VRMA is ${who} standing still`;
  const w = noBoneMovedWarning(doc, model, who, result);
  return w ? [w] : [];
}

/**
 * trim's warning for a range that holds no key of the motion: it starts after the last key, or ends before
 * the first. `hold`: what trim writes then (the pose held there) or, with --no-hold, nothing.
 */
export function trimRangeWarnings(doc: VmdDocument, from: number, to: number | undefined, hold: boolean): string[] {
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
  if (from > last) return [`--from ${from} is after the motion's last key (frame ${last}): no key is kept${hold ? `, the output is the pose at frame ${last} held at frame 0` : ', the output has no keys'}`];
  if (to !== undefined && to < first) return [`--to ${to} is before the motion's first key (frame ${first}): no key is kept${hold ? `, the output is the pose at frame ${first} held at frame ${to - from}` : ', the output has no keys'}`];
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
export function vrmaMapWarnings(op: 'import-vrma' | 'export-vrma', map: MapFileInfo | undefined): string[] {
  if (!map) return [];
  const rows = (n: number) => plural(n, 'row');
  if (map.format === 'csv') return [`--map ${map.name}: ${op} reads only a JSON map's "morphs" section ({"morphs": {"happy": "笑い"}}), not a CSV map: its ${rows(map.bones)} are ignored`];
  if (map.bones > 0) return [`--map ${map.name}: ${plural(map.bones, 'bone row')} ignored (the "bones" section, or rows outside "morphs"): ${op} maps the VRM humanoid bones by their standard names and reads only the "morphs" section`];
  return [];
}

/**
 * import-bvh's warning for a JSON --map with a "morphs" section: a BVH has joints only, no morphs or
 * expressions, so those rows have nothing to name (the "bones" section is read as ever).
 */
export function bvhMapWarnings(map: MapFileInfo | undefined): string[] {
  if (!map || map.morphs.size === 0) return [];
  const n = map.morphs.size;
  return [`--map ${map.name}: ${plural(n, '"morphs" row')} ignored: a BVH has joints only, no morphs or expressions, so import-bvh reads only the map's joint rows (the "bones" section)`];
}

/** import-vrma's warning for --map "morphs" rows that name no expression of the file being imported. */
export function unknownExpressionWarnings(map: MapFileInfo | undefined, expressions: Readonly<Record<string, number>>): string[] {
  if (!map || map.format !== 'json') return [];
  const unknown = [...map.morphs.keys()].filter((k) => !Object.prototype.hasOwnProperty.call(expressions, k));
  return unknown.length ? [`--map ${map.name}: "morphs" rows naming no expression of the file (left out): ${fewNames(unknown)}`] : [];
}

/**
 * A capture import's warnings, in the one order import-bvh, import-vrma and their batch operations list
 * them: what the reader ignored in the input (labelled with the file, as an error about it would be), then
 * what the import could not keep. `lists`: also the joints left unmapped and the parts the model lacks, for
 * the batch's report (the one-file commands print those in their report line and JSON).
 */
export function captureWarnings(file: string, read: readonly Diagnostic[], r: ImportReport, opts: { standard: boolean; lists: boolean }): string[] {
  return [
    ...read.map((d) => `${file}: ${d.message}`),
    ...(opts.lists && r.unmappedJoints.length ? [`unmapped joints: ${r.unmappedJoints.join(' ')}`] : []),
    ...(opts.lists && r.unboundParts.length ? [`parts ${opts.standard ? 'the standard skeleton' : 'the model'} lacks: ${r.unboundParts.join(' ')}`] : []),
    ...r.warnings,
  ];
}
