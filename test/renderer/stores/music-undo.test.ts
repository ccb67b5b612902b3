// The music's offset and its removal in the undo history (nusync finding 3): a typed offset, a waveform drag
// (placed live, one step when it ends) and × are steps of the one history the key edits share, so Ctrl+Z after
// them puts the music back and leaves the keys alone; the undo button names them in English and Japanese.
import { describe, expect, it } from 'vitest';
import { editLabel } from '../../../renderer/src/editor/edit-labels';
import { setApi } from '../../../renderer/src/api';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { t } from '../../../shared/i18n/strings';
import { writeVmd } from '../../../shared/vmd';
import { FakeAudioPlayer, monoBuffer, withFakeAudio } from '../../helpers/fake-audio';
import { dance, editShown, memoryApi } from './scene-fixtures';

withFakeAudio(
  () => {
    const p = new FakeAudioPlayer();
    p.decoded = () => monoBuffer(20, 1000, (data) => (data[2000] = 0.8));
    return p;
  },
  () => setApi(memoryApi(new Map([['/s/a.vmd', dance(10)], ['/s/other.wav', new TextEncoder().encode('RIFF')], ['/s/first.wav', new TextEncoder().encode('RIFF')]])).api),
);

const song = new TextEncoder().encode('RIFF');
const ja = (label: string) => editLabel(label, (k) => t(k, 'ja'));
const en = (label: string) => editLabel(label, (k) => t(k, 'en'));

/** A motion with one edit made (an undo step of its document), and a song loaded beside it. */
async function keyedWithSong() {
  const scene = useSceneStore();
  expect(await scene.openPath('/s/a.vmd')).toBe(true);
  const ws = useWorkspaceStore();
  const before = writeVmd(ws.doc!);
  editShown();
  const edited = writeVmd(ws.doc!);
  expect(edited).not.toEqual(before);
  const music = useMusicStore();
  expect(await music.loadBytes('song.wav', song, '/s/song.wav')).toBe(true);
  return { ws, music, history: useHistoryStore(), edited, keyLabel: useHistoryStore().undoLabel };
}

