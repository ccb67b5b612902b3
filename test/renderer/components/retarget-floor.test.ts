// The retarget panel's feet-on-the-floor switch (足IK補正, the CLI's --no-floor): a checkbox, on by default, that
// reaches the retarget job, and the report's line saying how much the leg IK moved, in English and Japanese.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { markRaw } from 'vue';
import RetargetPanel from '../../../renderer/src/components/RetargetPanel.vue';
import { useRetargetStore } from '../../../renderer/src/stores/retarget';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useWorkspaceStore, documentContent } from '../../../renderer/src/stores/workspace';
import { emptyVmd, buildTracks } from '../../../shared/vmd';
import { t } from '../../../shared/i18n/strings';
import type { RetargetDetails } from '../../../shared/retarget/retarget';
import type { EditReport } from '../../../shared/edit-core/report';
import type { RetargetTask } from '../../../renderer/src/fit/retarget-protocol';
import * as retargetClient from '../../../renderer/src/fit/retarget-client';

// The worker is stood in for by a spy on the client's export (the unit project shares one module graph between
// files, isolate off, so a hoisted vi.mock here would not reach a store another file imported first).
const tasks: RetargetTask[] = [];
const run = vi.spyOn(retargetClient, 'runRetarget').mockImplementation((task: RetargetTask) => {
  tasks.push(task);
  return new Promise(() => undefined);
});
afterAll(() => run.mockRestore());

const DETAILS: RetargetDetails = {
  sourceModel: 'ローポリ初音さん',
  targetModel: 'Gene',
  sourceLegLength: 5.59,
  targetLegLength: 10.48,
  legRatio: 1.87,
  armCompensationDeg: { left: 0, right: 0 },
  scaled: ['左足ＩＫ', '右足ＩＫ'],
  folded: [],
  refitted: [{ bone: '左足ＩＫ', keys: 80 }],
  copied: [],
  renamed: [],
  unmatched: [],
  unmatchedMorphs: [],
  maxPositionError: 0.01,
  maxRotationErrorDeg: 0.1,
  unusedMapRows: [],
  combinedMorphs: [],
  replacedByMap: [],
  sourceCheck: null,
  floor: { applied: true, feet: [{ ik: '左足ＩＫ', toe: '左足先' }], maxCorrection: 0.15943, maxCorrectionShare: 0.0152, frames: 1710, lowestBefore: -0.15, lowestAfter: -0.008 },
};

async function panel(locale: 'en' | 'ja', details: RetargetDetails) {
  const settings = useSettingsStore();
  settings.settings = { ...settings.settings, locale };
  const rt = useRetargetStore();
  rt.open = true;
  rt.targetPath = '/m/Gene_light.pmx';
  rt.targetName = 'Gene';
  rt.sourcePath = '/m/miku.pmd';
  const doc = emptyVmd();
  const report = { extra: { boneKeysBefore: 100, boneKeysAfter: 80 } } as unknown as EditReport;
  rt.raw.shown = markRaw({ input: doc, doc, tracks: markRaw(buildTracks(doc)), details, report });
  rt.state = 'ready';
  rt.version++;
  const w = mount(RetargetPanel, { attachTo: document.body });
  await w.vm.$nextTick();
  const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  return { w, text, rt };
}

describe('the retarget panel keeps the feet on the floor', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
    tasks.length = 0;
  });

  it('the report says how much the leg IK moved, in English and Japanese', async () => {
    let p = await panel('en', DETAILS);
    expect(p.text('retarget-floor-report')).toBe('Feet on the floor: leg IK moved at 1,710 frames, at most 0.159');
    p.w.unmount();
    p = await panel('ja', DETAILS);
    expect(p.text('retarget-floor-report')).toBe('足の接地：1,710 フレームで足IKを動かしました（最大 0.159）');
    p.w.unmount();
    p = await panel('ja', { ...DETAILS, floor: { ...DETAILS.floor!, applied: false, why: 'no-leg-ik', frames: 0, maxCorrection: 0 } });
    expect(p.text('retarget-floor-report')).toBe('足の接地：補正していません（先のモデルに足ＩＫがありません）');
    p.w.unmount();
  });

  it('with Scale unticked the floor box is off and disabled, and a hint says why (the leg IK is copied as it is), in English and Japanese', async () => {
    for (const locale of ['en', 'ja'] as const) {
      const { w, rt, text } = await panel(locale, DETAILS);
      rt.scale = false;
      await w.vm.$nextTick();
      const box = document.querySelector<HTMLInputElement>('[data-testid="retarget-floor"]')!;
      expect(box.disabled).toBe(true);
      expect(box.checked).toBe(false);
      expect(text('retarget-floor-hint')).toBe(locale === 'en' ? 'Off while the moves are not scaled: the leg IK is then copied as it is (tick Scale to correct the feet)' : '移動を拡縮しないときはオフです。足IKをそのまま写します（足を補正するには拡縮をオンにしてください）');
      rt.scale = true;
      await w.vm.$nextTick();
      expect(box.disabled).toBe(false);
      expect(box.checked).toBe(true);
      expect(document.querySelector('[data-testid="retarget-floor-hint"]')).toBeNull();
      w.unmount();
      document.body.innerHTML = '';
    }
  });

  it('the checkbox is on by default, reads as the batch option, and its state reaches the retarget job', async () => {
    for (const locale of ['en', 'ja'] as const) expect(t('batch.opt.retarget.no-floor', locale)).toBe(t('retarget.floor', locale));
    const ws = useWorkspaceStore();
    const [id] = ws.open([documentContent(emptyVmd('初音ミク'), { name: 'dance.vmd', path: '/m/dance.vmd' })]);
    const { w, rt } = await panel('en', DETAILS);
    rt.actorId = id;
    // A source chosen by file (the store may start from another test's recent choice in this browser).
    rt.sourcePath = '/m/source.pmx';
    rt.raw.sourceBytes = new Uint8Array(4);
    rt.raw.targetBytes = new Uint8Array(4);
    // A source model read (a change re-fits only then); its contents are not used here (the job is caught).
    rt.raw.source = markRaw({}) as unknown as typeof rt.raw.source;
    const box = document.querySelector<HTMLInputElement>('[data-testid="retarget-floor"]')!;
    expect(box.checked).toBe(true);
    void rt.compute();
    await vi.waitFor(() => expect(tasks.length).toBe(1), { timeout: 20_000 });
    expect(tasks[0].floor).toBe(true);
    box.checked = false;
    box.dispatchEvent(new Event('change'));
    expect(rt.floor).toBe(false);
    await vi.waitFor(() => expect(tasks.length).toBe(2), { timeout: 20_000 });
    expect(tasks[1].floor).toBe(false);
    w.unmount();
  });
});
