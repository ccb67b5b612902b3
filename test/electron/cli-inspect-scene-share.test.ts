// `inspect SCENE` is how a person checks a scene folder before sharing it, or one a friend sent. A scene that
// Windows Notepad saved as "Unicode" (UTF-16) was called "audio MP3 32000 Hz" with a warning about an audio file
// named .vmdscene; now it is the scene it is, refused with what to do. A friend's scene whose paths are absolute
// paths of another machine, or names in another case, listed every file "(not found)"; now the files beside the
// scene are found as the app finds them, and said. A model's texture left out of the folder (the most common break
// of a shared MMD folder) was not in the scene's `missing` list; now each model's missing textures are.
import { encodePng } from '../helpers/png';
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { buildFixture } from '../helpers/vmd-fixtures';
import { tinyPmx } from '../shared/pmx-fixtures';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

describe('a scene in UTF-16 (Notepad\'s "Unicode")', () => {
  it('is named a scene in another encoding, with what to do: not an MP3', async () => {
    const d = mk('inspect-utf16');
    const text = '{\r\n  "format": "vmd-studio-scene",\r\n  "version": 1,\r\n  "actors": [{ "model": null, "motion": "a.vmd", "hidden": false }]\r\n}\r\n';
    writeFileSync(path.join(d, 'win_utf16.vmdscene'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const t = await cli(d, 'inspect', 'win_utf16.vmdscene');
    expect(t.out + t.err).not.toContain('MP3');
    expect(t.err).toContain('win_utf16.vmdscene: the scene file is UTF-16 text: save it as UTF-8');
    expect(t.code).not.toBe(0);
    const j = await cli(d, 'inspect', '--json', 'win_utf16.vmdscene');
    expect(JSON.parse(j.out.trim())).toMatchObject({ ok: false, error: { code: 'E_SCENE_ENCODING', message: 'the scene file is UTF-16 text: save it as UTF-8' } });
  });
});

describe("a friend's scene: absolute paths from another machine, names in another case", () => {
  it('inspect finds the files beside the scene as the app does, and says so; only what is nowhere is missing', async () => {
    const d = mk('inspect-located');
    const put = (rel: string, body: Uint8Array | string = 'x') => {
      mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
      writeFileSync(path.join(d, rel), body);
    };
    put('models/ジェネ/Gene_light.pmx');
    put('motions/wavefile_v2.vmd', buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 40 }] }));
    writeFileSync(
      path.join(d, 'win.vmdscene'),
      JSON.stringify({
        format: 'vmd-studio-scene',
        version: 1,
        actors: [{ model: 'C:\\Users\\友達\\Documents\\MMD\\proj\\models\\ジェネ\\Gene_light.pmx', motion: 'Motions\\WaveFile_v2.VMD', hidden: false }],
        camera: 'C:\\Users\\友達\\Documents\\MMD\\proj\\motions\\gone.vmd',
      }),
    );
    const t = await cli(d, 'inspect', 'win.vmdscene');
    expect(t.code, t.err).toBe(0);
    const lines = t.out.split('\n');
    expect(lines).toContain('  actor 1  model models/ジェネ/Gene_light.pmx  motion motions/wavefile_v2.vmd  40 frames (1.33 s)');
    expect(lines).toContain('  warning found models/ジェネ/Gene_light.pmx beside the scene for C:\\Users\\友達\\Documents\\MMD\\proj\\models\\ジェネ\\Gene_light.pmx (the app opens it from there; saving the scene writes its path)');
    expect(lines).toContain('  warning found motions/wavefile_v2.vmd beside the scene for Motions/WaveFile_v2.VMD (the app opens it from there; saving the scene writes its path)');
    expect(lines).toContain('  warning C:\\Users\\友達\\Documents\\MMD\\proj\\motions\\gone.vmd: not found');
    const j = JSON.parse((await cli(d, 'inspect', '--json', 'win.vmdscene')).out.trim().split('\n')[0]);
    expect(j.missing).toEqual(['C:\\Users\\友達\\Documents\\MMD\\proj\\motions\\gone.vmd']);
    expect(j.located).toEqual([
      { path: 'C:\\Users\\友達\\Documents\\MMD\\proj\\models\\ジェネ\\Gene_light.pmx', found: 'models/ジェネ/Gene_light.pmx' },
      { path: 'Motions/WaveFile_v2.VMD', found: 'motions/wavefile_v2.vmd' },
    ]);
  });
});

describe("a scene's models' missing textures", () => {
  it('inspect SCENE names each model\'s texture that is not there, once per model, with the model and its materials (text and --json)', async () => {
    const d = mk('inspect-scene-textures');
    // tinyPmx's one material 肌 uses tex\skin.png: left out beside one copy of the model, there beside the other.
    mkdirSync(path.join(d, 'models', 'broken'), { recursive: true });
    mkdirSync(path.join(d, 'models', 'whole', 'tex'), { recursive: true });
    writeFileSync(path.join(d, 'models', 'broken', 'tiny.pmx'), tinyPmx().build());
    writeFileSync(path.join(d, 'models', 'whole', 'tiny.pmx'), tinyPmx().build());
    writeFileSync(path.join(d, 'models', 'whole', 'tex', 'skin.png'), encodePng({ width: 1, height: 1, data: Uint8Array.of(255, 255, 255, 255) }));
    writeFileSync(
      path.join(d, 'show.vmdscene'),
      JSON.stringify({
        format: 'vmd-studio-scene',
        version: 1,
        actors: [
          { model: 'models/broken/tiny.pmx', motion: null, hidden: false },
          { model: 'models/broken/tiny.pmx', motion: null, hidden: false },
          { model: 'models/whole/tiny.pmx', motion: null, hidden: false },
        ],
      }),
    );
    const t = await cli(d, 'inspect', 'show.vmdscene');
    expect(t.code, t.err).toBe(0);
    const warnings = t.out.split('\n').filter((l) => l.startsWith('  warning'));
    expect(warnings).toEqual(['  warning models/broken/tex/skin.png: not found (a texture of models/broken/tiny.pmx, used by 肌)']);
    const j = JSON.parse((await cli(d, 'inspect', '--json', 'show.vmdscene')).out.trim().split('\n')[0]);
    expect(j.missing).toEqual(['models/broken/tex/skin.png']);
    expect(j.missingTextures).toEqual([{ path: 'models/broken/tex/skin.png', texture: 'tex\\skin.png', model: 'models/broken/tiny.pmx', materials: ['肌'] }]);
  });
});
