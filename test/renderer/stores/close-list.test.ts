// Closing a scene with several unsaved parts (report nustage finding 8): it asked once per document and then the
// scene file (six questions for four actors, a camera and the scene), and the scene's question did not say what
// had changed in it. Now one question lists them — each actor's name and file, the camera, the scene file with
// what changed — with Save All / Don't Save / Choose for Each… / Cancel; a lone unsaved part keeps its own question.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { writeVmd } from '../../../shared/vmd';
import { setApi } from '../../../renderer/src/api';
import { askEachBeforeClose, runCommand } from '../../../renderer/src/shell/commands';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { renderText } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { withFakeAudio } from '../../helpers/fake-audio';
import { answerNext, cameraVmd, dance, editShown, memoryApi, sceneFile } from './scene-fixtures';

let files: Map<string, Uint8Array>;
let original: Map<string, Uint8Array>;
let fake: ReturnType<typeof memoryApi>;

withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/b.vmd', dance(20)],
    ['/s/camera.vmd', cameraVmd()],
    ['/s/song.wav', new TextEncoder().encode('RIFF')],
    [
      '/s/stage.vmdscene',
      sceneFile({
        actors: [
          { name: 'Gene', model: null, motion: 'a.vmd' },
          { name: 'Miku', model: null, motion: 'b.vmd' },
        ],
        camera: 'camera.vmd',
        audio: { path: 'song.wav', offsetFrames: 0, volume: 1, muted: false },
      }),
    ],
  ]);
  original = new Map([...files].map(([k, v]) => [k, v.slice()]));
  fake = memoryApi(files);
  setApi(fake.api);
});

const saves = () => fake.calls.filter((c) => c.name === 'saveFile' || c.name === 'saveScene').map((c) => c.args[0]);
const sceneOnDisk = () => JSON.parse(new TextDecoder().decode(files.get('/s/stage.vmdscene')!));

/** The open question's lines, in `locale`. */
const items = (locale: 'en' | 'ja' = 'en') => (useConfirmStore().current?.items ?? []).map((x) => renderText(x, locale));
const buttons = () => useConfirmStore().current!.buttons.map((b) => renderText({ key: b.label }, 'en'));

describe('closing a scene with several unsaved parts asks once, listing them', () => {
  beforeEach(async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/stage.vmdscene')).toBe(true);
    expect(useMusicStore().loaded).toBe(true);
    expect(scene.anyDirty).toBe(false);
  });

  /** Both actors edited and the song's offset moved to 15: three unsaved parts. */
  function editThree() {
    const scene = useSceneStore();
    const [gene, miku] = scene.entries;
    scene.activate(gene.id);
    editShown('bone');
    scene.activate(miku.id);
    editShown('bone');
    useMusicStore().setOffset(15);
    return scene.entries.map((e) => writeVmd(useWorkspaceStore().get(e.id)!.doc));
  }

  it('one question naming each actor with its file and the scene file with what changed; Save All writes the three', async () => {
    const edited = editThree();
    const done = askEachBeforeClose();
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    expect(renderText(useConfirmStore().current!.message, 'en')).toBe('Save the changes to these before closing? Don’t Save closes without writing any of them.');
    expect(items()).toEqual(['Actor Gene: a.vmd', 'Actor Miku: b.vmd', 'Scene file stage.vmdscene: music offset']);
    expect(items('ja')).toEqual(['アクター Gene: a.vmd', 'アクター Miku: b.vmd', 'シーンファイル stage.vmdscene: 音楽のオフセット']);
    expect(buttons()).toEqual(['Save All', "Don't Save", 'Choose for Each…', 'Cancel']);
    useConfirmStore().answer('save');
    expect(await done).toBe(true);
    // No second question: everything was written in one go.
    expect(useConfirmStore().current).toBeNull();
    expect(saves().sort()).toEqual(['/s/a.vmd', '/s/b.vmd', '/s/stage.vmdscene']);
    expect(files.get('/s/a.vmd')).toEqual(edited[0]);
    expect(files.get('/s/b.vmd')).toEqual(edited[1]);
    expect(sceneOnDisk().audio.offsetFrames).toBe(15);
    expect(files.get('/s/camera.vmd')).toEqual(original.get('/s/camera.vmd'));
    expect(useSceneStore().anyDirty).toBe(false);
  });

  it('Don’t Save closes with nothing written; Cancel keeps everything unsaved and asks nothing more', async () => {
    editThree();
    let done = askEachBeforeClose();
    await answerNext('cancel');
    expect(await done).toBe(false);
    expect(useConfirmStore().current).toBeNull();
    expect(useSceneStore().unsavedNames).toEqual(['a.vmd', 'b.vmd', 'stage.vmdscene']);
    done = askEachBeforeClose();
    await answerNext('discard');
    expect(await done).toBe(true);
    expect(useConfirmStore().current).toBeNull();
    expect(saves()).toEqual([]);
    expect([...files]).toEqual([...original]);
  });

  it('Close Scene asks the one question too; Don’t Save empties the window', async () => {
    editThree();
    const done = runCommand('closeScene');
    await answerNext('discard');
    await done;
    expect(useConfirmStore().current).toBeNull();
    expect(useSceneStore().entries).toEqual([]);
    expect(saves()).toEqual([]);
  });

  it('Choose for Each… asks per document, the scene’s question saying what changed in it', async () => {
    editThree();
    useSceneStore().setStage(useSceneStore().entries[1].id, { position: [5, 0, 0], turn: 45 });
    const done = askEachBeforeClose();
    await answerNext('each');
    expect(await answerNext('discard')).toBe('Save the changes to Gene: a.vmd before closing?');
    expect(await answerNext('discard')).toBe('Save the changes to Miku: b.vmd before closing?');
    expect(await answerNext('save')).toBe('Save the changes to stage.vmdscene (stage of Miku · music offset) before closing?');
    expect(await done).toBe(true);
    expect(saves()).toEqual(['/s/stage.vmdscene']);
    expect(sceneOnDisk().actors[1].stage).toEqual({ position: [5, 0, 0], turn: 45 });
  });

  it('a lone unsaved document keeps Save / Don’t Save / Cancel naming it, with no list', async () => {
    const scene = useSceneStore();
    scene.activate(scene.entries[0].id);
    editShown('bone');
    const done = askEachBeforeClose();
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    expect(buttons()).toEqual(['Save', "Don't Save", 'Cancel']);
    expect(useConfirmStore().current!.items).toBeUndefined();
    expect(await answerNext('save')).toBe('Save the changes to Gene: a.vmd before closing?');
    expect(await done).toBe(true);
    expect(saves()).toEqual(['/s/a.vmd']);
  });
});
