// The retarget panel's report, as a new user read it: "Re-fitted (15 bones): bone keys 1041 → 87" read as if
// re-fitting threw away 92% of the keys, when both were whole-file totals with the copied and left-out tracks
// in them; now the re-fitted bones' own keys go before → after, and the copied and left-out tracks and keys
// are said apart. And a count of one reads "1 key" ("ﾈｸﾀｲ２ 1 keys", "上半身2 → 上半身 (1 keys)" before).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { markRaw } from 'vue';
import RetargetPanel from '../../../renderer/src/components/RetargetPanel.vue';
import { useRetargetStore } from '../../../renderer/src/stores/retarget';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { emptyVmd, buildTracks } from '../../../shared/vmd';
import type { RetargetDetails } from '../../../shared/retarget/retarget';
import type { EditReport } from '../../../shared/edit-core/report';

/** The counts of the user's report: 1041 bone keys in the motion, 15 re-fitted bones written with 87 keys in all. */
const DETAILS: RetargetDetails = {
  sourceModel: 'Gene',
  targetModel: 'ローポリ初音さん',
  sourceLegLength: 10.5,
  targetLegLength: 5.59,
  legRatio: 0.533,
  armCompensationDeg: { left: 2.6, right: 2.6 },
  scaled: ['センター'],
  folded: [
    { bone: '上半身2', keys: 1, into: ['上半身'] },
    { bone: '左腕捩', keys: 4, into: ['左腕'] },
  ],
  refitted: [
    { bone: 'センター', keys: 80 },
    { bone: '上半身', keys: 7 },
  ],
  renamed: [],
  copied: [
    { bone: '頭', as: '頭', keys: 40 },
    { bone: '首', as: '首', keys: 10 },
  ],
  unmatched: [
    { bone: 'ﾈｸﾀｲ２', keys: 1 },
    { bone: '両目先', keys: 900 },
  ],
  unmatchedMorphs: [{ morph: 'まばたき', keys: 1 }],
  maxPositionError: 0.000029,
  maxRotationErrorDeg: 0.097,
  unusedMapRows: [],
  combinedMorphs: [],
  replacedByMap: [],
  sourceCheck: null,
};

async function panel(locale: 'en' | 'ja', details: RetargetDetails = DETAILS, boneKeysBefore = 1041) {
  const settings = useSettingsStore();
  settings.settings = { ...settings.settings, locale };
  const rt = useRetargetStore();
  rt.open = true;
  rt.targetPath = '/m/miku.pmd';
  rt.targetName = 'ローポリ初音さん';
  rt.motionName = 'ジェネ / Gene';
  rt.sourcePath = '/m/Gene_light.pmx';
  const doc = emptyVmd();
  const report = { extra: { boneKeysBefore, boneKeysAfter: 137 } } as unknown as EditReport;
  rt.raw.shown = markRaw({ input: doc, doc, tracks: markRaw(buildTracks(doc)), details, report });
  rt.state = 'ready';
  rt.version++;
  const w = mount(RetargetPanel, { attachTo: document.body });
  await w.vm.$nextTick();
  const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  return { w, text };
}

