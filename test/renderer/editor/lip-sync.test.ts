// The morph panel's lip-sync mode (faceplus): its buttons and keys (A I U E O N W M X, only while it is on: A is Frame all
// otherwise) key a mouth shape at the playhead at the chosen weight and every other vowel 0 there, one undo step; paused
// the playhead steps the chosen frames on, playing it keys the frame playing and playback goes on; the vowels the model
// lacks are named. M keys ω where the model has one (lipsync2); Weight and Step are remembered in the settings' ui bag
// (a new window over the same settings shows them).
import { afterEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { bytes, keys } from './active-morph-keys';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useLipSyncStore } from '../../../renderer/src/stores/lip-sync';
import { installKeymap, setKeyContext, bindKeyActions } from '../../../renderer/src/shell/keymap';
import { memoryScene } from '../stores/scene-fixtures';
import MorphPanel from '../../../renderer/src/editor/MorphPanel.vue';
import { createPinia, setActivePinia } from 'pinia';
import { setApi } from '../../../renderer/src/api';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/ipc/contract';
import { persistentSettingsApi } from '../../helpers/settings-api';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { LIP_STEP_SETTING, LIP_WEIGHT_SETTING } from '../../../renderer/src/stores/lip-sync';
import { SHORTCUT_GROUPS } from '../../../renderer/src/shell/shortcuts';

// あ 1 at 10; 笑い 0 at 0, 1 at 20.
const song = writeVmd(buildVmd({
  morphs: [
    { name: 'あ', frame: 10, weight: 1 },
    { name: '笑い', frame: 0, weight: 0 },
    { name: '笑い', frame: 20, weight: 1 },
  ],
}));
const VOWELS = ['あ', 'い', 'う', 'え', 'お'];

const press = (key: string) => window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

let offs: (() => void)[] = [];
afterEach(() => {
  offs.forEach((f) => f());
  offs = [];
  document.body.innerHTML = '';
});

async function open(morphs: string[]) {
  memoryScene([['/s/song.vmd', song]]);
  expect(await useSceneStore().openPath('/s/song.vmd')).toBe(true);
  usePreviewStore().setOutline({ groups: [], morphs: morphs.map((name) => ({ name, panel: 'mouth' as const })), physicsBones: [] });
  const ls = useLipSyncStore();
  // The dispatcher as the app installs it, the context as the editor gives it (EditorArea.vue), Frame all's handler.
  const framed: string[] = [];
  offs.push(
    installKeymap(window, { mac: false, commandsByMenu: () => false, runCommand: () => undefined }),
    setKeyContext(() => ({ curveFocused: false, handleActive: false, lipSync: ls.on })),
    bindKeyActions({ frameAll: () => void framed.push('frameAll') }),
  );
  const w = mount(MorphPanel, { attachTo: document.body });
  await w.vm.$nextTick();
  return { w, ls, framed };
}

