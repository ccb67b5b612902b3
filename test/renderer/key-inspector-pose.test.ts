/**
 * MMD's habit with no key selected: 左腕 picked (its row active), the playhead at frame 50 between its keys
 * at 0 and 100. The key inspector shows the in-between values there (marked so), a typed value registers a
 * key at the playhead (one undo step), Ctrl+C copies that pose and Paste puts it at the playhead. While a
 * handle drag goes on (stores/preview.ts livePose) the bone's fields show the dragged pose, with no edit.
 * The keys' curves are MMD's linear ones, so the expected values at 50 are halfway, worked out here.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { buildTracks, buildVmd, readVmd, recordBytes, writeVmd, BONE, CAMERA } from '../../shared/vmd';
import { buildFixture } from '../helpers/vmd-fixtures';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useHistoryStore } from '../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../renderer/src/stores/notify';
import { useSelectionStore } from '../../renderer/src/stores/selection';
import { useTimeStore } from '../../renderer/src/stores/time';
import { usePreviewStore } from '../../renderer/src/stores/preview';
import { useEditorActions } from '../../renderer/src/editor/use-editor-actions';
import { setQuietApi } from '../helpers/quiet-api';
import KeyInspector from '../../renderer/src/editor/KeyInspector.vue';
import { typeField } from '../helpers/type-field';


setQuietApi();

const S = Math.SQRT1_2; // 90° about Y: (0, sin 45°, 0, cos 45°)
const H = [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)]; // halfway: 45° about Y

/** 左腕 keyed at 0 and 100, センター at 0; 左腕's row active, no key selected, the playhead at 50. */
function open(): Uint8Array {
  const bytes = writeVmd(
    buildVmd({
      bones: [
        { name: '左腕', frame: 0, position: [0, 2, 0], rotation: [0, 0, 0, 1] },
        { name: '左腕', frame: 100, position: [10, 2, -4], rotation: [0, S, 0, S] },
        { name: 'センター', frame: 0, position: [1, 1, 1], rotation: [0, 0, 0, 1] },
      ],
    }),
  );
  useSceneStore().openBytes('m.vmd', bytes, null);
  const tracks = useWorkspaceStore().tracks!;
  useSelectionStore().clear();
  useSelectionStore().setActiveTrack({ kind: 'bone', track: tracks.bones.index.get('左腕')! });
  useTimeStore().seek(50);
  return bytes;
}

const rec = (r: number) => {
  const v = useWorkspaceStore().doc!.bone.view;
  return {
    frame: v.getUint32(r * BONE.SIZE + BONE.FRAME, true),
    pos: [0, 1, 2].map((c) => v.getFloat32(r * BONE.SIZE + BONE.POSITION + 4 * c, true)),
    rot: [0, 1, 2, 3].map((c) => v.getFloat32(r * BONE.SIZE + BONE.ROTATION + 4 * c, true)),
  };
};

const type = typeField;

const field = (w: VueWrapper, id: string) => (w.get(`[data-testid="${id}"]`).element as HTMLInputElement).value;

