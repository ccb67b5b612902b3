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

  // new-user pass nuprefs 2: the model in one folder, the dances in another: the folder they share was `/`, and
  // Save Scene opened in the disk's root. A root or the home folder (or one above it) is no shared folder: the app
  // proposes the shown motion's folder instead (commands.ts untitledScenePlace).
  it('files sharing only a root, a bare drive, a share or the home folder: no folder', () => {
    const two = (model: string, motion: string, home: string | null = null) => suggestedScenePlace(scene({ actors: [{ model, motion, hidden: false }] }), home).directory;
    expect(two('/work/corpus/gene/Gene_light.pmx', '/tmp/files/a1.vmd')).toBeNull();
    expect(two('C:\\MMD\\Models\\miku.pmx', 'C:\\Users\\me\\Downloads\\dance.vmd')).toBeNull();
    expect(two('c:/MMD/miku.pmx', 'C:\\Dance\\walk.vmd')).toBeNull();
    expect(two('\\\\nas\\mmd\\models\\miku.pmx', '\\\\nas\\mmd\\dances\\walk.vmd')).toBeNull();
    expect(two('/home/me/MMD/Models/miku.pmx', '/home/me/Downloads/walk.vmd', '/home/me')).toBeNull();
    expect(two('C:\\Users\\Me\\MMD\\miku.pmx', 'C:\\Users\\Me\\Downloads\\walk.vmd', 'C:\\Users\\me')).toBeNull();
    // Above the home folder, too (two users' files): still no project folder.
    expect(two('/home/me/a/miku.pmx', '/home/you/b/walk.vmd', '/home/me')).toBeNull();
    // A project folder under the home folder, or a folder on a drive, stays the proposal.
    expect(two('/home/me/MMD/proj/models/miku.pmx', '/home/me/MMD/proj/motions/walk.vmd', '/home/me')).toBe('/home/me/MMD/proj');
    expect(two('D:\\MMD\\models\\miku.pmx', 'D:\\MMD\\motions\\walk.vmd', 'C:\\Users\\me')).toBe('D:\\MMD');
    expect(two('/srv/mmd/models/miku.pmx', '/srv/mmd/walk.vmd', '/home/me')).toBe('/srv/mmd');
  });
});
