// Scene data that went without a question (issue 30 §2), in the stores: an untitled scene of a motion, a
// camera and music closes with a question and its title says unsaved; Save All on it asks the scene file's
// name and writes it; another scene drops the previous one's music; an actor whose model is missing shows no
// previous model; "not included" is said only of documents the file does not name; and (issue 24 §4) Save
// of an unedited document writes nothing; a lone motion placed on the stage, or with music beside it, is an
// untitled scene (the title, the status bar, the close and replace questions, Save All), and a lone motion
// again once the stage or the music is taken away.
import { describe, expect, it, vi } from 'vitest';
import { askEachBeforeClose, openHandedOver, runCommand } from '../../../renderer/src/shell/commands';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { withFakeAudio } from '../../helpers/fake-audio';
import { answerNext, cameraVmd, dance, editShown, memoryApi, sceneFile } from './scene-fixtures';
import { setApi } from '../../../renderer/src/api';

let files: Map<string, Uint8Array>;
let fake: ReturnType<typeof memoryApi>;
const song = () => new TextEncoder().encode('RIFF');

withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/b.vmd', dance(20)],
    ['/s/camera.vmd', cameraVmd()],
    ['/s/song.wav', song()],
    ['/s/other.wav', song()],
    ['/s/with-song.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }], audio: { path: 'song.wav', offsetFrames: 0, volume: 1, muted: false } })],
    ['/s/no-song.vmdscene', sceneFile({ actors: [{ model: null, motion: 'b.vmd' }] })],
    ['/s/lost-song.vmdscene', sceneFile({ actors: [{ model: null, motion: 'b.vmd' }], audio: { path: 'gone.wav', offsetFrames: 0, volume: 1, muted: false } })],
    ['/s/miku.vmdscene', sceneFile({ actors: [{ model: '/m/miku.pmx', motion: 'a.vmd' }] })],
    ['/s/lost-model.vmdscene', sceneFile({ actors: [{ model: '/m/gone.pmx', motion: 'b.vmd' }] })],
    ['/m/miku.pmx', new Uint8Array([1])],
  ]);
  fake = memoryApi(files);
  setApi(fake.api);
});

/**
 * Save All on an untitled scene of a.vmd: the dialog asks the scene file's name (suggesting a.vmdscene), gets
 * `target`; returns the scene file written there, parsed.
 */
/**
 * Save All (or Save) asking the scene's name: the dialog proposes `proposed` (an untitled scene is named after
 * its song, else scene.vmdscene), says why, and `target` is picked.
 */
async function saveAllAsScene(target: string, command: 'saveAll' | 'save' = 'saveAll', proposed = 'song.vmdscene') {
  const done = runCommand(command);
  await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('scene'));
  expect(fileDialogState.request!.fileName).toBe(proposed);
  // The dialog says why Save asks for a scene.
  expect(fileDialogState.request!.note).toBe(
    'Save (Ctrl+S) saves the whole scene: the song, its offset and where each actor stands are kept only in a scene file (.vmdscene), which names the model, the dance and the song, as MMD’s project file. The dance itself stays in its own .vmd.',
  );
  fileDialogState.resolve!({ path: target, overwrite: false });
  await done;
  return JSON.parse(new TextDecoder().decode(files.get(target)!));
}

/** What the status bar says of saving (StatusBar.vue shows this line), in `locale`. */
function statusLine(locale: 'en' | 'ja' = 'en'): string {
  const settings = useSettingsStore();
  settings.settings.locale = locale;
  const s = useSceneStore().saveStatus;
  const line = settings.t(s.key, s.params);
  settings.settings.locale = 'en';
  return line;
}

/**
 * a.vmd, unedited, is an untitled scene with unsaved content: the title shows * on the scene, the status bar
 * says the motion file is saved and the scene is not (English and Japanese), and closing asks about the scene.
 */
async function expectUnsavedUntitled(line = { en: 'Unsaved changes in Untitled scene', ja: '未保存の変更あり: 無題のシーン' }, closeLine = 'Save the changes to Untitled scene (actors and their models, camera, music, stages) before closing?') {
  const scene = useSceneStore();
  expect(scene.entries.every((e) => !e.dirty)).toBe(true);
  expect(scene.untitled).toBe(true);
  expect(scene.sceneChanged).toBe(true);
  expect(scene.unsavedNames).toEqual(['Untitled scene']);
  expect(document.title).toBe('Untitled scene * — a.vmd — VMD Studio');
  expect(scene.saveStatus.unsaved).toBe(true);
  expect(statusLine()).toBe(line.en);
  expect(statusLine('ja')).toBe(line.ja);
  const done = askEachBeforeClose();
  expect(await answerNext('cancel')).toBe(closeLine);
  expect(await done).toBe(false);
}

