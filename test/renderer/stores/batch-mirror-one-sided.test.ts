// Whole Motion ▸ Mirror with the model shown and a bone whose other side the model lacks (as Gene's 右腕xcIK): the
// mirror leaves its keys as they are, and the notice says which bones it left, in English and in Japanese, so a
// track that did not move is not taken for a fault. Before, the track was renamed to the side the model lacks and
// the notice said nothing.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { mirror } from '../../../shared/motion-ops';
import { setApi } from '../../../renderer/src/api';
import { useBatchStore } from '../../../renderer/src/stores/batch';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';

function quietApi(): VmdStudioApi {
  return new Proxy({} as Record<string, unknown>, {
    get: (_t, name: string) => async (...args: unknown[]) => (name === 'setSettings' ? okValue({ ...DEFAULT_SETTINGS, ...(args[0] as object) }) : name === 'listRecent' ? okValue([]) : okValue(undefined)),
  }) as unknown as VmdStudioApi;
}

describe('Whole Motion mirror notice: the one-sided bones left as they are', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(quietApi());
  });

  it('lists 右腕xcIK (the model has no 左腕xcIK) in English and Japanese', () => {
    const doc = buildVmd({ bones: ['右腕', '右腕xcIK'].map((name) => ({ name, frame: 0, position: [0, 0, 0], rotation: [0, 0.5, 0, 0.75] })) });
    expect(useSceneStore().openBytes('ダンス.vmd', writeVmd(doc), '/m/ダンス.vmd')).toBe(true);
    const r = mirror(doc, { modelBones: ['センター', '右腕', '左腕', '右腕xcIK'] });
    if (!r.ok) throw new Error(r.error.message);
    useBatchStore().announce(r.value.report, 'mirror');
    const n = useNotifyStore().items.at(-1)!;
    expect(noticeLines(n, 'en').detail).toBe('keys: 2 kept, 0 added, 0 dropped, 0 left out on a frame already taken · one-sided bones left as they are: 右腕xcIK');
    expect(noticeLines(n, 'ja').detail).toContain('反対側がモデルにないためそのままのボーン: 右腕xcIK');
  });
});
