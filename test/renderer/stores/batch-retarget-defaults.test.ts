// Batch → Retarget as a new user met it: its scale switch said "Scale center and leg IK moves by the leg-length
// ratio" where the panel said "Scale センター and the leg IK by the leg length" (one switch, one wording now, in
// both languages), and its "Target model" started empty though the preview showed the actor's model (now that
// model's path; a path the user typed stays).
import { describe, expect, it } from 'vitest';
import { t } from '../../../shared/i18n/strings';
import { useBatchStore } from '../../../renderer/src/stores/batch';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { dance, memoryScene } from './scene-fixtures';

describe('Batch → Retarget', () => {
  it('the scale switch reads as the panel’s, in English and Japanese', () => {
    for (const locale of ['en', 'ja'] as const) expect(t('batch.opt.retarget.no-scale', locale)).toBe(t('retarget.scale', locale));
  });

  it('Target model starts as the shown actor’s model; a path typed stays; Reset fills it again', async () => {
    const scene = JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: '/m/gene.pmx', motion: 'dance.vmd' }], activeActor: 0 });
    memoryScene([
      ['/s/dance.vmd', dance(10)],
      ['/s/one.vmdscene', new TextEncoder().encode(scene)],
      ['/m/gene.pmx', new Uint8Array(8)],
    ]);
    expect(await useSceneStore().openPath('/s/one.vmdscene')).toBe(true);
    const batch = useBatchStore();
    expect(batch.forms.retarget.to).toBe('');
    batch.show();
    expect(batch.forms.retarget.to).toBe('/m/gene.pmx');
    batch.forms.retarget.to = '/m/other.pmx';
    batch.hide();
    batch.show();
    expect(batch.forms.retarget.to).toBe('/m/other.pmx');
    batch.op = 'retarget';
    batch.resetForm();
    expect(batch.forms.retarget.to).toBe('/m/gene.pmx');
  });

  it('a motion on its own with a model in the preview: that model', () => {
    memoryScene([]);
    usePreviewStore().setModel({ name: 'Miku', path: '/m/miku.pmd', format: 'pmd', bones: 0, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
    const batch = useBatchStore();
    batch.show();
    expect(batch.forms.retarget.to).toBe('/m/miku.pmd');
  });
});
