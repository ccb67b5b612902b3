// What the close question says changed in a scene file (report nustage finding 8): the scene line named only the
// file, and the person could not tell that the song's offset and an actor's turn were what Don't Save would lose.
import { describe, expect, it } from 'vitest';
import { emptyScene, type Scene, type SceneActor } from '../../../shared/scene/scene-file';
import { loneExtras, sceneChanges } from '../../../shared/scene/scene-changes';

const actor = (motion: string, o: Partial<SceneActor> = {}): SceneActor => ({ model: '/m/Gene_light.pmx', motion, hidden: false, ...o });
const saved = (): Scene => ({
  ...emptyScene(),
  actors: [actor('/s/a.vmd'), actor('/s/b.vmd', { model: '/m/miku.pmd' }), actor('/s/c.vmd', { model: '/m/matcap_sample.pmx' })],
  camera: '/s/camera.vmd',
  audio: { path: '/s/song.wav', offsetFrames: 0, volume: 1, muted: false, beats: { bpm: 120, firstBeat: 0, shown: true } },
});

describe('sceneChanges', () => {
  it('an unchanged scene has none', () => {
    expect(sceneChanges(saved(), saved())).toEqual([]);
  });

  it('the music offset and an actor’s turn, named by the model', () => {
    const now = saved();
    now.audio!.offsetFrames = 15;
    now.actors[2].stage = { position: [0, 0, 0], turn: 45 };
    expect(sceneChanges(saved(), now)).toEqual([{ kind: 'stage', actors: ['matcap_sample'] }, { kind: 'offset' }]);
  });

  it('an actor’s outline width, named by the model; 1 and none are the same (the model’s own width)', () => {
    const now = saved();
    now.actors[1].edgeWidth = 0.5;
    expect(sceneChanges(saved(), now)).toEqual([{ kind: 'edge', actors: ['miku'] }]);
    const same = saved();
    same.actors[0].edgeWidth = 1;
    expect(sceneChanges(saved(), same)).toEqual([]);
  });

  it('BPM, volume, mute, a hidden actor, the camera file, the song and the aspect', () => {
    const now = saved();
    now.audio!.beats = { bpm: 128, firstBeat: 0, shown: true };
    now.audio!.muted = true;
    now.actors[0].hidden = true;
    now.camera = null;
    now.aspect = { width: 4, height: 3 };
    expect(sceneChanges(saved(), now).map((c) => c.kind)).toEqual(['hidden', 'camera', 'volume', 'bpm', 'aspect']);
    const other = saved();
    other.audio!.path = '/s/other.wav';
    other.audio!.offsetFrames = 3;
    // Another song: said as the music (its offset belongs to it).
    expect(sceneChanges(saved(), other)).toEqual([{ kind: 'song' }]);
  });

  it('an actor removed from the middle is named, and the others are not taken for changed', () => {
    const now = saved();
    now.actors.splice(1, 1);
    expect(sceneChanges(saved(), now)).toEqual([{ kind: 'removed', actors: ['miku'] }]);
  });

  it('an actor added is named by the label given; a relinked motion and a new model are said of their actor', () => {
    const now = saved();
    now.actors.push(actor('/s/d.vmd'));
    now.actors[0].motion = '/moved/a.vmd';
    now.actors[1].model = '/m/other.pmx';
    const labels = ['Gene_light', 'other', 'matcap_sample', 'Gene_light (2)'];
    expect(sceneChanges(saved(), now, (i) => labels[i])).toEqual([
      { kind: 'added', actors: ['Gene_light (2)'] },
      { kind: 'motion', actors: ['Gene_light'] },
      { kind: 'model', actors: ['other'] },
    ]);
  });

  it('a change it has no words for is "other"', () => {
    const now = saved();
    now.extra = { lights: 2 };
    expect(sceneChanges(saved(), now)).toEqual([{ kind: 'other' }]);
  });
});

describe('loneExtras: what a one-actor scene holds beyond its motion', () => {
  const lone = (o: Partial<Scene> = {}, a: Partial<SceneActor> = {}): Scene => ({ ...emptyScene(), actors: [{ model: null, motion: '/s/a.vmd', hidden: false, ...a }], ...o });
  const song = (offsetFrames: number) => ({ path: '/s/song.wav', offsetFrames, volume: 1, muted: false });

  it('the motion alone on the figure: nothing', () => {
    expect(loneExtras(lone())).toEqual([]);
  });

  it('on a model, with a song at offset 15: the model, the song and its offset', () => {
    expect(loneExtras(lone({ audio: song(15) }, { model: '/m/Gene_light.pmx' })).map((c) => c.kind)).toEqual(['model', 'song', 'offset']);
  });

  it('a song at offset 0 names no offset; a place on the stage and a hidden model are named', () => {
    expect(loneExtras(lone({ audio: song(0) })).map((c) => c.kind)).toEqual(['song']);
    expect(loneExtras(lone({}, { stage: { position: [10, 0, 0], turn: 0 }, hidden: true })).map((c) => c.kind)).toEqual(['stage', 'hidden']);
    expect(loneExtras(lone({}, { edgeWidth: 2 })).map((c) => c.kind)).toEqual(['edge']);
  });

  it('two actors, or a camera: not a lone motion', () => {
    expect(loneExtras({ ...lone({ audio: song(15) }), actors: [actor('/s/a.vmd'), actor('/s/b.vmd')] })).toEqual([]);
    expect(loneExtras(lone({ camera: '/s/camera.vmd', audio: song(15) }))).toEqual([]);
  });
});
