// shared/scene/scene-locate.ts: a friend's scene names `C:\Users\友達\…\proj\models\ジェネ\Gene_light.pmx` or
// `Models\Low_Miku\Miku.pmd`; the files lie beside the scene as `models/ジェネ/Gene_light.pmx` and
// `models/low_miku/miku.pmd`. Before, every such path was "not found" (app and CLI). The resolver tries the
// written path's last segments under the scene's folder, longest first, each matched without regard to case,
// and takes only a regular file inside the scene's folder. The disk here is an in-memory tree of our own.
import { describe, expect, it } from 'vitest';
import { fallbackTails, locateSceneFile, locateSceneFiles, MAX_TAIL_SEGMENTS, withLocated, type LocateDisk } from '../../../shared/scene/scene-locate';
import { parseScene } from '../../../shared/scene/scene-file';

/**
 * A POSIX disk of `files` (absolute paths) and the folders above them. `outside`: files whose real path lies
 * outside the scene's folder (links out), which fileInside refuses. Records every folder looked into.
 */
function memoryDisk(files: string[], outside: string[] = []) {
  const listed: string[] = [];
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/') || '/');
  }
  const exists = (p: string) => files.includes(p) || dirs.has(p);
  const disk: LocateDisk = {
    exists: async (p) => exists(p),
    loose: async (base, rel) => {
      let cur = base;
      for (const seg of rel.split('/')) {
        listed.push(cur);
        const names = [...files, ...dirs].filter((p) => p.startsWith(cur + '/') && !p.slice(cur.length + 1).includes('/')).map((p) => p.slice(cur.length + 1));
        const hit = names.find((n) => n === seg) ?? names.find((n) => n.toLowerCase() === seg.toLowerCase());
        if (hit === undefined) return null;
        cur = `${cur}/${hit}`;
      }
      return cur;
    },
    fileInside: async (p, dir) => files.includes(p) && p.startsWith(dir + '/') && !outside.includes(p),
  };
  return { disk, listed };
}

const SCENE_DIR = '/tmp/other/deeper/place/proj2';

describe('the tails tried under the scene folder', () => {
  it('a Windows path from another machine: all its segments, each time one fewer, longest first', () => {
    expect(fallbackTails(SCENE_DIR, 'C:\\Users\\友達\\proj\\models\\ジェネ\\Gene_light.pmx')).toEqual([
      'Users/友達/proj/models/ジェネ/Gene_light.pmx',
      '友達/proj/models/ジェネ/Gene_light.pmx',
      'proj/models/ジェネ/Gene_light.pmx',
      'models/ジェネ/Gene_light.pmx',
      'ジェネ/Gene_light.pmx',
      'Gene_light.pmx',
    ]);
  });

  it('a path inside the scene folder: its segments below the folder (the longest is the path itself)', () => {
    expect(fallbackTails(SCENE_DIR, `${SCENE_DIR}/Models/Low_Miku/Miku.pmd`)).toEqual(['Models/Low_Miku/Miku.pmd', 'Low_Miku/Miku.pmd', 'Miku.pmd']);
  });

  it('bounded: at most MAX_TAIL_SEGMENTS segments; no tail holds `..` or `.`, so none climbs out of the folder', () => {
    const deep = '/' + Array.from({ length: 30 }, (_, i) => `d${i}`).join('/') + '/x.vmd';
    const tails = fallbackTails(SCENE_DIR, deep);
    expect(tails.length).toBe(MAX_TAIL_SEGMENTS);
    expect(tails[0].split('/').length).toBe(MAX_TAIL_SEGMENTS);
    for (const w of ['C:\\a\\..\\..\\..\\etc\\x.vmd', '/a/./b/../../../etc/passwd.vmd', `${SCENE_DIR}/../../secret/x.vmd`]) {
      for (const t of fallbackTails(SCENE_DIR, w)) expect(t.split('/').some((s) => s === '..' || s === '.' || s === ''), `${w} → ${t}`).toBe(false);
    }
  });
});

