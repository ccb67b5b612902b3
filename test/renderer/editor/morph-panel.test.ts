// The Morphs panel (new-user pass): with the camera document active in a scene of an actor and a camera,
// every morph showed 0.000 (it read the active document, the camera's) while the model smiled at 0.634;
// it shows the actor's weights, the actor it keys. And a short name is not split: ウィンク右 showed
// "ィンク右" (its head part, one character, shrank to nothing) with no "…"; a name is its start, cut at
// the end, its whole self in the title.
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { buildTracks, buildVmd, writeVmd } from '../../../shared/vmd';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { resetCutNames } from '../../../renderer/src/shell/cut-names';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { memoryScene, cameraVmd } from '../stores/scene-fixtures';
import MorphPanel from '../../../renderer/src/editor/MorphPanel.vue';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { useSelectionStore } from '../../../renderer/src/stores/selection';

const sceneFile = new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'dance.vmd' }], camera: 'camera.vmd', activeActor: 0 }));
const dance = writeVmd(buildVmd({
  bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }],
  morphs: [
    { name: '笑い', frame: 0, weight: 0 },
    { name: '笑い', frame: 20, weight: 1 },
    { name: 'ウィンク右', frame: 10, weight: 0.25 },
  ],
}));

describe('the Morphs panel', () => {
  it('shows the actor’s weights while the camera document is active; names whole', async () => {
    memoryScene([['/s/dance.vmd', dance], ['/s/camera.vmd', cameraVmd()], ['/s/duet.vmdscene', sceneFile]]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: '笑い', panel: 'eyes' }, { name: 'ウィンク右', panel: 'eyes' }, { name: 'eye_wink_geo_L', panel: 'eyes' }], physicsBones: [] });
    useTimeStore().seek(15);
    const w = mount(MorphPanel, { attachTo: document.body });
    const weight = (name: string) => (w.get(`[data-morph="${name}"] [data-testid="morph-weight"]`).element as HTMLInputElement).value;
    await w.vm.$nextTick();
    expect(weight('笑い')).toBe('0.750');
    expect(weight('ウィンク右')).toBe('0.250');
    // The camera document active (its tab clicked): still the actor's.
    scene.activate(scene.cameraEntry!.id);
    await w.vm.$nextTick();
    expect(useWorkspaceStore().fileName).toBe('camera.vmd');
    expect(weight('笑い')).toBe('0.750');
    expect(weight('ウィンク右')).toBe('0.250');
    // Names whole in one piece (a long one wraps, cut only at its end: the CSS), the tooltip too (report numodel 8).
    const name = (n: string) => w.get(`[data-morph="${n}"] .name`);
    expect(name('ウィンク右').attributes('title')).toBe('ウィンク右');
    expect(name('ウィンク右').text()).toBe('ウィンク右');
    expect(name('eye_wink_geo_L').text()).toBe('eye_wink_geo_L');
    w.unmount();
  });
});

// New-user pass (nuinterop 6): a wrap anywhere split browOuterUpRight as "browOuterU / pRight", so two near-identical
// names (…Right, …Left) read alike. A name may wrap only between its words (a <wbr> at each: camelCase, after _ - .,
// before a number): the text stays whole (its textContent, the e2e layout checks), the breaks are where a reader
// splits the name.
describe('the Morphs panel’s long Latin names', () => {
  it('offer a line break only between their words', async () => {
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: 'browOuterUpRight', panel: 'eyes' }, { name: 'eye_surprise_geo_L', panel: 'eyes' }, { name: 'mouthSmile2', panel: 'eyes' }, { name: 'ウィンク右', panel: 'eyes' }], physicsBones: [] });
    const w = mount(MorphPanel, { attachTo: document.body });
    await w.vm.$nextTick();
    const box = (n: string) => w.get(`[data-morph="${n}"] [data-testid="morph-name"]`).element as HTMLElement;
    // The text between the <wbr>s, as the reader would split it.
    const pieces = (n: string) => box(n).innerHTML.replace(/<!--.*?-->/g, '').split(/<wbr[^>]*>/);
    expect(pieces('browOuterUpRight')).toEqual(['brow', 'Outer', 'Up', 'Right']);
    expect(pieces('eye_surprise_geo_L')).toEqual(['eye_', 'surprise_', 'geo_', 'L']);
    expect(pieces('mouthSmile2')).toEqual(['mouth', 'Smile', '2']);
    expect(pieces('ウィンク右')).toEqual(['ウィンク右']);
    for (const n of ['browOuterUpRight', 'eye_surprise_geo_L', 'mouthSmile2', 'ウィンク右']) {
      expect(box(n).textContent).toBe(n);
      // Wrapped at its words (.words: inside a word only where one is wider than the line); a name whose words take
      // more than two lines wraps anywhere instead, measured in the browser (the e2e layout tests).
      expect(box(n).classList.contains('words')).toBe(true);
    }
    w.unmount();
  });
});

