// Every way of opening a file asks what Open… and a drop ask (shell/pose-apply.ts through app-actions.ts
// openAny): a file handed over as `fileOpened` (a second instance, a double-click, the native menu's Open
// Recent: App.vue passes it to openHandedOver) and the in-app Open Recent (runCommand 'openRecent') over an
// open scene offer Load onto the actor / Add as a new actor / open it on its own / Cancel, and a pose Apply;
// with nothing open a file handed over (the command line at start) just opens.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { writeVmd } from '../../../shared/vmd';
import { openHandedOver, runCommand } from '../../../renderer/src/shell/commands';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { dance, memoryScene } from '../stores/scene-fixtures';

const MIKU = dance(5, '初音ミク');
const GENE = dance(9, 'ジェネ / Gene');

/** Waits for the question, checks its answers (choices, in order) and gives `choice`. */
async function answer(choices: string[], choice: string): Promise<void> {
  const confirm = useConfirmStore();
  await vi.waitFor(() => expect(confirm.current).not.toBeNull());
  expect(confirm.current!.buttons.map((b) => b.choice)).toEqual(choices);
  confirm.answer(choice as never);
}

describe('every way of opening a file asks the same question', () => {
  it('a file handed over at start with nothing open just opens; one handed over later (second instance, double-click, native Open Recent) asks: Cancel keeps the scene, Load onto the actor loads it as one undo step', async () => {
    memoryScene([
      ['/s/dance.vmd', MIKU],
      ['/s/stand.vmd', GENE],
    ]);
    const ws = useWorkspaceStore();
    const scene = useSceneStore();
    // At start, nothing open: no question.
    expect(await openHandedOver('/s/dance.vmd')).toBe(true);
    expect(useConfirmStore().current).toBeNull();
    expect(ws.fileName).toBe('dance.vmd');

    // Later, over the open dance: asked. Cancel changes nothing.
    let opened = openHandedOver('/s/stand.vmd');
    await answer(['add', 'load', 'discard', 'cancel'], 'cancel');
    expect(await opened).toBe(false);
    expect(Buffer.from(writeVmd(ws.doc!)).equals(Buffer.from(MIKU))).toBe(true);

    // Load onto the actor: one undo step (the header's model name: app-actions.test.ts).
    opened = openHandedOver('/s/stand.vmd');
    await answer(['add', 'load', 'discard', 'cancel'], 'load');
    expect(await opened).toBe(true);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['dance.vmd']);
    expect(useHistoryStore().undoLabel).toBe('load motion stand.vmd');
    expect(Buffer.from(ws.doc!.bone.bytes).equals(Buffer.from(GENE.subarray(54, 54 + 3 * 111)))).toBe(true);

    // Undo gives the dance's bytes back.
    useHistoryStore().undo();
    expect(Buffer.from(writeVmd(ws.doc!)).equals(Buffer.from(MIKU))).toBe(true);
  });

  it('Open Recent (the in-app list) over an open scene asks too: Add as a new actor; open it on its own replaces the scene', async () => {
    memoryScene([
      ['/s/dance.vmd', MIKU],
      ['/s/stand.vmd', GENE],
    ]);
    const scene = useSceneStore();
    await runCommand('openRecent', '/s/dance.vmd');
    expect(useConfirmStore().current).toBeNull();
    let run = runCommand('openRecent', '/s/stand.vmd');
    await answer(['add', 'load', 'discard', 'cancel'], 'add');
    await run;
    expect(scene.actors.map((e) => e.fileName)).toEqual(['dance.vmd', 'stand.vmd']);
    // stand.vmd is open now (one file, one owner): shown, or added as an unsaved copy, or opened on its own
    // (the untitled two-actor scene is unsaved: Save All and Open, or Open and Discard).
    run = runCommand('openRecent', '/s/stand.vmd');
    await answer(['show', 'copy', 'save', 'discard', 'cancel'], 'discard');
    await run;
    expect(scene.entries.map((e) => e.fileName)).toEqual(['stand.vmd']);
  });

  it.skipIf(!corpusPresent)('a pose handed over (or from Open Recent) over an open motion asks to apply it to the actor at the playhead', async () => {
    const vpd = new Uint8Array(readFileSync(corpusPath('threejs/vpds/01.vpd')));
    memoryScene([
      ['/s/dance.vmd', MIKU],
      ['/s/01.vpd', vpd],
    ]);
    const ws = useWorkspaceStore();
    expect(await openHandedOver('/s/dance.vmd')).toBe(true);
    const opened = openHandedOver('/s/01.vpd');
    await answer(['apply', 'discard', 'cancel'], 'apply');
    expect(await opened).toBe(true);
    expect(ws.fileName).toBe('dance.vmd');
    expect(useHistoryStore().undoLabel).toBe('apply pose 01.vpd at 0');
    // Now unsaved: Save All and Open is offered too.
    const run = runCommand('openRecent', '/s/01.vpd');
    await answer(['apply', 'save', 'discard', 'cancel'], 'cancel');
    await run;
    expect(useHistoryStore().depth).toBe(1);
  });
});
