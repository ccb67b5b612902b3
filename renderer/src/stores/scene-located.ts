/**
 * A scene's files found beside it when they are not where it names them (main's openScene finds them:
 * shared/scene/scene-locate.ts): the scene opened with the files found, and a notice saying which, so that a
 * friend's scene with `C:\Users\…` paths or `Models\Low_Miku\Miku.pmd` opens, and the person knows why. The
 * scene file keeps its text until Save Scene writes the paths found (relative to it).
 */
import type { LocatedFile } from '../../../shared/scene/scene-locate';
import { locatedLine, withLocated } from '../../../shared/scene/scene-locate';
import type { Scene } from '../../../shared/scene/scene-file';
import { dirnamePath } from '../../../shared/scene/scene-path';
import { useNotifyStore } from './notify';

/** The scene with the files found for it, said in a notice (one file by name; several counted, each in the detail). */
export function openWithLocated(scene: Scene, scenePath: string, located: readonly LocatedFile[] | undefined): Scene {
  if (!located || located.length === 0) return scene;
  const dir = dirnamePath(scenePath);
  const lines = located.map((l) => locatedLine(dir, l));
  const notify = useNotifyStore();
  if (lines.length === 1) notify.warning({ key: 'scene.foundBeside', params: { found: lines[0].found, written: lines[0].written } });
  else notify.warning({ key: 'scene.foundBesideMany', params: { count: lines.length } }, lines.map((x) => ({ key: 'scene.foundFor' as const, params: { found: x.found, written: x.written } })));
  return withLocated(scene, located);
}
