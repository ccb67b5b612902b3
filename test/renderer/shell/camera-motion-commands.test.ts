// Bake physics… and Export ▾ (VPD, VRMA, BVH) on an open camera or light motion: refused with the reason
// before any dialog opens (before: the bake dialog opened and baked the model at rest into the camera file;
// Export VPD wrote a 0-bone pose), and the toolbar's Export items are off, their tooltip saying why. A
// motion with bone keys is not touched. The refusal reads in the UI's language (en, ja).
import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import { runCommand } from '../../../renderer/src/shell/commands';
import { describeError, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useBakeStore } from '../../../renderer/src/stores/physics-bake';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import MenuBar from '../../../renderer/src/components/MenuBar.vue';
import { memoryScene, dance, cameraVmd } from '../stores/scene-fixtures';
import { blockFromRecords, emptyVmd, encodeLightRecord, withBlocks, writeVmd } from '../../../shared/vmd';

const lightVmd = () => writeVmd(withBlocks(emptyVmd(), { light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] })]) }));

async function opened(path: string, bytes: Uint8Array) {
  const { fake } = memoryScene([[path, bytes]]);
  await useSceneStore().openPath(path);
  expect(useWorkspaceStore().fileName).toBe(path.slice(3));
  return fake;
}

const errors = () => useNotifyStore().items.filter((n) => n.kind === 'error').map((n) => n.error!);
const settle = async () => {
  for (let i = 0; i < 5; i++) await nextTick();
};

describe('a camera or light motion: Bake physics… and Export are refused', () => {
  it('Bake physics… on a camera motion says why and opens no dialog; on a dance it opens', async () => {
    await opened('/s/camera.vmd', cameraVmd());
    void runCommand('bakePhysics');
    await settle();
    expect(useBakeStore().open).toBe(false);
    expect(errors().map((e) => [e.code, e.message, e.file])).toEqual([['E_CAMERA_MOTION', "a camera motion (3 camera keys, no bone keys): physics-bake works on a model's motion", 'camera.vmd']]);
    expect(describeError(errors()[0], 'en').message).toBe("camera.vmd: This is a camera motion (camera keys: 3, bone keys: none): this works on a model's motion, not a camera's");
    expect(describeError(errors()[0], 'ja').message).toBe('camera.vmd: カメラのモーションです（カメラのキー 3 個、ボーンのキーなし）。この操作はモデルのモーションに使います');
    await opened('/s/a.vmd', dance(10));
    void runCommand('bakePhysics');
    await settle();
    expect(useBakeStore().open).toBe(true);
    expect(errors()).toEqual([]);
  });

  it('Export VPD, VRMA and BVH of a light motion are refused before any file dialog or export', async () => {
    const fake = await opened('/s/light.vmd', lightVmd());
    for (const id of ['exportVpd', 'exportVrma', 'exportBvh'] as const) void runCommand(id);
    await settle();
    expect(errors().map((e) => e.message)).toEqual(['export VPD', 'export-vrma', 'export-bvh'].map((op) => `a light motion (1 light key, no bone keys): ${op} works on a model's motion`));
    expect(describeError(errors()[0], 'en').message).toBe("light.vmd: This is a light motion (light keys: 1, bone keys: none): this works on a model's motion, not a light's");
    expect(describeError(errors()[0], 'ja').message).toBe('light.vmd: 照明のモーションです（照明のキー 1 個、ボーンのキーなし）。この操作はモデルのモーションに使います');
    expect(fake.calls.map((c) => c.name)).not.toEqual(expect.arrayContaining(['exportMocap']));
    expect(fake.calls.some((c) => /^pick|exportMocap|saveFile/.test(c.name))).toBe(false);
  });

  it('the store\'s Export VPD refuses a camera motion: nothing is written', async () => {
    const fake = await opened('/s/camera.vmd', cameraVmd());
    expect(await useWorkspaceStore().exportVpd('/s/camera.vpd', 0)).toBe(false);
    expect(fake.calls.some((c) => c.name === 'saveFile')).toBe(false);
    expect(errors()[0].code).toBe('E_CAMERA_MOTION');
  });

  it('the toolbar\'s Export items are off for a camera motion, with the reason (en, ja); on for a dance', async () => {
    memoryScene([['/s/camera.vmd', cameraVmd()], ['/s/a.vmd', dance(10)]]);
    const scene = useSceneStore();
    await scene.openPath('/s/camera.vmd');
    await scene.addDocument('/s/a.vmd');
    const byName = (n: string) => scene.entries.find((e) => useWorkspaceStore().get(e.id)?.fileName === n)!;
    const cam = byName('camera.vmd'), a = byName('a.vmd');
    scene.activate(cam.id);
    expect(useWorkspaceStore().fileName).toBe('camera.vmd');
    const w = mount(MenuBar);
    await w.get('[data-testid="cmd-export"]').trigger('click');
    await settle();
    const items = ['cmd-export-vpd', 'cmd-export-vrma', 'cmd-export-bvh'].map((id) => () => w.get(`[data-testid="${id}"]`));
    for (const b of items) {
      expect(b().attributes('disabled')).toBeDefined();
      expect(b().attributes('title')).toBe('A camera motion (no bone keys): there is no pose or body movement to export');
    }
    useSettingsStore().setLocale('ja');
    await settle();
    expect(items[2]().attributes('title')).toBe('カメラのモーションです（ボーンのキーなし）。書き出すポーズや体の動きがありません');
    useSettingsStore().setLocale('en');
    // The dance made active: the items are on again.
    scene.activate(a.id);
    await settle();
    for (const b of items) expect(b().attributes('disabled')).toBeUndefined();
    w.unmount();
  });
});
