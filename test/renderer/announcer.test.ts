/**
 * What a screen reader hears (shell/Announcer.vue, announce.ts): the polite live region says each history step
 * done, undone and redone with the key it leaves selected, and a change of the active track or the selected
 * key once things settle (a run of ↓ presses: only where it ended). Expected words are written out here from
 * the motion built below (左腕 keyed at 0 and 100, センター at 0; m.vmd), not read from the code.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../shared/vmd';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useHistoryStore } from '../../renderer/src/stores/history';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useSettingsStore } from '../../renderer/src/stores/settings';
import { useTimeStore } from '../../renderer/src/stores/time';
import { useEditorActions } from '../../renderer/src/editor/use-editor-actions';
import { setQuietApi } from '../helpers/quiet-api';
import Announcer from '../../renderer/src/shell/Announcer.vue';
import { historyChange } from '../../renderer/src/shell/announce';

setQuietApi();

function open() {
  const bytes = writeVmd(
    buildVmd({
      bones: [
        { name: '左腕', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
        { name: '左腕', frame: 100, position: [1, 0, 0], rotation: [0, 0, 0, 1] },
        { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      ],
    }),
  );
  useSceneStore().openBytes('m.vmd', bytes, null);
}

const region = (w: VueWrapper) => w.get('[data-testid="announcer"]');
/** What the region says once changes have settled (the text, less a repeat's trailing no-break space). */
async function heard(w: VueWrapper): Promise<string> {
  await w.vm.$nextTick();
  await vi.advanceTimersByTimeAsync(1000);
  return region(w).text().replace(/\u00a0$/, '');
}

describe('the live region', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('is a polite status region', () => {
    const w = mount(Announcer);
    expect(region(w).attributes('role')).toBe('status');
    expect(region(w).attributes('aria-live')).toBe('polite');
    w.unmount();
  });

  it('says the active track, then an inserted key, its undo and its redo with the key they leave', async () => {
    const w = mount(Announcer);
    open();
    const sel = useSelectionStore(), tracks = useWorkspaceStore().tracks!;
    sel.clear();
    sel.setActiveTrack({ kind: 'bone', track: tracks.bones.index.get('左腕')! });
    expect(await heard(w)).toBe('Track 左腕, 2 keys');

    useTimeStore().seek(30);
    expect(useEditorActions().insertKeyAtCursor()).toBe(true);
    expect(await heard(w)).toBe('Done: register key (m.vmd). Key 左腕, frame 30');

    useHistoryStore().undo();
    // The key is gone, nothing selected: the active track is said with its two keys again.
    expect(await heard(w)).toBe('Undo: register key (m.vmd). Track 左腕, 2 keys');

    useHistoryStore().redo();
    expect(await heard(w)).toBe('Redo: register key (m.vmd). Key 左腕, frame 30');
    w.unmount();
  });

  it('a run of track changes is said once, where it ended', async () => {
    const w = mount(Announcer);
    open();
    const sel = useSelectionStore(), tracks = useWorkspaceStore().tracks!;
    await heard(w);
    const said: string[] = [];
    const obs = new MutationObserver(() => said.push(region(w).text()));
    obs.observe(region(w).element, { childList: true, characterData: true, subtree: true });
    sel.clear();
    sel.setActiveTrack({ kind: 'bone', track: tracks.bones.index.get('左腕')! });
    await w.vm.$nextTick();
    await vi.advanceTimersByTimeAsync(50);
    sel.setActiveTrack({ kind: 'bone', track: tracks.bones.index.get('センター')! });
    expect(await heard(w)).toBe('Track センター, 1 key');
    obs.disconnect();
    expect(said).toEqual(['Track センター, 1 key']);
    w.unmount();
  });

  it('a selected key and several; in Japanese', async () => {
    open();
    useSettingsStore().settings.locale = 'ja';
    const w = mount(Announcer);
    const sel = useSelectionStore();
    sel.select([{ kind: 'bone', record: 1 }], 'replace');
    expect(await heard(w)).toBe('左腕 のキー、フレーム 100');
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 2 }], 'replace');
    expect(await heard(w)).toBe('2 個のキーを選択中');
    w.unmount();
  });

  // New-user pass nujp 9: 「実行: キー登録 (m.vmd). 左腕 のキー…」 mixed half-width brackets and an English ". " in.
  it('a step in Japanese: full-width brackets and 。 between the sentences', async () => {
    open();
    useSettingsStore().settings.locale = 'ja';
    const w = mount(Announcer);
    const sel = useSelectionStore();
    sel.clear();
    sel.setActiveTrack({ kind: 'bone', track: useWorkspaceStore().tracks!.bones.index.get('左腕')! });
    await heard(w);
    useTimeStore().seek(30);
    expect(useEditorActions().insertKeyAtCursor()).toBe(true);
    expect(await heard(w)).toBe('実行: キー登録（m.vmd）。左腕 のキー、フレーム 30');
    w.unmount();
  });

  it('a language switch empties the region (the Japanese words stayed under the English UI); the next change is said in English', async () => {
    open();
    useSettingsStore().settings.locale = 'ja';
    const w = mount(Announcer);
    const sel = useSelectionStore();
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 2 }], 'replace');
    expect(await heard(w)).toBe('2 個のキーを選択中');
    useSettingsStore().settings.locale = 'en';
    expect(await heard(w)).toBe('');
    sel.select([{ kind: 'bone', record: 1 }], 'replace');
    expect(await heard(w)).toBe('Key 左腕, frame 100');
    w.unmount();
  });

  it('tells do, undo and redo apart from the stacks\' tops', () => {
    const a = { n: 'a' }, b = { n: 'b' }, c = { n: 'c' };
    expect(historyChange({ undo: a }, { undo: b })).toEqual({ way: 'do', step: b });
    expect(historyChange({ undo: b, redo: undefined }, { undo: a, redo: b })).toEqual({ way: 'undo', step: b });
    expect(historyChange({ undo: a, redo: b }, { undo: b, redo: undefined })).toEqual({ way: 'redo', step: b });
    expect(historyChange({ undo: a, redo: b }, { undo: c, redo: undefined })).toEqual({ way: 'do', step: c });
    expect(historyChange({ undo: a }, { undo: a })).toBeNull();
  });
});