// New-user pass (nupose 6): no search, and Gene's その他 holds 94 morphs: finding 笑い meant scrolling. The search box
// lists the matches of every group, by Japanese or English name (full-width letters as half-width), each tab
// counting its matches; Esc clears it and the picked group's list is back.
describe('the Morphs panel’s search', () => {
  it('lists the matches of every group by either name, counts them per tab, and Esc clears it', async () => {
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({
      groups: [],
      morphs: [
        { name: 'まばたき', nameEn: 'Blink', panel: 'eyes' },
        { name: '笑い', nameEn: 'Smile', panel: 'eyes' },
        { name: 'あ', nameEn: 'a', panel: 'mouth' },
        { name: 'にやり', nameEn: 'Grin', panel: 'mouth' },
        { name: '困る', nameEn: 'Trouble', panel: 'brows' },
        { name: 'mouth_smile_geo', panel: 'other' },
      ],
      physicsBones: [],
    });
    const w = mount(MorphPanel, { attachTo: document.body });
    const rows = () => w.findAll('[data-testid="morph-row"]').map((r) => r.attributes('data-morph'));
    const tab = (g: string) => w.get(`[data-testid="morph-group-${g}"]`);
    await w.vm.$nextTick();
    expect(rows()).toEqual(['まばたき', '笑い']);
    const box = w.get('[data-testid="morph-search"]');
    // "SMILE" in full-width capitals: 笑い by its English name and the ARKit-style name from その他.
    await box.setValue('ＳＭＩＬＥ');
    expect(rows()).toEqual(['笑い', 'mouth_smile_geo']);
    expect(['eyes', 'mouth', 'brows', 'other'].map((g) => tab(g).get('.n').text())).toEqual(['1', '0', '0', '1']);
    expect(tab('eyes').attributes('aria-selected')).toBe('false');
    await box.setValue('にや');
    expect(rows()).toEqual(['にやり']);
    await box.setValue('zzz');
    expect(rows()).toEqual([]);
    expect(w.find('[data-testid="morph-no-match"]').exists()).toBe(true);
    await box.trigger('keydown', { key: 'Escape' });
    expect((box.element as HTMLInputElement).value).toBe('');
    expect(rows()).toEqual(['まばたき', '笑い']);
    expect(tab('eyes').get('.n').text()).toBe('2');
    // Picking a tab while searching leaves the search for that group.
    await box.setValue('a');
    await tab('mouth').trigger('click');
    expect((box.element as HTMLInputElement).value).toBe('');
    expect(rows()).toEqual(['あ', 'にやり']);
    w.unmount();
  });
});

