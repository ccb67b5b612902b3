// Save in a scene writes every unsaved motion and the scene file (nustage pass, item 6): its tooltip said only
// "Save (Ctrl+S)", and with Scene ▾ → Save All beside it Save read as "this one"; an edit on another actor got
// written. The tooltip now says what it saves, and Scene ▾ → Save This Motion Only writes the shown one alone.
import { describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import MenuBar from '../../../renderer/src/components/MenuBar.vue';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { dance, editShown, memoryScene, sceneFile } from '../stores/scene-fixtures';

const settle = async () => {
  for (let i = 0; i < 5; i++) await nextTick();
};

describe('Save’s tooltip and Save This Motion Only', () => {
  it('a lone motion: "Save (Ctrl+S)"; a scene: "Save all changes: motions and scene (Ctrl+S)" (en, ja)', async () => {
    memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/duet.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }, { model: null, motion: 'b.vmd' }] })],
    ]);
    const scene = useSceneStore();
    await scene.openPath('/s/a.vmd');
    const w = mount(MenuBar);
    await settle();
    const title = () => w.get('[data-testid="cmd-save"]').attributes('title');
    expect(title()).toBe('Save (Ctrl+S)');
    await scene.openPath('/s/duet.vmdscene');
    await settle();
    expect(title()).toBe('Save all changes: motions and scene (Ctrl+S)');
    await useSettingsStore().setLocale('ja');
    await settle();
    expect(title()).toBe('すべての変更を保存: モーションとシーン (Ctrl+S)');
    await useSettingsStore().setLocale('en');
    w.unmount();
  });

  it('Scene ▾ → Save This Motion Only writes the shown actor’s motion and nothing else', async () => {
    const { files, original, fake } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/duet.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }, { model: null, motion: 'b.vmd' }] })],
    ]);
    const scene = useSceneStore();
    await scene.openPath('/s/duet.vmdscene');
    editShown();
    scene.activate(scene.actors[1].id);
    editShown();
    const w = mount(MenuBar, { attachTo: document.body });
    await w.get('[data-testid="cmd-scene"]').trigger('click');
    await settle();
    const item = w.get('[data-testid="cmd-save-shown"]');
    expect(item.text()).toBe('Save This Motion Only');
    expect(item.attributes('title')).toBe('Save the shown motion (b.vmd) alone; Save (Ctrl+S) saves every unsaved motion and the scene');
    await item.trigger('click');
    await vi.waitFor(() => expect(scene.actors[1].dirty).toBe(false), { timeout: 30_000 });
    expect(fake.calls.filter((c) => c.name === 'saveFile' || c.name === 'saveScene').map((c) => c.args[0])).toEqual(['/s/b.vmd']);
    expect(files.get('/s/a.vmd')).toEqual(original.get('/s/a.vmd'));
    expect(scene.actors[0].dirty).toBe(true);
    expect(scene.actors[1].dirty).toBe(false);
    w.unmount();
  });
});