describe('a bone with no key at the current frame', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('the inspector shows its in-between values at the playhead, marked; a typed value registers a key there, one undo step', async () => {
    const original = open();
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.find('[data-testid="inspector-pose-note"]').exists()).toBe(true);
    expect(w.get('[data-testid="inspector-pose-note"]').text()).toMatch(/No key at this frame/);
    expect(w.get('[data-testid="inspector-name"]').text()).toBe('左腕');
    expect(field(w, 'inspector-frame')).toBe('50');
    expect([field(w, 'inspector-pos-x'), field(w, 'inspector-pos-y'), field(w, 'inspector-pos-z')]).toEqual(['5', '2', '-2']);
    expect(['x', 'y', 'z', 'w'].map((c) => Number(field(w, `inspector-quat-${c}`)))).toEqual(H.map((x) => Math.round(x * 1e5) / 1e5));

    // The playhead moves: the fields follow it.
    useTimeStore().seek(25);
    await w.vm.$nextTick();
    expect(field(w, 'inspector-pos-x')).toBe('2.5');
    useTimeStore().seek(50);
    await w.vm.$nextTick();

    await type(w, 'inspector-pos-y', '7');
    expect(useHistoryStore().depth).toBe(1);
    const doc = useWorkspaceStore().doc!;
    expect(doc.bone.count).toBe(4);
    const k = rec(3);
    expect(k.frame).toBe(50);
    expect(k.pos).toEqual([5, 7, -2]);
    k.rot.forEach((x, c) => expect(x).toBeCloseTo(H[c], 6));
    // The new key is selected: the inspector shows it, no longer the in-between note.
    expect(useSelectionStore().active).toEqual({ kind: 'bone', record: 3 });
    expect(w.find('[data-testid="inspector-pose-note"]').exists()).toBe(false);
    expect(field(w, 'inspector-pos-y')).toBe('7');

    useHistoryStore().undo();
    expect(writeVmd(useWorkspaceStore().doc!)).toEqual(original);
    w.unmount();
  });

  it('Ja: the note says so in Japanese', async () => {
    open();
    const { useSettingsStore } = await import('../../renderer/src/stores/settings');
    useSettingsStore().settings.locale = 'ja';
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="inspector-pose-note"]').text()).toMatch(/このフレームにキーはありません/);
    w.unmount();
  });

  it('with the playhead on a key of the track (not selected) the note says there is a key here, and Select it selects that key', async () => {
    open();
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    // At 50 (between 0 and 100) there is no key, and no button to select one.
    expect(w.get('[data-testid="inspector-pose-note"]').text()).toMatch(/No key at this frame/);
    expect(w.find('[data-testid="inspector-select-here"]').exists()).toBe(false);
    // 左腕's key at 100 is record 1 (written second): the note must not say "no key".
    useTimeStore().seek(100);
    await w.vm.$nextTick();
    const note = w.get('[data-testid="inspector-pose-note"]');
    expect(note.text()).not.toMatch(/No key/);
    expect(note.text()).toMatch(/has a key at this frame \(not selected\)/);
    expect(note.attributes('data-key-here')).toBe('true');
    expect(field(w, 'inspector-pos-x')).toBe('10');
    await w.get('[data-testid="inspector-select-here"]').trigger('click');
    expect(useSelectionStore().active).toEqual({ kind: 'bone', record: 1 });
    expect(useSelectionStore().count).toBe(1);
    await w.vm.$nextTick();
    expect(w.find('[data-testid="inspector-pose-note"]').exists()).toBe(false);
    expect(useHistoryStore().depth).toBe(0);
    w.unmount();
  });

  it('Ja: a key at this frame is said in Japanese too', async () => {
    open();
    const { useSettingsStore } = await import('../../renderer/src/stores/settings');
    useSettingsStore().settings.locale = 'ja';
    useTimeStore().seek(0);
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    const text = w.get('[data-testid="inspector-pose-note"]').text();
    expect(text).not.toMatch(/キーはありません/);
    expect(text).toMatch(/このフレームにキーがあります（未選択）/);
    expect(w.get('[data-testid="inspector-select-here"]').text()).toBe('選択');
    w.unmount();
  });

  it('Copy takes the pose at the playhead; Paste puts it as a key at the playhead', () => {
    open();
    const actions = useEditorActions();
    expect(actions.poseTrack()).not.toBeNull();
    expect(actions.copySelectedKeys()).toBe(true);
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toMatch(/左腕.*50/);
    useTimeStore().seek(70);
    expect(actions.pasteKeysAtCursor()).toBe(true);
    expect(useHistoryStore().depth).toBe(1);
    const doc = useWorkspaceStore().doc!;
    expect(doc.bone.count).toBe(4);
    const k = rec(3);
    expect(k.frame).toBe(70);
    expect(k.pos).toEqual([5, 2, -2]);
    k.rot.forEach((x, c) => expect(x).toBeCloseTo(H[c], 6));
    // It plays that pose at 70 (a key there now), and the keys around it are as they were.
    const t = buildTracks(doc).bones, a = t.index.get('左腕')!;
    expect(Array.from(t.frames.subarray(t.start[a], t.start[a + 1]))).toEqual([0, 70, 100]);
  });

  it('with a key selected Copy copies the keys as before; with no row active there is nothing to copy', () => {
    open();
    const actions = useEditorActions();
    useSelectionStore().setActiveTrack(null);
    expect(actions.poseTrack()).toBeNull();
    expect(actions.copySelectedKeys()).toBe(false);
    useSelectionStore().select([{ kind: 'bone', record: 1 }]);
    expect(actions.copySelectedKeys()).toBe(true);
    expect(useSelectionStore().clipboard!.items.map((it) => it.kind)).toEqual(['bone']);
    expect(rec(1).frame).toBe(100);
  });

  it('a handle drag shows live in the fields, and edits nothing until the release', async () => {
    open();
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(field(w, 'inspector-quat-y')).toBe(String(Math.round(H[1] * 1e5) / 1e5));
    const preview = usePreviewStore();
    // A drag on another bone does not show here.
    preview.setLivePose({ name: 'センター', position: [3, 3, 3], rotation: [0, 0, 0, 1] });
    await w.vm.$nextTick();
    expect(field(w, 'inspector-pos-x')).toBe('5');
    preview.setLivePose({ name: '左腕', position: [1.5, 2, 0.25], rotation: [0, S, 0, S] });
    await w.vm.$nextTick();
    expect([field(w, 'inspector-pos-x'), field(w, 'inspector-pos-y'), field(w, 'inspector-pos-z')]).toEqual(['1.5', '2', '0.25']);
    expect(Number(field(w, 'inspector-quat-y'))).toBe(Math.round(S * 1e5) / 1e5);
    expect(Number(field(w, 'inspector-rot-y'))).toBeCloseTo(90, 3);
    expect(useHistoryStore().depth).toBe(0);
    preview.setLivePose(null);
    await w.vm.$nextTick();
    expect(field(w, 'inspector-pos-x')).toBe('5');

    // On the selected key at the playhead too.
    useSelectionStore().select([{ kind: 'bone', record: 0 }]);
    useTimeStore().seek(0);
    await w.vm.$nextTick();
    expect(field(w, 'inspector-pos-x')).toBe('0');
    preview.setLivePose({ name: '左腕', position: [4, 2, 0], rotation: [0, 0, 0, 1] });
    await w.vm.$nextTick();
    expect(field(w, 'inspector-pos-x')).toBe('4');
    w.unmount();
  });
});