/** An untitled scene: a motion, a camera VMD beside it, and music. */
async function untitledScene() {
  const scene = useSceneStore();
  expect(await scene.openPath('/s/a.vmd')).toBe(true);
  expect(await scene.addDocument('/s/camera.vmd')).toBe(true);
  expect(await useMusicStore().loadBytes('song.wav', song(), '/s/song.wav')).toBe(true);
  return scene;
}

describe('scene data is not lost without a question', () => {
  it('an untitled scene with music closes with a question naming it, and its title says unsaved', async () => {
    const scene = await untitledScene();
    expect(scene.entries.every((e) => !e.dirty)).toBe(true);
    expect(document.title).toBe('Untitled scene * — camera.vmd — VMD Studio');
    expect(scene.unsavedNames).toEqual(['Untitled scene']);
    const done = askEachBeforeClose();
    expect(await answerNext('cancel')).toBe('Save the changes to Untitled scene (actors and their models, camera, music, stages) before closing?');
    expect(await done).toBe(false);
  });

  it('Save All on an untitled scene asks the scene file’s name and writes it, naming both documents and the music', async () => {
    await untitledScene();
    const saved = await saveAllAsScene('/s/a.vmdscene');
    expect(saved.actors.map((a: { motion: string }) => a.motion)).toEqual(['a.vmd']);
    expect(saved.camera).toBe('camera.vmd');
    expect(saved.audio.path).toBe('song.wav');
    expect(useSceneStore().anyDirty).toBe(false);
    expect(document.title).not.toContain('*');
  });

  it('another scene drops the previous scene’s music: with none, or one that cannot be read, Save Scene names no song of the first', async () => {
    const scene = useSceneStore();
    const music = useMusicStore();
    expect(await scene.openPath('/s/with-song.vmdscene')).toBe(true);
    expect(music.path).toBe('/s/song.wav');
    expect(await scene.openPath('/s/no-song.vmdscene')).toBe(true);
    expect(music.loaded).toBe(false);
    expect(await scene.saveTo('/s/no-song.vmdscene', true)).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(files.get('/s/no-song.vmdscene')!)).audio).toBeNull();

    expect(await scene.openPath('/s/with-song.vmdscene')).toBe(true);
    expect(await scene.openPath('/s/lost-song.vmdscene')).toBe(true);
    expect(music.loaded).toBe(false);
    expect(await scene.saveTo('/s/lost-song.vmdscene', true)).toBe(true);
    // The song it names but could not read stays named; the first scene's is not written into it.
    expect(JSON.parse(new TextDecoder().decode(files.get('/s/lost-song.vmdscene')!)).audio.path).toBe('gone.wav');
  });

  it('an actor whose model is missing shows the figure, not the previous scene’s model, and keeps its model in the file', async () => {
    const scene = useSceneStore();
    const preview = usePreviewStore();
    expect(await scene.openPath('/s/miku.vmdscene')).toBe(true);
    expect(preview.modelRequest).toEqual({ path: '/m/miku.pmx' });
    // The preview loads it.
    preview.setModel({ name: 'miku', path: '/m/miku.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    expect(await scene.openPath('/s/lost-model.vmdscene')).toBe(true);
    expect(preview.modelRequest).toEqual({ figure: true });
    preview.setModel(null);
    await Promise.resolve();
    expect(scene.actors[0].model).toBe('/m/gone.pmx');
    expect(await scene.saveTo('/s/lost-model.vmdscene', true)).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(files.get('/s/lost-model.vmdscene')!)).actors[0].model).toBe('../m/gone.pmx');
  });

  it('“not included” is said only of documents the scene file does not name', async () => {
    const scene = useSceneStore();
    const notices = () => useNotifyStore().items.map((n) => (n.text ? renderText(n.text, 'en') : ''));
    // Every motion of this scene is missing: the file still names them all.
    files.set('/s/lost.vmdscene', sceneFile({ actors: [{ model: null, motion: 'x.vmd' }, { model: null, motion: 'y.vmd' }], camera: 'z.vmd' }));
    expect(await scene.openPath('/s/lost.vmdscene')).toBe(true);
    expect(await scene.saveTo('/s/lost.vmdscene', true)).toBe(true);
    expect(notices().some((t) => t.includes('never saved'))).toBe(false);
    // A new camera never saved is not named: that one is said.
    expect(scene.addCamera()).toBe(false); // the scene has its (missing) camera document
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(scene.addCamera()).toBe(true);
    expect(await scene.saveTo('/s/new.vmdscene', false)).toBe(true);
    expect(notices().filter((t) => t.includes('never saved'))).toEqual(['1 document was never saved and is not named in the scene file: save them, then save the scene again']);
  });

  it('Save of an unedited document writes nothing (no rewrite, no .bak) and says there is nothing to save; an edited one is written', async () => {
    const scene = useSceneStore();
    const ws = useWorkspaceStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    const saves = () => fake.calls.filter((c) => c.name === 'saveFile').length;
    expect(await ws.save()).toBe(true);
    await runCommand('save');
    expect(saves()).toBe(0);
    expect(renderText(useNotifyStore().items.at(-1)!.text!, 'en')).toBe(renderText({ key: 'notify.noChanges' }, 'en'));
    editShown('bone');
    await runCommand('save');
    expect(saves()).toBe(1);
  });
});

