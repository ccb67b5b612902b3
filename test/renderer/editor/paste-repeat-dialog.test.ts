// Paste repeatedly… (new-user pass nupose 5: a blink every 3 s over a song was about 40 pastes by hand). The dialog
// says what it would write before Paste — 40 pastes of a 3-key blink every 60 frames from frame 60: 120 keys, frames
// 60 to 60 + 39 × 60 + 6 = 2,406 — and Paste is one undo step that Undo takes back whole. Every shorter than the
// blink's 7 frames is said and Paste is off.
import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { copyKeys } from '../../../shared/key-edits';
import PasteRepeatDialog from '../../../renderer/src/editor/PasteRepeatDialog.vue';
import { pasteRepeatUi } from '../../../renderer/src/editor/paste-repeat';
import { editLabel } from '../../../renderer/src/editor/edit-labels';
import { t } from '../../../shared/i18n/strings';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { memoryScene } from '../stores/scene-fixtures';

const face = writeVmd(buildVmd({
  bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: 'センター', frame: 3000, position: [0, 0, 0], rotation: [0, 0, 0, 1] }],
  morphs: [
    { name: 'まばたき', frame: 0, weight: 0 },
    { name: 'まばたき', frame: 3, weight: 1 },
    { name: 'まばたき', frame: 6, weight: 0 },
  ],
}));

describe('Paste repeatedly…', () => {
  it('says the pastes, keys and frames before Paste; Paste is one undo step', async () => {
    memoryScene([['/s/face.vmd', face]]);
    expect(await useSceneStore().openPath('/s/face.vmd')).toBe(true);
    const ws = useWorkspaceStore();
    const before = ws.doc!.morph.bytes.slice();
    const sel = useSelectionStore();
    sel.setClipboard(copyKeys(ws.doc!, [0, 1, 2].map((record) => ({ kind: 'morph' as const, record }))));
    useTimeStore().seek(60);
    const w = mount(PasteRepeatDialog, { attachTo: document.body });
    pasteRepeatUi.open = true;
    await nextTick();
    await nextTick();
    const plan = () => w.get('[data-testid="paste-repeat-plan"]').text();
    expect(plan()).toBe('10 pastes, 30 keys, frames 60–876');
    await w.get('[data-testid="paste-repeat-times"]').setValue('40');
    await w.get('[data-testid="paste-repeat-every"]').setValue('60');
    expect(plan()).toBe('40 pastes, 120 keys, frames 60–2,406');
    await w.get('[data-testid="paste-repeat-every"]').setValue('5');
    expect(plan()).toBe('Every 5 frames is shorter than the copied keys (7 frames): each paste would land on the one before');
    expect(w.get('[data-testid="paste-repeat-go"]').attributes('disabled')).toBeDefined();
    await w.get('[data-testid="paste-repeat-every"]').setValue('60');
    const steps = ws.undoStack.length;
    await w.get('[data-testid="paste-repeat-go"]').trigger('click');
    await nextTick();
    expect(pasteRepeatUi.open).toBe(false);
    expect(ws.doc!.morph.count).toBe(3 + 120);
    expect(sel.count).toBe(120);
    expect(ws.undoStack.length).toBe(steps + 1);
    expect(editLabel(useHistoryStore().undoLabel, (k) => t(k, 'ja'))).toBe('連続貼り付け');
    useHistoryStore().undo();
    expect(Buffer.from(ws.doc!.morph.bytes).equals(Buffer.from(before))).toBe(true);
    // The numbers typed come back next time.
    expect([pasteRepeatUi.times, pasteRepeatUi.every]).toEqual([40, 60]);
    w.unmount();
  });
});
