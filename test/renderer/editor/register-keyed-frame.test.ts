// Enter (Register, 登録) on a frame where the active track already has a key (curve-polish pass: at frame 201 with
// 左腕's key there, Enter — pressed by MMD users after every adjustment — gave a warning "That frame already has a
// key on this track"). MMD re-registers the pose there; here edits are already in the key, so the pose is the key's:
// nothing is written, the key is selected, and a quiet info line (a polite status, replaced by the next press, not
// stacked) says the frame has this pose. Expected words are written out here from the strings' meaning.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { setQuietApi } from '../../helpers/quiet-api';

setQuietApi();

/** Records: 0 左腕 @0, 1 左腕 @100, 2 センター @0. */
function open(): Uint8Array {
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
  return bytes;
}

describe('Enter on a frame the active track has a key at', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('writes nothing, selects that key and says so quietly (info, no warning); a second press replaces the line', () => {
    const original = open();
    const sel = useSelectionStore(), notify = useNotifyStore();
    sel.clear();
    sel.setActiveTrack({ kind: 'bone', track: useWorkspaceStore().tracks!.bones.index.get('左腕')! });
    useTimeStore().seek(100);
    const actions = useEditorActions();
    expect(actions.insertKeyAtCursor()).toBe(true);
    expect(useHistoryStore().depth).toBe(0);
    expect(writeVmd(useWorkspaceStore().doc!)).toEqual(original);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 1 }]);
    expect(notify.items.map((n) => n.kind)).toEqual(['info']);
    expect(noticeLines(notify.items[0], 'en').message).toBe('Frame 100 already has this pose (its key holds every edit made)');
    expect(noticeLines(notify.items[0], 'ja').message).toBe('フレーム 100 は既にこのポーズで登録済みです（編集はキーに反映済み）');
    expect(useHistoryStore().message).toBe('');

    expect(actions.insertKeyAtCursor()).toBe(true);
    expect(notify.items.map((n) => n.kind)).toEqual(['info']);
    expect(useHistoryStore().depth).toBe(0);

    // Between keys it registers a key, as before: one undo step.
    useTimeStore().seek(50);
    expect(actions.insertKeyAtCursor()).toBe(true);
    expect(useHistoryStore().depth).toBe(1);
    expect(useWorkspaceStore().doc!.bone.count).toBe(4);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 3 }]);
  });
});
