// Ctrl+W (File → Close) closes the document shown (new-user pass nuprefs 6: no key closed one, so open → edit →
// save → close could not be finished from the keyboard). In a scene it is the shown tab's ×: asked about when it has
// unsaved changes; the last document closes as Close Scene does, asked about the same way, leaving the window empty.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installKeymap } from '../../../renderer/src/shell/keymap';
import { runCommand } from '../../../renderer/src/shell/commands';
import { keysFor } from '../../../renderer/src/shell/shortcuts';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { answerNext, dance, editShown, memoryScene } from '../stores/scene-fixtures';

const duet = new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'a.vmd' }, { model: null, motion: 'b.vmd' }], camera: null, activeActor: 0 }));
const settle = () => new Promise((r) => setTimeout(r, 0));
let off: (() => void) | null = null;
afterEach(() => off?.());

describe('Ctrl+W closes the shown document', () => {
  beforeEach(() => {
    memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/b.vmd', dance(20)],
      ['/s/duet.vmdscene', duet],
    ]);
  });

  it('is Ctrl+W in the key table (F1 lists it), and the key runs the command', async () => {
    expect(keysFor({ command: 'closeDocument' })).toBe('Ctrl+W');
    const ran: string[] = [];
    off = installKeymap(window, { mac: false, commandsByMenu: () => false, runCommand: (id) => ran.push(id) });
    const e = new KeyboardEvent('keydown', { key: 'w', ctrlKey: true, bubbles: true, cancelable: true });
    document.body.dispatchEvent(e);
    expect(ran).toEqual(['closeDocument']);
    expect(e.defaultPrevented).toBe(true);
  });

  it('in a scene: the shown actor leaves (asked first when unsaved; Cancel keeps it); the other stays', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    const [a, b] = scene.entries;
    scene.activate(b.id);
    editShown('bone');
    let done = runCommand('closeDocument');
    expect(await answerNext('cancel')).toBe('Save the changes to b.vmd before removing it from the scene?');
    await done;
    expect(scene.entries.map((e) => e.fileName)).toEqual(['a.vmd', 'b.vmd']);
    done = runCommand('closeDocument');
    await answerNext('discard');
    await done;
    expect(scene.entries.map((e) => e.id)).toEqual([a.id]);
    expect(useWorkspaceStore().fileName).toBe('a.vmd');
  });

  it('a lone motion: closed (asked first when unsaved), the window left empty', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    editShown('bone');
    const done = runCommand('closeDocument');
    await settle();
    expect(useConfirmStore().current).not.toBeNull();
    await answerNext('discard');
    await done;
    expect(useWorkspaceStore().isOpen).toBe(false);
    expect(scene.entries).toEqual([]);
  });
});
