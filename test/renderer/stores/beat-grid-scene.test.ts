// The tempo typed with BPM… is one undo step and the scene's (lead4): before, a typed grid could not be undone and
// Save Scene dropped it, so a reopened scene detected again (a song with no steady beat: no markers at all).
import { describe, expect, it, vi } from 'vitest';

const detector = vi.hoisted(() => ({ calls: 0 }));
vi.mock('web-audio-beat-detector', () => ({
  guess: async () => {
    detector.calls++;
    return { bpm: 120, offset: 0, tempo: 120 };
  },
}));

import { editLabel } from '../../../renderer/src/editor/edit-labels';
import { setApi } from '../../../renderer/src/api';
import { runCommand } from '../../../renderer/src/shell/commands';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useMusicStore } from '../../../renderer/src/stores/music';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { t } from '../../../shared/i18n/strings';
import { withFakeAudio } from '../../helpers/fake-audio';
import { dance, memoryApi, sceneFile } from './scene-fixtures';

let files: Map<string, Uint8Array>;
const written = (p: string) => JSON.parse(new TextDecoder().decode(files.get(p)!));
const settle = () => new Promise((r) => setTimeout(r, 0));

withFakeAudio(undefined, () => {
  detector.calls = 0;
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/song.wav', new TextEncoder().encode('RIFF')],
    ['/s/one.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }], audio: { path: 'song.wav', offsetFrames: 3, volume: 1, muted: false } })],
    ['/s/typed.vmdscene', sceneFile({ actors: [{ model: null, motion: 'a.vmd' }], audio: { path: 'song.wav', offsetFrames: 0, volume: 1, muted: false, beats: { bpm: 90, firstBeat: 0.25, shown: true } } })],
  ]);
  setApi(memoryApi(files).api);
});

describe('the beat grid typed with BPM…', () => {
  it('is one undo step, "beat grid": undo puts back no grid and the markers off; redo types it again', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/one.vmdscene')).toBe(true);
    const music = useMusicStore();
    const history = useHistoryStore();
    const depth = history.depth;
    expect(music.setBeatGrid(100, 6)).toBe(true);
    expect(history.depth).toBe(depth + 1);
    expect(history.undoLabel).toBe('beat grid');
    expect(editLabel(history.undoLabel, (k) => t(k, 'ja'))).toBe('ビートの設定');
    expect(history.undo()).toBe(true);
    expect(music.beatGrid).toBeNull();
    expect(music.beatsOn).toBe(false);
    expect(history.redo()).toBe(true);
    // 100 BPM, a beat at frame 6 with offset 3: song time 9/30 s = 0.3 s.
    expect(music.beatGrid!.bpm).toBe(100);
    expect(music.beatGrid!.firstBeat).toBeCloseTo(0.3, 12);
    expect(music.beatsOn).toBe(true);
    expect(detector.calls).toBe(0);
  });

  it('over a detected grid: undo puts the detected one back, without detecting again', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/one.vmdscene')).toBe(true);
    const music = useMusicStore();
    music.setBeatsOn(true);
    await settle();
    expect(detector.calls).toBe(1);
    expect(music.beatGrid).toEqual({ bpm: 120, firstBeat: 0 });
    expect(music.setBeatGrid(90, 0)).toBe(true);
    expect(useHistoryStore().undo()).toBe(true);
    expect(music.beatGrid).toEqual({ bpm: 120, firstBeat: 0 });
    expect(music.beatsOn).toBe(true);
    await settle();
    expect(detector.calls).toBe(1);
  });

  it('marks the scene unsaved, is written by Save as audio.beats, and comes back on reopening without detecting', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/one.vmdscene')).toBe(true);
    const music = useMusicStore();
    expect(scene.sceneChanged).toBe(false);
    expect(music.setBeatGrid(100, 6)).toBe(true);
    expect(scene.sceneChanged).toBe(true);
    await runCommand('save');
    expect(written('/s/one.vmdscene').audio.beats).toEqual({ bpm: 100, firstBeat: expect.closeTo(0.3, 12), shown: true });
    expect(scene.sceneChanged).toBe(false);
    // Hiding the markers is a view's change: not asked about.
    music.setBeatsOn(false);
    expect(scene.sceneChanged).toBe(false);

    expect(await scene.openPath('/s/typed.vmdscene')).toBe(true);
    expect(music.beatGrid).toEqual({ bpm: 90, firstBeat: 0.25 });
    expect(music.beatsOn).toBe(true);
    expect(music.beatState).toBe('ready');
    expect(scene.sceneChanged).toBe(false);
    expect(useHistoryStore().depth).toBe(0);
    await settle();
    expect(detector.calls).toBe(0);
  });

  it('a scene without a grid opens with the markers off, even when the previous scene showed them', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/typed.vmdscene')).toBe(true);
    const music = useMusicStore();
    expect(music.beatsOn).toBe(true);
    expect(await scene.openPath('/s/one.vmdscene')).toBe(true);
    expect(music.beatsOn).toBe(false);
    expect(music.beatGrid).toBeNull();
    await settle();
    expect(detector.calls).toBe(0);
    expect(scene.sceneChanged).toBe(false);
  });
});
