/**
 * The options of every batch operation, in one place: the CLI derives its option names and usage text
 * from this table, the Batch dialog renders its form from it, and `validateOpForm` checks a form before
 * a job starts. Options are named as on the command line without dashes; electron/batch/ops.ts
 * (prepareOp) stays the authority that finally accepts or rejects them.
 */
import type { BatchStringKey } from '../i18n/batch-strings';
import type { BatchOp } from './types';
import { BONE_CHANNELS, CAMERA_CHANNELS } from '../vmd/interpolation';

export type OptionKind = 'number' | 'integer' | 'text' | 'flag' | 'curve' | 'channels' | 'file';

export interface OptionSpec {
  /** The CLI's name without dashes, also the key in BatchJob.options. */
  name: string;
  kind: OptionKind;
  required?: boolean;
  /** The value the operation uses when the option is left out (shown as the form's hint or initial state). */
  default?: string | number | boolean;
  /** Form label (shared/i18n/batch-strings.ts). */
  label: BatchStringKey;
  /** Hint shown under or inside the field. */
  hint?: BatchStringKey;
  /** Placeholder of the value in the CLI usage, e.g. "A" for `--from A`. */
  meta?: string;
  /** Numbers: smallest allowed value. */
  min?: number;
  /** Numbers: must be greater than 0. */
  positive?: boolean;
  /** Numbers: must not be smaller than this other option's value. */
  notBefore?: string;
  /** Flags the form shows as the opposite checkbox (label says what happens when the flag is NOT given). */
  inverted?: boolean;
  /** Only meaningful together with this flag: the form disables the field while the flag is off. */
  enabledBy?: string;
  /** Usage text nests this option inside `enabledBy`'s brackets: `[--clip [--no-hold]]`. */
  nestInUsage?: boolean;
  /** Channels: which channel set. */
  channels?: 'bone' | 'camera';
  /**
   * Flags: not together with this other flag (physics-bake's --resimulate and --no-resimulate, neither of them
   * the default 'auto'): the usage shows `[--a | --b]`, the form unticks the other, validateOpForm refuses both.
   */
  excludes?: string;
}

/** Curve presets the form offers, as parseCurveSpec names them; anything else is "x1,y1,x2,y2". */
export const CURVE_PRESET_NAMES = ['linear', 'ease-in', 'ease-out', 'ease-in-out', 'mmd-default'] as const;

/** Channel letters as parseChannels spells them (bone: position x/y/z and rotation; camera adds distance and FOV). */
export const CHANNEL_SETS = {
  bone: BONE_CHANNELS,
  camera: CAMERA_CHANNELS,
} as const;

/** The fitter's tolerances (shared/fit), as reduce and speed --refit take them; defaults from DEFAULT_TOLERANCES. */
const TOLERANCES: readonly OptionSpec[] = [
  { name: 'pos-tol', kind: 'number', positive: true, default: 0.01, meta: 'U', label: 'batch.opt.pos-tol' },
  { name: 'rot-tol', kind: 'number', positive: true, default: 0.1, meta: 'DEG', label: 'batch.opt.rot-tol' },
  { name: 'morph-tol', kind: 'number', positive: true, default: 0.005, meta: 'W', label: 'batch.opt.morph-tol' },
];

