// Staging in the undo history (issue 30 §3): each stage edit is one step of the one history, beside the
// documents' steps, applied through the scene store; undo puts the exact previous stage back, redo the new
// one, and the scene's unsaved mark follows them back to the file's state, as a motion edit's does.
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import StagePanel from '../../../renderer/src/editor/StagePanel.vue';
import { editLabel } from '../../../renderer/src/editor/edit-labels';
import { setApi } from '../../../renderer/src/api';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { stepOwner, useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { t } from '../../../shared/i18n/strings';
import { writeVmd } from '../../../shared/vmd';
import { withFakeAudio } from '../../helpers/fake-audio';
import { answerNext, dance, editShown, memoryApi, sceneFile } from './scene-fixtures';

let files: Map<string, Uint8Array>;

withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/b.vmd', dance(20)],
    // Actor 1 stands off the origin in the file (values with fractions: undo must give them back exactly).
    [
      '/s/duet.vmdscene',
      sceneFile({
        actors: [
          { name: 'Miku', model: null, motion: 'a.vmd' },
          { name: 'Luka', model: null, motion: 'b.vmd', stage: { position: [-7.25, 0.5, 3.125], turn: 33.3 } },
        ],
      }),
    ],
  ]);
  setApi(memoryApi(files).api);
});

async function duet() {
  const scene = useSceneStore();
  expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
  const [miku, luka] = scene.actors;
  return { scene, ws: useWorkspaceStore(), history: useHistoryStore(), miku, luka };
}

const stageOf = (id: number) => JSON.parse(JSON.stringify(useSceneStore().actors.find((e) => e.id === id)!.stage ?? null));
const savedScene = (p: string) => JSON.parse(new TextDecoder().decode(files.get(p)!));

