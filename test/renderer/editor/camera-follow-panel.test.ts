// The Stage tab's Camera follows section as a camera maker meets it (nufollow pass).
// §5: a camera shown with Camera… (a reference: view only) cannot be followed; the panel said only "The scene has
// no camera document (+ New camera, or add a camera VMD)". Now it offers "Use cam.vmd as the scene's camera",
// which places the file as Open… → Use as the scene's camera does (one undo step), and the follow's fields come.
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import CameraFollowPanel from '../../../renderer/src/editor/CameraFollowPanel.vue';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { cameraVmd, dance, memoryScene, sceneFile } from '../stores/scene-fixtures';

describe('Camera follows panel', () => {
  it('with a reference camera shown and no camera document, offers it as the scene’s camera (one undo step)', async () => {
    memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/cam.vmd', cameraVmd()],
      ['/s/solo.vmdscene', sceneFile({ actors: [{ name: 'Miku', model: null, motion: 'a.vmd' }] })],
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/solo.vmdscene')).toBe(true);
    const preview = usePreviewStore();
    const w = mount(CameraFollowPanel, { attachTo: document.body });
    // No reference camera: the hint names the way (no button).
    expect(w.get('[data-testid="follow-no-camera"]').text()).toBe('The scene has no camera document: + New camera, or Open… a camera VMD and choose “Use as the scene’s camera”.');
    expect(w.find('[data-testid="follow-use-camera"]').exists()).toBe(false);
    // Camera… showed cam.vmd (what use-preview's loadCameraMotion sets).
    preview.cameraFile = 'cam.vmd';
    preview.cameraPath = '/s/cam.vmd';
    preview.hasCamera = true;
    await w.vm.$nextTick();
    const use = w.get('[data-testid="follow-use-camera"]');
    expect(use.text()).toBe('Use cam.vmd as the scene’s camera');
    const steps = useWorkspaceStore().undoStack.length;
    await use.trigger('click');
    await vi.waitFor(() => expect(scene.cameraEntry).not.toBeNull());
    expect(scene.cameraEntry!.fileName).toBe('cam.vmd');
    expect(scene.cameraEntry!.path).toBe('/s/cam.vmd');
    expect(useWorkspaceStore().undoStack.length).toBe(steps + 1);
    expect(useHistoryStore().undoLabel).toBe('add camera');
    await w.vm.$nextTick();
    expect(w.find('[data-testid="follow-actor"]').exists()).toBe(true);
    w.unmount();
  });
});