// New-user pass (nusync 6): a weight typed out of range is clamped, but when the clamped weight is what the key
// already held (60 on a key of 1, −5 on a key of 0) the bound value did not change and the number box kept
// showing 60 / −5. It shows the weight applied.
describe('the Morphs panel’s number box', () => {
  it('shows the weight applied after clamping, also when that is the weight the key already had', async () => {
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: '笑い', panel: 'eyes' }], physicsBones: [] });
    const w = mount(MorphPanel, { attachTo: document.body });
    const box = () => w.get('[data-morph="笑い"] [data-testid="morph-weight"]');
    useTimeStore().seek(20); // 笑い's key of weight 1
    await w.vm.$nextTick();
    expect((box().element as HTMLInputElement).value).toBe('1.000');
    await box().setValue('60');
    await w.vm.$nextTick();
    expect((box().element as HTMLInputElement).value).toBe('1.000');
    useTimeStore().seek(0); // its key of weight 0
    await w.vm.$nextTick();
    await box().setValue('-5');
    await w.vm.$nextTick();
    expect((box().element as HTMLInputElement).value).toBe('0.000');
    // Nothing typed (an emptied box): the weight there, not an empty box.
    await box().setValue('');
    await w.vm.$nextTick();
    expect((box().element as HTMLInputElement).value).toBe('0.000');
    w.unmount();
  });

  // New-user pass numorph 9: in じと目's box "1.5" at 300, "-0.3" at 301 and "0,5" at 302 registered 1, 0 and 1.000,
  // without a word. Now 0,5 is 0.5; a value outside 0–1 is clamped as MMD's panel does, and said; junk is refused.
  it('reads "0,5" as 0.5, says when it clamps 1.5 and -0.3 to 0–1, refuses text that is no number', async () => {
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: 'じと目', panel: 'eyes' }], physicsBones: [] });
    const w = mount(MorphPanel, { attachTo: document.body });
    const box = () => w.get('[data-morph="じと目"] [data-testid="morph-weight"]');
    const keys = () => {
      const m = buildTracks(useWorkspaceStore().doc!).morphs;
      const t = m.index.get('じと目');
      return t === undefined ? [] : Array.from({ length: m.start[t + 1] - m.start[t] }, (_, i) => [m.frames[m.start[t] + i], m.weight[m.start[t] + i]]);
    };
    const said = () => useNotifyStore().items.filter((n) => n.kind === 'warning').map((n) => noticeLines(n, 'en').message);
    for (const [frame, text] of [[300, '1.5'], [301, '-0.3'], [302, '0,5']] as const) {
      useTimeStore().seek(frame);
      await w.vm.$nextTick();
      await box().setValue(text);
      await w.vm.$nextTick();
    }
    expect(keys()).toEqual([[300, 1], [301, 0], [302, 0.5]]);
    expect((box().element as HTMLInputElement).value).toBe('0.500');
    expect(said()).toEqual([
      'Weight “1.5” registered as 1: this panel keeps weights to 0–1, as MMD’s morph panel does (the Key panel’s Weight field stores any value)',
      'Weight “-0.3” registered as 0: this panel keeps weights to 0–1, as MMD’s morph panel does (the Key panel’s Weight field stores any value)',
    ]);
    // Text that is no weight: refused with a word, nothing registered; the box shows the weight there again.
    useTimeStore().seek(303);
    await w.vm.$nextTick();
    await box().setValue('0.5.1');
    await w.vm.$nextTick();
    expect(keys()).toHaveLength(3);
    expect(said().at(-1)).toBe('Not a weight: “0.5.1” (type a number such as 0.5; 0,5 reads as 0.5)');
    expect((box().element as HTMLInputElement).value).toBe('0.500');
    // ↑ steps the box by 0.01 (not registered until Enter).
    await box().trigger('keydown', { key: 'ArrowUp' });
    expect((box().element as HTMLInputElement).value).toBe('0.510');
    expect(keys()).toHaveLength(3);
    w.unmount();
  });
});

// New-user pass (nuinterop 2): a morph whose name is over 15 bytes (Gene's ARKit browOuterUpRight, 16) was keyed under
// browOuterUpRigh without a word; MMD plays that on the morph, babylon-mmd and three.js (exact names) do not. Its first
// key says so, once per name.
describe('the Morphs panel with a name over a key\'s 15 bytes', () => {
  it('keys it cut as MMD does and says so once', async () => {
    resetCutNames();
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: 'browOuterUpRight', panel: 'eyes' }, { name: '笑い', panel: 'eyes' }], physicsBones: [] });
    const w = mount(MorphPanel, { attachTo: document.body });
    const box = (n: string) => w.get(`[data-morph="${n}"] [data-testid="morph-weight"]`);
    const said = () => useNotifyStore().items.filter((n) => n.kind === 'info').map((n) => noticeLines(n, 'en').message);
    await w.vm.$nextTick();
    await box('browOuterUpRight').setValue('0.7');
    await w.vm.$nextTick();
    expect(buildTracks(useWorkspaceStore().doc!).morphs.names).toContain('browOuterUpRigh');
    const text = 'Morph “browOuterUpRight” (16 bytes) is stored as “browOuterUpRigh” (15 bytes of Shift_JIS, as MMD does): MMD plays it on the morph; babylon-mmd and three.js match names exactly and do not';
    expect(said()).toEqual([text]);
    // Another key of it: not said again; a name that fits: nothing.
    useTimeStore().seek(5);
    await box('browOuterUpRight').setValue('0.2');
    await box('笑い').setValue('0.5');
    await w.vm.$nextTick();
    expect(said()).toEqual([text]);
    expect(noticeLines(useNotifyStore().items.find((n) => n.kind === 'info')!, 'ja').message).toContain('「browOuterUpRigh」として保存します');
    w.unmount();
  });
});