describe('the retarget report’s counts', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  it('English: the re-fitted bones’ own keys before → after; copied and left out apart', async () => {
    const { w, text } = await panel('en');
    // 1041 in all, less 50 copied and 901 left out: 90 went into the re-fitted bones (the folded ones with them), 87 written.
    expect(text('retarget-refitted')).toContain('Re-fitted (2 bones): their keys 90 → 87');
    expect(text('retarget-copied')).toBe('Copied as they are: 2 tracks, 50 keys');
    expect(text('retarget-left-out')).toBe('Left out (bones the target lacks): 2 tracks, 901 keys');
    w.unmount();
  });

  it('English: a count of one is "1 key" (folded rows, bones and morphs left out)', async () => {
    const { w } = await panel('en');
    const folded = [...document.querySelectorAll('[data-testid="retarget-folded"] li')].map((e) => e.textContent!.trim());
    expect(folded).toEqual(['上半身2 → 上半身 (1 key)', '左腕捩 → 左腕 (4 keys)']);
    const unmatched = [...document.querySelectorAll('[data-testid="retarget-unmatched-bone"] .muted')].map((e) => e.textContent!.trim());
    expect(unmatched).toEqual(['1 key', '900 keys']);
    expect(document.querySelector('[data-testid="retarget-unmatched-morphs"] .muted')?.textContent?.trim()).toBe('1 key');
    w.unmount();
  });

  it('a track played under the model’s other spelling of its bone is said (the low-poly Miku’s 左つま先 on Gene’s 左つま先EX); nothing when none is', async () => {
    const renamed = [{ bone: '左つま先', as: '左つま先EX', keys: 263 }, { bone: '右つま先', as: '右つま先EX', keys: 263 }];
    const { w, text } = await panel('en', { ...DETAILS, renamed });
    expect(text('retarget-renamed')).toBe('Renamed (2), as the model spells them: 左つま先 → 左つま先EX, 右つま先 → 右つま先EX');
    w.unmount();
    document.body.innerHTML = '';
    const ja = await panel('ja', { ...DETAILS, renamed });
    expect(ja.text('retarget-renamed')).toBe('モデルの名前に変えたもの (2)：左つま先 → 左つま先EX, 右つま先 → 右つま先EX');
    ja.w.unmount();
    document.body.innerHTML = '';
    const none = await panel('en');
    expect(document.querySelector('[data-testid="retarget-renamed"]')).toBeNull();
    none.w.unmount();
  });

  it('questions a source that is not the model the motion was made on, in English and Japanese; says nothing when it is', async () => {
    const d: RetargetDetails = { ...DETAILS, sourceModel: 'ローポリ初音さん', targetModel: 'ジェネ / Gene', legRatio: 1.874, sourceLegLength: 5.59, targetLegLength: 10.48, sourceCheck: { kind: 'source-name', header: '初音ミク' } };
    const en = await panel('en', d);
    expect(en.text('retarget-source-check')).toBe('× 1.87: the motion’s header says “初音ミク”, the source is ローポリ初音さん: is this the model the motion was made on?');
    en.w.unmount();
    document.body.innerHTML = '';
    const ja = await panel('ja', { ...d, sourceCheck: { kind: 'header-is-target', header: 'ジェネ / Gene' } });
    expect(ja.text('retarget-source-check')).toBe('× 1.87: モーションのヘッダーはすでにこのモデル「ジェネ / Gene」を指しています。このモデル用に作られたものではありませんか？ ローポリ初音さん 用として合わせました。');
    ja.w.unmount();
    document.body.innerHTML = '';
    const unscaled = await panel('en', { ...d, legRatio: 1 });
    expect(unscaled.text('retarget-source-check')).toBe('The motion’s header says “初音ミク”, the source is ローポリ初音さん: is this the model the motion was made on?');
    unscaled.w.unmount();
    document.body.innerHTML = '';
    const fine = await panel('en');
    expect(document.querySelector('[data-testid="retarget-source-check"]')).toBeNull();
    fine.w.unmount();
  });

  it('"(folded tracks included)" only when something was folded; counts over 999 with a thousands separator, as the CLI writes them', async () => {
    const big: RetargetDetails = { ...DETAILS, folded: [], refitted: [{ bone: 'センター', keys: 4283 }], copied: [{ bone: '頭', as: '頭', keys: 1200 }], unmatched: [{ bone: 'ﾈｸﾀｲ２', keys: 1 }] };
    const p = await panel('en', big, 5575);
    // 5,575 in all, less 1,200 copied and 1 left out: 4,374 went into the re-fitted bone, 4,283 written.
    expect(p.text('retarget-refitted')).toBe('Re-fitted (1 bones): their keys 4,374 → 4,283, largest error 0.000029, 0.097°');
    expect(p.text('retarget-copied')).toBe('Copied as they are: 1 track, 1,200 keys');
    p.w.unmount();
    document.body.innerHTML = '';
    const folded = await panel('en');
    expect(folded.text('retarget-refitted')).toContain('their keys 90 → 87 (folded tracks included)');
    folded.w.unmount();
  });

  it('Japanese alike', async () => {
    const { w, text } = await panel('ja');
    expect(text('retarget-refitted')).toContain('そのキー 90 → 87');
    expect(text('retarget-copied')).toBe('そのまま写したもの：トラック 2、キー 50 個');
    expect(text('retarget-left-out')).toBe('除いたもの（モデルにないボーン）：トラック 2、キー 901 個');
    const folded = [...document.querySelectorAll('[data-testid="retarget-folded"] li')].map((e) => e.textContent!.trim());
    expect(folded[0]).toBe('上半身2 → 上半身（キー 1 個）');
    w.unmount();
  });
});
