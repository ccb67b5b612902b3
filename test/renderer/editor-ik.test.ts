// Display/IK keys in the editor's stores and components (happy-dom): the 表示・IK row first in the
// track rows, selecting IK keys, the inspector's Display and per-IK-bone checkboxes writing the key
// (one undo step each, every selected IK key), insert at the cursor with the state in force, the
// curve editor's "no curves" state, and undo/redo back to the exact bytes with the keys reselected.
// Expected bytes are computed here from the file (offsets from its counts, names decoded with the
// platform's Shift_JIS decoder), never read back from the editor.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { buildTracks, readVmd, writeVmd, type VmdDocument } from '../../shared/vmd';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useHistoryStore } from '../../renderer/src/stores/history';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useTimeStore } from '../../renderer/src/stores/time';
import { useEditorActions } from '../../renderer/src/editor/use-editor-actions';
import { buildRows } from '../../renderer/src/editor/timeline-view';
import { setQuietApi } from '../helpers/quiet-api';
import CurveEditor from '../../renderer/src/editor/CurveEditor.vue';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';
import { buildFixture, SJIS } from '../helpers/vmd-fixtures';
import { corpusPresent, readCorpus } from '../helpers/corpus';

// The scene store reports the window state to main; a do-nothing bridge stands in for it.
setQuietApi();

function parse(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function bytesNow(): Uint8Array {
  return writeVmd(useWorkspaceStore().doc!);
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

/** Offset of the IK block's first record, from the block counts in the file (fixed record sizes). */
function ikStart(bytes: Uint8Array): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 50;
  for (const size of [111, 23, 61, 28, 9]) at += 4 + v.getUint32(at, true) * size;
  return at + 4;
}

const sjis = new TextDecoder('shift_jis');

describe('the display/IK row', () => {
  it('comes first, for a model motion even without IK keys, and not for a camera-only motion', () => {
    const withIk = buildTracks(parse(buildFixture({
      bones: [{ name: SJIS.センター, frame: 0 }],
      ik: [{ frame: 0, visible: 1, iks: [] }, { frame: 9, visible: 0, iks: [] }],
    })));
    const rows = buildRows(withIk, new Set());
    expect(rows[0]).toMatchObject({ type: 'group', id: 'ik', label: 'editor.group.ik', count: 2 });
    expect(rows[1]).toMatchObject({ type: 'track', id: 'ik', kind: 'ik', track: 0, name: 'editor.track.ik', keys: 2 });
    expect(rows[2]).toMatchObject({ type: 'group', id: 'bone:center' });
    // Collapsed: the group row alone, summarising the IK track.
    const collapsed = buildRows(withIk, new Set(['ik']));
    expect(collapsed[0]).toMatchObject({ type: 'group', id: 'ik', collapsed: true, members: [{ kind: 'ik', track: 0 }] });
    expect(collapsed[1]).toMatchObject({ type: 'group', id: 'bone:center' });
    const noKeys = buildRows(buildTracks(parse(buildFixture({ morphs: [{ name: SJIS.まばたき, frame: 0, weight: 1 }] }))), new Set());
    expect(noKeys[1]).toMatchObject({ type: 'track', kind: 'ik', keys: 0 });
    const cameraOnly = buildRows(buildTracks(parse(buildFixture({ cameras: [{ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 }] }))), new Set());
    expect(cameraOnly.some((r) => r.type === 'track' && r.kind === 'ik')).toBe(false);
    // A VPD pose cannot hold display/IK keys: no row, the bones come first.
    const pose = buildRows(withIk, new Set(), { pose: true });
    expect(pose.some((r) => r.type === 'track' && r.kind === 'ik')).toBe(false);
    expect(pose[0]).toMatchObject({ type: 'group', id: 'bone:center' });
  });
});

describe('selection of IK keys', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('keeps IK keys in their own set: replace, add, toggle, the active key, prune', () => {
    const sel = useSelectionStore();
    sel.select([{ kind: 'bone', record: 3 }, { kind: 'ik', record: 1 }]);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 3 }, { kind: 'ik', record: 1 }]);
    // Many keys at once: the one with curves is active (stores/selection.ts).
    expect(sel.active).toEqual({ kind: 'bone', record: 3 });
    expect(sel.has('ik', 1)).toBe(true);
    expect(sel.has('bone', 1)).toBe(false);
    sel.select([{ kind: 'ik', record: 0 }], 'add');
    expect(sel.count).toBe(3);
    expect(sel.active).toEqual({ kind: 'ik', record: 0 });
    sel.select([{ kind: 'ik', record: 1 }], 'toggle');
    expect(sel.has('ik', 1)).toBe(false);
    expect(sel.active).toEqual({ kind: 'ik', record: 0 }); // still selected, still active
    sel.select([{ kind: 'ik', record: 1 }], 'toggle');
    expect(sel.active).toEqual({ kind: 'ik', record: 1 });
    // An undo left one IK record: key 1 goes, and with it the active key.
    sel.prune({ bone: 10, morph: 0, camera: 0, light: 0, shadow: 0, ik: 1 });
    expect(sel.refs).toEqual([{ kind: 'bone', record: 3 }, { kind: 'ik', record: 0 }]);
    expect(sel.active).toBeNull();
  });

  it('many keys at once: the active key stays if among them, else the last bone key, else the last camera key, else the last', () => {
    const sel = useSelectionStore();
    // A column (the ruler's double-click) of bone and morph keys, morphs last: a bone key is active.
    sel.select([{ kind: 'bone', record: 2 }, { kind: 'bone', record: 7 }, { kind: 'morph', record: 0 }, { kind: 'morph', record: 4 }]);
    expect(sel.active).toEqual({ kind: 'bone', record: 7 });
    // Clicked key 2, then a box around it and others: it stays active.
    sel.select([{ kind: 'bone', record: 2 }]);
    sel.select([{ kind: 'morph', record: 1 }, { kind: 'bone', record: 2 }, { kind: 'bone', record: 5 }]);
    expect(sel.active).toEqual({ kind: 'bone', record: 2 });
    // Camera and light keys: the camera key (it has curves).
    sel.select([{ kind: 'camera', record: 3 }, { kind: 'light', record: 0 }]);
    expect(sel.active).toEqual({ kind: 'camera', record: 3 });
    // Only morphs: the last.
    sel.select([{ kind: 'morph', record: 1 }, { kind: 'morph', record: 6 }]);
    expect(sel.active).toEqual({ kind: 'morph', record: 6 });
    // One key: that one, whatever its kind.
    sel.select([{ kind: 'light', record: 0 }], 'add');
    expect(sel.active).toEqual({ kind: 'light', record: 0 });
  });
});

