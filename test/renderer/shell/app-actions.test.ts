// The app actions views call (issue 25 §2): open anything, a new motion, register a pose.
import { describe, expect, it } from 'vitest';
import { decodeName, writeVmd } from '../../../shared/vmd';
import { newMotion, openAny, registerPose } from '../../../renderer/src/shell/app-actions';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { cameraVmd, dance, memoryScene } from '../stores/scene-fixtures';

const POSE = { position: [0, 0, 0] as [number, number, number], rotation: [0, 0.2588190451, 0, 0.9659258263] as [number, number, number, number] };

describe('app actions', () => {
  it('openAny: a model goes to the preview, a motion by path or by bytes opens, anything else is refused', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    expect(await openAny({ path: '/m/miku.pmx' })).toBe(true);
    expect(usePreviewStore().modelRequest).toEqual({ path: '/m/miku.pmx' });
    expect(await openAny({ path: '/s/a.vmd' })).toBe(true);
    expect(useWorkspaceStore().fileName).toBe('a.vmd');
    expect(await openAny({ name: 'b.vmd', bytes: dance(20) })).toBe(true);
    expect(useWorkspaceStore().fileName).toBe('b.vmd');
    expect(useWorkspaceStore().path).toBeNull();
    expect(await openAny({ name: 'notes.txt', bytes: new Uint8Array(1) })).toBe(false);
    expect(useWorkspaceStore().fileName).toBe('b.vmd');
  });

  it('openAny: an empty drop is "the file is empty (0 bytes)" as Open… says it; a dropped scene says why it cannot open; anything else names what Open… takes', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    const notify = useNotifyStore();
    expect(await openAny({ name: 'empty.vmd', bytes: new Uint8Array(0) })).toBe(false);
    expect(notify.items.at(-1)!.error).toEqual({ code: 'E_FILE_EMPTY', message: 'the file is empty (0 bytes)', file: 'empty.vmd' });
    expect(await openAny({ name: 'my.vmdscene', bytes: new TextEncoder().encode('{}') })).toBe(false);
    expect(noticeLines(notify.items.at(-1)!, 'en').message).toContain('my.vmdscene: a scene names its motions, models and song relative to its own folder');
    expect(await openAny({ path: '/s/notes.txt' })).toBe(false);
    const refusal = noticeLines(notify.items.at(-1)!, 'en').message;
    expect(refusal).toContain('notes.txt: not a kind of file the app opens');
    expect(refusal).toContain('models (.pmx, .pmd)');
    expect(refusal).toContain('songs (.wav,');
  });

  it('newMotion makes an empty, unsaved document directly (no bytes), named as asked, with the model in its header', () => {
    memoryScene([]);
    usePreviewStore().setModel({ name: 'miku', path: '/m/miku.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    const id = newMotion('New motion.vmd');
    const ws = useWorkspaceStore();
    expect(ws.activeId).toBe(id);
    expect(ws.fileName).toBe('New motion.vmd');
    expect(ws.path).toBeNull();
    expect(ws.doc!.bone.count).toBe(0);
    expect(decodeName(ws.doc!.modelName)).toBe('miku');
  });

  it('registerPose with nothing open starts a new motion with the key: one undo step, the key selected', () => {
    memoryScene([]);
    const record = registerPose({ name: 'センター', track: 0, pose: POSE, frame: 12 });
    const ws = useWorkspaceStore();
    expect(record).toBe(0);
    expect(ws.doc!.bone.count).toBe(1);
    expect(ws.tracks!.bones.frames[0]).toBe(12);
    expect(ws.dirty).toBe(true);
    expect(useHistoryStore().depth).toBe(1);
    expect(useSelectionStore().refs).toEqual([{ kind: 'bone', record: 0 }]);
    // The same pose again changes nothing: no step, null.
    expect(registerPose({ name: 'センター', track: 0, pose: POSE, frame: 12 })).toBeNull();
    expect(useHistoryStore().depth).toBe(1);
  });

  it('registerPose while the camera document is active keys the shown actor', async () => {
    const { files } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/camera.vmd', cameraVmd()],
    ]);
    const scene = useSceneStore();
    await scene.openPath('/s/a.vmd');
    await scene.addDocument('/s/camera.vmd');
    expect(scene.active?.kind).toBe('camera');
    expect(registerPose({ name: 'センター', track: 0, pose: POSE, frame: 5 })).not.toBeNull();
    expect(scene.active?.kind).toBe('actor');
    expect(useWorkspaceStore().doc!.bone.count).toBe(4);
    expect(writeVmd(useWorkspaceStore().get(scene.cameraEntry!.id)!.doc)).toEqual(files.get('/s/camera.vmd'));
  });
});
