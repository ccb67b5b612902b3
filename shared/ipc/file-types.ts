/**
 * The kinds of file the app opens, each with its extensions, written once: the IPC contract's
 * `FileFilter`, the request validator, the native dialogs, folder listings, the command line and
 * double-click list (argv), drops, and the in-app file dialog all read them from here.
 */
import { SCENE_EXTENSION } from '../scene/scene-file';
import type { MocapFormat } from './mocap-types';

/** What a file dialog or a folder listing shows. */
export const FILE_FILTERS = ['motion', 'vmd', 'vpd', 'model', 'scene', 'audio', 'open', 'mocap', 'vrma', 'bvh', 'map', 'timings', 'any'] as const;
export type FileFilter = (typeof FILE_FILTERS)[number];

/** Extensions are lower case with their dot. */
export const MOTION_EXTENSIONS = ['.vmd', '.vpd'] as const;
/** The models the preview reads (a drop loads these). */
export const PMX_PMD_EXTENSIONS = ['.pmx', '.pmd'] as const;
/** What the model dialog lists: what the preview reads (DirectX .x accessories it does not). */
export const MODEL_EXTENSIONS = PMX_PMD_EXTENSIONS;
export const SCENE_EXTENSIONS = [SCENE_EXTENSION] as const;
/** What Web Audio decodes in Chromium (the platform may decode fewer; the error then names the format). */
export const AUDIO_EXTENSIONS = ['.wav', '.mp3', '.ogg', '.oga', '.opus', '.flac', '.m4a', '.aac', '.weba', '.webm'] as const;
/** Motion capture and other programs' motion, imported onto a model (BVH, VRM Animation) and exported. */
export const MOCAP_EXTENSIONS = ['.bvh', '.vrma'] as const;
/** A motion capture import's joint map (the CLI's --map: CSV or JSON). */
export const MAP_EXTENSIONS = ['.csv', '.json'] as const;
/** Mouth timings for lip sync (shared/key-edits/mouth-timings.ts): a FRAME VOWEL list, or a Julius/HTK phoneme label file. */
export const TIMING_EXTENSIONS = ['.txt', '.lab'] as const;
/** What the app opens from the command line, a double-click or a second instance: motions, scenes, and captures (imported). */
export const DOCUMENT_EXTENSIONS = [...MOTION_EXTENSIONS, ...SCENE_EXTENSIONS, ...MOCAP_EXTENSIONS] as const;

/** What Open… and a drop on the window do with a file, by its kind. */
export type OpenKind = 'motion' | 'model' | 'scene' | 'capture' | 'music';

/**
 * The one list of what Open… and a drop take, each kind with its extensions, in the order the app names
 * them: a motion or pose opens as a one-actor scene, a model goes to the preview, a scene opens, a capture
 * opens the import dialog, a song becomes the scene's music (as ♪ Music… does). The dialog's filter, its
 * title, the drop hint and the refusal of anything else are all said from it.
 */
export const OPEN_KINDS: readonly { readonly kind: OpenKind; readonly extensions: readonly string[] }[] = [
  { kind: 'motion', extensions: MOTION_EXTENSIONS },
  { kind: 'model', extensions: PMX_PMD_EXTENSIONS },
  { kind: 'scene', extensions: SCENE_EXTENSIONS },
  { kind: 'capture', extensions: MOCAP_EXTENSIONS },
  { kind: 'music', extensions: AUDIO_EXTENSIONS },
];

/** What Open… lists: every kind of OPEN_KINDS. */
export const OPEN_EXTENSIONS: readonly string[] = OPEN_KINDS.flatMap((k) => k.extensions);

/** What Open… or a drop does with a file of this name (by its extension), or null: it takes no such file. */
export function openKindOf(name: string): OpenKind | null {
  const ext = extensionOf(name);
  return OPEN_KINDS.find((k) => k.extensions.includes(ext))?.kind ?? null;
}

/** Each kind's extensions as a message lists them (".vmd, .vpd"), for the strings that name what Open… takes. */
export function openKindExtensions(): Record<OpenKind, string> {
  return Object.fromEntries(OPEN_KINDS.map((k) => [k.kind, k.extensions.join(', ')])) as Record<OpenKind, string>;
}

/** The extensions each filter lists; null for every file. */
export const FILTER_EXTENSIONS: Readonly<Record<FileFilter, readonly string[] | null>> = {
  motion: MOTION_EXTENSIONS,
  vmd: ['.vmd'],
  vpd: ['.vpd'],
  model: MODEL_EXTENSIONS,
  scene: SCENE_EXTENSIONS,
  audio: AUDIO_EXTENSIONS,
  open: OPEN_EXTENSIONS,
  mocap: MOCAP_EXTENSIONS,
  vrma: ['.vrma'],
  bvh: ['.bvh'],
  map: MAP_EXTENSIONS,
  timings: TIMING_EXTENSIONS,
  any: null,
};

/** The filter's name in a native dialog (the OS shows it as it is). */
export const FILTER_NAMES: Readonly<Record<FileFilter, string>> = {
  motion: 'VMD / VPD',
  vmd: 'VMD',
  vpd: 'VPD',
  model: 'PMX / PMD',
  scene: 'VMD Studio scene',
  audio: 'Audio',
  open: 'VMD / VPD / PMX / PMD / scene / BVH / VRMA / audio',
  mocap: 'BVH / VRM Animation',
  vrma: 'VRM Animation',
  bvh: 'BVH',
  map: 'Joint map (CSV / JSON)',
  timings: 'Mouth timings (TXT / LAB)',
  any: '*',
};

/** The lower-case extension of a file name or path, with its dot, as Node's path.extname finds it ('' for none, or for a name like ".vmd"). */
export function extensionOf(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** The capture format an extension ('.bvh', lower case with its dot, as extensionOf gives it) names, or null. */
export function mocapFormatOfExtension(ext: string): MocapFormat | null {
  return ext === '.bvh' ? 'bvh' : ext === '.vrma' ? 'vrma' : null;
}

/** The capture format a file name says by its extension (BVH, VRM Animation), or null. */
export function mocapFormatOf(name: string): MocapFormat | null {
  return mocapFormatOfExtension(extensionOf(name));
}

/** Whether a file name or path ends in one of `exts` (any case). */
export function hasExtension(name: string, exts: readonly string[]): boolean {
  const e = extensionOf(name);
  return e !== '' && exts.includes(e);
}

/** Every extension some filter lists: a typed path ending in one names a file, not a folder. */
export const KNOWN_EXTENSIONS: readonly string[] = [...MOTION_EXTENSIONS, ...MODEL_EXTENSIONS, ...SCENE_EXTENSIONS, ...AUDIO_EXTENSIONS, ...MOCAP_EXTENSIONS, ...MAP_EXTENSIONS, ...TIMING_EXTENSIONS];
