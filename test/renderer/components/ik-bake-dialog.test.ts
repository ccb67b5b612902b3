// The Bake IK to FK dialog: every IK bone of the model listed with a checkbox, ticked as the motion has them on in
// the range; Legs only ticks 足ＩＫ and つま先ＩＫ and unticks the rest (the store then bakes those); none ticked keeps
// Bake off with a word; the figures before Apply and an E_IK refusal in words, in English and Japanese.
import { describe, expect, it } from 'vitest';
import { nextTick, markRaw } from 'vue';
import { mount } from '@vue/test-utils';
import IkBakeDialog from '../../../renderer/src/components/IkBakeDialog.vue';
import { useIkBakeStore } from '../../../renderer/src/stores/ik-bake';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { memoryScene, dance } from '../stores/scene-fixtures';
import { buildTracks, emptyVmd } from '../../../shared/vmd';
import { newReport } from '../../../shared/edit-core/report';
import type { IkBakeReport } from '../../../shared/bake/ik-bake';

const settle = async () => {
  for (let i = 0; i < 5; i++) await nextTick();
};
const q = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const boxes = () => [...document.querySelectorAll<HTMLInputElement>('[data-testid="ik-bake-bones"] input')].map((b) => `${b.dataset.bone}${b.checked ? ' ✓' : ''}`);
const CHAINS = [
  { ik: '左足ＩＫ', links: ['左ひざ', '左足'] },
  { ik: '左つま先ＩＫ', links: ['左足首'] },
  { ik: '右足ＩＫ', links: ['右ひざ', '右足'] },
  { ik: '右つま先ＩＫ', links: ['右足首'] },
  { ik: '左髪ＩＫ', links: ['左髪１'] },
];

async function open(locale: 'en' | 'ja' = 'en') {
  memoryScene([['/s/a.vmd', dance(10)]]);
  document.body.innerHTML = '';
  const s = useSettingsStore();
  s.settings = { ...s.settings, locale };
  const p = usePreviewStore();
  p.setModel({ name: 'Miku', path: '/m/miku.pmd', format: 'pmd', bones: 0, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
  p.setOutline({ groups: [], morphs: [], physicsBones: [], ikBones: CHAINS.map((c) => c.ik), ikChains: CHAINS });
  await useSceneStore().openPath('/s/a.vmd');
  useIkBakeStore().show();
  const w = mount(IkBakeDialog, { attachTo: document.body });
  await settle();
  return w;
}

describe('Bake IK to FK dialog', () => {
  it('lists every IK bone ticked (a motion without IK keys has them all on); Legs only; none ticked keeps Bake off (en, ja)', async () => {
    const w = await open();
    expect(boxes()).toEqual(['左足ＩＫ ✓', '左つま先ＩＫ ✓', '右足ＩＫ ✓', '右つま先ＩＫ ✓', '左髪ＩＫ ✓']);
    expect((q('ik-bake-start') as HTMLButtonElement).disabled).toBe(false);
    q('ik-bake-legs')!.click();
    await settle();
    expect(boxes()).toEqual(['左足ＩＫ ✓', '左つま先ＩＫ ✓', '右足ＩＫ ✓', '右つま先ＩＫ ✓', '左髪ＩＫ']);
    expect(useIkBakeStore().form.bones).toEqual(['左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ']);
    for (const b of document.querySelectorAll<HTMLInputElement>('[data-testid="ik-bake-bones"] input:checked')) {
      b.checked = false;
      b.dispatchEvent(new Event('change'));
    }
    await settle();
    expect(boxes()).toEqual(['左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ', '左髪ＩＫ']);
    expect((q('ik-bake-start') as HTMLButtonElement).disabled).toBe(true);
    expect(q('ik-bake-error-bones')?.textContent).toBe('Tick at least one IK bone');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await settle();
    expect(q('ik-bake-error-bones')?.textContent).toBe('IK ボーンを1つ以上チェックしてください');
    expect(q('ik-bake-legs')?.textContent).toBe('足のみ');
    q('ik-bake-all')!.click();
    await settle();
    expect(boxes()).toEqual(['左足ＩＫ ✓', '左つま先ＩＫ ✓', '右足ＩＫ ✓', '右つま先ＩＫ ✓', '左髪ＩＫ ✓']);
    w.unmount();
  });

  it('the figures before Apply, and an E_IK refusal in words (en, ja)', async () => {
    const w = await open();
    const bake = useIkBakeStore();
    const report: IkBakeReport = { from: 0, to: 100, ikOff: ['左足ＩＫ', '右足ＩＫ'], bones: ['左足', '左ひざ', '右足', '右ひざ'], namesTooLong: [], ikNamesTooLong: [], rawKeys: 404, keptKeys: 101, replacedKeys: 3, edgeKeys: 4, maxPositionError: 0.0042, maxRotationErrorDeg: 0.099, worst: { frame: 40, bone: '左ひざ' } };
    const doc = emptyVmd();
    bake.result = markRaw({ input: doc, output: doc, report, modelPath: '/m/miku.pmd', plot: { before: buildTracks(doc), after: buildTracks(doc), report: newReport('bake'), factor: 1 } });
    await settle();
    expect(q('ik-bake-ik')?.textContent).toBe('IK off over frames 0–100: 左足ＩＫ, 右足ＩＫ');
    expect(q('ik-bake-keyed')?.textContent).toBe('Bones keyed: 左足, 左ひざ, 右足, 右ひざ');
    expect(q('ik-bake-keys')?.textContent).toBe('Keys: 404 at one per frame → 101 kept (25.0%), 3 replaced');
    expect(q('ik-bake-err')?.textContent).toBe('Largest error, played with the IK off against the IK on: 0.0042 units, 0.099° (左ひざ at frame 40)');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await settle();
    expect(q('ik-bake-ik')?.textContent).toBe('0–100 フレームで IK を OFF: 左足ＩＫ, 右足ＩＫ');
    expect(q('ik-bake-keys')?.textContent).toBe('キー: 毎フレーム 404 → 101 を残す（25.0%）、3 を置き換え');
    bake.result = null;
    bake.failure = markRaw({ code: 'E_IK' as const, message: 'model "Miku" has no IK bone "x" (its IK bones: 左足ＩＫ)', file: '/m/miku.pmd', option: 'bones', params: { reason: 'unknown', name: 'x', list: '左足ＩＫ' } });
    await settle();
    expect(q('ik-bake-failure')?.textContent).toBe('miku.pmd: モデルに IK ボーン「x」がありません（IK ボーン: 左足ＩＫ）');
    s.settings = { ...s.settings, locale: 'en' };
    await settle();
    expect(q('ik-bake-failure')?.textContent).toBe('miku.pmd: model "Miku" has no IK bone "x" (its IK bones: 左足ＩＫ)');
    w.unmount();
  });
});
