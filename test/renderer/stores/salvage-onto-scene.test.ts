// A damaged VMD (cut inside its bone block) opened over an open scene: the salvage question comes first (its
// counts worked out here from the bytes), then the usual "into the scene?" question for the copy, which is added
// as a new actor with no file (Save asks for its name); the damaged file is not written. Declined, the reader's
// refusal is shown as before and nothing is added.
import { describe, expect, it } from 'vitest';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { openOntoScene } from '../../../renderer/src/shell/pose-apply';
import { useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { answerNext, dance, memoryScene } from './scene-fixtures';

/** A 30-key dance cut 7 bytes into its 13th bone record: 12 records lie whole. */
function cutDance(): Uint8Array {
  const bones = Array.from({ length: 30 }, (_, i) => ({ name: '左腕', frame: i * 2, position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] }));
  const whole = writeVmd(buildVmd({ bones }));
  return whole.subarray(0, 50 + 4 + 12 * 111 + 7);
}

describe('a damaged VMD opened over a scene', () => {
  it('asks to salvage first; the copy goes into the scene as a new actor with no file', async () => {
    const { files } = memoryScene([['/s/walk.vmd', dance(10)]]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    const cut = cutDance();
    files.set('/s/cut.vmd', cut);
    const done = openOntoScene({ path: '/s/cut.vmd' });
    expect(await answerNext('salvage')).toBe(
      `cut.vmd is cut short or damaged at byte ${50 + 4 + 12 * 111}, in its bone keys: 12 of the 30 keys it gives there lie whole, and what follows cannot be read. 12 keys in all can be opened as an unsaved copy, cut-recovered.vmd. The damaged file is left as it is; Save asks for a name.`,
    );
    expect(await answerNext('add')).toMatch(/^cut-recovered\.vmd/);
    expect(await done).toBe(true);
    expect(scene.entries).toHaveLength(2);
    const copy = scene.entries[1];
    expect(copy.path).toBeNull();
    expect(useWorkspaceStore().get(copy.id)!.doc.bone.count).toBe(12);
    expect(files.get('/s/cut.vmd')).toBe(cut);
  });

  it('declined: the refusal as before, nothing added', async () => {
    const { files } = memoryScene([['/s/walk.vmd', dance(10)]]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/walk.vmd')).toBe(true);
    files.set('/s/cut.vmd', cutDance());
    const done = openOntoScene({ path: '/s/cut.vmd' });
    await answerNext('cancel');
    expect(await done).toBe(false);
    expect(scene.entries).toHaveLength(1);
    expect(useNotifyStore().items.some((n) => n.error?.code === 'E_VMD_COUNT')).toBe(true);
  });
});
