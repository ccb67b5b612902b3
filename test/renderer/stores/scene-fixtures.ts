/**
 * What the scene-store tests share: a file system in memory behind the bridge (what the stores read and
 * write, every call recorded), two small motions built field by field, one edit of the shown document,
 * and answering the in-app question.
 */
import path from 'node:path';
import { createPinia, setActivePinia } from 'pinia';
import { setApi } from '../../../renderer/src/api';
import { expect, vi } from 'vitest';
import { useConfirmStore, type ConfirmChoice } from '../../../renderer/src/stores/confirm';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { renderText } from '../../../renderer/src/stores/notify';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { DEFAULT_SETTINGS, FILE_HEAD_BYTES, okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { blockFromRecords, buildVmd, emptyVmd, encodeCameraRecord, withBlocks, writeVmd } from '../../../shared/vmd';

/** A scene file's bytes: the format's header fields (one actor shown, the first) and `o`'s fields. */
export const sceneFile = (o: object): Uint8Array => new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, activeActor: 0, ...o }));

export function memoryApi(files: Map<string, Uint8Array>): { api: VmdStudioApi; calls: { name: string; args: unknown[] }[] } {
  const calls: { name: string; args: unknown[] }[] = [];
  const missing = (p: string) => ({ ok: false as const, error: { code: 'E_IO_NOT_FOUND', message: `not found: ${p}`, file: p } });
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        calls.push({ name, args });
        const p = args[0] as string;
        if (name === 'saveFile' || name === 'saveScene') {
          files.set(p, (args[1] as Uint8Array).slice());
          return okValue({ path: p, bytesWritten: (args[1] as Uint8Array).length, backupPath: null });
        }
        if (name === 'openFile' || name === 'openScene' || name === 'readModelFile' || name === 'readAudioFile' || name === 'readTimingFile') {
          const b = files.get(p);
          return b ? okValue({ path: p, name: path.posix.basename(p), bytes: b.slice() }) : missing(p);
        }
        if (name === 'readFileHead') {
          const b = files.get(p);
          return b ? okValue({ path: p, bytes: b.slice(0, FILE_HEAD_BYTES) }) : missing(p);
        }
        if (name === 'listDirectory') {
          // The files directly in the folder (names only; enough for a dialog's free name).
          const dir = p.replace(/\/$/, '');
          const entries = [...files.keys()].filter((f) => path.posix.dirname(f) === dir).map((f) => ({ name: path.posix.basename(f), path: f, kind: 'file' as const, size: files.get(f)!.length, mtimeMs: 0 }));
          return okValue({ path: dir, parent: path.posix.dirname(dir), entries });
        }
        if (name === 'listRecent') return okValue([]);
        if (name === 'setSettings') return okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) });
        return okValue(undefined);
      };
    },
  });
  return { api: api as unknown as VmdStudioApi, calls };
}

/**
 * A fresh Pinia over an in-memory file system holding `entries`, behind the bridge: the files (as the
 * stores change them), copies of them as they were, and the recording bridge.
 */
export function memoryScene(entries: [string, Uint8Array][]): { files: Map<string, Uint8Array>; original: Map<string, Uint8Array>; fake: ReturnType<typeof memoryApi> } {
  setActivePinia(createPinia());
  const files = new Map(entries);
  const original = new Map([...files].map(([k, v]) => [k, v.slice()]));
  const fake = memoryApi(files);
  setApi(fake.api);
  return { files, original, fake };
}

/** センター at frames 0, 10, 20, at x = 0, x, 0; `model`: the model its header names (none by default). */
export function dance(x: number, model = ''): Uint8Array {
  const bone = (frame: number, px: number) => ({ name: 'センター', frame, position: [px, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] });
  return writeVmd(buildVmd({ model, bones: [bone(0, 0), bone(10, x), bone(20, 0)] }));
}

/** A camera file: keys at 0, 15 and 40. */
export function cameraVmd(): Uint8Array {
  const keys = [0, 15, 40].map((frame, i) => encodeCameraRecord({ frame, distance: -30 - i, target: [0, 10, 0], rotation: [0, i * 0.2, 0], fov: 30 }));
  return writeVmd(withBlocks(emptyVmd(), { camera: blockFromRecords('camera', keys) }));
}

/** One edit of the shown document (a curve of its second key). */
export function editShown(kind: 'bone' | 'camera' = 'bone') {
  useSelectionStore().select([{ kind, record: 1 }]);
  useCurveEditorStore().setChannel(0);
  expect(useEditorActions().setCurve([100, 30, 107, 107])).toBe(true);
}

/** Waits for the in-app question, returns its line (English) and answers it. */
export async function answerNext(choice: ConfirmChoice): Promise<string> {
  const confirm = useConfirmStore();
  await vi.waitFor(() => expect(confirm.current).not.toBeNull());
  const line = renderText(confirm.current!.message, 'en');
  confirm.answer(choice);
  return line;
}
