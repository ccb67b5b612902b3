// History, selection and the curve editor on a real document in happy-dom: a curve drag committed as
// one step, undo/redo back to the exact bytes, a move onto a key replacing it (one step, undone exactly).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../helpers/corpus';
import { buildTracks, buildVmd, getBoneCurves, readVmd, writeVmd, BONE, type MotionTracks } from '../../shared/vmd';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useHistoryStore, HISTORY_LIMIT } from '../../renderer/src/stores/history';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useCurveEditorStore } from '../../renderer/src/stores/curve-editor';
import { useTimeStore } from '../../renderer/src/stores/time';
import { noticeLines, useNotifyStore } from '../../renderer/src/stores/notify';
import { useEditorActions } from '../../renderer/src/editor/use-editor-actions';
import { setQuietApi } from '../helpers/quiet-api';
import CurveEditor from '../../renderer/src/editor/CurveEditor.vue';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';

const corpus = corpusDir;

// The scene store reports the window state to main; a do-nothing bridge stands in for it.
setQuietApi();

function openSmall() {
  const doc = buildVmd({
    bones: [
      { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 10, position: [10, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 20, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    ],
  });
  const bytes = writeVmd(doc);
  useSceneStore().openBytes('small.vmd', bytes, null);
  return bytes;
}

/** The bone keys as [frame, x], read from the record bytes (VMD layout), in frame order. */
function keysNow(): [number, number][] {
  const b = useWorkspaceStore().doc!.bone;
  const view = new DataView(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength);
  const out: [number, number][] = [];
  for (let i = 0; i < b.count; i++) out.push([view.getUint32(i * 111 + 15, true), view.getFloat32(i * 111 + 19, true)]);
  return out.sort((p, q) => p[0] - q[0]);
}

function bytesNow(): Uint8Array {
  return writeVmd(useWorkspaceStore().doc!);
}

describe('editor stores', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('commits a curve edit as one step and undoes/redoes it to the exact bytes', () => {
    const original = openSmall();
    const sel = useSelectionStore();
    const hist = useHistoryStore();
    const actions = useEditorActions();
    sel.select([{ kind: 'bone', record: 1 }]);
    useCurveEditorStore().setChannel(3);
    expect(actions.setCurve([100, 30, 107, 107])).toBe(true);
    expect(hist.depth).toBe(1);
    expect(useWorkspaceStore().dirty).toBe(true);
    expect(getBoneCurves(useWorkspaceStore().doc!.bone.bytes, 111 + BONE.INTERPOLATION)[3]).toEqual([100, 30, 107, 107]);
    const edited = bytesNow();
    expect(hist.undo()).toBe(true);
    expect(bytesNow()).toEqual(original);
    expect(useWorkspaceStore().dirty).toBe(false); // back at the saved state
    expect(hist.redo()).toBe(true);
    expect(bytesNow()).toEqual(edited);
    expect(hist.canRedo).toBe(false);
  });

  it('Cut (Ctrl+X) copies the selected keys and deletes them as one undo step named "cut keys"; Paste puts them back; with nothing selected it does nothing', () => {
    const original = openSmall();
    const sel = useSelectionStore();
    const hist = useHistoryStore();
    const actions = useEditorActions();
    expect(actions.cutSelectedKeys()).toBe(false);
    expect(hist.depth).toBe(0);
    // The key at frame 10 (record 1, x = 10) cut: two センター keys left, one step.
    sel.select([{ kind: 'bone', record: 1 }]);
    expect(actions.cutSelectedKeys()).toBe(true);
    expect(hist.depth).toBe(1);
    // The undo button names the step a cut, not a deletion (it said "Undo delete keys").
    expect(hist.undoLabel).toBe('cut keys');
    expect(sel.count).toBe(0);
    expect(keysNow()).toEqual([[0, 0], [20, 0]]);
    expect(sel.clipboard?.items.length).toBe(1);
    // Pasted back at frame 10: the same three keys (x = 0, 10, 0).
    useTimeStore().seek(10);
    expect(actions.pasteKeysAtCursor()).toBe(true);
    expect(keysNow()).toEqual([[0, 0], [10, 10], [20, 0]]);
    // Undo twice: the paste, then the cut (one step), back to the original bytes.
    expect(hist.undo()).toBe(true);
    expect(keysNow()).toEqual([[0, 0], [20, 0]]);
    expect(hist.undo()).toBe(true);
    expect(bytesNow()).toEqual(original);
    expect(hist.canUndo).toBe(false);
  });

  it('a move onto another key replaces it (as MMD) in one undo step, says so, and keeps the moved key selected', async () => {
    const original = openSmall();
    const sel = useSelectionStore();
    const hist = useHistoryStore();
    // センター at 20 (record 2) typed back to 10, where record 1 stays: record 1 goes, the moved key is record 1 now.
    sel.select([{ kind: 'bone', record: 2 }]);
    expect(await useEditorActions().moveSelectedSliced(-10)).toBe(true);
    expect(hist.depth).toBe(1);
    const doc = useWorkspaceStore().doc!;
    expect(doc.bone.count).toBe(2);
    const frames = useWorkspaceStore().tracks!.bones.frames;
    expect(Array.from(frames)).toEqual([0, 10]);
    // The moved key (position 0, was at 20) is the one at 10 now, and it is the selection and the active key.
    expect(doc.bone.view.getFloat32(111 + BONE.POSITION, true)).toBe(0);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 1 }]);
    expect(sel.active).toEqual({ kind: 'bone', record: 1 });
    const notice = useNotifyStore().items.at(-1)!;
    expect(notice.kind).toBe('info');
    expect(noticeLines(notice, 'en').message).toBe('Moved the keys: replaced 1 key where they landed');
    expect(noticeLines(notice, 'ja').message).toBe('キーを移動しました：移動先の 1 個のキーを置き換えました');
    // Undo brings both keys back, byte for byte.
    expect(hist.undo()).toBe(true);
    expect(bytesNow()).toEqual(original);
    // Frame < 0 is still refused, and records nothing.
    sel.select([{ kind: 'bone', record: 1 }]);
    expect(useEditorActions().moveSelected(-11)).toBe(false);
    expect(hist.message).toBe('Cannot move keys before frame 0');
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').detail).toBe('A key would move to frame -1');
    expect(bytesNow()).toEqual(original);
    expect(hist.depth).toBe(0);
    // Two keys moved together onto the third: only the one that stays is replaced (2 keys left).
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 1 }]);
    expect(useEditorActions().moveSelected(10)).toBe(true);
    expect(Array.from(useWorkspaceStore().tracks!.bones.frames)).toEqual([10, 20]);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 1 }]);
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toBe('Moved the keys: replaced 1 key where they landed');
  });

  it('patches the tracks in place for curve edits (equal to a full rebuild) and rebuilds them for other edits', () => {
    const bytes = new Uint8Array(readFileSync(path.join(corpus, 'gene/motion/02_laugh.vmd')));
    const docStore = useWorkspaceStore();
    useSceneStore().openBytes('02_laugh.vmd', bytes, null);
    const sel = useSelectionStore();
    const hist = useHistoryStore();
    const actions = useEditorActions();
    const same = (a: MotionTracks, b: MotionTracks) => {
      expect(Array.from(a.bones.curves)).toEqual(Array.from(b.bones.curves));
      expect(Array.from(a.bones.frames)).toEqual(Array.from(b.bones.frames));
      expect(Array.from(a.bones.record)).toEqual(Array.from(b.bones.record));
    };
    const tracks0 = docStore.tracks!, info0 = docStore.info, v0 = docStore.version;
    sel.select([{ kind: 'bone', record: 10 }, { kind: 'bone', record: 200 }, { kind: 'bone', record: 400 }]);
    useCurveEditorStore().setChannel(3);
    expect(actions.setCurve([90, 10, 30, 117])).toBe(true);
    // Fast path: same tracks object, patched; summary kept; watchers still see a new version and dirty.
    expect(docStore.tracks).toBe(tracks0);
    expect(docStore.info).toBe(info0);
    expect(docStore.version).toBe(v0 + 1);
    expect(docStore.dirty).toBe(true);
    same(docStore.tracks! as MotionTracks, buildTracks(docStore.doc!));
    expect(hist.undo()).toBe(true);
    expect(docStore.tracks).toBe(tracks0);
    const reread = readVmd(bytes);
    if (!reread.ok) throw new Error(reread.error.message);
    same(docStore.tracks! as MotionTracks, buildTracks(reread.value));
    expect(writeVmd(docStore.doc!)).toEqual(bytes);
    expect(hist.redo()).toBe(true);
    same(docStore.tracks! as MotionTracks, buildTracks(docStore.doc!));
    // A move changes frames: the tracks are rebuilt.
    sel.select([{ kind: 'bone', record: 10 }]);
    expect(actions.moveSelected(1000)).toBe(true);
    expect(docStore.tracks).not.toBe(tracks0);
    same(docStore.tracks! as MotionTracks, buildTracks(docStore.doc!));
  });

  it('keeps at least 200 steps', () => {
    openSmall();
    const sel = useSelectionStore();
    const actions = useEditorActions();
    sel.select([{ kind: 'bone', record: 1 }]);
    for (let i = 0; i < 210; i++) actions.setCurve([i % 128, 0, 127, 127], 0);
    const hist = useHistoryStore();
    expect(HISTORY_LIMIT).toBeGreaterThanOrEqual(200);
    expect(hist.depth).toBe(210);
    for (let i = 0; i < 210; i++) expect(hist.undo()).toBe(true);
    expect(getBoneCurves(useWorkspaceStore().doc!.bone.bytes, 111 + BONE.INTERPOLATION)[0]).toEqual([20, 20, 107, 107]);
    // Bytes kept (undo + redo stacks) are the touched record's interpolation bytes only (packed fields):
    // one copy, the 64 bytes before (redo writes the curve again over them), and its index (4).
    expect(hist.bytes).toBe(210 * (64 + 4));
    // Redo writes each step's curve again: after all 210, the last one's.
    for (let i = 0; i < 210; i++) expect(hist.redo()).toBe(true);
    expect(getBoneCurves(useWorkspaceStore().doc!.bone.bytes, 111 + BONE.INTERPOLATION)[0]).toEqual([209 % 128, 0, 127, 127]);
    expect(hist.bytes).toBe(210 * (64 + 4));
  });

  it('inserts a key at the cursor on the active track and pastes copied keys', () => {
    openSmall();
    const sel = useSelectionStore();
    const actions = useEditorActions();
    sel.setActiveTrack({ kind: 'bone', track: 0 });
    useTimeStore().seek(5);
    expect(actions.insertKeyAtCursor()).toBe(true);
    const doc = useWorkspaceStore().doc!;
    expect(doc.bone.count).toBe(4);
    expect(doc.bone.view.getFloat32(3 * 111 + 19, true)).toBeCloseTo(5, 5); // linear halfway between 0 and 10
    expect(sel.active).toEqual({ kind: 'bone', record: 3 });
    expect(actions.copySelectedKeys()).toBe(true);
    useTimeStore().seek(15);
    expect(actions.pasteKeysAtCursor()).toBe(true);
    expect(useWorkspaceStore().doc!.bone.count).toBe(5);
    expect(useWorkspaceStore().tracks!.bones.frames[useWorkspaceStore().tracks!.bones.start[0] + 3]).toBe(15);
  });
});

