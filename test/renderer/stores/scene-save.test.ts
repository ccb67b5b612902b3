// The scene as a project (nuvideo pass): Save (Ctrl+S) after a scene-only change writes the scene file, and says
// "no unsaved changes", not "no file is open", when nothing is; a song dropped (no path) over a scene whose song
// is missing is left out of the written file with a notice, not saved under the old path; the music's offset,
// volume and mute are the opened scene's; Close Scene asks as closing does, then leaves the window empty.
import { describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../../renderer/src/shell/commands';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { withFakeAudio } from '../../helpers/fake-audio';
import { answerNext, dance, editShown, memoryApi, sceneFile } from './scene-fixtures';
import { setApi } from '../../../renderer/src/api';

let files: Map<string, Uint8Array>;
let fake: ReturnType<typeof memoryApi>;
const song = () => new TextEncoder().encode('RIFF');
const written = (p: string) => JSON.parse(new TextDecoder().decode(files.get(p)!));
const lastNotice = () => renderText(useNotifyStore().items.at(-1)!.text!, 'en');
const saves = () => fake.calls.filter((c) => c.name === 'saveFile' || c.name === 'saveScene').map((c) => c.args[0]);

withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/b.vmd', dance(20)],
    ['/s/song.wav', song()],
    ['/s/duet.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }, { model: null, motion: 'b.vmd' }] })],
    ['/s/offset.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }], audio: { path: 'song.wav', offsetFrames: 30, volume: 0.5, muted: true } })],
    ['/s/no-song.vmdscene', sceneFile({ actors: [{ model: null, motion: 'b.vmd' }] })],
    ['/s/lost-song.vmdscene', sceneFile({ actors: [{ model: null, motion: 'b.vmd' }], audio: { path: 'gone.wav', offsetFrames: 12, volume: 1, muted: false } })],
  ]);
  fake = memoryApi(files);
  setApi(fake.api);
});

describe('Save of an edited scene (Ctrl+S, File → Save)', () => {
  it('a scene-only change (an actor hidden) is written to the scene file; then Save says there are no unsaved changes', async () => {
    const scene = useSceneStore();
    // Nothing open: that is what Save says then (and only then).
    await runCommand('save');
    expect(lastNotice()).toBe('Nothing to save: no file is open');
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    scene.setHidden(scene.actors[0].id, true);
    expect(scene.sceneChanged).toBe(true);
    await runCommand('save');
    expect(saves()).toEqual(['/s/duet.vmdscene']);
    expect(written('/s/duet.vmdscene').actors.map((a: { hidden?: boolean }) => !!a.hidden)).toEqual([true, false]);
    expect(scene.anyDirty).toBe(false);
    await runCommand('save');
    expect(saves()).toEqual(['/s/duet.vmdscene']);
    expect(lastNotice()).toBe('Nothing to save: no unsaved changes');
  });

  it('an edited document and the scene file: both are written by one Save', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    scene.setHidden(scene.actors[1].id, true);
    editShown('bone');
    await runCommand('save');
    expect(saves().sort()).toEqual(['/s/a.vmd', '/s/duet.vmdscene']);
    expect(scene.anyDirty).toBe(false);
  });
});

describe('the music of the scene opened', () => {
  it('offset, volume and mute are the opened scene’s, with no song or a missing one too', async () => {
    const scene = useSceneStore();
    const music = useMusicStore();
    expect(await scene.openPath('/s/offset.vmdscene')).toBe(true);
    expect([music.offsetFrames, music.volume, music.muted]).toEqual([30, 0.5, true]);
    expect(await scene.openPath('/s/no-song.vmdscene')).toBe(true);
    expect([music.offsetFrames, music.volume, music.muted]).toEqual([0, 1, false]);
    expect(await scene.openPath('/s/offset.vmdscene')).toBe(true);
    expect(await scene.openPath('/s/lost-song.vmdscene')).toBe(true);
    expect(music.offsetFrames).toBe(12);
  });

  it('a song dropped (no path) over a scene whose song is missing: the scene is unsaved, Save Scene leaves music out and says why', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/lost-song.vmdscene')).toBe(true);
    expect(scene.sceneChanged).toBe(false);
    expect(await useMusicStore().loadBytes('dropped.wav', song())).toBe(true);
    expect(scene.sceneChanged).toBe(true);
    expect(await scene.saveTo('/s/lost-song.vmdscene', true)).toBe(true);
    expect(written('/s/lost-song.vmdscene').audio).toBeNull();
    expect(lastNotice()).toContain('dropped.wav: a song dropped on the window has no path the scene file could name');
    // One with a path (chosen with ♪ Music…, or dropped in Electron) is written by it.
    expect(await useMusicStore().loadBytes('song.wav', song(), '/s/song.wav')).toBe(true);
    expect(await scene.saveTo('/s/lost-song.vmdscene', true)).toBe(true);
    expect(written('/s/lost-song.vmdscene').audio.path).toBe('song.wav');
  });
});

describe('Close Scene', () => {
  it('asks about the unsaved document and the scene file in one question (Cancel keeps it); Don’t Save leaves the window empty', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    expect(await scene.openPath('/s/offset.vmdscene')).toBe(true);
    editShown('bone');
    scene.setHidden(scene.actors[0].id, true);
    let done = runCommand('closeScene');
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    expect(useConfirmStore().current!.items!.map((x) => renderText(x, 'en'))).toEqual(['Actor a: a.vmd', 'Scene file offset.vmdscene: shown/hidden: a']);
    expect(await answerNext('cancel')).toBe('Save the changes to these before closing? Don’t Save closes without writing any of them.');
    await done;
    expect(scene.entries.length).toBe(1);
    done = runCommand('closeScene');
    await answerNext('discard');
    await done;
    expect(saves()).toEqual([]);
    expect(scene.entries).toEqual([]);
    expect(ws.isOpen).toBe(false);
    expect(scene.path).toBeNull();
    expect(useMusicStore().loaded).toBe(false);
    expect(useMusicStore().offsetFrames).toBe(0);
    expect(useHistoryStore().canUndo).toBe(false);
    expect(document.title).toBe('VMD Studio');
  });
});