/** Per operation, its options in usage order. */
export const OP_OPTION_SPECS: Record<BatchOp, readonly OptionSpec[]> = {
  mirror: [
    { name: 'no-light', kind: 'flag', default: false, inverted: true, label: 'batch.opt.no-light' },
    // The model the motions are for: names in Latin letters pair by its bones and morphs (mirror.ts).
    { name: 'model', kind: 'file', meta: 'MODEL.pmx|.pmd', label: 'batch.opt.import.model', hint: 'batch.opt.mirror.model.hint' },
  ],
  trim: [
    { name: 'from', kind: 'integer', required: true, min: 0, meta: 'A', label: 'batch.opt.from' },
    { name: 'to', kind: 'integer', min: 0, notBefore: 'from', meta: 'B', label: 'batch.opt.to', hint: 'batch.opt.to.hint' },
    { name: 'no-hold', kind: 'flag', default: false, inverted: true, label: 'batch.opt.trim.no-hold' },
    { name: 'keep-static', kind: 'flag', default: false, label: 'batch.opt.keep-static' },
  ],
  speed: [
    { name: 'factor', kind: 'number', required: true, positive: true, meta: 'K', label: 'batch.opt.factor', hint: 'batch.opt.factor.hint' },
    { name: 'refit', kind: 'flag', default: false, label: 'batch.opt.refit', hint: 'batch.opt.refit.hint' },
    ...TOLERANCES.map((s) => ({ ...s, enabledBy: 'refit', nestInUsage: true })),
  ],
  shift: [
    { name: 'by', kind: 'integer', required: true, meta: 'N', label: 'batch.opt.by' },
    { name: 'clip', kind: 'flag', default: false, label: 'batch.opt.clip' },
    { name: 'no-hold', kind: 'flag', default: false, inverted: true, enabledBy: 'clip', nestInUsage: true, label: 'batch.opt.shift.no-hold' },
  ],
  preset: [
    { name: 'curve', kind: 'curve', required: true, meta: 'NAME|x1,y1,x2,y2', label: 'batch.opt.curve' },
    { name: 'bones', kind: 'text', meta: 'PATTERN', label: 'batch.opt.bones', hint: 'batch.opt.bones.hint' },
    { name: 'channels', kind: 'channels', channels: 'bone', meta: 'x,y,z,r', label: 'batch.opt.channels' },
    { name: 'camera', kind: 'flag', default: false, label: 'batch.opt.camera' },
    { name: 'camera-channels', kind: 'channels', channels: 'camera', enabledBy: 'camera', meta: 'x,y,z,r,d,v', label: 'batch.opt.camera-channels' },
    { name: 'from', kind: 'number', min: 0, meta: 'A', label: 'batch.opt.preset.from' },
    { name: 'to', kind: 'number', min: 0, meta: 'B', label: 'batch.opt.preset.to' },
  ],
  rename: [
    { name: 'map', kind: 'file', required: true, meta: 'MAPPING.json|.csv', label: 'batch.opt.map', hint: 'batch.opt.map.hint' },
    { name: 'morphs', kind: 'flag', default: false, label: 'batch.opt.morphs' },
  ],
  pose: [{ name: 'frame', kind: 'number', min: 0, default: 0, meta: 'F', label: 'batch.opt.frame' }],
  convert: [
    { name: 'frame', kind: 'number', min: 0, default: 0, meta: 'F', label: 'batch.opt.frame' },
    { name: 'skip-long-names', kind: 'flag', default: false, label: 'batch.opt.skip-long-names' },
  ],
  inspect: [],
  reduce: [
    ...TOLERANCES,
    { name: 'bones', kind: 'text', meta: 'PATTERNS', label: 'batch.opt.bones', hint: 'batch.opt.bones.hint' },
    { name: 'from', kind: 'integer', min: 0, meta: 'A', label: 'batch.opt.preset.from' },
    { name: 'to', kind: 'integer', min: 0, notBefore: 'from', meta: 'B', label: 'batch.opt.preset.to' },
  ],
  bake: [
    { name: 'from', kind: 'integer', min: 0, meta: 'A', label: 'batch.opt.preset.from' },
    { name: 'to', kind: 'integer', min: 0, notBefore: 'from', meta: 'B', label: 'batch.opt.preset.to' },
  ],
  'physics-bake': [
    { name: 'model', kind: 'file', required: true, meta: 'MODEL.pmx|.pmd', label: 'batch.opt.model', hint: 'batch.opt.model.hint' },
    { name: 'from', kind: 'integer', min: 0, meta: 'A', label: 'batch.opt.preset.from' },
    { name: 'to', kind: 'integer', min: 0, notBefore: 'from', meta: 'B', label: 'batch.opt.preset.to' },
    // As the one-file command and Bake physics… take them, with their defaults: from A > 0 the simulation runs from
    // frame 0 (empty: all), and keys with physics off are simulated over when they are a previous bake ('auto').
    { name: 'warmup', kind: 'integer', min: 0, meta: 'N|all', label: 'batch.opt.warmup', hint: 'batch.opt.warmup.hint' },
    { name: 'raw', kind: 'flag', default: false, label: 'batch.opt.raw' },
    { name: 'resimulate', kind: 'flag', default: false, excludes: 'no-resimulate', label: 'batch.opt.resimulate', hint: 'batch.opt.resimulate.hint' },
    { name: 'no-resimulate', kind: 'flag', default: false, excludes: 'resimulate', label: 'batch.opt.no-resimulate', hint: 'batch.opt.no-resimulate.hint' },
    // Used unless --raw (a form gate only turns an option on with a flag, not off).
    ...TOLERANCES.filter((s) => s.name !== 'morph-tol'),
  ],
  // As the one-file command and Bake IK to FK… take them: the IK bones (default: every one on somewhere in A..B).
  'ik-bake': [
    { name: 'model', kind: 'file', required: true, meta: 'MODEL.pmx|.pmd', label: 'batch.opt.model', hint: 'batch.opt.ik-bake.model.hint' },
    { name: 'from', kind: 'integer', min: 0, meta: 'A', label: 'batch.opt.preset.from' },
    { name: 'to', kind: 'integer', min: 0, notBefore: 'from', meta: 'B', label: 'batch.opt.preset.to' },
    { name: 'bones', kind: 'text', meta: 'IK,IK', label: 'batch.opt.ik-bake.bones', hint: 'batch.opt.ik-bake.bones.hint' },
    { name: 'raw', kind: 'flag', default: false, label: 'batch.opt.raw' },
    ...TOLERANCES.filter((s) => s.name === 'rot-tol'),
  ],
  // The two models are read by the batch engine (electron/batch/ops.ts); a folder of motions made for one model.
  retarget: [
    { name: 'from', kind: 'file', meta: 'SOURCE.pmx', label: 'batch.opt.retarget.from', hint: 'batch.opt.retarget.from.hint' },
    { name: 'to', kind: 'file', required: true, meta: 'TARGET.pmx', label: 'batch.opt.retarget.to', hint: 'batch.opt.retarget.to.hint' },
    { name: 'map', kind: 'file', meta: 'MAPPING.json|.csv', label: 'batch.opt.map', hint: 'batch.opt.map.hint' },
    { name: 'no-scale', kind: 'flag', default: false, inverted: true, label: 'batch.opt.retarget.no-scale' },
    { name: 'no-floor', kind: 'flag', default: false, inverted: true, label: 'batch.opt.retarget.no-floor', hint: 'batch.opt.retarget.no-floor.hint' },
    ...TOLERANCES.filter((s) => s.name !== 'morph-tol'),
  ],
  // A folder of captures onto one model, or (no model) onto the standard MMD skeleton; options as import-bvh's.
  'import-bvh': [
    { name: 'model', kind: 'file', meta: 'MODEL.pmx|.pmd', label: 'batch.opt.import.model', hint: 'batch.opt.import.model.hint' },
    { name: 'map', kind: 'file', meta: 'MAP.csv|.json', label: 'batch.opt.map', hint: 'batch.opt.import.map.hint' },
    { name: 'scale', kind: 'number', positive: true, meta: 'S', label: 'batch.opt.import.scale', hint: 'batch.opt.import.scale.hint' },
    { name: 'fps', kind: 'number', positive: true, meta: 'N', label: 'batch.opt.import.fps', hint: 'batch.opt.import.fps.hint' },
    { name: 'no-foot-ik', kind: 'flag', default: false, inverted: true, label: 'batch.opt.import.foot-ik' },
    { name: 'origin', kind: 'flag', default: false, label: 'batch.opt.import.origin' },
    // As import-bvh --despike and the import dialog's Remove glitches: off by default (a glitch is found, not proven).
    { name: 'despike', kind: 'flag', default: false, label: 'batch.opt.import.despike', hint: 'batch.opt.import.despike.hint' },
    { name: 'pos-tol', kind: 'number', positive: true, default: 0.02, meta: 'U', label: 'batch.opt.pos-tol' },
    { name: 'rot-tol', kind: 'number', positive: true, default: 0.5, meta: 'DEG', label: 'batch.opt.rot-tol' },
  ],
  // A folder of VRM Animations, as import-vrma: import-bvh's options but the capture rate (a .vrma's
  // times are seconds); the map's "morphs" section edits the expression table.
  'import-vrma': [
    { name: 'model', kind: 'file', meta: 'MODEL.pmx|.pmd', label: 'batch.opt.import.model', hint: 'batch.opt.import.model.hint' },
    { name: 'map', kind: 'file', meta: 'MAP.csv|.json', label: 'batch.opt.map', hint: 'batch.opt.import-vrma.map.hint' },
    { name: 'scale', kind: 'number', positive: true, meta: 'S', label: 'batch.opt.import.scale', hint: 'batch.opt.import.scale.hint' },
    { name: 'no-foot-ik', kind: 'flag', default: false, inverted: true, label: 'batch.opt.import.foot-ik' },
    { name: 'origin', kind: 'flag', default: false, label: 'batch.opt.import.origin' },
    // As import-bvh --despike and the import dialog's Remove glitches: off by default (a glitch is found, not proven).
    { name: 'despike', kind: 'flag', default: false, label: 'batch.opt.import.despike', hint: 'batch.opt.import.despike.hint' },
    { name: 'pos-tol', kind: 'number', positive: true, default: 0.02, meta: 'U', label: 'batch.opt.pos-tol' },
    { name: 'rot-tol', kind: 'number', positive: true, default: 0.5, meta: 'DEG', label: 'batch.opt.rot-tol' },
  ],
  // A folder of motions played on one model (or the standard MMD skeleton) → BVH / VRM Animation, as
  // export-bvh and export-vrma; the map's "morphs" section edits the expression table.
  'export-bvh': [{ name: 'model', kind: 'file', meta: 'MODEL.pmx|.pmd', label: 'batch.opt.import.model', hint: 'batch.opt.import.model.hint' }],
  'export-vrma': [
    { name: 'model', kind: 'file', meta: 'MODEL.pmx|.pmd', label: 'batch.opt.import.model', hint: 'batch.opt.import.model.hint' },
    { name: 'map', kind: 'file', meta: 'MAP.json', label: 'batch.opt.map', hint: 'batch.opt.export-vrma.map.hint' },
  ],
};