describe('a lone motion placed on the stage is an untitled scene (issue 30: its stage was lost without a question)', () => {
  async function staged() {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(document.title).toBe('a.vmd — VMD Studio');
    expect(scene.setStage(scene.actors[0].id, { position: [10, 0, -2.5], turn: 90 })).toBe(true);
    return scene;
  }

  it('a file only opened is not said to be saved: the status line says there is nothing unsaved', async () => {
    // Seen on a first run: "Saved" in the status bar for a motion just opened, never saved.
    expect(await useSceneStore().openPath('/s/a.vmd')).toBe(true);
    expect(statusLine()).toBe('No unsaved changes');
    expect(statusLine('ja')).toBe('未保存の変更なし');
    expect(statusLine()).not.toMatch(/\bsaved\b|^Saved/);
    expect(statusLine('ja')).not.toContain('保存済み');
  });

  it('the title shows the untitled scene with *, and closing asks about it', async () => {
    await staged();
    // A lone motion: the question names what only a scene file keeps (its place on the stage).
    await expectUnsavedUntitled(undefined, 'Keep the place on the stage with a.vmd as a scene? Only a scene file (.vmdscene) keeps them together; Don’t Save loses them.');
  });

  it('opening another motion asks first; Cancel keeps the stage', async () => {
    const scene = await staged();
    const opening = scene.openPath('/s/b.vmd');
    expect(await answerNext('cancel')).toContain('Untitled scene');
    expect(await opening).toBe(false);
    expect(scene.actors[0].stage).toEqual({ position: [10, 0, -2.5], turn: 90 });
    expect(useWorkspaceStore().fileName).toBe('a.vmd');
  });

  it('Save All asks the scene file’s name and writes the stage into it; undo back to the origin is a lone motion again', async () => {
    const scene = await staged();
    const saved = await saveAllAsScene('/s/a-staged.vmdscene', 'saveAll', 'scene.vmdscene');
    expect(saved.actors).toEqual([expect.objectContaining({ motion: 'a.vmd', stage: { position: [10, 0, -2.5], turn: 90 } })]);
    expect(scene.anyDirty).toBe(false);
    expect(document.title).toBe('a-staged.vmdscene — a.vmd — VMD Studio');

    // Without a scene file, the stage put back at the origin leaves nothing only a scene file keeps.
    expect(await scene.openPath('/s/b.vmd')).toBe(true);
    expect(scene.setStage(scene.actors[0].id, { position: [0, 0, 3], turn: 0 })).toBe(true);
    expect(document.title).toBe('Untitled scene * — b.vmd — VMD Studio');
    expect(useHistoryStore().undo()).toBe(true);
    expect(scene.actors[0].stage).toBeUndefined();
    expect(scene.anyDirty).toBe(false);
    expect(document.title).toBe('b.vmd — VMD Studio');
    expect(statusLine()).toBe('No unsaved changes');
  });
});