/**
 * A key selected at another frame than the playhead. MMD's panel works at the playhead: a switcher selected 右手首's
 * key 0, went to 300, typed Z, and the edit went to key 0 with the playhead taken back (new-user pass numigrate).
 * Now the panel says where the key is and that typing registers at the playhead, shows the track's pose there, and a
 * typed value registers a key at the playhead (what Enter would register, with the value), one undo step; the
 * selected key keeps its bytes. Go to key still takes the playhead to the key.
 */
describe('a selected key away from the playhead', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('is said ("key at 100 · playhead at 50 — registers at 50"); the fields show the pose at 50 and a typed value registers a key there', async () => {
    const original = open();
    const sel = useSelectionStore(), time = useTimeStore();
    sel.select([{ kind: 'bone', record: 1 }]); // 左腕 @100; the playhead stays at 50
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    const note = () => w.find('[data-testid="inspector-off-frame"]');
    expect(note().text()).toContain('Selected key at 100 · playhead at 50 — typing registers a key at frame 50');
    expect(note().attributes('data-key-frame')).toBe('100');
    // The fields are the pose at the playhead (halfway between x 0 at 0 and x 10 at 100), not key 100's.
    expect(w.get('[data-testid="inspector-name"]').text()).toBe('左腕');
    expect(field(w, 'inspector-frame')).toBe('50');
    expect([field(w, 'inspector-pos-x'), field(w, 'inspector-pos-y'), field(w, 'inspector-pos-z')]).toEqual(['5', '2', '-2']);

    await type(w, 'inspector-pos-y', '7');
    expect(time.frame).toBe(50);
    expect(useHistoryStore().depth).toBe(1);
    expect(useHistoryStore().undoLabel).toBe('register key');
    const doc = useWorkspaceStore().doc!;
    expect(doc.bone.count).toBe(4);
    expect(rec(1)).toEqual({ frame: 100, pos: [10, 2, -4], rot: [0, Math.fround(S), 0, Math.fround(S)] });
    const k = rec(3);
    expect(k.frame).toBe(50);
    expect(k.pos).toEqual([5, 7, -2]);
    k.rot.forEach((x, c) => expect(x).toBeCloseTo(H[c], 6));
    // The new key is the selection: the panel shows it, at the playhead, and no longer the off-frame line.
    expect(sel.active).toEqual({ kind: 'bone', record: 3 });
    await w.vm.$nextTick();
    expect(note().exists()).toBe(false);
    expect(field(w, 'inspector-pos-y')).toBe('7');

    useHistoryStore().undo();
    expect(writeVmd(useWorkspaceStore().doc!)).toEqual(original);
    w.unmount();
  });

  it('key 0 selected, the playhead at 300: the written file has a new key at 300 with the typed value, key 0 byte for byte as it was', async () => {
    const bytes = writeVmd(
      buildVmd({
        bones: [
          { name: '右手首', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
          { name: '右手首', frame: 600, position: [6, 0, 0], rotation: [0, 0, 0, 1] },
        ],
      }),
    );
    useSceneStore().openBytes('dance.vmd', bytes, null);
    const sel = useSelectionStore();
    sel.select([{ kind: 'bone', record: 0 }]);
    useTimeStore().seek(300); // the frame field, or → 300 times: the key 0 stays selected
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="inspector-off-frame"]').text()).toContain('typing registers a key at frame 300');
    await type(w, 'inspector-pos-z', '-10');
    const out = readVmd(writeVmd(useWorkspaceStore().doc!));
    expect(out.ok).toBe(true);
    const doc = out.ok ? out.value : null!;
    expect(doc.bone.count).toBe(3);
    // Key 0: the same 111 bytes as in the file opened (the record a VMD writer puts first: header 30 + name 20… at 54).
    const first = 30 + 20 + 4;
    expect(recordBytes(doc.bone, 0)).toEqual(bytes.subarray(first, first + BONE.SIZE));
    const v = doc.bone.view, o = 2 * BONE.SIZE;
    expect(v.getUint32(o + BONE.FRAME, true)).toBe(300);
    // x halfway from 0 to 6 on the linear curve, z the typed value.
    expect([0, 1, 2].map((c) => v.getFloat32(o + BONE.POSITION + 4 * c, true))).toEqual([3, 0, -10]);
    w.unmount();
  });

  it('a camera key at 0 selected, the playhead at 50: a typed distance registers a camera key at 50 with the pose there, named for the value', async () => {
    const bytes = buildFixture({
      cameras: [
        { frame: 0, distance: -40, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 },
        { frame: 100, distance: -20, target: [0, 20, 0], rotation: [0, 0, 0], fov: 30 },
      ],
    });
    useSceneStore().openBytes('cam.vmd', bytes, null);
    const sel = useSelectionStore();
    sel.select([{ kind: 'camera', record: 0 }]);
    useTimeStore().seek(50);
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="inspector-off-frame"]').text()).toContain('typing registers a key at frame 50');
    // The camera at 50: halfway on the linear curves.
    expect([field(w, 'inspector-distance'), field(w, 'inspector-target-y')]).toEqual(['-30', '15']);
    await type(w, 'inspector-distance', '-25');
    expect(useHistoryStore().undoLabel).toBe('camera distance -30 → -25');
    const doc = useWorkspaceStore().doc!;
    expect(doc.camera.count).toBe(3);
    // Key 0 as in the file: the camera block follows the header (54 bytes with no bone key), the morph count and the camera count.
    const first = 54 + 4 + 4;
    expect(recordBytes(doc.camera, 0)).toEqual(bytes.subarray(first, first + CAMERA.SIZE));
    const v = doc.camera.view, o = 2 * CAMERA.SIZE;
    expect(v.getUint32(o + CAMERA.FRAME, true)).toBe(50);
    expect(v.getFloat32(o + CAMERA.DISTANCE, true)).toBe(-25);
    expect(v.getFloat32(o + CAMERA.TARGET + 4, true)).toBe(15);
    expect(sel.active).toEqual({ kind: 'camera', record: 2 });
    w.unmount();
  });

  it('Go to key moves the playhead to the key without an edit; at the key no line shows; keys at several frames say nothing', async () => {
    open();
    const sel = useSelectionStore(), time = useTimeStore();
    sel.select([{ kind: 'bone', record: 0 }]); // 左腕 @0
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    await w.get('[data-testid="inspector-go-to-key"]').trigger('click');
    expect(time.frame).toBe(0);
    expect(useHistoryStore().depth).toBe(0);
    await w.vm.$nextTick();
    expect(w.find('[data-testid="inspector-off-frame"]').exists()).toBe(false);
    // Keys at 0 and 100: "2 keys selected" already says they span frames; a typed value does not move the playhead.
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 1 }]);
    time.seek(50);
    await w.vm.$nextTick();
    expect(w.find('[data-testid="inspector-off-frame"]').exists()).toBe(false);
    await type(w, 'inspector-pos-z', '3');
    expect([rec(0).pos[2], rec(1).pos[2]]).toEqual([3, 3]);
    expect(time.frame).toBe(50);
    w.unmount();
  });

  it('Ja: the line is in Japanese', async () => {
    open();
    const { useSettingsStore } = await import('../../renderer/src/stores/settings');
    useSettingsStore().settings.locale = 'ja';
    useSelectionStore().select([{ kind: 'bone', record: 1 }]);
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="inspector-off-frame"]').text()).toContain('選択中のキーはフレーム 100・再生位置は 50 — 値を入力するとフレーム 50 にキーを登録します');
    expect(w.get('[data-testid="inspector-go-to-key"]').text()).toBe('キーへ移動');
    w.unmount();
  });
});
