/**
 * The disk for shared/scene/scene-locate.ts: where a scene's file is when it is not where the scene names it
 * (its last segments under the scene's folder, each matched without regard to case). Main's scene open
 * (scene-service.ts) and `vmd-studio inspect` both ask it, so the CLI reports what the app opens.
 *
 * Never touches a network or device path (`\\host\share`, `CON`…; access.ts isRemoteOrDevicePath): one named
 * as written is taken as not there without asking, and none is looked in or found. A file found must be a
 * regular file whose real path lies in the scene folder's real path (a link there that points out reaches
 * nothing); access.ts checks the same again before granting it.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { locateSceneFiles, type LocateDisk, type LocatedFile } from '../../shared/scene/scene-locate';
import { dirnamePath, normalizePath } from '../../shared/scene/scene-path';
import type { Scene } from '../../shared/scene/scene-file';
import { isRemoteOrDevicePath } from './access';
import { resolveLoose } from './file-service';

/** True when `child` lies under `parent` (not the folder itself). */
function inside(child: string, parent: string): boolean {
  const r = path.relative(parent, child);
  return r !== '' && !r.startsWith('..') && !path.isAbsolute(r);
}

/** Whether `p` is a regular file whose real path lies inside the real path of `dir` (links resolved in both). */
export async function fileInsideFolder(p: string, dir: string): Promise<boolean> {
  if (isRemoteOrDevicePath(p) || isRemoteOrDevicePath(dir)) return false;
  try {
    const [st, real, realDir] = await Promise.all([fsp.stat(p), fsp.realpath(p), fsp.realpath(dir)]);
    return st.isFile() && inside(real, realDir);
  } catch {
    return false;
  }
}

export const nodeLocateDisk: LocateDisk = {
  exists: (p) => (isRemoteOrDevicePath(p) ? Promise.resolve(false) : fsp.stat(p).then(() => true, () => false)),
  loose: async (base, rel) => {
    // A device name anywhere on the way (`CON`, `nul.vmd`) names no file in any folder on Windows.
    if (isRemoteOrDevicePath(base) || rel.split('/').some((s) => isRemoteOrDevicePath(s))) return null;
    return resolveLoose(base, rel);
  },
  fileInside: fileInsideFolder,
};

/** The scene's files not where it names them and found under its folder (`scenePath`: the scene file's absolute path). */
export function locateOnDisk(scene: Scene, scenePath: string): Promise<LocatedFile[]> {
  return locateSceneFiles(scene, dirnamePath(normalizePath(scenePath)), nodeLocateDisk);
}
