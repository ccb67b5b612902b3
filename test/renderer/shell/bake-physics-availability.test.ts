// Bake physics… for a model without physics or with physics that could not be read (as the preview read it:
// "Physics: none", "Physics: unreadable"): the command (Ctrl+Shift+B, the Whole Motion dialog's item) says why
// and opens no dialog, the item is off with that reason as its tooltip, in English and Japanese, naming the model
// by its file name when its name field is empty. Before: the dialog opened and refused only after Bake, with
// `model "" has no physics-driven bones`. And the dialog's range starts from the whole motion again when it is
// opened on another motion (before: To kept the 100 typed for the last one).
import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import { runCommand } from '../../../renderer/src/shell/commands';
import { useNotifyStore, noticeLines } from '../../../renderer/src/stores/notify';
import { useBakeStore } from '../../../renderer/src/stores/physics-bake';
import { usePreviewStore, type PhysicsState } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useBatchStore } from '../../../renderer/src/stores/batch';
import BatchDialog from '../../../renderer/src/components/BatchDialog.vue';
import { memoryScene, dance } from '../stores/scene-fixtures';

const settle = async () => {
  for (let i = 0; i < 5; i++) await nextTick();
};

/** The preview showing a model read from `path` (named as the preview names it) with the given physics state. */
function shown(path: string, name: string, state: PhysicsState) {
  const p = usePreviewStore();
  p.setModel({ name, path, format: 'pmx', bones: 3, morphs: 0, vertices: 0, rigidBodies: state === 'none' ? 0 : 5, notes: [] });
  p.physicsState = state;
}

const warnings = (locale: 'en' | 'ja') => useNotifyStore().items.filter((n) => n.kind === 'warning').map((n) => noticeLines(n, locale).message);

describe('Bake physics… on a model without (readable) physics', () => {
  it('Ctrl+Shift+B says why and opens no dialog (none, unreadable), in English and Japanese; with physics it opens', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    shown('/m/bone_flag_test.pmx', 'bone_flag_test.pmx', 'none');
    await useSceneStore().openPath('/s/a.vmd');
    expect(useBakeStore().modelPath()).toBe('/m/bone_flag_test.pmx');
    void runCommand('bakePhysics');
    await settle();
    expect(useBakeStore().open).toBe(false);
    expect(warnings('en')).toEqual(['Bake physics is off: bone_flag_test.pmx has no rigid bodies, so there is no physics to bake']);
    expect(warnings('ja')).toEqual(['物理焼き込みはできません: bone_flag_test.pmx には剛体がなく、焼き込む物理がありません']);
    expect(warnings('en').join()).not.toContain('""');
    useNotifyStore().items.splice(0);
    usePreviewStore().physicsState = 'unreadable';
    void runCommand('bakePhysics');
    await settle();
    expect(useBakeStore().open).toBe(false);
    expect(warnings('en')[0]).toMatch(/^Bake physics is off: the rigid bodies and joints of bone_flag_test\.pmx could not be read/);
    expect(warnings('ja')[0]).toMatch(/^物理焼き込みはできません: bone_flag_test\.pmx の剛体とジョイントを読めません/);
    useNotifyStore().items.splice(0);
    usePreviewStore().physicsState = 'on';
    void runCommand('bakePhysics');
    await settle();
    expect(useBakeStore().open).toBe(true);
    expect(warnings('en')).toEqual([]);
  });

  it('the Whole Motion dialog\'s Bake physics… is off with the reason as its tooltip; on for a model with physics', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    shown('/m/bone_flag_test.pmx', 'bone_flag_test.pmx', 'none');
    await useSceneStore().openPath('/s/a.vmd');
    const batch = useBatchStore();
    batch.setTarget('document');
    batch.show();
    const w = mount(BatchDialog, { attachTo: document.body });
    await settle();
    const item = () => w.get('[data-testid="whole-bake-physics"]');
    expect(item().attributes('disabled')).toBeDefined();
    expect(item().attributes('title')).toBe('Bake physics is off: bone_flag_test.pmx has no rigid bodies, so there is no physics to bake');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await settle();
    expect(item().attributes('title')).toBe('物理焼き込みはできません: bone_flag_test.pmx には剛体がなく、焼き込む物理がありません');
    usePreviewStore().physicsState = 'on';
    await settle();
    expect(item().attributes('disabled')).toBeUndefined();
    w.unmount();
  });

  it('the range typed for one motion is not kept for another: opened on it, From and To are empty (the whole motion)', async () => {
    memoryScene([['/s/a.vmd', dance(10)], ['/s/b.vmd', dance(20)]]);
    shown('/m/gene.pmx', 'Gene', 'on');
    const scene = useSceneStore();
    await scene.openPath('/s/a.vmd');
    const bake = useBakeStore();
    void runCommand('bakePhysics');
    await settle();
    expect(bake.open).toBe(true);
    bake.form.from = '5';
    bake.form.to = '100';
    bake.form.posTol = '0.05';
    bake.close();
    // The same motion again: the range stays as typed.
    void runCommand('bakePhysics');
    await settle();
    expect([bake.form.from, bake.form.to]).toEqual(['5', '100']);
    bake.close();
    await scene.openPath('/s/b.vmd');
    expect(useWorkspaceStore().fileName).toBe('b.vmd');
    void runCommand('bakePhysics');
    await settle();
    expect(bake.open).toBe(true);
    expect([bake.form.from, bake.form.to]).toEqual(['', '']);
    // Tolerances are the user's choice, not the motion's: kept.
    expect(bake.form.posTol).toBe('0.05');
  });
});
