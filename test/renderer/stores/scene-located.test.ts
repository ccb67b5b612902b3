// A friend's scene names `C:\Users\友達\…\motions\33_angry.vmd` and `Motions\WaveFile_v2.VMD`; main finds the files
// beside the scene (openScene's `located`: electron/services/scene-locate.ts). Before, the store read the paths
// as written and opened empty actors ("no motion file"). Now it opens the files found, says which in a notice
// (English and Japanese), keeps the scene as saved (nothing the person did), and a Save writes the paths found,
// relative to the scene.
import { describe, expect, it } from 'vitest';
import { okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { memoryScene, dance } from './scene-fixtures';

const FRIEND_ANGRY = 'C:\\Users\\友達\\Documents\\MMD\\proj\\motions\\33_angry.vmd';

/** The store over files in memory whose openScene answers with `located`, as main does. */
function openingWithLocated(located: { path: string; found: string }[]) {
  const text = JSON.stringify({
    format: 'vmd-studio-scene',
    version: 1,
    actors: [
      { model: null, motion: FRIEND_ANGRY, hidden: false },
      { model: null, motion: 'Motions\\WaveFile_v2.VMD', hidden: false },
    ],
    activeActor: 0,
    camera: null,
  });
  const m = memoryScene([
    ['/p/motions/33_angry.vmd', dance(5)],
    ['/p/motions/wavefile_v2.vmd', dance(7)],
    ['/p/win.vmdscene', new TextEncoder().encode(text)],
  ]);
  setApi(new Proxy(m.fake.api, {
    get: (target, name: string) => {
      const real = (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name];
      if (name !== 'openScene') return real;
      return async (p: string) => {
        const r = (await real(p)) as { ok: boolean; value: object };
        return r.ok ? okValue({ ...r.value, located }) : r;
      };
    },
  }) as VmdStudioApi);
  return m;
}

describe('a scene whose files main found beside it', () => {
  it('opens the files found, says so in both languages, and Save writes their paths relative to the scene', async () => {
    const { files } = openingWithLocated([
      { path: FRIEND_ANGRY, found: '/p/motions/33_angry.vmd' },
      { path: '/p/Motions/WaveFile_v2.VMD', found: '/p/motions/wavefile_v2.vmd' },
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/p/win.vmdscene')).toBe(true);
    expect(scene.actors.map((a) => [a.path, a.fileName])).toEqual([
      ['/p/motions/33_angry.vmd', '33_angry.vmd'],
      ['/p/motions/wavefile_v2.vmd', 'wavefile_v2.vmd'],
    ]);
    const notice = useNotifyStore().items.find((n) => noticeLines(n, 'en').message.startsWith('Found'))!;
    expect(notice.kind).toBe('warning');
    expect(noticeLines(notice, 'en')).toEqual({
      message: 'Found 2 of the scene’s files beside it, not where it names them; saving the scene writes the paths found',
      detail: `motions/33_angry.vmd for ${FRIEND_ANGRY} · motions/wavefile_v2.vmd for Motions/WaveFile_v2.VMD`,
    });
    expect(noticeLines(notice, 'ja')).toEqual({
      message: 'シーンが指す場所にないファイル 2 個を、シーンのフォルダで見つけて開きました。シーンを保存すると見つかったパスを書きます',
      detail: `${FRIEND_ANGRY} → motions/33_angry.vmd · Motions/WaveFile_v2.VMD → motions/wavefile_v2.vmd`,
    });
    // Nothing the person did: the scene is as saved, and its file keeps its text until a Save.
    expect(scene.sceneChanged).toBe(false);
    expect(await scene.saveTo('/p/win.vmdscene', true)).toBe(true);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/p/win.vmdscene')));
    expect(saved.actors.map((a: { motion: string }) => a.motion)).toEqual(['motions/33_angry.vmd', 'motions/wavefile_v2.vmd']);
  });

  it('one file found is named in the notice itself', async () => {
    openingWithLocated([{ path: FRIEND_ANGRY, found: '/p/motions/33_angry.vmd' }]);
    expect(await useSceneStore().openPath('/p/win.vmdscene')).toBe(true);
    const notice = useNotifyStore().items.find((n) => noticeLines(n, 'en').message.startsWith('Found'))!;
    expect(noticeLines(notice, 'en').message).toBe(`Found motions/33_angry.vmd beside the scene for ${FRIEND_ANGRY}; saving the scene writes the path found`);
    expect(noticeLines(notice, 'ja').message).toBe(`${FRIEND_ANGRY} がないため、シーンのフォルダにある motions/33_angry.vmd を開きました。シーンを保存すると見つかったパスを書きます`);
  });
});