// New-user pass (numorph 3): dragging a slider moved the number but not the face (only the release did, keying it).
// While it is dragged the preview shows the weight (the preview store's morphDraft, which the preview applies:
// test/renderer/preview/morph-draft.test.ts); the release keys it once; Esc during the drag puts the face back and the
// release keys nothing.
describe('the Morphs panel’s slider while dragged', () => {
  it('shows the face live, keys once on release, and Esc cancels the drag', async () => {
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: '笑い', panel: 'eyes' }], physicsBones: [] });
    const ws = useWorkspaceStore();
    const w = mount(MorphPanel, { attachTo: document.body });
    const slider = () => w.get('[data-morph="笑い"] [data-testid="morph-slider"]');
    const el = () => slider().element as HTMLInputElement;
    useTimeStore().seek(10); // 笑い 0.5 between its keys 0@0 and 1@20
    await w.vm.$nextTick();
    const steps = ws.undoStack.length;
    // Dragged to 0.8 (input events only: the pointer is still down).
    el().value = '0.8';
    await slider().trigger('input');
    expect(usePreviewStore().morphDraft).toEqual({ name: '笑い', weight: 0.8 });
    el().value = '0.9';
    await slider().trigger('input');
    expect(usePreviewStore().morphDraft).toEqual({ name: '笑い', weight: 0.9 });
    expect(ws.undoStack.length).toBe(steps);
    // Esc: the draft is gone, the slider back at 0.5, and the release (change) keys nothing.
    await slider().trigger('keydown', { key: 'Escape' });
    expect(usePreviewStore().morphDraft).toBeNull();
    expect(Number(el().value)).toBeCloseTo(0.5, 6);
    el().value = '0.95'; // the pointer still moving after Esc
    await slider().trigger('input');
    expect(usePreviewStore().morphDraft).toBeNull();
    await slider().trigger('change');
    expect(ws.undoStack.length).toBe(steps);
    expect(buildTracks(ws.doc!).morphs.frames.length).toBe(3);
    // A new drag: live again, and its release is one undo step keying 0.7 at frame 10.
    await slider().trigger('pointerdown');
    el().value = '0.7';
    await slider().trigger('input');
    expect(usePreviewStore().morphDraft).toEqual({ name: '笑い', weight: 0.7 });
    await slider().trigger('change');
    expect(usePreviewStore().morphDraft).toBeNull();
    expect(ws.undoStack.length).toBe(steps + 1);
    const t = buildTracks(ws.doc!).morphs;
    const tr = t.index.get('笑い')!;
    const keys = Array.from(t.frames.subarray(t.start[tr], t.start[tr + 1]));
    expect(keys).toEqual([0, 10, 20]);
    w.unmount();
  });
});

// New-user pass (numorph 6): after typing a weight and Enter the focus stayed in the number box, so → moved its text
// cursor instead of the frame, and Esc did not leave it. Enter registers and leaves the box (the app's keys reach the
// timeline again); Esc puts the shown weight back and leaves too.
describe('the Morphs panel’s number box and the keyboard', () => {
  it('Enter registers once and leaves the box; Escape restores it and leaves', async () => {
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: '笑い', panel: 'eyes' }], physicsBones: [] });
    const ws = useWorkspaceStore();
    const w = mount(MorphPanel, { attachTo: document.body });
    useTimeStore().seek(10); // 笑い 0.5 between its keys
    await w.vm.$nextTick();
    const steps = ws.undoStack.length;
    const box = w.get('[data-morph="笑い"] [data-testid="morph-weight"]').element as HTMLInputElement;
    const typeAndPress = async (text: string, key: string) => {
      box.focus();
      box.dispatchEvent(new FocusEvent('focus'));
      box.value = text;
      box.dispatchEvent(new Event('input'));
      box.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      await w.vm.$nextTick();
    };
    await typeAndPress('0.25', 'Enter');
    expect(document.activeElement).not.toBe(box);
    expect(ws.undoStack.length).toBe(steps + 1);
    const t = buildTracks(ws.doc!).morphs, tr = t.index.get('笑い')!;
    expect(Array.from(t.frames.subarray(t.start[tr], t.start[tr + 1]))).toEqual([0, 10, 20]);
    expect(box.value).toBe('0.250');
    await typeAndPress('0.9', 'Escape');
    expect(document.activeElement).not.toBe(box);
    expect(box.value).toBe('0.250');
    expect(ws.undoStack.length).toBe(steps + 1);
    w.unmount();
  });
});

