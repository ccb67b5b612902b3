// + Actor with a motion that is open already (nustage pass, item 4): four dancers on one dance. Before, + Actor
// only showed the owner's tab ("walk.vmd is already open (actor miku)"); Open… offered "Add a copy as a new
// actor". Now + Actor asks the same question: Show actor miku (first) or Add a copy as a new actor; Show still
// shows the tab.
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import SceneTabs from '../../../renderer/src/editor/SceneTabs.vue';
import { provideTimelineView } from '../../../renderer/src/editor/timeline-view';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { renderText } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { dance, memoryScene, sceneFile } from '../stores/scene-fixtures';

describe('+ Actor with a motion open already', () => {
  it('asks as Open… does: Show its tab, or Add a copy as a new actor', async () => {
    memoryScene([
      ['/p/wavefile_v2.vmd', dance(10)],
      ['/p/walk.vmd', dance(20)],
      ['/p/stage.vmdscene', sceneFile({ actors: [{ name: 'Gene', model: null, motion: 'wavefile_v2.vmd' }, { name: 'miku', model: null, motion: 'walk.vmd' }] })],
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/p/stage.vmdscene')).toBe(true);
    const Host = defineComponent({
      setup() {
        provideTimelineView();
        return () => h(SceneTabs);
      },
    });
    const w = mount(Host, { attachTo: document.body });
    const confirm = useConfirmStore();
    const addWalk = async () => {
      await w.get('[data-testid="scene-add"]').trigger('click');
      await vi.waitFor(() => expect(fileDialogState.request).not.toBeNull());
      fileDialogState.resolve!({ path: '/p/walk.vmd', overwrite: false });
      await vi.waitFor(() => expect(confirm.current).not.toBeNull());
      return confirm.current!;
    };

    // Show (first, Enter): miku's tab, no new actor.
    let q = await addWalk();
    expect(renderText(q.message, 'en')).toMatch(/^walk\.vmd is already open \(actor miku\)\. Show it, add a copy as a new actor/);
    expect(q.buttons.map((b) => b.choice)).toEqual(['show', 'copy', 'cancel']);
    expect(renderText({ key: q.buttons[1].label }, 'en')).toBe('Add a copy as a new actor (unsaved)');
    confirm.answer('show');
    await vi.waitFor(() => expect(scene.activeId).toBe(scene.actors[1].id));
    expect(scene.actors.length).toBe(2);

    // Add a copy: a third actor with walk.vmd's keys and no file, shown.
    q = await addWalk();
    confirm.answer('copy');
    await vi.waitFor(() => expect(scene.actors.length).toBe(3));
    const copy = scene.actors[2];
    expect(scene.activeId).toBe(copy.id);
    expect(copy.path).toBeNull();
    expect(copy.fileName).toBe('walk.vmd');
    expect(copy.dirty).toBe(true);
    w.unmount();
  });
});