describe('stage edits in the undo history', () => {
  it('one edit is one step: undo restores the exact previous stage and the clean scene, redo the edit', async () => {
    const { scene, history, luka } = await duet();
    expect(scene.sceneChanged).toBe(false);
    expect(history.canUndo).toBe(false);

    expect(scene.setStage(luka.id, { position: [12, 0.5, 3.125], turn: 33.3 })).toBe(true);
    expect(stageOf(luka.id)).toEqual({ position: [12, 0.5, 3.125], turn: 33.3 });
    expect(history.depth).toBe(1);
    expect(history.undoLabel).toBe('staging');
    expect(history.undoDoc).toBe('Luka');
    expect(editLabel(history.undoLabel, (k) => t(k, 'ja'))).toBe('立ち位置の変更');
    expect(editLabel(history.undoLabel, (k) => t(k, 'en'))).toBe('staging');
    expect(scene.sceneChanged).toBe(true);
    expect(document.title).toContain('*');
    // No motion document was touched.
    expect(scene.entries.every((e) => !e.dirty)).toBe(true);

    // The same values again are no step.
    expect(scene.setStage(luka.id, { position: [12, 0.5, 3.125], turn: 33.3 })).toBe(false);
    expect(history.depth).toBe(1);

    expect(history.undo()).toBe(true);
    expect(stageOf(luka.id)).toEqual({ position: [-7.25, 0.5, 3.125], turn: 33.3 });
    expect(scene.sceneChanged).toBe(false);
    expect(document.title).not.toContain('*');
    expect(history.canUndo).toBe(false);
    expect(history.redoLabel).toBe('staging');

    expect(await history.redoSliced()).toBe(true);
    expect(stageOf(luka.id)).toEqual({ position: [12, 0.5, 3.125], turn: 33.3 });
    expect(scene.sceneChanged).toBe(true);

    // Saved: the file holds the redone stage, and the scene is clean.
    expect(await scene.saveTo('/s/duet.vmdscene', true)).toBe(true);
    expect(savedScene('/s/duet.vmdscene').actors[1].stage).toEqual({ position: [12, 0.5, 3.125], turn: 33.3 });
    expect(scene.sceneChanged).toBe(false);
    // Undo past the save makes it unsaved again; redo back to it, clean.
    history.undo();
    expect(scene.sceneChanged).toBe(true);
    history.redo();
    expect(scene.sceneChanged).toBe(false);
  });

  it('Reset (back to the origin) is a step too: undo gives the stage back, and a stage at the origin is written as none', async () => {
    const { scene, history, luka } = await duet();
    expect(scene.setStage(luka.id, undefined)).toBe(true);
    expect(stageOf(luka.id)).toBeNull();
    expect(scene.current().actors[1].stage).toBeUndefined();
    history.undo();
    expect(stageOf(luka.id)).toEqual({ position: [-7.25, 0.5, 3.125], turn: 33.3 });
    // Zeros are the origin: no stage kept.
    history.redo();
    expect(scene.setStage(luka.id, { position: [0, 0, 0], turn: 0 })).toBe(false);
  });

  it('interleaved with motion edits, undo and redo go in the order the edits were made', async () => {
    const { scene, ws, history, miku, luka } = await duet();
    expect(ws.activeId).toBe(miku.id);
    const motionBefore = ws.get(miku.id)!.doc;

    editShown('bone'); // 1: a curve of Miku's motion
    const motionAfter = ws.get(miku.id)!.doc;
    expect(motionAfter).not.toBe(motionBefore);
    expect(scene.setStage(miku.id, { position: [5, 0, 0], turn: 0 })).toBe(true); // 2
    expect(scene.setStage(luka.id, { position: [-7.25, 0.5, 3.125], turn: 90 })).toBe(true); // 3
    expect(history.depth).toBe(3);
    expect(history.undoStack.map((s) => s.kind)).toEqual(['doc', 'scene', 'scene']);

    // 3 back: Luka's turn, nothing else.
    history.undo();
    expect(stageOf(luka.id)).toEqual({ position: [-7.25, 0.5, 3.125], turn: 33.3 });
    expect(stageOf(miku.id)).toEqual({ position: [5, 0, 0], turn: 0 });
    expect(ws.get(miku.id)!.doc).toBe(motionAfter);
    expect(history.undoLabel).toBe('staging');
    expect(history.undoDoc).toBe('Miku');
    // 2 back: Miku at the origin again; the motion still edited (and unsaved).
    history.undo();
    expect(stageOf(miku.id)).toBeNull();
    expect(ws.get(miku.id)!.dirty).toBe(true);
    expect(scene.sceneChanged).toBe(false);
    expect(history.undoLabel).toBe('curve');
    // 1 back: the motion's edit, its document clean.
    history.undo();
    expect(ws.get(miku.id)!.dirty).toBe(false);
    expect(writeVmd(ws.get(miku.id)!.doc)).toEqual(writeVmd(motionBefore));
    expect(writeVmd(motionAfter)).not.toEqual(writeVmd(motionBefore));
    expect(history.canUndo).toBe(false);

    // Forward in the same order.
    history.redo();
    expect(ws.get(miku.id)!.dirty).toBe(true);
    expect(stageOf(miku.id)).toBeNull();
    history.redo();
    expect(stageOf(miku.id)).toEqual({ position: [5, 0, 0], turn: 0 });
    expect(stageOf(luka.id)).toEqual({ position: [-7.25, 0.5, 3.125], turn: 33.3 });
    history.redo();
    expect(stageOf(luka.id)).toEqual({ position: [-7.25, 0.5, 3.125], turn: 90 });
    expect(history.canRedo).toBe(false);

    // A new edit after an undo drops its own part's redo steps (Luka's turn); Miku's stay, and redo in order.
    history.undo();
    history.undo();
    history.undo();
    expect(history.redoStack.map((s) => s.kind)).toEqual(['scene', 'scene', 'doc']);
    expect(scene.setStage(luka.id, { position: [0, 0, 1], turn: 0 })).toBe(true);
    expect(history.redoStack.map((s) => [s.kind, stepOwner(s)])).toEqual([
      ['scene', miku.id],
      ['doc', miku.id],
    ]);
    expect(history.undoStack.map((s) => s.kind)).toEqual(['scene']);
    expect(ws.get(miku.id)!.dirty).toBe(false);
    history.redo();
    expect(ws.get(miku.id)!.dirty).toBe(true);
    history.redo();
    expect(stageOf(miku.id)).toEqual({ position: [5, 0, 0], turn: 0 });
    expect(stageOf(luka.id)).toEqual({ position: [0, 0, 1], turn: 0 });
    expect(history.canRedo).toBe(false);
  });

  it('an actor taken out of the scene comes back by undo with its stage, then its stage steps undo; another scene starts an empty history', async () => {
    const { scene, history, miku, luka } = await duet();
    scene.setStage(miku.id, { position: [1, 0, 0], turn: 0 });
    scene.setStage(luka.id, { position: [2, 0, 0], turn: 0 });
    expect(scene.removeEntry(luka.id)).toBe(true);
    expect(history.depth).toBe(3);
    expect(history.undoLabel).toBe('remove actor');
    history.undo();
    expect(stageOf(luka.id)).toEqual({ position: [2, 0, 0], turn: 0 });
    history.undo();
    expect(stageOf(luka.id)).toEqual({ position: [-7.25, 0.5, 3.125], turn: 33.3 }); // as the file has it
    expect(history.undoDoc).toBe('Miku');
    history.undo();
    expect(stageOf(miku.id)).toBeNull();
    history.redo();
    const reopened = scene.openPath('/s/duet.vmdscene');
    await answerNext('discard');
    expect(await reopened).toBe(true);
    expect(history.canUndo).toBe(false);
    expect(history.canRedo).toBe(false);
  });

  it('the Stage panel: a typed value is one step; a press held on a field (the spinner stepping) is one step however many values it went through', async () => {
    const { history, luka } = await duet();
    const w = mount(StagePanel);
    const field = (i: number, id: string) => w.get(`[data-testid="stage-actor"][data-actor="${i}"] [data-testid="${id}"]`);
    const commitValue = async (i: number, id: string, v: string) => {
      const el = field(i, id).element as HTMLInputElement;
      el.value = v;
      await field(i, id).trigger('change');
    };

    // Typed: two values, two steps.
    await commitValue(0, 'stage-x', '4');
    await commitValue(0, 'stage-y', '2');
    expect(history.depth).toBe(2);

    // Held: three values while pressed, applied live, one step on release.
    await field(1, 'stage-turn').trigger('pointerdown');
    for (const v of ['34.3', '35.3', '36.3']) await commitValue(1, 'stage-turn', v);
    expect(stageOf(luka.id)).toEqual({ position: [-7.25, 0.5, 3.125], turn: 36.3 });
    expect(history.depth).toBe(2);
    window.dispatchEvent(new Event('pointerup'));
    expect(history.depth).toBe(3);
    history.undo();
    expect(stageOf(luka.id)).toEqual({ position: [-7.25, 0.5, 3.125], turn: 33.3 });
    await w.vm.$nextTick();
    expect((field(1, 'stage-turn').element as HTMLInputElement).value).toBe('33.3');
    history.redo();
    expect(stageOf(luka.id)!.turn).toBe(36.3);

    // A press that changes nothing (a click into the field to type) is no step; what is typed after it is one.
    await field(1, 'stage-x').trigger('pointerdown');
    window.dispatchEvent(new Event('pointerup'));
    expect(history.depth).toBe(3);
    await commitValue(1, 'stage-x', '8');
    expect(history.depth).toBe(4);
    // Not a number: no step, the field shows the stored value again.
    await commitValue(1, 'stage-x', '');
    expect(history.depth).toBe(4);
    expect((field(1, 'stage-x').element as HTMLInputElement).value).toBe('8');

    // Reset is one step; undo puts every field back.
    await w.get('[data-testid="stage-actor"][data-actor="1"] [data-testid="stage-reset"]').trigger('click');
    expect(stageOf(luka.id)).toBeNull();
    history.undo();
    expect(stageOf(luka.id)).toEqual({ position: [8, 0.5, 3.125], turn: 36.3 });
    w.unmount();
  });

  it('the Stage panel marks the shown actor’s row (report nustage 10: with four actors listed, which one the editor held was not said), and follows the tabs', async () => {
    const { scene, miku, luka } = await duet();
    const w = mount(StagePanel);
    const marks = () => w.findAll('[data-testid="stage-actor"]').map((r) => [r.attributes('data-shown'), r.find('[data-testid="stage-shown"]').exists() ? r.find('[data-testid="stage-shown"]').text() : null]);
    expect(scene.shownActorId).toBe(miku.id);
    expect(marks()).toEqual([['true', 'shown'], ['false', null]]);
    scene.activate(luka.id);
    await w.vm.$nextTick();
    expect(marks()).toEqual([['false', null], ['true', 'shown']]);
    expect(w.get('[data-testid="stage-actor"][data-shown="true"]').attributes('aria-current')).toBe('true');
    w.unmount();
  });
});