// New-user pass numorph 2: Gene's eye_surprise_geo_L and eye_surprise_geo_R are both eye_surprise_ge in a key; keying
// _R showed a key on _L too, and the notice said MMD plays it "on the morph". Now the notice says both are stored so
// and a VMD cannot tell them apart, and the list marks such pairs.
describe('the Morphs panel with two morphs a key stores under one cut name', () => {
  it('marks both, and keying one says a VMD cannot tell them apart', async () => {
    resetCutNames();
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: 'eye_surprise_geo_L', panel: 'eyes' }, { name: 'eye_surprise_geo_R', panel: 'eyes' }, { name: 'browOuterUpRight', panel: 'eyes' }], physicsBones: [] });
    const w = mount(MorphPanel, { attachTo: document.body });
    await w.vm.$nextTick();
    const mark = (n: string) => w.find(`[data-morph="${n}"] [data-testid="morph-shared"]`);
    expect(mark('eye_surprise_geo_L').attributes('title')).toBe('Stored in a VMD as “eye_surprise_ge”, as “eye_surprise_geo_R” is: a VMD cannot tell them apart, and a key of one is a key of both');
    expect(mark('eye_surprise_geo_R').attributes('title')).toContain('as “eye_surprise_geo_L” is');
    expect(mark('browOuterUpRight').exists()).toBe(false);
    await w.get('[data-morph="eye_surprise_geo_R"] [data-testid="morph-weight"]').setValue('1');
    await w.vm.$nextTick();
    const said = useNotifyStore().items.filter((n) => n.kind === 'info');
    expect(said.map((n) => noticeLines(n, 'en').message)).toEqual([
      'Morph “eye_surprise_geo_R” is stored as “eye_surprise_ge” (15 bytes of Shift_JIS, as MMD does), and so is “eye_surprise_geo_L” of this model: a VMD cannot tell them apart, so this key is a key of both',
    ]);
    expect(noticeLines(said[0], 'ja').message).toBe('表情「eye_surprise_geo_R」は MMD と同じく Shift_JIS の 15 バイトで切って「eye_surprise_ge」として保存しますが、このモデルの「eye_surprise_geo_L」も同じ名前になります。VMD では区別できないため、このキーは両方のキーになります');
    w.unmount();
  });
});

// New-user pass numorph 7: copying the face at a frame (the column of keys there) left out まばたき, halfway between its
// keys, and Ctrl+C with no key selected took one morph and said "Copied the pose of まばたき". Copy face takes every
// morph at its weight there, Paste registers them at another frame as one undo step, and one morph's copy says "weight".
describe('the Morphs panel’s Copy face', () => {
  it('copies every morph at the playhead, keyed or in between, and Paste registers them at another frame, one undo step', async () => {
    memoryScene([['/s/dance.vmd', dance]]);
    expect(await useSceneStore().openPath('/s/dance.vmd')).toBe(true);
    usePreviewStore().setOutline({ groups: [], morphs: [{ name: '笑い', panel: 'eyes' }, { name: 'ウィンク右', panel: 'eyes' }], physicsBones: [] });
    const w = mount(MorphPanel, { attachTo: document.body });
    const weight = (name: string) => (w.get(`[data-morph="${name}"] [data-testid="morph-weight"]`).element as HTMLInputElement).value;
    const said = () => useNotifyStore().items.filter((n) => n.kind === 'info').map((n) => noticeLines(n, 'en').message);
    const time = useTimeStore(), ws = useWorkspaceStore();
    // At 15 笑い lies a quarter from its key of 1 at 20 (0 at 0): 0.75; ウィンク右 holds its one key, 0.25.
    time.seek(15);
    await w.vm.$nextTick();
    await w.get('[data-testid="morph-copy-face"]').trigger('click');
    expect(said().at(-1)).toBe('Copied the face at frame 15: 2 morphs, each at its weight there (Ctrl+V pastes it at the playhead)');
    // At 40 笑い holds its last key, 1; pasted there it is 0.75, both keyed (◆).
    time.seek(40);
    await w.vm.$nextTick();
    expect(weight('笑い')).toBe('1.000');
    const actions = useEditorActions();
    expect(actions.pasteKeysAtCursor()).toBe(true);
    await w.vm.$nextTick();
    expect(weight('笑い')).toBe('0.750');
    expect(weight('ウィンク右')).toBe('0.250');
    expect(w.findAll('li.keyed').map((li) => li.attributes('data-morph'))).toEqual(['笑い', 'ウィンク右']);
    // One undo step takes the whole face back.
    ws.undo();
    await w.vm.$nextTick();
    expect(weight('笑い')).toBe('1.000');
    expect(w.findAll('li.keyed')).toHaveLength(0);
    // One morph (its row active, no key selected): its weight, called so.
    time.seek(15);
    useSelectionStore().clear();
    useSelectionStore().setActiveTrack({ kind: 'morph', track: ws.tracks!.morphs.index.get('笑い')! });
    expect(actions.copySelectedKeys()).toBe(true);
    expect(said().at(-1)).toBe('Copied the weight of 笑い at frame 15 (0.75)');
    w.unmount();
  });
});