describe('a lone motion with music beside it is an untitled scene (issue 30: the music and its offset were lost without a question)', () => {
  async function withSong() {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(document.title).toBe('a.vmd — VMD Studio');
    expect(statusLine()).toBe('No unsaved changes');
    expect(await useMusicStore().loadBytes('song.wav', song(), '/s/song.wav')).toBe(true);
    useMusicStore().setOffset(12);
    return scene;
  }

  it('the title shows the untitled scene with *, the status bar says the song and its offset are unsaved (not as if the dance’s save failed), closing asks; without the music it is a lone motion again', async () => {
    const scene = await withSong();
    await expectUnsavedUntitled(
      {
        en: 'Song and offset not saved: Save Scene As… keeps model, dance and song together',
        ja: '曲とオフセットは未保存：「シーンを保存…」でモデル・ダンス・曲をまとめて保存できます',
      },
      'Keep the song song.wav and its offset (12 frames) with a.vmd as a scene? Only a scene file (.vmdscene) keeps them together; Don’t Save loses them.',
    );

    // The music and its offset taken away again leave nothing only a scene file keeps: a lone motion, nothing to ask.
    // (The song alone removed leaves its offset, which a scene keeps: the test after this.)
    useMusicStore().unload();
    useMusicStore().setOffset(0);
    expect(scene.untitled).toBe(false);
    expect(scene.anyDirty).toBe(false);
    expect(scene.unsavedNames).toEqual([]);
    expect(document.title).toBe('a.vmd — VMD Studio');
    expect(scene.saveStatus.unsaved).toBe(false);
    expect(statusLine()).toBe('No unsaved changes');
    expect(await askEachBeforeClose()).toBe(true);
    expect(useConfirmStore().current).toBeNull();
  });

  it('the song removed, its offset stays for the next song: still an untitled scene, the close question names the offset, Save All keeps it ("path": null), and the scene opened again gives it to the song picked next', async () => {
    const scene = await withSong();
    expect(useMusicStore().remove()).toBe(true);
    expect(useMusicStore().loaded).toBe(false);
    // Before, the offset went unsaid and the window was a lone motion again: close and Save Scene lost it.
    await expectUnsavedUntitled(
      { en: 'Music offset not saved: Save Scene As… keeps it with the dance', ja: '音楽のオフセットは未保存：「シーンを保存…」でダンスと一緒に保存できます' },
      'Keep the music offset (12 frames, kept for the next song: none is loaded) with a.vmd as a scene? Only a scene file (.vmdscene) keeps them together; Don’t Save loses them.',
    );
    // No song to name the scene after: scene.vmdscene proposed.
    const saved = await saveAllAsScene('/s/offset.vmdscene', 'saveAll', 'scene.vmdscene');
    expect(saved.audio).toEqual({ path: null, offsetFrames: 12, volume: 1, muted: false });
    expect(scene.anyDirty).toBe(false);

    // Another motion (the offset goes with the scene), then the scene file again: its offset, no song, nothing unsaved.
    expect(await scene.openPath('/s/b.vmd')).toBe(true);
    expect(useMusicStore().offsetFrames).toBe(0);
    expect(await scene.openPath('/s/offset.vmdscene')).toBe(true);
    expect(useMusicStore().loaded).toBe(false);
    expect(useMusicStore().offsetFrames).toBe(12);
    expect(scene.anyDirty).toBe(false);
    // The song picked next takes it (another song would start at 0 otherwise), and says so.
    expect(await useMusicStore().loadBytes('other.wav', song(), '/s/other.wav', { step: true })).toBe(true);
    expect(useMusicStore().offsetFrames).toBe(12);
    expect(renderText(useMusicStore().loadedNotice(), 'en')).toBe('Music: other.wav (3.0 s); offset 12 kept (the scene’s, kept with no song)');
  });

  it('opening another motion asks first, naming the untitled scene; Cancel keeps the motion, the music and its offset', async () => {
    const scene = await withSong();
    const opening = scene.openPath('/s/b.vmd');
    const line = await answerNext('cancel');
    expect(line).toContain('Untitled scene');
    expect(line).toContain('b.vmd');
    expect(await opening).toBe(false);
    expect(useWorkspaceStore().fileName).toBe('a.vmd');
    expect(useMusicStore().path).toBe('/s/song.wav');
    expect(useMusicStore().offsetFrames).toBe(12);
  });

  it('Don’t Save when another motion opens leaves no music of the untitled scene behind: the new motion is a lone motion, nothing unsaved', async () => {
    const scene = await withSong();
    const opening = scene.openPath('/s/b.vmd');
    expect(await answerNext('discard')).toContain('Untitled scene');
    expect(await opening).toBe(true);
    expect(useWorkspaceStore().fileName).toBe('b.vmd');
    expect(useMusicStore().loaded).toBe(false);
    expect(scene.untitled).toBe(false);
    expect(scene.unsavedNames).toEqual([]);
    expect(document.title).toBe('b.vmd — VMD Studio');
    expect(statusLine()).toBe('No unsaved changes');
  });

  it('a motion opened over a saved scene with music does not carry that music over: a lone motion, not an untitled scene', async () => {
    const scene = await withSong();
    await saveAllAsScene('/s/a-song.vmdscene');
    expect(await scene.openPath('/s/b.vmd')).toBe(true);
    expect(useConfirmStore().current).toBeNull();
    expect(useMusicStore().loaded).toBe(false);
    expect(scene.path).toBeNull();
    expect(scene.anyDirty).toBe(false);
    expect(document.title).toBe('b.vmd — VMD Studio');
  });

  it('Save (Ctrl+S) is Save All here: it asks the scene file’s name, saying why, and writes the music and its offset beside the motion', async () => {
    const scene = await withSong();
    const saved = await saveAllAsScene('/s/a-song.vmdscene', 'save');
    expect(saved.actors).toEqual([expect.objectContaining({ motion: 'a.vmd' })]);
    expect(saved.audio).toEqual(expect.objectContaining({ path: 'song.wav', offsetFrames: 12 }));
    expect(scene.anyDirty).toBe(false);
    expect(document.title).toBe('a-song.vmdscene — a.vmd — VMD Studio');
    expect(statusLine()).toBe('No unsaved changes');
  });

  it('music with no motion open is no scene yet: opening a motion asks nothing, and then they are an untitled scene', async () => {
    const scene = useSceneStore();
    expect(await useMusicStore().loadBytes('song.wav', song(), '/s/song.wav')).toBe(true);
    expect(scene.untitled).toBe(false);
    expect(scene.unsavedNames).toEqual([]);
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(useConfirmStore().current).toBeNull();
    expect(document.title).toBe('Untitled scene * — a.vmd — VMD Studio');
  });
});