describe('the morph panel’s lip-sync mode', () => {
  it('a tap keys the vowel at the weight and the other vowels 0, one undo step; the keys only while it is on', async () => {
    const { w, ls, framed } = await open([...VOWELS, 'ん', '笑い']);
    const time = useTimeStore(), ws = useWorkspaceStore();
    time.seek(30);
    // Off: A is Frame all, and no row of the mode shows.
    press('a');
    expect(framed).toEqual(['frameAll']);
    expect(w.find('[data-testid="lip-sync"]').exists()).toBe(false);
    const before = bytes(), depth = ws.undoStack.length;

    await w.get('[data-testid="morph-lip-sync"]').trigger('click');
    expect(ls.on).toBe(true);
    const shapes = w.findAll('[data-testid="lip-shape"]').map((b) => b.text());
    expect(shapes).toEqual(['あ', 'い', 'う', 'え', 'お', 'ん', '×']);
    // Weight 0,6 (typed as a comma decimal), then い by its button.
    const wbox = w.get('[data-testid="lip-weight"]');
    (wbox.element as HTMLInputElement).value = '0,6';
    await wbox.trigger('change');
    expect(ls.weight).toBe(0.6);
    await w.get('[data-shape="i"]').trigger('click');
    let k = keys();
    expect(k.get('い@30')).toBe(Math.fround(0.6));
    for (const v of ['あ', 'う', 'え', 'お', 'ん']) expect(k.get(`${v}@30`), v).toBe(0);
    // い starts at 30: a 0 at frame 0 keeps the mouth shut before it; 笑い (no mouth shape) untouched.
    expect(k.get('い@0')).toBe(0);
    expect(k.has('笑い@30')).toBe(false);
    expect(ws.undoStack.length).toBe(depth + 1);
    expect(w.get('[data-testid="lip-last"]').text()).toBe('い at frame 30');
    ws.undo();
    expect(bytes().equals(before)).toBe(true);

    // On: A keys あ (not Frame all), at the weight 0.6 (Math.fround), one step; E keys え.
    press('a');
    expect(framed).toEqual(['frameAll']);
    k = keys();
    expect(k.get('あ@30')).toBe(Math.fround(0.6));
    expect(k.get('い@30')).toBe(0);
    expect(ws.undoStack.length).toBe(depth + 1);
    time.seek(36);
    press('e');
    expect(keys().get('え@36')).toBe(Math.fround(0.6));
    expect(keys().get('あ@36')).toBe(0);
    expect(ws.undoStack.length).toBe(depth + 2);
    // X closes: every vowel and ん 0 at 40.
    time.seek(40);
    press('x');
    k = keys();
    for (const v of [...VOWELS, 'ん']) expect(k.get(`${v}@40`), v).toBe(0);
    // The panel gone: the mode is off and A is Frame all again.
    w.unmount();
    expect(ls.on).toBe(false);
    press('a');
    expect(framed).toEqual(['frameAll', 'frameAll']);
  });

  it('paused, the playhead steps on; playing, it keys the frame playing and plays on', async () => {
    const { w, ls } = await open(VOWELS);
    const time = useTimeStore();
    ls.setOn(true);
    await w.vm.$nextTick();
    const step = w.get('[data-testid="lip-step"]');
    (step.element as HTMLInputElement).value = '3';
    await step.trigger('change');
    expect(ls.step).toBe(3);
    time.seek(50);
    press('o');
    expect(keys().get('お@50')).toBe(1);
    expect(time.frame).toBe(53);
    press('u');
    expect(keys().get('う@53')).toBe(1);
    expect(keys().get('お@53')).toBe(0);
    expect(time.frame).toBe(56);
    // Playing at 71.4: keyed at 71, the playhead not moved by the tap, still playing.
    time.seek(71.4);
    time.play();
    press('i');
    expect(time.playing).toBe(true);
    expect(keys().get('い@71')).toBe(1);
    expect(time.frame).toBe(71.4);
    time.pause();
    w.unmount();
  });

  it('names the vowels the model lacks, refuses their keys, and N closes on a model without ん', async () => {
    const { w, ls } = await open(['あ', 'い', '笑い']);
    const ws = useWorkspaceStore();
    ls.setOn(true);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="lip-missing"]').text()).toBe('Not in this model: う え お (those buttons are off)');
    expect(w.get('[data-shape="u"]').attributes('disabled')).toBeDefined();
    const depth = ws.undoStack.length;
    useTimeStore().seek(12);
    press('u');
    expect(ws.undoStack.length).toBe(depth);
    const said = useNotifyStore().items.map((n) => noticeLines(n, 'en').message);
    expect(said.at(-1)).toBe('This model has no morph for う');
    press('n');
    expect(ws.undoStack.length).toBe(depth + 1);
    expect(keys().get('あ@12')).toBe(0);
    expect(keys().get('い@12')).toBe(0);
    w.unmount();
    // No vowel at all: said so.
    const none = await open(['笑い']);
    none.ls.setOn(true);
    await none.w.vm.$nextTick();
    expect(none.w.get('[data-testid="lip-missing"]').text()).toBe('This model has no vowel morph (あ い う え お, or a i u e o): lip sync has nothing to key');
    none.w.unmount();
  });

  it('M keys ω on a model with one, as the other shapes; F1 lists it', async () => {
    const { w, ls } = await open([...VOWELS, 'ω']);
    ls.setOn(true);
    await w.vm.$nextTick();
    expect(w.findAll('[data-testid="lip-shape"]').map((b) => b.text())).toEqual(['あ', 'い', 'う', 'え', 'お', 'ω', '×']);
    expect(w.get('[data-shape="omega"]').attributes('title')).toContain('(M)');
    useTimeStore().seek(24);
    press('m');
    const k = keys();
    expect(k.get('ω@24')).toBe(1);
    for (const v of VOWELS) expect(k.get(`${v}@24`), v).toBe(0);
    expect(k.get('ω@0')).toBe(0);
    const row = SHORTCUT_GROUPS.flatMap((g) => g.rows).find((r) => r.action === 'lipSyncKey');
    expect(row!.keys).toContainEqual(['M']);
    w.unmount();
  });
});

describe('the lip-sync Weight and Step are remembered', () => {
  /** A new window over the same settings: a fresh Pinia, the settings loaded, the mode's values restored as App.vue does. */
  async function newWindow(stored: { settings: Settings }) {
    setActivePinia(createPinia());
    setApi(persistentSettingsApi(stored));
    await useSettingsStore().load();
    const ls = useLipSyncStore();
    ls.restore();
    return ls;
  }
  const settled = () => new Promise((r) => setTimeout(r, 0));

  it('a new window shows the Weight and Step last set; none is 1 and 0, an edited value out of range is clamped', async () => {
    const stored = { settings: structuredClone(DEFAULT_SETTINGS) };
    let ls = await newWindow(stored);
    expect([ls.weight, ls.step]).toEqual([1, 0]);
    ls.setWeight(0.7);
    ls.setStep(4);
    await settled();
    expect(stored.settings.ui[LIP_WEIGHT_SETTING]).toBe(0.7);
    expect(stored.settings.ui[LIP_STEP_SETTING]).toBe(4);
    ls = await newWindow(stored);
    expect([ls.weight, ls.step]).toEqual([0.7, 4]);
    stored.settings.ui[LIP_WEIGHT_SETTING] = 3;
    stored.settings.ui[LIP_STEP_SETTING] = 'x';
    ls = await newWindow(stored);
    expect([ls.weight, ls.step]).toEqual([1, 0]);
    // Restoring writes nothing back.
    await settled();
    expect(stored.settings.ui[LIP_WEIGHT_SETTING]).toBe(3);
  });
});
