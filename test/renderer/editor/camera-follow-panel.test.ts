// The Stage tab's Camera follows section as a camera maker meets it (nufollow pass).
// §5: a camera shown with Camera… (a reference: view only) cannot be followed; the panel said only "The scene has
// no camera document (+ New camera, or add a camera VMD)". Now it offers "Use cam.vmd as the scene's camera",
// which places the file as Open… → Use as the scene's camera does (one undo step), and the follow's fields come.
// §2: the follow over spans of frames: From here / To here take the playhead, + Span starts a new one at the
// playhead (the span shown ends the frame before), − Span removes it; each one undo step; the scene file keeps them.
// §3: after a bake the notice offers "Use the baked camera and turn the follow off": one undo step that makes the
// camera document the baked file (Save writes there, not over the camera baked from) and clears the follow.
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { readVmd } from '../../../shared/vmd';
import CameraFollowPanel from '../../../renderer/src/editor/CameraFollowPanel.vue';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useTimeStore } from '../../../renderer/src/stores/time';
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

  it('after a bake, “Use the baked camera and turn the follow off” is one undo step', async () => {
    const { files } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/cam.vmd', cameraVmd()],
      ['/s/duo.vmdscene', sceneFile({ actors: [{ name: 'Miku', model: null, motion: 'a.vmd' }], camera: 'cam.vmd', cameraFollow: { actor: 0, bone: 'センター' } })],
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duo.vmdscene')).toBe(true);
    const miku = scene.actors[0];
    const cam = scene.cameraEntry!;
    expect(scene.cameraFollow).toEqual({ actorId: miku.id, bone: 'センター' });
    const w = mount(CameraFollowPanel, { attachTo: document.body });
    await vi.waitFor(() => expect(w.find('[data-testid="follow-bake"]').attributes('disabled')).toBeUndefined());
    await w.get('[data-testid="follow-bake"]').trigger('click');
    const confirm = useConfirmStore();
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    // The question names the span and says the dense keys hold between whole frames and count as cuts (nufollow §4).
    const asked = renderText(confirm.current!.message, 'en');
    expect(asked).toContain('(0–40: センター (Miku))');
    expect(asked).toContain('Keys a frame apart hold between whole frames: at ×0.5 or ×0.25 and in a 60 fps video the baked camera steps 30 times a second where the follow moves smoothly, and the camera cuts counted (the file summary, the preview’s camera line, inspect) count each of those keys as one.');
    expect(renderText(confirm.current!.message, 'ja')).toContain('そのキーの一つ一つがカットとして数えられます');
    confirm.answer('save');
    await vi.waitFor(() => expect(fileDialogState.request).not.toBeNull());
    fileDialogState.resolve!({ path: '/s/cam_follow.vmd', overwrite: false });
    const notify = useNotifyStore();
    await vi.waitFor(() => expect(notify.items.some((n) => n.action)).toBe(true));
    const offer = notify.items.find((n) => n.action)!;
    expect(readVmd(files.get('/s/cam_follow.vmd')!).ok).toBe(true);
    expect(renderText(offer.text!, 'en')).toMatch(/^Wrote cam_follow\.vmd: \d+ camera keys with the follow baked in/);
    expect(renderText({ key: offer.action!.label }, 'en')).toBe('Use the baked camera and turn the follow off');
    expect(renderText({ key: offer.action!.label }, 'ja')).toBe('焼き込んだカメラを使い、追従をオフにする');

    const ws = useWorkspaceStore();
    const steps = ws.undoStack.length;
    notify.runAction(offer.id);
    expect(notify.items.some((n) => n.id === offer.id)).toBe(false);
    expect(scene.cameraFollow).toBeNull();
    expect(scene.cameraEntry!.id).toBe(cam.id);
    expect(scene.cameraEntry!.path).toBe('/s/cam_follow.vmd');
    expect(scene.cameraEntry!.dirty).toBe(false);
    expect(ws.undoStack.length).toBe(steps + 1);
    expect(useHistoryStore().undoLabel).toBe('use baked camera cam_follow.vmd');
    // One Ctrl+Z: the camera it was baked from and the follow, both back.
    useHistoryStore().undo();
    expect(scene.cameraFollow).toEqual({ actorId: miku.id, bone: 'センター' });
    expect(scene.cameraEntry!.path).toBe('/s/cam.vmd');
    useHistoryStore().redo();
    expect(scene.cameraFollow).toBeNull();
    // The scene file now names the baked camera and no follow.
    expect(await scene.saveTo('/s/duo.vmdscene', true)).toBe(true);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/s/duo.vmdscene')!));
    expect(saved.camera).toBe('cam_follow.vmd');
    expect(saved.cameraFollow).toBeUndefined();
    w.unmount();
  });

  it('From here, To here, + Span and − Span edit the follow’s spans, one undo step each; the scene file keeps them', async () => {
    const { files } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/cam.vmd', cameraVmd()],
      ['/s/duo.vmdscene', sceneFile({ actors: [{ name: 'Miku', model: null, motion: 'a.vmd' }], camera: 'cam.vmd', cameraFollow: { actor: 0, bone: 'センター' } })],
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duo.vmdscene')).toBe(true);
    const miku = scene.actors[0].id;
    const w = mount(CameraFollowPanel, { attachTo: document.body });
    await vi.waitFor(() => expect(w.find('[data-testid="follow-from"]').exists()).toBe(true));
    // The old form: one span over the whole motion (To empty: to the end).
    expect((w.get('[data-testid="follow-from"]').element as HTMLInputElement).value).toBe('0');
    expect((w.get('[data-testid="follow-to"]').element as HTMLInputElement).value).toBe('');
    const time = useTimeStore();
    const steps = () => useWorkspaceStore().undoStack.length;
    const n0 = steps();
    time.seek(100);
    await w.get('[data-testid="follow-from-here"]').trigger('click');
    time.seek(200);
    await w.get('[data-testid="follow-to-here"]').trigger('click');
    expect(scene.followSpans).toEqual([{ actorId: miku, bone: 'センター', from: 100, to: 200 }]);
    expect(steps()).toBe(n0 + 2);
    // + Span at 150: 100…149 and 150…200, the new one shown; its bone set to 頭.
    time.seek(150);
    await w.get('[data-testid="follow-add-span"]').trigger('click');
    expect(scene.followSpans).toEqual([
      { actorId: miku, bone: 'センター', from: 100, to: 149 },
      { actorId: miku, bone: 'センター', from: 150, to: 200 },
    ]);
    await w.vm.$nextTick();
    expect((w.get('[data-testid="follow-span"]').element as HTMLSelectElement).value).toBe('1');
    await w.get('[data-testid="follow-bone"]').setValue('頭');
    expect(scene.followSpans[1]).toEqual({ actorId: miku, bone: '頭', from: 150, to: 200 });
    // A typed To.
    await w.get('[data-testid="follow-to"]').setValue('180');
    await w.get('[data-testid="follow-to"]').trigger('change');
    expect(scene.followSpans[1].to).toBe(180);
    expect(steps()).toBe(n0 + 5);
    expect(await scene.saveTo('/s/duo.vmdscene', true)).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(files.get('/s/duo.vmdscene')!)).cameraFollow).toEqual([
      { from: 100, to: 149, actor: 0, bone: 'センター' },
      { from: 150, to: 180, actor: 0, bone: '頭' },
    ]);
    // − Span removes the one shown; Ctrl+Z gives it back.
    await w.get('[data-testid="follow-remove-span"]').trigger('click');
    expect(scene.followSpans).toEqual([{ actorId: miku, bone: 'センター', from: 100, to: 149 }]);
    useHistoryStore().undo();
    expect(scene.followSpans.length).toBe(2);
    // Closed and reopened, the spans are there.
    scene.closeScene();
    expect(scene.followSpans).toEqual([]);
    expect(await scene.openPath('/s/duo.vmdscene')).toBe(true);
    expect(scene.followSpans).toEqual([
      { actorId: scene.actors[0].id, bone: 'センター', from: 100, to: 149 },
      { actorId: scene.actors[0].id, bone: '頭', from: 150, to: 180 },
    ]);
    w.unmount();
  });
});
