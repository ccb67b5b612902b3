// New-user pass (nubegin 1): in the English UI the bones were in Japanese only, and "arm" or "elbow" in the
// bone search found nothing on a model that names 左腕 arm_L. The bone list shows the model's English name after
// the Japanese one in the English UI (not in the Japanese one), and the search matches either name in both.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { boneNameEn, modelOutline, nameMatches, searchFold } from '../../../renderer/src/model/model-outline';
import { defaultFigureBones } from '../../../shared/skeleton/standard-figure';
import type { ModelBone, ModelData } from '../../../shared/pmx/model-types';
import { readModel } from '../../../shared/pmx/model-reader';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import BoneList from '../../../renderer/src/editor/BoneList.vue';

/** A model of only bones (names, English names), no display frames: one group of every bone. */
function bonesOnly(bones: [string, string][]): ModelData {
  const figure = defaultFigureBones()[0];
  const list: ModelBone[] = bones.map(([name, nameEn]) => ({ ...figure, name, nameEn }));
  return { bones: list, displayFrames: [], morphs: [], rigidBodies: [] } as unknown as ModelData;
}

describe('English bone names (model-outline)', () => {
  it('by name; none when the model gives none, its name again, or a Japanese one; a name cut at 15 bytes finds it', () => {
    const o = modelOutline(bonesOnly([['左腕', 'arm_L'], ['頭', ''], ['センター', 'センター'], ['左腕捩', '左腕捩連'], ['右腕捩れ補助ボーン', ' arm twist helper_R '], ['腰', 'ｳｴｽﾄ']]));
    expect(boneNameEn(o, '左腕')).toBe('arm_L');
    expect(boneNameEn(o, '頭')).toBe('');
    expect(boneNameEn(o, 'センター')).toBe('');
    expect(boneNameEn(o, '左腕捩')).toBe('');
    expect(boneNameEn(o, '腰')).toBe('');
    expect(boneNameEn(o, '右腕捩れ補助ボーン')).toBe('arm twist helper_R');
    // 右腕捩れ補助ボーン is 18 bytes in Shift_JIS; a motion holds its first 15: 7 double-byte characters and the
    // first byte of ー, read back as the 7 characters (the cut byte dropped).
    expect(boneNameEn(o, '右腕捩れ補助ボ')).toBe('arm twist helper_R');
    expect(boneNameEn(o, '右腕')).toBe('');
    expect(boneNameEn(null, '左腕')).toBe('');
    // The built-in figure has no English names.
    expect(boneNameEn(modelOutline(null, defaultFigureBones()), '左腕')).toBe('');
  });

  it('the search matches the Japanese or the English name, case and width folded', () => {
    const arm = { name: '左腕', nameEn: 'arm_L' };
    expect(nameMatches(arm, searchFold('arm'))).toBe(true);
    expect(nameMatches(arm, searchFold('ＡＲＭ'))).toBe(true);
    expect(nameMatches(arm, searchFold('腕'))).toBe(true);
    expect(nameMatches(arm, searchFold('elbow'))).toBe(false);
    expect(nameMatches({ name: '左腕' }, searchFold('arm'))).toBe(false);
    expect(nameMatches(arm, '')).toBe(true);
  });

  it.skipIf(!corpusPresent)('miku.pmd (PMD English names): 左腕 arm_L, 左ひじ elbow_L, 上半身 upper body, 頭 head', () => {
    const r = readModel(new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'))));
    if (!r.ok) throw new Error(r.error.message);
    const o = modelOutline(r.value);
    expect(boneNameEn(o, '左腕')).toBe('arm_L');
    expect(boneNameEn(o, '左ひじ')).toBe('elbow_L');
    expect(boneNameEn(o, '上半身')).toBe('upper body');
    expect(boneNameEn(o, '頭')).toBe('head');
  });
});

describe('the bone list', () => {
  beforeEach(() => setActivePinia(createPinia()));
  const model = bonesOnly([['左腕', 'arm_L'], ['右腕', 'arm_R'], ['左ひじ', 'elbow_L'], ['頭', 'head'], ['首', '']]);

  it('English UI: the English name after each bone; "arm" finds 左腕 and 右腕, "ひじ" finds 左ひじ', async () => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'en' };
    usePreviewStore().setOutline(modelOutline(model));
    const w = mount(BoneList, { attachTo: document.body });
    const shown = () => w.findAll('[data-testid="bone-item"]').map((b) => b.attributes('data-bone'));
    await w.vm.$nextTick();
    expect(w.get('[data-bone="左腕"] [data-testid="bone-item-en"]').text()).toBe('arm_L');
    expect(w.get('[data-bone="頭"]').text()).toBe('頭head');
    expect(w.find('[data-bone="首"] [data-testid="bone-item-en"]').exists()).toBe(false);
    await w.get('[data-testid="bone-search"]').setValue('arm');
    expect(shown()).toEqual(['左腕', '右腕']);
    await w.get('[data-testid="bone-search"]').setValue('Elbow');
    expect(shown()).toEqual(['左ひじ']);
    await w.get('[data-testid="bone-search"]').setValue('ひじ');
    expect(shown()).toEqual(['左ひじ']);
    await w.get('[data-testid="bone-search"]').setValue('leg');
    expect(shown()).toEqual([]);
    expect(w.get('.hint').text()).toBe('No bone matches');
    w.unmount();
  });

  it('Japanese UI: the Japanese names alone, and the search still matches the English name', async () => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    usePreviewStore().setOutline(modelOutline(model));
    const w = mount(BoneList, { attachTo: document.body });
    await w.vm.$nextTick();
    expect(w.find('[data-testid="bone-item-en"]').exists()).toBe(false);
    expect(w.get('[data-bone="左腕"]').text()).toBe('左腕');
    await w.get('[data-testid="bone-search"]').setValue('arm');
    expect(w.findAll('[data-testid="bone-item"]').map((b) => b.attributes('data-bone'))).toEqual(['左腕', '右腕']);
    w.unmount();
  });

  // New-user pass (numigrate 2): a PMD listed its 83 bones under one "Other bones" heading, 先 bones included, and New
  // motion on it showed no bone rows. Its bone groups (表示枠) come first now, as MMD lists them.
  it.skipIf(!corpusPresent)('miku.pmd: センター (Root) and its 7 groups in file order; the 先 and IK先 bones under Other bones at the end', async () => {
    const r = readModel(new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'))));
    if (!r.ok) throw new Error(r.error.message);
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    usePreviewStore().setOutline(modelOutline(r.value));
    const w = mount(BoneList, { attachTo: document.body });
    await w.vm.$nextTick();
    const sections = w.findAll('section.group');
    expect(sections.map((g) => g.get('header').text())).toEqual(['Root', '全ての親', 'ＩＫ', '体(上)', '髪', '腕', '体(下)', '足', 'その他のボーン']);
    const bonesOf = (k: number) => sections[k].findAll('[data-testid="bone-item"]').map((b) => b.attributes('data-bone'));
    expect(bonesOf(0)).toEqual(['センター']);
    expect(bonesOf(7)).toEqual(['左足', '左ひざ', '左足首', '右足', '右ひざ', '右足首']);
    expect(bonesOf(8)).toContain('センター先');
    expect(bonesOf(8)).toContain('左つま先ＩＫ先');
    expect(bonesOf(8)).not.toContain('左足');
    w.unmount();
  });
});
