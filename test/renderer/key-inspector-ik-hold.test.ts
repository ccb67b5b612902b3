/**
 * A bone that an IK which is on turns (new-user pass nuik, finding 4: 左ひざ keyed at −60° with 左足ＩＫ on, the
 * leg stayed straight and nothing said why; the same typed where the IK was off bent the knee). The Key panel says
 * which IK holds the bone at the playhead and where to turn it off, in English and Japanese; not for a bone no IK
 * turns, nor where the motion's 表示・IK key has turned that IK off. The model's chains come through the outline
 * (model-outline.ts); with no model shown, the built-in figure's leg IKs.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { encodeSjis } from '../../shared/vmd/sjis';
import type { ModelBone, ModelData } from '../../shared/pmx/model-types';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useTimeStore } from '../../renderer/src/stores/time';
import { usePreviewStore } from '../../renderer/src/stores/preview';
import { useSettingsStore } from '../../renderer/src/stores/settings';
import { modelOutline } from '../../renderer/src/model/model-outline';
import { setQuietApi } from '../helpers/quiet-api';
import { buildFixture } from '../helpers/vmd-fixtures';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';

setQuietApi();

const sj = (s: string) => Array.from(encodeSjis(s));

/** センター, 左足, 左ひざ, 左足首, 左足ＩＫ (target 左足首, links 左ひざ, 左足). */
function outline() {
  const bone = (name: string, ik: ModelBone['ik'] = null) => ({ name, nameEn: '', position: [0, 0, 0], parent: -1, layer: 0, flags: 0, tailBone: -1, ik }) as unknown as ModelBone;
  const bones = [bone('センター'), bone('左足'), bone('左ひざ'), bone('左足首'), bone('左足ＩＫ', { target: 3, loopCount: 40, limitAngle: 2, links: [{ bone: 2, limits: null }, { bone: 1, limits: null }] })];
  return modelOutline({ bones, morphs: [], displayFrames: [], rigidBodies: [] } as unknown as ModelData);
}

/** Records: 0 左ひざ @0, 1 左ひざ @20, 2 センター @0; 表示・IK: 左足ＩＫ off at 10. */
function open() {
  const bytes = buildFixture({
    bones: [
      { name: sj('左ひざ'), frame: 0 },
      { name: sj('左ひざ'), frame: 20 },
      { name: sj('センター'), frame: 0 },
    ],
    ik: [{ frame: 10, visible: 1, iks: [{ name: sj('左足ＩＫ'), enabled: 0 }] }],
  });
  useSceneStore().openBytes('m.vmd', bytes, null);
  usePreviewStore().setOutline(outline());
}

const note = (w: VueWrapper) => w.find('[data-testid="inspector-ik-hold"]');

describe('Key panel: a bone an IK holds', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('左ひざ at 0 (左足ＩＫ on until its off key at 10): says so; at 20 (off) and for センター: nothing', async () => {
    open();
    useTimeStore().seek(0);
    useSelectionStore().select([{ kind: 'bone', record: 0 }], 'replace');
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(note(w).text()).toBe('左足ＩＫ is on here: 左ひざ follows it — turn it off in Display · IK to pose it by hand');
    useTimeStore().seek(20);
    useSelectionStore().select([{ kind: 'bone', record: 1 }], 'replace');
    await w.vm.$nextTick();
    expect(note(w).exists()).toBe(false);
    useTimeStore().seek(0);
    useSelectionStore().select([{ kind: 'bone', record: 2 }], 'replace');
    await w.vm.$nextTick();
    expect(note(w).exists()).toBe(false);
    w.unmount();
  });

  it('in Japanese, for the picked bone with no key selected (the pose track at the playhead)', async () => {
    open();
    useSettingsStore().settings.locale = 'ja';
    useTimeStore().seek(5);
    const tracks = useWorkspaceStore().tracks!;
    useSelectionStore().setActiveTrack({ kind: 'bone', track: tracks.bones.index.get('左ひざ')! });
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.find('[data-testid="inspector-pose-note"]').exists()).toBe(true);
    expect(note(w).text()).toBe('ここでは 左足ＩＫ が ON です: 左ひざ は IK に従います — 手で動かすには 表示・IK で OFF にしてください');
    useTimeStore().seek(15);
    await w.vm.$nextTick();
    expect(note(w).exists()).toBe(false);
    w.unmount();
  });

  it('no model shown: the built-in figure’s IKs (右足ＩＫ turns 右ひざ; 右つま先ＩＫ turns 右足首)', async () => {
    useSceneStore().newMotion('New motion.vmd', 'figure');
    usePreviewStore().setOutline(null);
    usePreviewStore().setPicked({ name: '右ひざ', tracked: false, rotatable: true, movable: false });
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(note(w).attributes('data-ik')).toBe('右足ＩＫ');
    usePreviewStore().setPicked({ name: '右足首', tracked: false, rotatable: true, movable: false });
    await w.vm.$nextTick();
    expect(note(w).attributes('data-ik')).toBe('右つま先ＩＫ');
    w.unmount();
  });
});
