// Export VPD at Frame names the model file the pose is shown on in the header, as MMD writes it: the model
// file's base name with .osm ("Gene_light.osm", as MMD's own corpus poses hold "初音ミク.osm"). Before, the
// motion's model name was written there, a display name with a slash and spaces ("ジェネ / Gene.osm").
import { describe, expect, it, vi } from 'vitest';
import { okValue, type AppInfo, type VmdStudioApi } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { exportVpdWithDialog } from '../../../renderer/src/shell/commands';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { vpdPartsState } from '../../../renderer/src/shell/vpd-export';
import { dance, memoryScene } from '../stores/scene-fixtures';

/** The motion opened, the native save dialog answering `/s/out.vpd`; the files as written. */
async function exportWith(model: string | null): Promise<string> {
  const { files, fake } = memoryScene([['/s/stand.vmd', dance(10, 'ジェネ / Gene')]]);
  // The native dialog's answer (memoryApi answers nothing for it); everything else as memoryApi does.
  setApi(new Proxy(fake.api as unknown as Record<string, unknown>, { get: (t, name: string) => (name === 'pickSaveFile' ? async () => okValue('/s/out.vpd') : t[name]) }) as unknown as VmdStudioApi);
  useSettingsStore().appInfo = { nativeDialogs: true } as AppInfo;
  expect(await useSceneStore().openPath('/s/stand.vmd')).toBe(true);
  if (model) usePreviewStore().setModel({ name: 'ジェネ / Gene', path: model, format: 'pmx', bones: 1, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
  const exporting = exportVpdWithDialog();
  // Its first step asks what goes in (the whole pose here: the header is the same for every choice).
  await vi.waitFor(() => expect(vpdPartsState.request).not.toBeNull());
  vpdPartsState.resolve!('all');
  expect(await exporting).toBe(true);
  return new TextDecoder('shift_jis').decode(files.get('/s/out.vpd')!).split('\r\n')[2];
}

describe('Export VPD: the header\'s model field', () => {
  it('is the shown model\'s file name with .osm', async () => {
    expect(await exportWith('/models/Gene/Gene_light.pmx')).toBe('Gene_light.osm;\t\t// 親ファイル名');
    expect(await exportWith('C:\\MMD\\UserFile\\Model\\初音ミク.pmd')).toBe('初音ミク.osm;\t\t// 親ファイル名');
  });

  it('is the motion\'s model name with the figure shown (no model file)', async () => {
    expect(await exportWith(null)).toBe('ジェネ / Gene.osm;\t\t// 親ファイル名');
  });
});
