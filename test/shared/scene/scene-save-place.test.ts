// Save Scene of an untitled scene proposed the shown actor's motion's folder and name (`motions/walk.vmdscene`),
// a project file among the motions named after one dance. Now: the deepest folder holding all the scene's files,
// named after its song, else "scene".
import { describe, expect, it } from 'vitest';
import { commonFolder } from '../../../shared/scene/scene-path';
import { emptyScene, suggestedScenePlace, type Scene } from '../../../shared/scene/scene-file';

describe('the folder holding every file', () => {
  it('posix and windows; the files of one folder give that folder; a folder named alike is not shared', () => {
    expect(commonFolder(['/p/proj/models/gene/Gene_light.pmx', '/p/proj/motions/33_angry.vmd', '/p/proj/music/song.wav'])).toBe('/p/proj');
    expect(commonFolder(['/p/proj/motions/a.vmd', '/p/proj/motions/b.vmd'])).toBe('/p/proj/motions');
    expect(commonFolder(['/p/proj/motions/a.vmd', '/p/proj2/motions/b.vmd'])).toBe('/p');
    // Windows compares names without regard to case, and keeps the first file's spelling.
    expect(commonFolder(['D:\\MMD\\Proj\\models\\x.pmx', 'd:/mmd/proj/Motions/y.vmd'])).toBe('D:\\MMD\\Proj');
  });

  it('none for no file, different drives, or a relative name (a dropped file known by name alone)', () => {
    expect(commonFolder([])).toBeNull();
    expect(commonFolder(['C:\\a\\x.vmd', 'D:\\a\\y.vmd'])).toBeNull();
    expect(commonFolder(['x.pmx'])).toBeNull();
    expect(commonFolder(['x.pmx', '/p/a/y.vmd'])).toBe('/p/a');
  });
});

describe('where Save Scene proposes an untitled scene', () => {
  const scene = (o: Partial<Scene>): Scene => ({ ...emptyScene(), ...o });

  it("the report's three-actor scene: the project folder, named after the song", () => {
    const s = scene({
      actors: [
        { model: '/t/proj/models/gene/Gene_light.pmx', motion: '/t/proj/motions/33_angry.vmd', hidden: false },
        { model: '/t/proj/models/low_miku/miku.pmd', motion: '/t/proj/motions/wavefile_v2.vmd', hidden: false },
        { model: null, motion: '/t/proj/motions/walk.vmd', hidden: false },
      ],
      camera: '/t/proj/motions/wavefile_camera.vmd',
      audio: { path: '/t/proj/music/song.wav', offsetFrames: 15, volume: 1, muted: false },
    });
    expect(suggestedScenePlace(s)).toEqual({ directory: '/t/proj', fileName: 'song.vmdscene' });
  });

  it('without a song: "scene"; a song named with dots keeps all but its extension; no files: no folder', () => {
    expect(suggestedScenePlace(scene({ actors: [{ model: null, motion: '/t/proj/motions/walk.vmd', hidden: false }] }))).toEqual({ directory: '/t/proj/motions', fileName: 'scene.vmdscene' });
    expect(suggestedScenePlace(scene({ audio: { path: '/t/m/Song v1.2.final.mp3', offsetFrames: 0, volume: 1, muted: false } })).fileName).toBe('Song v1.2.final.vmdscene');
    expect(suggestedScenePlace(scene({}))).toEqual({ directory: null, fileName: 'scene.vmdscene' });
  });
});
