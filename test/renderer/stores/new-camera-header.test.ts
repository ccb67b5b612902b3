// + New camera makes a camera VMD that MMD knows as one: its header's model name is MMD's カメラ・照明 (it was
// empty), and Save As proposes camera.vmd for it (it proposed motion.vmd). The saved file's bytes are read
// here: the 20-byte name field after the 30-byte header, against the Shift_JIS bytes MMD writes, as in the
// corpus's wavefile_camera.vmd (83 4A 83 81 83 89 81 45 8F C6 96 BE).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveAsWithDialog } from '../../../renderer/src/shell/commands';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { dance, memoryScene } from './scene-fixtures';

const MMD_CAMERA_NAME = [0x83, 0x4a, 0x83, 0x81, 0x83, 0x89, 0x81, 0x45, 0x8f, 0xc6, 0x96, 0xbe];

describe('+ New camera', () => {
  let files: Map<string, Uint8Array>;
  beforeEach(() => {
    ({ files } = memoryScene([['/s/walk.vmd', dance(10)]]));
  });

  it('is saved with MMD’s camera name カメラ・照明 in its header; Save As proposes camera.vmd', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    expect(scene.addCamera()).toBe(true);
    expect(scene.active?.kind).toBe('camera');
    const saving = saveAsWithDialog();
    await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('motion'));
    expect(fileDialogState.request!.fileName).toBe('camera.vmd');
    fileDialogState.resolve!({ path: '/s/mycam.vmd', overwrite: false });
    expect(await saving).toBe(true);
    const out = files.get('/s/mycam.vmd')!;
    expect(new TextDecoder().decode(out.subarray(0, 25))).toBe('Vocaloid Motion Data 0002');
    const name = [...out.subarray(30, 50)];
    expect(name).toEqual([...MMD_CAMERA_NAME, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('an actor’s never-saved motion is still proposed as motion.vmd', async () => {
    const scene = useSceneStore();
    scene.newMotion('');
    const saving = saveAsWithDialog();
    await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('motion'));
    expect(fileDialogState.request!.fileName).toBe('motion.vmd');
    fileDialogState.resolve!(null);
    expect(await saving).toBe(false);
  });
});
