// Ctrl+C on the 表情 (Morphs) group row, or from the morph panel with no morph row active, copies the whole face at the
// playhead, which Ctrl+V pastes at another frame as one undo step (faceplus; before: a group row folded and never became
// active, so Ctrl+C there said "select keys"); with one morph row active Ctrl+C still copies that morph's weight.
import { afterEach, describe, expect, it } from 'vitest';
import { buildTracks, buildVmd, writeVmd } from '../../../shared/vmd';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { memoryScene } from '../stores/scene-fixtures';

// あ 1 at 10; 笑い 0 at 0, 1 at 20.
const song = writeVmd(buildVmd({
  morphs: [
    { name: 'あ', frame: 10, weight: 1 },
    { name: '笑い', frame: 0, weight: 0 },
    { name: '笑い', frame: 20, weight: 1 },
  ],
}));

/** (name, frame) → weight of every morph key of the active document. */
function keys(): Map<string, number> {
  const t = buildTracks(useWorkspaceStore().doc!).morphs, out = new Map<string, number>();
  t.names.forEach((n, i) => {
    for (let k = t.start[i]; k < t.start[i + 1]; k++) out.set(`${n}@${t.frames[k]}`, t.weight[k]);
  });
  return out;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('Ctrl+C on the 表情 group row or in the morph panel', () => {
  it('copies the whole face; one morph row active still copies its weight', async () => {
    memoryScene([['/s/song.vmd', song]]);
    expect(await useSceneStore().openPath('/s/song.vmd')).toBe(true);
    const sel = useSelectionStore(), time = useTimeStore(), ws = useWorkspaceStore();
    const actions = useEditorActions();
    const said = () => useNotifyStore().items.filter((n) => n.kind === 'info').map((n) => noticeLines(n, 'en').message);
    time.seek(15);
    // Nothing active, nothing selected: Ctrl+C says what it needs (as before).
    sel.clear();
    sel.setActiveTrack(null);
    expect(actions.copySelectedKeys()).toBe(false);
    // The group row (TrackList sets it so): the face, both morphs, 笑い at 0.75 between its keys.
    sel.setActiveGroup({ id: 'morph', doc: ws.activeId });
    expect(actions.copySelectedKeys()).toBe(true);
    expect(said().at(-1)).toBe('Copied the face at frame 15: 2 morphs, each at its weight there (Ctrl+V pastes it at the playhead)');
    time.seek(60);
    const depth = ws.undoStack.length;
    expect(actions.pasteKeysAtCursor()).toBe(true);
    expect(ws.undoStack.length).toBe(depth + 1);
    expect(keys().get('笑い@60')).toBe(0.75);
    expect(keys().get('あ@60')).toBe(1);
    // A track row made active takes the group off: one morph's weight again.
    sel.clear();
    sel.setActiveTrack({ kind: 'morph', track: ws.tracks!.morphs.index.get('笑い')! });
    expect(sel.activeGroup).toBeNull();
    time.seek(15);
    expect(actions.copySelectedKeys({ facePanel: true })).toBe(true);
    expect(said().at(-1)).toBe('Copied the weight of 笑い at frame 15 (0.75)');
    // From the morph panel with no morph row active: the face.
    sel.setActiveTrack(null);
    expect(actions.copySelectedKeys({ facePanel: true })).toBe(true);
    expect(said().at(-1)).toBe('Copied the face at frame 15: 2 morphs, each at its weight there (Ctrl+V pastes it at the playhead)');
  });
});
