// A picked bone the motion has no key of yet (new-user pass nuscratch, finding 1: New motion on Gene, 右腕 picked in
// the Bones tab; Enter and Register did nothing, the Key panel said "No key selected" with no fields, and Ctrl+C did
// nothing silently, so the first key of every bone needed a throw-away ring drag). As MMD's 登録: Enter registers its
// pose at the playhead (the rest pose: no offset, no turn), one undo step, that key selected on its new track; the Key
// panel shows the rest pose's fields and a typed value registers a key (one undo step); Ctrl+C with nothing to copy
// says what it needs. Expected values are written out here (identity; 30° about Z alone is (0, 0, sin 15°, cos 15°)).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { BONE } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import KeyInspector from '../../../renderer/src/editor/KeyInspector.vue';
import { setQuietApi } from '../../helpers/quiet-api';
import { typeField } from '../../helpers/type-field';
import { editLabel } from '../../../shared/i18n/edit-labels';
import { t } from '../../../shared/i18n/strings';

setQuietApi();

/** 右腕 in Shift_JIS, then the name field's zero padding. */
const ARM_R = [0x89, 0x45, 0x98, 0x72, 0];

function rec(r: number) {
  const d = useWorkspaceStore().doc!;
  const v = d.bone.view;
  return {
    name: [...d.bone.bytes.subarray(r * BONE.SIZE, r * BONE.SIZE + 5)],
    frame: v.getUint32(r * BONE.SIZE + BONE.FRAME, true),
    pos: [0, 1, 2].map((c) => v.getFloat32(r * BONE.SIZE + BONE.POSITION + 4 * c, true)),
    rot: [0, 1, 2, 3].map((c) => v.getFloat32(r * BONE.SIZE + BONE.ROTATION + 4 * c, true)),
  };
}

/** A new, empty motion; 右腕 picked (no keys, so no active track and no selection, as applyPick leaves it); the playhead at 12. */
function newWithArmPicked() {
  useSceneStore().newMotion('New motion.vmd', 'Gene_light');
  useSelectionStore().setActiveTrack(null);
  useSelectionStore().clear();
  usePreviewStore().setPicked({ name: '右腕', tracked: false, rotatable: true, movable: false });
  useTimeStore().seek(12);
}

const field = (w: VueWrapper, id: string) => (w.get(`[data-testid="${id}"]`).element as HTMLInputElement).value;

describe('a picked bone without keys', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('Enter registers its rest pose at the playhead: one undo step, the key selected on its new track', () => {
    newWithArmPicked();
    const actions = useEditorActions();
    expect(actions.pickedUnkeyedBone()).toBe('右腕');
    expect(actions.insertKeyAtCursor()).toBe(true);
    expect(useHistoryStore().depth).toBe(1);
    expect(useWorkspaceStore().doc!.bone.count).toBe(1);
    expect(rec(0)).toEqual({ name: ARM_R, frame: 12, pos: [0, 0, 0], rot: [0, 0, 0, 1] });
    // The step is named as Enter's on a bone with keys (MMD's 登録), not "pose bone", the ring drag's (fixmisc3).
    expect(useHistoryStore().undoLabel).toBe('register key');
    expect(editLabel(useHistoryStore().undoLabel, (k) => t(k, 'ja'))).toBe('キー登録');
    const sel = useSelectionStore();
    expect(sel.refs).toEqual([{ kind: 'bone', record: 0 }]);
    expect(sel.activeTrack).toEqual({ kind: 'bone', track: useWorkspaceStore().tracks!.bones.index.get('右腕') });
    useHistoryStore().undo();
    expect(useWorkspaceStore().doc!.bone.count).toBe(0);
  });

  it('with nothing picked Enter still does nothing', () => {
    useSceneStore().newMotion('New motion.vmd', 'Gene_light');
    expect(useEditorActions().insertKeyAtCursor()).toBe(false);
    expect(useHistoryStore().depth).toBe(0);
  });

  it('the Key panel shows its rest pose, marked; a typed Z of 30 registers a key there, one undo step', async () => {
    newWithArmPicked();
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="inspector-name"]').text()).toBe('右腕');
    expect(w.get('[data-testid="inspector-pose-note"]').text()).toMatch(/^No keys yet — the bone at rest/);
    expect(field(w, 'inspector-frame')).toBe('12');
    expect(['x', 'y', 'z'].map((c) => field(w, `inspector-rot-${c}`))).toEqual(['0', '0', '0']);
    expect(['x', 'y', 'z', 'w'].map((c) => field(w, `inspector-quat-${c}`))).toEqual(['0', '0', '0', '1']);
    await typeField(w, 'inspector-rot-z', '30');
    expect(useHistoryStore().depth).toBe(1);
    expect(useWorkspaceStore().doc!.bone.count).toBe(1);
    const k = rec(0);
    expect([k.name, k.frame, k.pos]).toEqual([ARM_R, 12, [0, 0, 0]]);
    [0, 0, Math.sin(Math.PI / 12), Math.cos(Math.PI / 12)].forEach((x, c) => expect(k.rot[c]).toBeCloseTo(x, 6));
    expect(useSelectionStore().refs).toEqual([{ kind: 'bone', record: 0 }]);
    await w.vm.$nextTick();
    expect(field(w, 'inspector-rot-z')).toBe('30');
    w.unmount();
  });

  it('Ja: the note says so in Japanese', async () => {
    newWithArmPicked();
    const { useSettingsStore } = await import('../../../renderer/src/stores/settings');
    useSettingsStore().settings.locale = 'ja';
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="inspector-pose-note"]').text()).toMatch(/^まだキーがありません — 初期姿勢です/);
    w.unmount();
  });

  it('Ctrl+C copies its rest pose; with nothing selected or picked it says what it needs', () => {
    newWithArmPicked();
    const actions = useEditorActions();
    const notify = useNotifyStore();
    expect(actions.copySelectedKeys()).toBe(true);
    expect(useSelectionStore().clipboard!.items.map((it) => [it.kind, [...it.bytes.subarray(0, 5)]])).toEqual([['bone', ARM_R]]);
    usePreviewStore().setPicked(null);
    expect(actions.copySelectedKeys()).toBe(false);
    const n = notify.items.at(-1)!;
    expect(n.kind).toBe('info');
    expect(noticeLines(n, 'en').message).toBe('Nothing to copy: select keys, or pick a bone (its pose at this frame is copied)');
  });

  it('Ctrl+C with no motion open says to open or start one', () => {
    expect(useWorkspaceStore().doc).toBeNull();
    expect(useEditorActions().copySelectedKeys()).toBe(false);
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toBe('Nothing to copy: open a motion or start one (New, Ctrl+N), then select keys or pick a bone');
  });
});
