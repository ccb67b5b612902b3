/**
 * Where a scene's file is when it is not where the scene names it: the one rule main's scene open (the app,
 * both in Electron and the browser mode) and `vmd-studio inspect` follow, so that what the CLI says of a
 * shared folder is what the app opens.
 *
 * A friend's scene names `C:\Users\友達\Documents\MMD\proj\models\ジェネ\Gene_light.pmx` (written by hand, or
 * stored absolute because it lay on another drive), or `Models\Low_Miku\Miku.pmd` for `models/low_miku/miku.pmd`
 * (Windows does not mind the case; Linux and most macOS folders made by unzipping keep it). When the path does
 * not exist as written, its last segments are looked for under the scene's folder, longest first
 * (`Users/友達/…/Gene_light.pmx`, …, `models/ジェネ/Gene_light.pmx`, `ジェネ/Gene_light.pmx`, `Gene_light.pmx`),
 * each segment matched without regard to case when the exact name is missing (as textures are: file-service.ts
 * resolveLoose). For a relative path inside the scene's folder the longest such tail is the path itself, so a
 * case difference is found the same way.
 *
 * Bounded: at most MAX_TAIL_SEGMENTS segments, and only folders on the way down from the scene's folder are
 * listed (no search of the disk, nothing above the scene's folder). What is found must be a regular file whose
 * real path (links resolved) lies inside the scene's folder's real path: the disk (`LocateDisk`) checks that,
 * and main's access list checks it again before it grants the found path (electron/services/access.ts), for the
 * role the written path had.
 *
 * The scene file is not changed: the paths found are used in memory, and a Save of the scene writes them
 * (relative to the scene, as every path it writes).
 */
import type { Scene } from './scene-file';
import { basenamePath, normalizePath, relativePath, splitAbsolute } from './scene-path';

/** The most trailing segments of a written path tried under the scene's folder. */
export const MAX_TAIL_SEGMENTS = 12;

/** What the resolver asks of the disk: Node's in main and the CLI (electron/services/scene-locate.ts), a fake in tests. */
export interface LocateDisk {
  /** Whether `p` (absolute) exists as written; false without touching a network or device path. */
  exists(p: string): Promise<boolean>;
  /**
   * `rel` (segments joined with `/`, no `.` or `..`) under the absolute folder `base`, each segment matched
   * without regard to case where the exact name is missing; null when some segment has no match.
   */
  loose(base: string, rel: string): Promise<string | null>;
  /** Whether `p` is a regular file (links followed) whose real path lies inside the real path of the folder `dir`. */
  fileInside(p: string, dir: string): Promise<boolean>;
}

/** A path the scene names (absolute, as parseScene gives it) that was not there, and the file found for it. */
export interface LocatedFile {
  /** The path as the scene names it, resolved against its folder. */
  path: string;
  /** The file found under the scene's folder. */
  found: string;
}

/**
 * The relative paths tried under `sceneDir` for `written` (absolute), longest first: its segments below the
 * scene's folder when it lies in it, else all its segments, each time without the first (at most
 * MAX_TAIL_SEGMENTS of them). Normalised: no `.` or `..` remains, so no tail climbs out of the folder.
 */
export function fallbackTails(sceneDir: string, written: string): string[] {
  const w = splitAbsolute(normalizePath(written));
  if (!w || w.segments.length === 0) return [];
  const rel = relativePath(sceneDir, written);
  const inside = rel !== null && rel !== '.' && !rel.split('/').includes('..');
  const segs = (inside ? rel!.split('/') : w.segments).slice(-MAX_TAIL_SEGMENTS);
  const out: string[] = [];
  for (let i = 0; i < segs.length; i++) out.push(segs.slice(i).join('/'));
  return out;
}

/**
 * The file for `written` under `sceneDir` when `written` does not exist: the first of its tails that the disk
 * matches, a regular file inside the scene's folder; null when it exists as written, or no tail is found.
 */
export async function locateSceneFile(sceneDir: string, written: string, disk: LocateDisk): Promise<string | null> {
  if (await disk.exists(written)) return null;
  for (const tail of fallbackTails(sceneDir, written)) {
    const hit = await disk.loose(sceneDir, tail);
    if (hit !== null && (await disk.fileInside(hit, sceneDir))) return hit;
  }
  return null;
}

/** The paths a scene names (models, motions, camera, song), each once. */
function namedPaths(scene: Scene): string[] {
  const all = [...scene.actors.flatMap((a) => [a.model, a.motion]), scene.camera, scene.audio?.path ?? null];
  return [...new Set(all.filter((p): p is string => p !== null))];
}

/** Every path of the scene that is not where it names it and was found under its folder (`sceneDir`: the scene file's folder). */
export async function locateSceneFiles(scene: Scene, sceneDir: string, disk: LocateDisk): Promise<LocatedFile[]> {
  const out: LocatedFile[] = [];
  for (const p of namedPaths(scene)) {
    const found = await locateSceneFile(sceneDir, p, disk);
    if (found !== null) out.push({ path: p, found });
  }
  return out;
}

/** The scene with each located path replaced by the file found for it (a new value; the scene given is not changed). */
export function withLocated(scene: Scene, located: readonly LocatedFile[] | undefined): Scene {
  if (!located || located.length === 0) return scene;
  const to = (p: string | null) => (p === null ? null : (located.find((l) => l.path === p)?.found ?? p));
  return {
    ...scene,
    actors: scene.actors.map((a) => ({ ...a, model: to(a.model), motion: to(a.motion) })),
    camera: to(scene.camera),
    audio: scene.audio ? { ...scene.audio, path: to(scene.audio.path) } : null,
  };
}

/** One line per located file, `models/ジェネ/Gene_light.pmx for C:\…\Gene_light.pmx` (the found one relative to the scene). */
export function locatedLine(sceneDir: string, l: LocatedFile): { found: string; written: string; name: string } {
  return { found: relativePath(sceneDir, l.found) ?? l.found, written: relativePath(sceneDir, l.path) ?? l.path, name: basenamePath(l.found) };
}
