// Export ▾ → BVH/VRMA: after the file is written, the notice says which keyed bones the humanoid skeleton
// left out and which morphs no expression took, as export-bvh/export-vrma warn (main's answer carries the
// names: mocap-service's exportMocap). In English and Japanese. Nothing is said when nothing was left out.
import { describe, expect, it } from 'vitest';
import { exportCapture } from '../../../renderer/src/shell/app-actions';
import { setApi } from '../../../renderer/src/api';
import { useNotifyStore, renderText } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { okValue } from '../../../shared/ipc/contract';
import type { VmdStudioApi } from '../../../shared/ipc/contract';
import { memoryScene, dance } from '../stores/scene-fixtures';

/** The recording bridge, with a native save dialog answering `/s/out.EXT` and an export answering `notes`. */
async function withExport(notes: { leftOutBones: string[]; unusedMorphs: string[] }) {
  const { fake } = memoryScene([['/s/a.vmd', dance(10)]]);
  await useSceneStore().openPath('/s/a.vmd');
  useSettingsStore().appInfo = { nativeDialogs: true } as never;
  const api = new Proxy(fake.api as unknown as Record<string, unknown>, {
    get(t, name: string) {
      if (name === 'pickSaveFile') return async (o: { defaultPath?: string }) => okValue(`/s/out.${o.defaultPath?.split('.').pop()}`);
      if (name === 'exportMocap') return async (p: string) => okValue({ path: p, bytesWritten: 10, backupPath: null, ...notes });
      return t[name];
    },
  });
  setApi(api as unknown as VmdStudioApi);
}

const warnings = (lang: 'en' | 'ja') => useNotifyStore().items.filter((n) => n.kind === 'warning').map((n) => renderText(n.text!, lang));

describe('Export ▾: what the export left out', () => {
  it('BVH: the keyed bones left out, in English and Japanese', async () => {
    await withExport({ leftOutBones: ['左袖', '右袖'], unusedMorphs: [] });
    expect(await exportCapture('bvh')).toBe(true);
    expect(warnings('en')).toEqual(['Keyed bones not in the humanoid skeleton, left out (2): 左袖 右袖']);
    expect(warnings('ja')).toEqual(['キーのあるボーンのうち 2 個はヒューマノイドの骨格になく、書き出していません: 左袖 右袖']);
  });

  it('VRMA: bones and morphs, the first 12 named', async () => {
    const hair = Array.from({ length: 14 }, (_, i) => `髪${i + 1}`);
    await withExport({ leftOutBones: hair, unusedMorphs: ['にやり'] });
    expect(await exportCapture('vrma')).toBe(true);
    expect(warnings('en')).toEqual([`Keyed bones not in the humanoid skeleton, left out (14): ${hair.slice(0, 12).join(' ')} … (+2)`, 'Keyed morphs with no expression in the table, left out (1): にやり']);
  });

  it('nothing left out: no warning', async () => {
    await withExport({ leftOutBones: [], unusedMorphs: [] });
    expect(await exportCapture('bvh')).toBe(true);
    expect(warnings('en')).toEqual([]);
  });
});
