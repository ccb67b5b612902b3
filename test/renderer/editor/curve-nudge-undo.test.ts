// A run of arrow-key nudges of a curve handle is one undo step, as a drag of the handle is (the undo pass,
// finding 5: three presses of → took three Ctrl+Z). Undo gives back the file's exact bytes; redo the whole run.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useEditorActions } from '../../../renderer/src/editor/use-editor-actions';
import { setQuietApi } from '../../helpers/quiet-api';

setQuietApi();

const bytes = writeVmd(
  buildVmd({
    bones: [
      { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 10, position: [0, 1, 0], rotation: [0, 0, 0, 1] },
      { name: '上半身', frame: 10, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    ],
  }),
);

/**
 * The X curve (x1, y1, x2, y2) of bone record `r` as the saved file holds it, read from the bytes by hand: bone
 * records of 111 bytes from byte 54 (header 30, model name 20, count 4); the 64-byte interpolation block at 47
 * in each, whose row 0 holds the X channel's x1, y1, x2, y2 at 0, 4, 8, 12 (FORMAT.md).
 */
function xCurve(r: number): number[] {
  const b = writeVmd(useWorkspaceStore().doc!);
  const at = 54 + r * 111 + 47;
  return [b[at], b[at + 4], b[at + 8], b[at + 12]];
}

describe('arrow-key nudges of a curve handle', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('three nudges are one step: one undo gives back the exact bytes, one redo the whole run', () => {
    useSceneStore().openBytes('dance.vmd', bytes, null);
    const sel = useSelectionStore(), curve = useCurveEditorStore(), hist = useHistoryStore(), ws = useWorkspaceStore();
    const actions = useEditorActions();
    sel.select([{ kind: 'bone', record: 1 }]);
    curve.setChannel(0);
    curve.handle = 1;
    const start = xCurve(1);
    expect(start).toEqual([20, 20, 107, 107]);
    expect(actions.nudgeHandle(1, 0)).toBe(true);
    expect(actions.nudgeHandle(1, 0)).toBe(true);
    expect(actions.nudgeHandle(0, 1)).toBe(true);
    expect(xCurve(1)).toEqual([22, 21, 107, 107]);
    expect(hist.depth).toBe(1);
    expect(hist.undoLabel).toBe('curve');
    // The key stays selected through the run.
    expect(sel.refs).toEqual([{ kind: 'bone', record: 1 }]);
    expect(hist.undo()).toBe(true);
    expect(hist.depth).toBe(0);
    expect(Array.from(writeVmd(ws.doc!))).toEqual(Array.from(bytes));
    expect(hist.redo()).toBe(true);
    expect(xCurve(1)).toEqual([22, 21, 107, 107]);
  });

  it('another step, another handle or another key between nudges starts a new step', async () => {
    useSceneStore().openBytes('dance.vmd', bytes, null);
    const sel = useSelectionStore(), curve = useCurveEditorStore(), hist = useHistoryStore();
    const actions = useEditorActions();
    sel.select([{ kind: 'bone', record: 1 }]);
    curve.setChannel(0);
    curve.handle = 1;
    actions.nudgeHandle(1, 0);
    curve.handle = 2;
    actions.nudgeHandle(-1, 0);
    expect(hist.depth).toBe(2);
    expect(xCurve(1)).toEqual([21, 20, 106, 107]);
    sel.select([{ kind: 'bone', record: 2 }]);
    curve.handle = 2;
    actions.nudgeHandle(-1, 0);
    expect(hist.depth).toBe(3);
    // Back on record 1's handle 2 after another key: a new step, and undo takes only it.
    sel.select([{ kind: 'bone', record: 1 }]);
    curve.handle = 2;
    actions.nudgeHandle(-1, 0);
    actions.nudgeHandle(-1, 0);
    expect(hist.depth).toBe(4);
    expect(xCurve(1)).toEqual([21, 20, 104, 107]);
    expect(hist.undo()).toBe(true);
    expect(xCurve(1)).toEqual([21, 20, 106, 107]);
  });

  it('a run back to where it began leaves no step, and does not take the step before it', () => {
    useSceneStore().openBytes('dance.vmd', bytes, null);
    const sel = useSelectionStore(), curve = useCurveEditorStore(), hist = useHistoryStore(), ws = useWorkspaceStore();
    const actions = useEditorActions();
    sel.select([{ kind: 'bone', record: 1 }]);
    curve.setChannel(0);
    curve.handle = 2;
    actions.nudgeHandle(-3, 0); // one step: x2 104
    curve.handle = 1;
    actions.nudgeHandle(1, 0);
    actions.nudgeHandle(-1, 0); // back: the run leaves nothing
    expect(hist.depth).toBe(1);
    expect(xCurve(1)).toEqual([20, 20, 104, 107]);
    // A further nudge after the empty run must not undo the handle-2 step.
    actions.nudgeHandle(0, 2);
    expect(hist.depth).toBe(2);
    expect(xCurve(1)).toEqual([20, 22, 104, 107]);
    expect(hist.undo()).toBe(true);
    expect(hist.undo()).toBe(true);
    expect(Array.from(writeVmd(ws.doc!))).toEqual(Array.from(bytes));
  });
});