describe('music edits in the undo history', () => {
  it('a typed offset is one step: undo puts the offset back and leaves the key edit; redo makes it again', async () => {
    const { ws, music, history, edited, keyLabel } = await keyedWithSong();
    expect(history.depth).toBe(1);
    expect(music.changeOffset(12)).toBe(true);
    expect(music.offsetFrames).toBe(12);
    expect(history.depth).toBe(2);
    expect(history.undoLabel).toBe('music offset');
    expect(history.undoDoc).toBe('song.wav');
    expect(en(history.undoLabel)).toBe('music offset');
    expect(ja(history.undoLabel)).toBe('音楽のオフセット');
    // The same value again is no step.
    expect(music.changeOffset(12)).toBe(false);
    expect(history.depth).toBe(2);

    expect(history.undo()).toBe(true);
    expect(music.offsetFrames).toBe(0);
    expect(writeVmd(ws.doc!)).toEqual(edited); // the key edit is still there
    expect(history.undoLabel).toBe(keyLabel);
    expect(history.redo()).toBe(true);
    expect(music.offsetFrames).toBe(12);
  });

  it('a drag placed live is one step from where it began, whatever the values it passed', async () => {
    const { music, history } = await keyedWithSong();
    music.setOffset(-10);
    music.setOffset(-35);
    music.setOffset(-50);
    expect(history.depth).toBe(1); // live placing is no step
    expect(music.changeOffset(-50, 0)).toBe(true);
    expect(history.depth).toBe(2);
    expect(history.undo()).toBe(true);
    expect(music.offsetFrames).toBe(0);
  });

  it('× is one step: undo puts the same song back (name, length, waveform), redo takes it out again', async () => {
    const { ws, music, history, edited } = await keyedWithSong();
    music.changeOffset(45);
    const pyramid = music.pyramid();
    expect(music.remove()).toBe(true);
    expect(music.loaded).toBe(false);
    expect(history.undoLabel).toBe('remove music');
    expect(ja(history.undoLabel)).toBe('音楽を外す');
    expect(en(history.undoLabel)).toBe('remove music');

    expect(history.undo()).toBe(true);
    expect(music.loaded).toBe(true);
    expect(music.name).toBe('song.wav');
    expect(music.path).toBe('/s/song.wav');
    expect(music.duration).toBe(20);
    expect(music.pyramid()).toBe(pyramid);
    expect(music.song()).not.toBeNull();
    expect(music.offsetFrames).toBe(45);
    expect(writeVmd(ws.doc!)).toEqual(edited);
    expect(history.redo()).toBe(true);
    expect(music.loaded).toBe(false);
    // Back twice: the song, then the offset before 45.
    expect(history.undo()).toBe(true);
    expect(history.undo()).toBe(true);
    expect(music.offsetFrames).toBe(0);
    expect(writeVmd(ws.doc!)).toEqual(edited);
  });

  it('another song loaded: the music steps of the previous one leave the history, the key edits stay', async () => {
    const { music, history, keyLabel } = await keyedWithSong();
    music.changeOffset(30);
    expect(history.depth).toBe(2);
    expect(await music.loadBytes('other.wav', song, '/s/other.wav')).toBe(true);
    expect(history.depth).toBe(1);
    expect(history.undoLabel).toBe(keyLabel);
  });

  it('a song the person loads over another is one step: undo puts the first song back with its offset, its own steps below', async () => {
    const { ws, music, history, edited } = await keyedWithSong();
    music.changeOffset(30);
    const pyramid = music.pyramid();
    const first = music.song();
    expect(history.depth).toBe(2);
    expect(await music.openPath('/s/other.wav')).toBe(true);
    expect(music.name).toBe('other.wav');
    expect(music.offsetFrames).toBe(0); // another song starts at 0
    expect(history.depth).toBe(3); // the offset step of the first song stays below
    expect(history.undoLabel).toBe('load music');
    expect(en(history.undoLabel)).toBe('load music');
    expect(ja(history.undoLabel)).toBe('音楽の読み込み');

    expect(history.undo()).toBe(true);
    expect(music.name).toBe('song.wav');
    expect(music.path).toBe('/s/song.wav');
    expect(music.song()).toBe(first);
    expect(music.pyramid()).toBe(pyramid);
    expect(music.offsetFrames).toBe(30);
    expect(writeVmd(ws.doc!)).toEqual(edited);
    // Below it, the first song's own offset step.
    expect(history.undoLabel).toBe('music offset');
    expect(history.undo()).toBe(true);
    expect(music.offsetFrames).toBe(0);
    // Redo twice: the offset, then the other song again (at 0).
    expect(history.redo()).toBe(true);
    expect(music.offsetFrames).toBe(30);
    expect(history.redo()).toBe(true);
    expect(music.name).toBe('other.wav');
    expect(music.path).toBe('/s/other.wav');
    expect(music.offsetFrames).toBe(0);
    expect(writeVmd(ws.doc!)).toEqual(edited);
  });

  it('the first song loaded is one step: undo leaves no music and the key edit; the same file again keeps its offset', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/a.vmd')).toBe(true);
    const ws = useWorkspaceStore();
    editShown();
    const edited = writeVmd(ws.doc!);
    const music = useMusicStore();
    const history = useHistoryStore();
    expect(await music.openPath('/s/first.wav')).toBe(true);
    expect(history.depth).toBe(2);
    expect(music.changeOffset(12)).toBe(true);
    expect(history.undo()).toBe(true);
    expect(history.undo()).toBe(true);
    expect(music.loaded).toBe(false);
    expect(music.song()).toBeNull();
    expect(writeVmd(ws.doc!)).toEqual(edited);
    expect(history.undoLabel).not.toBe('load music');
    expect(history.redo()).toBe(true);
    expect(music.loaded).toBe(true);
    expect(music.name).toBe('first.wav');
    expect(history.redo()).toBe(true);
    expect(music.offsetFrames).toBe(12);
    // Loaded again by the person, the same file keeps its offset (loadBytes): one more step, nothing else changed.
    expect(await music.openPath('/s/first.wav')).toBe(true);
    expect(music.offsetFrames).toBe(12);
    expect(history.undoLabel).toBe('load music');
  });
});