/** The option names an op takes a value for, and its flags, as the CLI's argument parser wants them. */
export function cliArgNames(op: BatchOp): { values: string[]; flags: string[] } {
  const specs = OP_OPTION_SPECS[op];
  return { values: specs.filter((s) => s.kind !== 'flag').map((s) => s.name), flags: specs.filter((s) => s.kind === 'flag').map((s) => s.name) };
}

/** The op's options in CLI usage form, e.g. `--from A [--to B] [--no-hold] [--keep-static]`. */
export function cliUsage(op: BatchOp): string {
  const specs = OP_OPTION_SPECS[op];
  const one = (s: OptionSpec): string => {
    let text = s.kind === 'flag' ? `--${s.name}` : `--${s.name} ${s.meta ?? 'VALUE'}`;
    const nested = specs.filter((n) => n.nestInUsage && n.enabledBy === s.name);
    if (nested.length) text += ' ' + nested.map(one).join(' ');
    // Two flags that exclude each other in one bracket, at the first's place: `[--resimulate | --no-resimulate]`.
    if (s.excludes) text += ` | --${s.excludes}`;
    return s.required ? text : `[${text}]`;
  };
  const later = (s: OptionSpec) => !!s.excludes && specs.findIndex((x) => x.name === s.excludes) < specs.indexOf(s);
  return specs.filter((s) => !s.nestInUsage && !later(s)).map(one).join(' ');
}