describe.skipIf(!corpusPresent)('inspector and actions on the IK key of gene/motion/stand.vmd', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('toggles IK bones and display, inserts with the state in force, edits several keys, undoes and redoes exactly', async () => {
    const original = readCorpus('gene/motion/stand.vmd').slice();
    const at = ikStart(original);
    const n = new DataView(original.buffer).getUint32(at + 5, true);
    expect(at + 9 + 21 * n).toBe(original.length); // one IK key, at the end of the file
    const names = Array.from({ length: n }, (_, j) => sjis.decode(original.subarray(at + 9 + 21 * j, at + 9 + 21 * j + 20)).replace(/\0.*$/s, ''));
    const enabledAt = (j: number) => at + 9 + 21 * j + 20;

    const docStore = useWorkspaceStore();
    useSceneStore().openBytes('stand.vmd', original, null);
    const sel = useSelectionStore();
    const hist = useHistoryStore();
    const actions = useEditorActions();
    sel.select([{ kind: 'ik', record: 0 }]);
    const insp = mount(KeyInspector);
    const curve = mount(CurveEditor);
    await insp.vm.$nextTick();

    expect(insp.get('[data-testid="inspector-name"]').text()).toBe('Display · IK');
    expect((insp.get('[data-testid="inspector-frame"]').element as HTMLInputElement).value).toBe('0');
    expect((insp.get('[data-testid="inspector-display"]').element as HTMLInputElement).checked).toBe(original[at + 4] !== 0);
    const boxes = insp.findAll('[data-testid^="inspector-ik-"]');
    expect(boxes.map((b) => b.attributes('data-name'))).toEqual(names);
    expect(boxes.map((b) => (b.element as HTMLInputElement).checked)).toEqual(names.map((_, j) => original[enabledAt(j)] !== 0));
    // The curve editor has nothing to show for an IK key, and says why.
    expect(curve.text()).toContain('Display · IK keys switch on their frame; they have no curve.');
    expect((curve.get('[data-testid="curve-x1"]').element as HTMLInputElement).disabled).toBe(true);
    expect((curve.get('[data-testid="curve-copy"]').element as HTMLButtonElement).disabled).toBe(true);

    // Untick the third IK bone: one byte, one step.
    (boxes[2].element as HTMLInputElement).checked = false;
    await boxes[2].trigger('change');
    const step1 = original.slice();
    step1[enabledAt(2)] = 0;
    expect(same(bytesNow(), step1)).toBe(true);
    expect(hist.depth).toBe(1);
    // Untick Display.
    const display = insp.get('[data-testid="inspector-display"]');
    (display.element as HTMLInputElement).checked = false;
    await display.trigger('change');
    const step2 = step1.slice();
    step2[at + 4] = 0;
    expect(same(bytesNow(), step2)).toBe(true);
    expect(hist.depth).toBe(2);
    await insp.vm.$nextTick();
    expect((insp.get('[data-testid="inspector-display"]').element as HTMLInputElement).checked).toBe(false);

    // Insert on the IK row at frame 60: the edited key's state copied, frame 60, appended; it becomes active.
    sel.setActiveTrack({ kind: 'ik', track: 0 });
    useTimeStore().seek(60);
    expect(actions.insertKeyAtCursor()).toBe(true);
    const rec0 = step2.slice(at);
    const rec1 = rec0.slice();
    new DataView(rec1.buffer).setUint32(0, 60, true);
    const step3 = new Uint8Array(step2.length + rec1.length);
    step3.set(step2);
    step3.set(rec1, step2.length);
    new DataView(step3.buffer).setUint32(at - 4, 2, true);
    expect(same(bytesNow(), step3)).toBe(true);
    expect(sel.active).toEqual({ kind: 'ik', record: 1 });
    expect(hist.depth).toBe(3);
    // Registering again on that frame writes nothing (the key there holds the state): the key stays selected.
    expect(actions.insertKeyAtCursor()).toBe(true);
    expect(hist.depth).toBe(3);
    expect(same(bytesNow(), step3)).toBe(true);
    expect(sel.active).toEqual({ kind: 'ik', record: 1 });

    // Both IK keys selected: unticking the first IK bone writes it on both.
    sel.select([{ kind: 'ik', record: 0 }, { kind: 'ik', record: 1 }]);
    await insp.vm.$nextTick();
    expect(insp.get('[data-testid="inspector-multi"]').text()).toContain('2');
    const first = insp.get('[data-testid="inspector-ik-0"]');
    (first.element as HTMLInputElement).checked = false;
    await first.trigger('change');
    const step4 = step3.slice();
    step4[enabledAt(0)] = 0;
    step4[step2.length + 9 + 20] = 0;
    expect(same(bytesNow(), step4)).toBe(true);
    expect(hist.depth).toBe(4);

    // Four undos: the original file; the undo of the insert drops its record from the selection.
    for (let i = 0; i < 4; i++) expect(hist.undo()).toBe(true);
    expect(same(bytesNow(), original)).toBe(true);
    expect(docStore.dirty).toBe(false);
    expect(sel.refs.every((r) => r.kind === 'ik' && r.record === 0)).toBe(true);
    for (let i = 0; i < 4; i++) expect(hist.redo()).toBe(true);
    expect(same(bytesNow(), step4)).toBe(true);
    // Redo reselects the keys the last step touched: both IK keys.
    expect(sel.refs).toEqual([{ kind: 'ik', record: 0 }, { kind: 'ik', record: 1 }]);
    // The document's tracks follow: two IK keys at 0 and 60.
    expect(Array.from(docStore.tracks!.ik.frames)).toEqual([0, 60]);
    insp.unmount();
    curve.unmount();
  });

  it('moves an IK key (replacing the key it lands on), deletes it, copies and pastes it at the cursor', () => {
    const original = readCorpus('gene/motion/stand.vmd').slice();
    const at = ikStart(original);
    useSceneStore().openBytes('stand.vmd', original, null);
    const sel = useSelectionStore();
    const hist = useHistoryStore();
    const actions = useEditorActions();
    sel.select([{ kind: 'ik', record: 0 }]);
    expect(actions.copySelectedKeys()).toBe(true);
    useTimeStore().seek(30);
    expect(actions.pasteKeysAtCursor()).toBe(true);
    const rec = original.slice(at);
    new DataView(rec.buffer).setUint32(0, 30, true);
    const pasted = new Uint8Array(original.length + rec.length);
    pasted.set(original);
    pasted.set(rec, original.length);
    new DataView(pasted.buffer).setUint32(at - 4, 2, true);
    expect(same(bytesNow(), pasted)).toBe(true);
    expect(sel.refs).toEqual([{ kind: 'ik', record: 1 }]);
    // Key at 30 moved by −30 lands on the key at 0 and replaces it (as MMD), in one step: the copy moved
    // back to 0 is the original's record, so the file is the original again; undo brings both keys back.
    expect(actions.moveSelected(-30)).toBe(true);
    expect(same(bytesNow(), original)).toBe(true);
    expect(sel.refs).toEqual([{ kind: 'ik', record: 0 }]);
    expect(hist.undo()).toBe(true);
    expect(same(bytesNow(), pasted)).toBe(true);
    sel.select([{ kind: 'ik', record: 1 }]);
    expect(actions.moveSelected(5)).toBe(true);
    const moved = pasted.slice();
    new DataView(moved.buffer).setUint32(original.length, 35, true);
    expect(same(bytesNow(), moved)).toBe(true);
    expect(actions.deleteSelected()).toBe(true);
    expect(same(bytesNow(), original)).toBe(true);
    expect(hist.depth).toBe(3);
    for (let i = 0; i < 3; i++) hist.undo();
    expect(same(bytesNow(), original)).toBe(true);
  });
});
