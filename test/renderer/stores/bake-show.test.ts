// Opening Bake physics… and Bake IK to FK… (stores/bake-job.ts show, both stores): the range typed stays while the
// dialog is opened again on the same motion and model; opened on another motion it starts from the whole motion
// (and the IK dialog from the IK the motion has on: no bones chosen). The model is the active actor's file.
import { describe, expect, it } from 'vitest';
import { useIkBakeStore } from '../../../renderer/src/stores/ik-bake';
import { useBakeStore } from '../../../renderer/src/stores/physics-bake';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { memoryScene, dance } from './scene-fixtures';

for (const kind of ['ik', 'physics'] as const) {
  describe(`${kind} bake: show()`, () => {
    it('keeps the range on the same motion, starts afresh on another; the model is the active actor’s', async () => {
      memoryScene([['/s/a.vmd', dance(10)], ['/s/b.vmd', dance(20)]]);
      const scene = useSceneStore();
      await scene.openPath('/s/a.vmd');
      const store = kind === 'ik' ? useIkBakeStore() : useBakeStore();
      const form = store.form as { from: string; to: string; bones?: string[] | null };
      store.show();
      expect(store.open).toBe(true);
      form.from = '3';
      form.to = '7';
      if (kind === 'ik') form.bones = ['左足ＩＫ'];
      store.close();
      store.show();
      expect([form.from, form.to, form.bones ?? null]).toEqual(['3', '7', kind === 'ik' ? ['左足ＩＫ'] : null]);
      store.close();
      await scene.addDocument('/s/b.vmd');
      expect(useWorkspaceStore().fileName).toBe('b.vmd');
      store.show();
      expect([form.from, form.to, form.bones ?? null]).toEqual(['', '', null]);
      expect(store.modelPath()).toBe(null);
    });
  });
}