describe('a lone motion on a model with a song and its offset, closed (the pairing was asked about as an "Untitled scene" of actors, cameras and stages)', () => {
  /** a.vmd on miku.pmx, song.wav at offset 15, and (`edit`) one key edited in a.vmd. */
  async function paired(edit: boolean) {
    const scene = useSceneStore();
    usePreviewStore().setModel({ name: 'miku', path: '/m/miku.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(await useMusicStore().loadBytes('song.wav', song(), '/s/song.wav')).toBe(true);
    useMusicStore().setOffset(15);
    if (edit) editShown('bone');
    return scene;
  }

  it('one question names the model, the song and its offset, with Save as Scene… / Don’t Save / Cancel; Cancel keeps all of it', async () => {
    const scene = await paired(false);
    const closing = runCommand('closeScene');
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    const q = useConfirmStore().current!;
    const settings = useSettingsStore();
    expect(settings.t(q.buttons[0].label)).toBe('Save as Scene…');
    expect(q.buttons.map((b) => b.choice)).toEqual(['save', 'discard', 'cancel']);
    expect(renderText(q.message, 'ja')).toBe('このモデル（miku.pmx）、曲 song.wav、オフセット（15 フレーム）を a.vmd と一緒にシーンとして残しますか？まとめて残せるのはシーンファイル（.vmdscene）だけです。保存しないと失われます。');
    expect(await answerNext('cancel')).toBe('Keep this model (miku.pmx), the song song.wav and its offset (15 frames) with a.vmd as a scene? Only a scene file (.vmdscene) keeps them together; Don’t Save loses them.');
    await closing;
    expect(useConfirmStore().current).toBeNull();
    expect(scene.entries).toHaveLength(1);
    expect(useMusicStore().offsetFrames).toBe(15);
  });

  it('with the motion’s own keys unsaved too: still one question, which says so; Save as Scene… writes the motion, then the scene with model, song and offset', async () => {
    const scene = await paired(true);
    const before = fake.calls.length;
    const original = files.get('/s/a.vmd')!.slice();
    const closing = runCommand('closeScene');
    expect(await answerNext('save')).toBe(
      'Keep this model (miku.pmx), the song song.wav and its offset (15 frames) with a.vmd as a scene? Only a scene file (.vmdscene) keeps them together. a.vmd has unsaved changes too: Save as Scene… saves them with it; Don’t Save discards both.',
    );
    await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('scene'));
    // The motion was written over its file first.
    expect(fake.calls.slice(before).filter((c) => c.name === 'saveFile').map((c) => c.args[0])).toEqual(['/s/a.vmd']);
    fileDialogState.resolve!({ path: '/s/paired.vmdscene', overwrite: false });
    await closing;
    // No second question: the window is closed.
    expect(useConfirmStore().current).toBeNull();
    expect(scene.entries).toHaveLength(0);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/s/paired.vmdscene')!));
    expect(saved.actors).toEqual([expect.objectContaining({ model: '../m/miku.pmx', motion: 'a.vmd' })]);
    expect(saved.audio).toEqual(expect.objectContaining({ path: 'song.wav', offsetFrames: 15 }));
    files.set('/s/a.vmd', original);
  });

  it('Don’t Save closes at once, writing nothing', async () => {
    const scene = await paired(true);
    const before = fake.calls.length;
    const closing = runCommand('closeScene');
    await answerNext('discard');
    await closing;
    expect(useConfirmStore().current).toBeNull();
    expect(scene.entries).toHaveLength(0);
    expect(fake.calls.slice(before).filter((c) => c.name === 'saveFile' || c.name === 'saveScene')).toEqual([]);
  });
});

describe('an untitled scene of actors, models and a camera is unsaved (nuscene §1: Close Scene dropped it without a question)', () => {
  /** a.vmd on miku.pmx, b.vmd added (on the same model, as + Actor does), a new camera: no document edited. */
  async function built() {
    const scene = useSceneStore();
    const preview = usePreviewStore();
    preview.setModel({ name: 'miku', path: '/m/miku.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(await scene.addDocument('/s/b.vmd')).toBe(true);
    expect(scene.addCamera()).toBe(true);
    expect(scene.actors.map((a) => a.model)).toEqual(['/m/miku.pmx', '/m/miku.pmx']);
    return scene;
  }

  it('its title says unsaved and the status bar names it; Close Scene asks, Cancel keeps it, Don’t Save empties the window', async () => {
    const scene = await built();
    // No document is edited (the new camera holds no key yet): only the arrangement is unsaved.
    expect(scene.entries.every((e) => !e.dirty)).toBe(true);
    expect(scene.sceneChanged).toBe(true);
    expect(scene.unsavedNames).toEqual(['Untitled scene']);
    scene.activate(scene.actors[0].id);
    expect(document.title).toBe('Untitled scene * — a.vmd — VMD Studio');
    expect(statusLine()).toBe('Unsaved changes in Untitled scene');

    let closing = runCommand('closeScene');
    expect(await answerNext('cancel')).toBe('Save the changes to Untitled scene (actors and their models, camera, music, stages) before closing?');
    await closing;
    expect(scene.entries).toHaveLength(3);

    closing = runCommand('closeScene');
    await answerNext('discard');
    await closing;
    expect(scene.entries).toHaveLength(0);
    expect(useWorkspaceStore().isOpen).toBe(false);
  });

  it('two actors alone (no camera, no music, nothing edited) are asked about too, when closing and when another file opens', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(await scene.addDocument('/s/b.vmd')).toBe(true);
    expect(scene.entries.some((e) => e.dirty)).toBe(false);
    expect(scene.unsavedNames).toEqual(['Untitled scene']);
    expect(document.title).toBe('Untitled scene * — b.vmd — VMD Studio');
    expect(statusLine()).toBe('Unsaved changes in Untitled scene');
    expect(statusLine('ja')).toBe('未保存の変更あり: 無題のシーン');

    const closing = runCommand('closeScene');
    expect(await answerNext('cancel')).toBe('Save the changes to Untitled scene (actors and their models, camera, music, stages) before closing?');
    await closing;
    expect(scene.entries.map((e) => e.fileName)).toEqual(['a.vmd', 'b.vmd']);

    const opening = scene.openPath('/s/miku.vmdscene');
    expect(await answerNext('cancel')).toBe('Opening miku.vmdscene replaces the scene. The unsaved changes to Untitled scene will be lost.');
    expect(await opening).toBe(false);
    expect(scene.entries.map((e) => e.fileName)).toEqual(['a.vmd', 'b.vmd']);

    // Save All writes the arrangement: then nothing is unsaved.
    const done = runCommand('saveAll');
    await vi.waitFor(() => expect(fileDialogState.request?.filter).toBe('scene'));
    fileDialogState.resolve!({ path: '/s/ab.vmdscene', overwrite: false });
    await done;
    expect(JSON.parse(new TextDecoder().decode(files.get('/s/ab.vmdscene')!)).actors.map((a: { motion: string }) => a.motion)).toEqual(['a.vmd', 'b.vmd']);
    expect(scene.anyDirty).toBe(false);
    expect(await askEachBeforeClose()).toBe(true);
  });

  it('a lone motion, on a model or not, is no scene: nothing to ask', async () => {
    const scene = useSceneStore();
    usePreviewStore().setModel({ name: 'miku', path: '/m/miku.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    expect(scene.actors[0].model).toBe('/m/miku.pmx');
    expect(scene.anyDirty).toBe(false);
    expect(await askEachBeforeClose()).toBe(true);
    expect(useConfirmStore().current).toBeNull();
  });
});

describe('a saved scene whose arrangement changed is unsaved (nuscene §1)', () => {
  const modelSummary = (p: string) => ({ name: 'm', path: p, format: 'pmx' as const, bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });

  it('an actor added or removed, a model changed, a camera set: the scene file is asked about; undo back to the file clears it', async () => {
    const scene = useSceneStore();
    const preview = usePreviewStore();
    files.set('/s/duo.vmdscene', sceneFile({ actors: [{ model: '/m/miku.pmx', motion: 'a.vmd' }] }));
    expect(await scene.openPath('/s/duo.vmdscene')).toBe(true);
    preview.setModel(modelSummary('/m/miku.pmx'));
    await Promise.resolve();
    expect(scene.sceneChanged).toBe(false);

    // An actor added.
    expect(await scene.addDocument('/s/b.vmd')).toBe(true);
    expect(scene.unsavedNames).toEqual(['duo.vmdscene']);
    expect(useHistoryStore().undo()).toBe(true);
    expect(scene.sceneChanged).toBe(false);

    // The actor's model changed (Model… in the preview).
    preview.setModel(modelSummary('/m/other.pmx'));
    await vi.waitFor(() => expect(scene.actors[0].model).toBe('/m/other.pmx'));
    expect(scene.unsavedNames).toEqual(['duo.vmdscene']);
    const closing = askEachBeforeClose();
    expect(await answerNext('cancel')).toBe('Save the changes to duo.vmdscene (model of other) before closing?');
    expect(await closing).toBe(false);
    preview.setModel(modelSummary('/m/miku.pmx'));
    await vi.waitFor(() => expect(scene.sceneChanged).toBe(false));

    // A camera set.
    expect(await scene.addDocument('/s/camera.vmd')).toBe(true);
    expect(scene.cameraEntry?.fileName).toBe('camera.vmd');
    expect(scene.unsavedNames).toEqual(['duo.vmdscene']);
    expect(await scene.saveTo('/s/duo.vmdscene', true)).toBe(true);
    expect(scene.sceneChanged).toBe(false);

    // An actor removed (× on its tab).
    expect(await scene.addDocument('/s/b.vmd')).toBe(true);
    expect(await scene.saveTo('/s/duo.vmdscene', true)).toBe(true);
    expect(scene.removeEntry(scene.actors[1].id)).toBe(true);
    expect(scene.unsavedNames).toEqual(['duo.vmdscene']);
  });
});

describe('the song picked after the scene’s own is missing replaces it (nuscene §3: its offset was reset to 0 and saved so)', () => {
  it('keeps the scene’s offset, volume and mute, says so, and Save Scene writes them with the new song; a song picked after it starts at 0', async () => {
    const scene = useSceneStore();
    const music = useMusicStore();
    files.set('/s/moved.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }], audio: { path: 'song_old.wav', offsetFrames: 15, volume: 0.5, muted: true } }));
    expect(await scene.openPath('/s/moved.vmdscene')).toBe(true);
    expect(music.loaded).toBe(false);
    expect(music.offsetFrames).toBe(15);

    expect(await music.loadBytes('other.wav', song(), '/s/other.wav')).toBe(true);
    expect([music.offsetFrames, music.volume, music.muted]).toEqual([15, 0.5, true]);
    const said = music.loadedNotice();
    expect(renderText(said, 'en')).toBe('Music: other.wav (3.0 s) in place of song_old.wav, which the scene names but could not be found; kept the scene’s offset 15, volume and mute');
    expect(renderText(said, 'ja')).toBe('音楽: other.wav（3.0 秒）。シーンの song_old.wav が見つからないため、その代わりにしました。シーンのオフセット 15、音量、消音はそのままです');
    expect(await scene.saveTo('/s/moved.vmdscene', true)).toBe(true);
    const saved = JSON.parse(new TextDecoder().decode(files.get('/s/moved.vmdscene')!));
    expect(saved.audio).toEqual({ path: 'other.wav', offsetFrames: 15, volume: 0.5, muted: true });

    // Another song after the replacement is another song: offset 0, as always.
    expect(await music.loadBytes('song.wav', song(), '/s/song.wav')).toBe(true);
    expect(music.offsetFrames).toBe(0);
    expect(renderText(music.loadedNotice(), 'en')).toBe('Music: song.wav (3.0 s); offset reset to 0 (it was 15 for the previous song)');
  });

  it('a scene whose song opened, or another file opened over a scene with a missing song, has nothing to replace', async () => {
    const scene = useSceneStore();
    const music = useMusicStore();
    files.set('/s/song15.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }], audio: { path: 'song.wav', offsetFrames: 15, volume: 1, muted: false } }));
    expect(await scene.openPath('/s/song15.vmdscene')).toBe(true);
    expect(music.offsetFrames).toBe(15);
    expect(await music.loadBytes('other.wav', song(), '/s/other.wav')).toBe(true);
    expect(music.offsetFrames).toBe(0);

    files.set('/s/moved.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }], audio: { path: 'gone.wav', offsetFrames: 15, volume: 1, muted: false } }));
    // The first scene's music changed: asked, and dropped.
    const opening = scene.openPath('/s/moved.vmdscene');
    await answerNext('discard');
    expect(await opening).toBe(true);
    expect(music.offsetFrames).toBe(15);
    expect(await scene.openPath('/s/b.vmd')).toBe(true);
    expect(useConfirmStore().current).toBeNull();
    music.setOffset(20);
    expect(await music.loadBytes('song.wav', song(), '/s/song.wav')).toBe(true);
    expect(music.offsetFrames).toBe(0);
  });
});

describe('files handed over together (npm start -- dance.vmd camera.vmd)', () => {
  it('open as one scene without a question: the dance as its actor, the camera VMD as its camera document; one given later asks as Open… does, and opened on its own replaces them', async () => {
    const scene = useSceneStore();
    // As main (or the browser-mode server) sends them: back to back, before the first has opened.
    const opened = await Promise.all([openHandedOver('/s/a.vmd'), openHandedOver('/s/camera.vmd'), openHandedOver('/s/b.vmd')]);
    expect(opened).toEqual([true, true, true]);
    expect(useConfirmStore().current).toBeNull();
    expect(scene.entries.map((e) => [e.kind, e.fileName])).toEqual([
      ['actor', 'a.vmd'],
      ['actor', 'b.vmd'],
      ['camera', 'camera.vmd'],
    ]);
    // b.vmd is open already (one file, one owner): show it, add a copy, or open it on its own (the untitled
    // scene they make is unsaved: Save All and Open, or Open and Discard).
    const later = openHandedOver('/s/b.vmd');
    await vi.waitFor(() => expect(useConfirmStore().current?.buttons.map((b) => b.choice)).toEqual(['show', 'copy', 'save', 'discard', 'cancel']));
    useConfirmStore().answer('discard');
    expect(await later).toBe(true);
    expect(scene.entries.map((e) => [e.kind, e.fileName])).toEqual([['actor', 'b.vmd']]);
  });
});
