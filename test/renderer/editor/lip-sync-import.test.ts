// Import timings… in the morph panel's lip-sync row (lipsync2): a timing file read through the bridge is previewed —
// how many keys Apply makes (worked out by hand), on which morphs, over which frames, at the Weight (the count follows
// it) — and Apply keys it as one undo step with the tap mode's keys; a bad line is named with its file and line, in
// English and Japanese, with no Apply. Edit → Import Mouth Timings… opens the 表情 tab with the preview.
import { afterEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { buildTracks, buildVmd, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { bytes, keys } from './active-morph-keys';
import { useLipSyncStore } from '../../../renderer/src/stores/lip-sync';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { importTimingFile } from '../../../renderer/src/shell/mouth-timings';
import { memoryScene } from '../stores/scene-fixtures';
import MorphPanel from '../../../renderer/src/editor/MorphPanel.vue';
import LeftPanel from '../../../renderer/src/components/LeftPanel.vue';

// あ 1 at 10; 笑い 0 at 20.
const song = writeVmd(buildVmd({ morphs: [{ name: 'あ', frame: 10, weight: 1 }, { name: '笑い', frame: 20, weight: 0 }] }));
const VOWELS = ['あ', 'い', 'う', 'え', 'お'];
const utf8 = (s: string) => new TextEncoder().encode(s);


afterEach(() => {
  document.body.innerHTML = '';
});

async function open(files: [string, Uint8Array][], morphs = VOWELS) {
  memoryScene([['/s/song.vmd', song], ...files]);
  expect(await useSceneStore().openPath('/s/song.vmd')).toBe(true);
  usePreviewStore().setOutline({ groups: [], morphs: morphs.map((name) => ({ name, panel: 'mouth' as const })), physicsBones: [] });
  const w = mount(MorphPanel, { attachTo: document.body });
  await w.vm.$nextTick();
  return w;
}

describe('Import timings… in the lip-sync row', () => {
  it('previews the keys Apply makes, follows the Weight, and Apply keys them as one undo step', async () => {
    const w = await open([['/t/line.txt', utf8('# テスト\n12 i\n20 お\n30 -\n')]]);
    const ls = useLipSyncStore(), ws = useWorkspaceStore();
    expect(await importTimingFile('/t/line.txt')).toBe(true);
    await w.vm.$nextTick();
    // The mode turned on to show it. 3 timings × 5 vowels, and い 0 at frame 0 (い had no key before 12; あ had).
    expect(ls.on).toBe(true);
    expect(w.get('[data-testid="lip-import-summary"]').text()).toBe('line.txt: 3 timings → 16 keys on あ い う え お at weight 1, frames 12–30');
    expect(w.get('[data-testid="lip-import-notes"]').text()).toBe('Read as a FRAME VOWEL list.');
    // Weight 0: no frame-0 key is needed (a 0 at 12 holds from the start): 15.
    ls.setWeight(0, false);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="lip-import-summary"]').text()).toBe('line.txt: 3 timings → 15 keys on あ い う え お at weight 0, frames 12–30');
    ls.setWeight(0.5, false);
    await w.vm.$nextTick();
    const before = bytes(), depth = ws.undoStack.length;
    await w.get('[data-testid="lip-import-apply"]').trigger('click');
    const want = new Map<string, number>([['あ@10', 1], ['笑い@20', 0], ['い@0', 0]]);
    for (const [f, v] of [[12, 'い'], [20, 'お'], [30, '']] as const) for (const x of VOWELS) want.set(`${x}@${f}`, x === v ? 0.5 : 0);
    expect(keys()).toEqual(want);
    expect(ws.undoStack.length).toBe(depth + 1);
    await w.vm.$nextTick();
    expect(w.find('[data-testid="lip-import-preview"]').exists()).toBe(false);
    ws.undo();
    expect(bytes().equals(before)).toBe(true);
    w.unmount();
  });

  it('names the bad line with its file and line, in English and Japanese, and offers no Apply', async () => {
    const w = await open([['/t/bad.lab', utf8('0.0 0.2 sil\n0.2 0.3 a\n0.3 0.5 xx\n')]]);
    expect(await importTimingFile('/t/bad.lab')).toBe(false);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="lip-import-error"]').text()).toBe(
      'bad.lab, line 3: "xx" is not a phoneme this reader knows (a i u e o, N, q, cl, pau, sil, sp, or a consonant as Julius writes it)',
    );
    expect(w.find('[data-testid="lip-import-apply"]').exists()).toBe(false);
    useSettingsStore().settings.locale = 'ja';
    await w.vm.$nextTick();
    expect(w.get('[data-testid="lip-import-error"]').text()).toBe('bad.lab の 3 行目: 「xx」は読める音素ではありません（a i u e o、N、q、cl、pau、sil、sp、または Julius の子音）');
    await w.get('[data-testid="lip-import-cancel"]').trigger('click');
    expect(useLipSyncStore().pending).toBe(null);
    w.unmount();
  });

  it('says which .lab unit it assumed and which vowels the model lacks; the 表情 tab opens for a preview', async () => {
    memoryScene([['/s/song.vmd', song], ['/t/v.lab', utf8('0 3000000 sil\n3000000 6000000 u\n6000000 9000000 a\n')]]);
    expect(await useSceneStore().openPath('/s/song.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: ['あ', 'い'].map((name) => ({ name, panel: 'mouth' as const })), physicsBones: [] });
    const left = mount(LeftPanel, { attachTo: document.body });
    expect(left.find('[data-testid="morph-panel"]').exists()).toBe(false);
    expect(await importTimingFile('/t/v.lab')).toBe(true);
    await left.vm.$nextTick();
    await left.vm.$nextTick();
    // sil 0; u 0.3 s → 9 (the model has no う: closed); a 0.6 s → 18. 3 × 2 morphs, no frame-0 key (the first is at 0).
    expect(left.get('[data-testid="lip-import-summary"]').text()).toBe('v.lab: 3 timings → 6 keys on あ い at weight 1, frames 0–18');
    expect(left.get('[data-testid="lip-import-notes"]').text()).toBe(
      'Read as a .lab file, its times in HTK’s 100 ns units (whole numbers), at 30 fps. Not in this model: う え お; 1 of the timings closes the mouth there.',
    );
    left.unmount();
  });

  it('with no motion open, Apply starts one (as a tap or a slider does) and keys it; undo takes the keys back', async () => {
    memoryScene([['/t/one.txt', utf8('5 e\n')]]);
    usePreviewStore().setOutline({ groups: [], morphs: VOWELS.map((name) => ({ name, panel: 'mouth' as const })), physicsBones: [] });
    const w = mount(MorphPanel, { attachTo: document.body });
    expect(await importTimingFile('/t/one.txt')).toBe(true);
    await w.vm.$nextTick();
    // One timing × 5 vowels, and え 0 at frame 0.
    expect(w.get('[data-testid="lip-import-summary"]').text()).toBe('one.txt: 1 timing → 6 keys on あ い う え お at weight 1, frames 5–5');
    const ws = useWorkspaceStore();
    expect(ws.doc).toBe(null);
    await w.get('[data-testid="lip-import-apply"]').trigger('click');
    const want = new Map<string, number>([['え@0', 0]]);
    for (const x of VOWELS) want.set(`${x}@5`, x === 'え' ? 1 : 0);
    expect(keys()).toEqual(want);
    ws.undo();
    expect(buildTracks(ws.doc!).morphs.names).toEqual([]);
    w.unmount();
  });
});