describe('curve editor and inspector components', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('shows the active key curve numbers and writes typed values on every selected key', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(corpus, 'gene/motion/stand.vmd')));
    const parsed = readVmd(bytes);
    if (!parsed.ok) throw new Error(parsed.error.message);
    useSceneStore().openBytes('stand.vmd', bytes, null);
    const sel = useSelectionStore();
    sel.select([{ kind: 'bone', record: 2 }, { kind: 'bone', record: 3 }]);
    const w = mount(CurveEditor);
    const insp = mount(KeyInspector);
    await w.vm.$nextTick();
    // stand.vmd's bone here never moves, so the pane opened on Rotation (curve-channel.test.ts): X by hand.
    await w.get('[data-testid="curve-channel-x"]').trigger('click');
    const curves = getBoneCurves(parsed.value.bone.bytes, 3 * 111 + 47);
    const field = (f: string) => w.get(`[data-testid="curve-${f}"]`).element as HTMLInputElement;
    expect([field('x1').value, field('y1').value, field('x2').value, field('y2').value].map(Number)).toEqual([...curves[0]]);
    expect(insp.get('[data-testid="inspector-multi"]').text()).toContain('2');
    const x1 = w.get('[data-testid="curve-x1"]');
    (x1.element as HTMLInputElement).value = '77';
    await x1.trigger('change');
    const doc = useWorkspaceStore().doc!;
    for (const r of [2, 3]) expect(getBoneCurves(doc.bone.bytes, r * 111 + 47)[0][0]).toBe(77);
    // Other records are untouched.
    expect(getBoneCurves(doc.bone.bytes, 4 * 111 + 47)).toEqual(getBoneCurves(parsed.value.bone.bytes, 4 * 111 + 47));
    // A preset click writes that preset on the channel.
    await w.get('[data-testid="preset-ease-in-out"]').trigger('click');
    expect(getBoneCurves(useWorkspaceStore().doc!.bone.bytes, 3 * 111 + 47)[0]).toEqual([53, 0, 74, 127]);
    expect(useHistoryStore().depth).toBe(2);
    w.unmount();
    insp.unmount();
  });
});
