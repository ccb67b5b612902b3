/**
 * Model files read once when a scene opens. The scene store reads every actor's model at open (so a friend's
 * scene names each missing model at once), and the preview then builds the actors it draws (PreviewPane the shown
 * actor's, scene-actors.ts the others'): it takes the scene's read of that file instead of reading it again
 * through main, which for a scene of large models doubled the bytes crossing the bridge and the wait.
 *
 * A read is taken once (the preview builds each actor once per open); what no one takes (an actor switched away
 * from before its model was drawn) goes when the next scene opens. Only actors that are drawn are held: a hidden
 * actor's model is not kept waiting.
 */
import { useApi } from '../api';
import type { IpcResult, OpenedFile } from '../../../shared/ipc/contract';

const held = new Map<string, IpcResult<OpenedFile>>();

/**
 * Keeps the scene's read of model file `path` for the preview's first build of it, under the path the scene names
 * and the one main read (they differ when the file was found elsewhere: scene-locate).
 */
export function holdModelRead(path: string, read: IpcResult<OpenedFile>): void {
  held.set(path, read);
  if (read.ok && read.value.path !== path) held.set(read.value.path, read);
}

/** Forgets every read held (a new scene opens; its reads replace them). */
export function dropModelReads(): void {
  held.clear();
}

/**
 * Model file `path` as the preview builds it: the scene's read when one is held (taken: the next build reads
 * the file again, as it may have changed), else a read through main. `recent`: the person opened it, so main
 * puts it on the recent list, which only a read through main does.
 */
export function readModelFile(path: string, opts?: { recent?: boolean }): Promise<IpcResult<OpenedFile>> {
  const r = opts?.recent ? undefined : held.get(path);
  if (r) {
    for (const [k, v] of held) if (v === r) held.delete(k);
    return Promise.resolve(r);
  }
  return useApi().readModelFile(path, opts);
}