describe('locating a file the scene names', () => {
  const files = [`${SCENE_DIR}/models/ジェネ/Gene_light.pmx`, `${SCENE_DIR}/models/low_miku/miku.pmd`, `${SCENE_DIR}/motions/33_angry.vmd`, `${SCENE_DIR}/x.vmd`, `${SCENE_DIR}/models/x.vmd`];

  it("finds a friend's absolute path beside the scene, and a name in another case, segment by segment", async () => {
    const { disk } = memoryDisk(files);
    expect(await locateSceneFile(SCENE_DIR, 'C:\\Users\\友達\\Documents\\MMD\\proj\\models\\ジェネ\\Gene_light.pmx', disk)).toBe(`${SCENE_DIR}/models/ジェネ/Gene_light.pmx`);
    expect(await locateSceneFile(SCENE_DIR, `${SCENE_DIR}/Models/Low_Miku/Miku.pmd`, disk)).toBe(`${SCENE_DIR}/models/low_miku/miku.pmd`);
    expect(await locateSceneFile(SCENE_DIR, '/home/other/proj/MOTIONS/33_Angry.VMD', disk)).toBe(`${SCENE_DIR}/motions/33_angry.vmd`);
  });

  it('the longest tail wins; a path that is there as written, or found nowhere, gets none', async () => {
    const { disk } = memoryDisk(files);
    expect(await locateSceneFile(SCENE_DIR, 'D:\\a\\models\\x.vmd', disk)).toBe(`${SCENE_DIR}/models/x.vmd`);
    expect(await locateSceneFile(SCENE_DIR, 'D:\\a\\b\\x.vmd', disk)).toBe(`${SCENE_DIR}/x.vmd`);
    expect(await locateSceneFile(SCENE_DIR, `${SCENE_DIR}/models/x.vmd`, disk)).toBeNull();
    expect(await locateSceneFile(SCENE_DIR, 'C:\\Users\\友達\\gone.vmd', disk)).toBeNull();
  });

  it('looks only in folders on the way down from the scene folder', async () => {
    const { disk, listed } = memoryDisk(files);
    await locateSceneFile(SCENE_DIR, 'C:\\Users\\友達\\Documents\\MMD\\proj\\models\\ジェネ\\Gene_light.pmx', disk);
    await locateSceneFile(SCENE_DIR, `${SCENE_DIR}/../../secret/x.pmx`, disk);
    expect(listed.length).toBeGreaterThan(0);
    for (const d of listed) expect(d === SCENE_DIR || d.startsWith(SCENE_DIR + '/'), d).toBe(true);
  });

  it('a match that is not a regular file inside the scene folder (a link out, a folder) is not taken; a shorter tail may be', async () => {
    const { disk } = memoryDisk(files, [`${SCENE_DIR}/models/x.vmd`]);
    expect(await locateSceneFile(SCENE_DIR, 'D:\\a\\models\\x.vmd', disk)).toBe(`${SCENE_DIR}/x.vmd`);
    const only = memoryDisk([`${SCENE_DIR}/models/x.vmd`], [`${SCENE_DIR}/models/x.vmd`]);
    expect(await locateSceneFile(SCENE_DIR, 'D:\\a\\models\\x.vmd', only.disk)).toBeNull();
    // `models` is a folder: a scene naming C:\…\models finds no file.
    expect(await locateSceneFile(SCENE_DIR, 'C:\\a\\models', memoryDisk(files).disk)).toBeNull();
  });
});

describe('a whole scene', () => {
  it('every file it names, each once; the scene opened with the paths found, the rest as written', async () => {
    const text = JSON.stringify({
      format: 'vmd-studio-scene',
      version: 1,
      actors: [
        { model: 'C:\\Users\\友達\\proj\\models\\ジェネ\\Gene_light.pmx', motion: 'C:\\Users\\友達\\proj\\motions\\33_angry.vmd' },
        { model: 'Models\\Low_Miku\\Miku.pmd', motion: 'C:\\Users\\友達\\proj\\motions\\33_angry.vmd' },
      ],
      camera: 'gone.vmd',
      audio: { path: 'music/song.wav', offsetFrames: 15 },
    });
    const scene = parseScene(text, `${SCENE_DIR}/win_abs.vmdscene`);
    expect(scene.ok).toBe(true);
    if (!scene.ok) return;
    const { disk } = memoryDisk([`${SCENE_DIR}/models/ジェネ/Gene_light.pmx`, `${SCENE_DIR}/models/low_miku/miku.pmd`, `${SCENE_DIR}/motions/33_angry.vmd`, `${SCENE_DIR}/music/song.wav`]);
    const located = await locateSceneFiles(scene.value, SCENE_DIR, disk);
    expect(located).toEqual([
      { path: 'C:\\Users\\友達\\proj\\models\\ジェネ\\Gene_light.pmx', found: `${SCENE_DIR}/models/ジェネ/Gene_light.pmx` },
      { path: 'C:\\Users\\友達\\proj\\motions\\33_angry.vmd', found: `${SCENE_DIR}/motions/33_angry.vmd` },
      { path: `${SCENE_DIR}/Models/Low_Miku/Miku.pmd`, found: `${SCENE_DIR}/models/low_miku/miku.pmd` },
    ]);
    const opened = withLocated(scene.value, located);
    expect(opened.actors.map((a) => [a.model, a.motion])).toEqual([
      [`${SCENE_DIR}/models/ジェネ/Gene_light.pmx`, `${SCENE_DIR}/motions/33_angry.vmd`],
      [`${SCENE_DIR}/models/low_miku/miku.pmd`, `${SCENE_DIR}/motions/33_angry.vmd`],
    ]);
    expect(opened.camera).toBe(`${SCENE_DIR}/gone.vmd`);
    expect(opened.audio).toMatchObject({ path: `${SCENE_DIR}/music/song.wav`, offsetFrames: 15 });
    // The parsed scene itself is left as it was.
    expect(scene.value.actors[1].model).toBe(`${SCENE_DIR}/Models/Low_Miku/Miku.pmd`);
  });
});
