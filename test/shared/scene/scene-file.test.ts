import { describe, expect, it } from 'vitest';
import {
  loadSceneFiles,
  MAX_EXTRA_DEPTH,
  MAX_SCENE_ACTORS,
  parseScene,
  sceneBytes,
  sceneFileRefs,
  sceneForMotion,
  serializeScene,
  type Scene,
  type SceneFileRef,
} from '../../../shared/scene/scene-file';

const enc = (s: string) => new TextEncoder().encode(s);

/** A scene file as a person would write it, relative paths in both separator styles. */
const HAND_WRITTEN = `{
  "format": "vmd-studio-scene",
  "version": 1,
  "actors": [
    { "name": "Miku", "model": "models/miku.pmx", "motion": "dance/miku.vmd", "hidden": false },
    { "model": null, "motion": "..\\\\shared\\\\luka.vmd", "hidden": true }
  ],
  "activeActor": 1,
  "camera": "camera.vmd",
  "audio": { "path": "../music/song.wav", "offsetFrames": -12, "volume": 0.5, "muted": true },
  "aspect": { "width": 4, "height": 3 },
  "view": { "frame": 120, "lookThroughCamera": true }
}
`;

describe('scene file: read', () => {
  it("resolves every relative path against the scene file's folder", () => {
    const r = parseScene(enc(HAND_WRITTEN), '/home/u/proj/duet.vmdscene');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.value;
    expect(s.actors).toEqual([
      { name: 'Miku', model: '/home/u/proj/models/miku.pmx', motion: '/home/u/proj/dance/miku.vmd', hidden: false },
      { model: null, motion: '/home/u/shared/luka.vmd', hidden: true },
    ]);
    expect(s.activeActor).toBe(1);
    expect(s.camera).toBe('/home/u/proj/camera.vmd');
    expect(s.audio).toEqual({ path: '/home/u/music/song.wav', offsetFrames: -12, volume: 0.5, muted: true });
    expect(s.aspect).toEqual({ width: 4, height: 3 });
    expect(s.view).toEqual({ frame: 120, lookThroughCamera: true });
  });

  it('resolves against a Windows scene path in Windows style', () => {
    const r = parseScene(HAND_WRITTEN, 'D:\\MMD\\proj\\duet.vmdscene');
    expect(r.ok && r.value.actors[0].model).toBe('D:\\MMD\\proj\\models\\miku.pmx');
    expect(r.ok && r.value.actors[1].motion).toBe('D:\\MMD\\shared\\luka.vmd');
    expect(r.ok && r.value.audio?.path).toBe('D:\\MMD\\music\\song.wav');
  });

  it('fills defaults: no camera, no music, 16:9, actor shown', () => {
    const r = parseScene('{"format":"vmd-studio-scene","version":1,"actors":[{"model":null}]}', '/p/s.vmdscene');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual({
      actors: [{ model: null, motion: null, hidden: false }],
      activeActor: 0,
      camera: null,
      audio: null,
      aspect: { width: 16, height: 9 },
      view: {},
    });
  });

  it('accepts a UTF-8 BOM and Japanese names', () => {
    const text = '\ufeff{"format":"vmd-studio-scene","version":1,"actors":[{"model":"モデル/初音ミク.pmx","motion":"ダンス.vmd"}]}';
    const r = parseScene(enc(text), '/p/s.vmdscene');
    expect(r.ok && r.value.actors[0]).toEqual({ model: '/p/モデル/初音ミク.pmx', motion: '/p/ダンス.vmd', hidden: false });
  });
});

describe('scene file: bad input is a clear error value', () => {
  const bad = (text: string | Uint8Array) => {
    const r = parseScene(text, '/p/bad.vmdscene');
    if (r.ok) throw new Error('expected an error');
    return r.error;
  };

  it('broken JSON: E_SCENE_JSON with the byte offset and line/column of the fault', () => {
    // Line 1 is 38 characters and its newline; the stray "}" is the 13th character of line 2, character 50
    // of the text, and byte 51 (the "é" on line 1 takes two bytes in UTF-8).
    const text = '{"format":"vmd-studio-scene","n":"é",\n"version":1,}';
    const e = bad(text);
    expect(e.code).toBe('E_SCENE_JSON');
    expect(e.file).toBe('/p/bad.vmdscene');
    expect(e.message).toMatch(/not valid JSON/);
    expect(e.message).toMatch(/line 2, column 13/);
    expect(e.offset).toBe(51);
  });

  it('truncated JSON and non-UTF-8 bytes', () => {
    const e = bad('{"format":"vmd-studio-scene","version":1,"actors":[');
    expect(e.code).toBe('E_SCENE_JSON');
    expect(e.offset).toBe(51);
    expect(bad(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])).code).toBe('E_SCENE_JSON');
    expect(bad('').code).toBe('E_SCENE_JSON');
  });

  it('JSON that is not a scene: E_SCENE_FORMAT', () => {
    expect(bad('[1,2]').code).toBe('E_SCENE_FORMAT');
    const e = bad('{"format":"vmd-studio-json","version":1}');
    expect(e.code).toBe('E_SCENE_FORMAT');
    expect(e.message).toContain('"vmd-studio-json"');
    expect(bad('{"version":1}').message).toMatch(/"format" is missing/);
  });

  it('a newer version: E_SCENE_VERSION naming both versions', () => {
    const e = bad('{"format":"vmd-studio-scene","version":7}');
    expect(e.code).toBe('E_SCENE_VERSION');
    expect(e.message).toContain('version 7');
    expect(e.message).toContain('up to version 1');
  });

  it('wrong fields: E_SCENE_SCHEMA naming the field', () => {
    const cases: [string, RegExp][] = [
      ['"version":"1"', /^version must be/],
      ['"version":1,"actors":{}', /^actors must be an array/],
      ['"version":1,"actors":[{"motion":"a.vmd"}]', /^actors\[0\]\.model is missing/],
      ['"version":1,"actors":[{"model":null},{"model":3}]', /^actors\[1\]\.model must be a file path or null \(is 3\)/],
      ['"version":1,"actors":[{"model":null,"motion":""}]', /^actors\[0\]\.motion must be a file path/],
      ['"version":1,"actors":[{"model":null,"hidden":"no"}]', /^actors\[0\]\.hidden must be true or false/],
      ['"version":1,"actors":[{"model":null}],"activeActor":1', /^activeActor must be between 0 and 0/],
      ['"version":1,"audio":{"offsetFrames":3}', /^audio\.path is missing/],
      ['"version":1,"audio":{"path":"a.wav","volume":2}', /^audio\.volume must be between 0 and 1/],
      ['"version":1,"audio":{"path":"a.wav","offsetFrames":"x"}', /^audio\.offsetFrames must be a number/],
      ['"version":1,"aspect":{"width":16}', /^aspect\.height must be a number|^aspect needs both/],
      ['"version":1,"aspect":{"width":0,"height":9}', /^aspect\.width must be between/],
      ['"version":1,"view":{"orbit":[1,2]}', /^view\.orbit must be a string, number/],
      ['"version":1,"camera":false', /^camera must be a file path or null/],
    ];
    for (const [body, re] of cases) {
      const e = bad(`{"format":"vmd-studio-scene",${body}}`);
      expect(e.code, body).toBe('E_SCENE_SCHEMA');
      expect(e.message, body).toMatch(re);
    }
  });
});

describe('scene file: write', () => {
  const scene: Scene = {
    actors: [
      { name: 'Miku', model: '/home/u/proj/models/miku.pmx', motion: '/home/u/proj/dance/miku.vmd', hidden: false },
      { model: null, motion: '/home/u/shared/luka.vmd', hidden: true },
    ],
    activeActor: 1,
    camera: '/home/u/proj/camera.vmd',
    audio: { path: '/mnt/music/song.wav', offsetFrames: -12, volume: 0.5, muted: true },
    aspect: { width: 16, height: 9 },
    view: { frame: 120 },
  };

  it('writes paths relative to the scene file with /, keys in a fixed order', () => {
    expect(serializeScene(scene, '/home/u/proj/duet.vmdscene')).toBe(
      [
        '{',
        '  "format": "vmd-studio-scene",',
        '  "version": 1,',
        '  "actors": [',
        '    {',
        '      "name": "Miku",',
        '      "model": "models/miku.pmx",',
        '      "motion": "dance/miku.vmd",',
        '      "hidden": false',
        '    },',
        '    {',
        '      "model": null,',
        '      "motion": "../shared/luka.vmd",',
        '      "hidden": true',
        '    }',
        '  ],',
        '  "activeActor": 1,',
        '  "camera": "camera.vmd",',
        '  "audio": {',
        '    "path": "../../../mnt/music/song.wav",',
        '    "offsetFrames": -12,',
        '    "volume": 0.5,',
        '    "muted": true',
        '  },',
        '  "aspect": {',
        '    "width": 16,',
        '    "height": 9',
        '  },',
        '  "view": {',
        '    "frame": 120',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps an absolute path when no relative one exists (another drive)', () => {
    const win: Scene = { ...scene, actors: [{ model: 'E:\\models\\miku.pmx', motion: 'C:\\proj\\a.vmd', hidden: false }], camera: null, audio: null };
    const json = JSON.parse(serializeScene(win, 'C:\\proj\\s.vmdscene'));
    expect(json.actors[0]).toEqual({ model: 'E:\\models\\miku.pmx', motion: 'a.vmd', hidden: false });
    expect(json.camera).toBeNull();
    expect(json.audio).toBeNull();
  });

  it('round trip: write then read gives the same scene; saved elsewhere, paths still point at the same files', () => {
    for (const where of ['/home/u/proj/duet.vmdscene', '/home/u/other/deep/x.vmdscene', '/x.vmdscene']) {
      const back = parseScene(sceneBytes(scene, where), where);
      expect(back.ok && back.value, where).toEqual(scene);
    }
  });

  it('round trip keeps fields this version does not know', () => {
    const text = '{"format":"vmd-studio-scene","version":1,"futureTop":{"a":[1]},"actors":[{"model":null,"colour":"red"}],"audio":{"path":"s.ogg","bpm":128}}';
    const r = parseScene(text, '/p/s.vmdscene');
    if (!r.ok) throw new Error(r.error.message);
    const again = JSON.parse(serializeScene(r.value, '/p/s.vmdscene'));
    expect(again.futureTop).toEqual({ a: [1] });
    expect(again.actors[0].colour).toBe('red');
    expect(again.audio.bpm).toBe(128);
    expect(again.audio.path).toBe('s.ogg');
  });

  it('an offset kept with no song ("path": null) reads, names no file, and is written back as it was', () => {
    const text = '{"format":"vmd-studio-scene","version":1,"actors":[{"model":null,"motion":"a.vmd"}],"audio":{"path":null,"offsetFrames":15,"volume":0.5,"muted":false}}';
    const r = parseScene(text, '/p/s.vmdscene');
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.audio).toEqual({ path: null, offsetFrames: 15, volume: 0.5, muted: false });
    expect(sceneFileRefs(r.value).map((f) => f.role)).toEqual(['motion']);
    expect(JSON.parse(serializeScene(r.value, '/q/t.vmdscene')).audio).toEqual({ path: null, offsetFrames: 15, volume: 0.5, muted: false });
  });

  it('a lone VMD makes a one-actor scene; a camera VMD goes to the camera document', () => {
    expect(sceneForMotion('/p/a.vmd', 'motion')).toMatchObject({ actors: [{ model: null, motion: '/p/a.vmd', hidden: false }], camera: null });
    expect(sceneForMotion('/p/cam.vmd', 'camera')).toMatchObject({ actors: [], camera: '/p/cam.vmd' });
  });
});

describe('scene file: missing files', () => {
  const r = parseScene(HAND_WRITTEN, '/home/u/proj/duet.vmdscene');
  if (!r.ok) throw new Error(r.error.message);
  const scene = r.value;
  const onDisk = new Set(['/home/u/proj/models/miku.pmx', '/home/u/proj/dance/miku.vmd', '/home/u/music/song.wav']);

  it('reports each missing file by role and name, and loads all the others', async () => {
    const asked: string[] = [];
    const load = await loadSceneFiles(scene, async (ref: SceneFileRef) => {
      asked.push(ref.path);
      return onDisk.has(ref.path)
        ? { ok: true, value: `bytes of ${ref.path}` }
        : { ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'no such file or folder' } };
    });
    expect(asked.sort()).toEqual(
      ['/home/u/proj/models/miku.pmx', '/home/u/proj/dance/miku.vmd', '/home/u/shared/luka.vmd', '/home/u/proj/camera.vmd', '/home/u/music/song.wav'].sort(),
    );
    expect(load.loaded.map((l) => [l.ref.role, l.ref.actor, l.value])).toEqual([
      ['model', 0, 'bytes of /home/u/proj/models/miku.pmx'],
      ['motion', 0, 'bytes of /home/u/proj/dance/miku.vmd'],
      ['audio', undefined, 'bytes of /home/u/music/song.wav'],
    ]);
    expect(load.problems.map((p) => p.text)).toEqual(['actor 2 motion "luka.vmd": file not found', 'camera "camera.vmd": file not found']);
    expect(load.problems[0].error).toEqual({ code: 'E_IO_NOT_FOUND', message: 'no such file or folder', file: '/home/u/shared/luka.vmd' });
  });

  it('a reader that throws or a damaged file is a problem too, not a failed scene', async () => {
    const load = await loadSceneFiles(scene, async (ref) => {
      if (ref.role === 'camera') throw new Error('disk on fire');
      if (ref.role === 'audio') return { ok: false, error: { code: 'E_AUDIO_DECODE', message: 'cannot decode AIFF audio' } };
      return { ok: true, value: 1 };
    });
    expect(load.loaded).toHaveLength(3);
    expect(load.problems.map((p) => [p.error.code, p.text])).toEqual([
      ['E_IO', 'camera "camera.vmd": disk on fire'],
      ['E_AUDIO_DECODE', 'audio "song.wav": cannot decode AIFF audio'],
    ]);
  });
});

describe('scene file: what a hostile file cannot do', () => {
  const head = '{"format":"vmd-studio-scene","version":1';
  const parse = (body: string) => parseScene(`${head}${body}}`, '/p/s.vmdscene');
  const nest = (d: number) => '['.repeat(d) + ']'.repeat(d);

  it(`keeps unknown fields nested up to ${MAX_EXTRA_DEPTH} deep, and refuses deeper ones by name (Save All overflowed the stack)`, () => {
    const ok = parse(`,"deep":${nest(MAX_EXTRA_DEPTH)},"actors":[{"model":null,"x":{"y":${nest(MAX_EXTRA_DEPTH - 2)}}}]`);
    if (!ok.ok) throw new Error(ok.error.message);
    const text = serializeScene(ok.value, '/p/s.vmdscene');
    expect(parseScene(text, '/p/s.vmdscene')).toMatchObject({ ok: true, value: ok.value });
    for (const [body, field] of [
      [`,"deep":${nest(MAX_EXTRA_DEPTH + 1)}`, /^deep nests deeper than 64 levels/],
      [`,"deep":${nest(100_000)}`, /^deep nests deeper than 64 levels/],
      [`,"actors":[{"model":null,"x":{"y":${nest(200_000)}}}]`, /^actors\[0\]\.x nests deeper/],
      [`,"audio":{"path":"a.wav","z":${nest(MAX_EXTRA_DEPTH + 5)}}`, /^audio\.z nests deeper/],
    ] as const) {
      const r = parse(body);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('E_SCENE_SCHEMA');
        expect(r.error.message).toMatch(field);
      }
    }
  });

  it('a field whose value is {"toString": 1} is E_SCENE_SCHEMA naming the field, never E_INTERNAL', () => {
    const evil = '{"toString":1}';
    const cases: [string, RegExp][] = [
      [`,"camera":${evil}`, /^camera must be a file path or null \(is an object\)/],
      [`,"activeActor":${evil}`, /^activeActor must be a number \(is an object\)/],
      [`,"actors":${evil}`, /^actors must be an array \(is an object\)/],
      [`,"actors":[{"model":${evil}}]`, /^actors\[0\]\.model must be a file path or null \(is an object\)/],
      [`,"actors":[{"model":null,"motion":${evil}}]`, /^actors\[0\]\.motion/],
      [`,"actors":[{"model":null,"hidden":${evil}}]`, /^actors\[0\]\.hidden must be true or false \(is an object\)/],
      [`,"actors":[{"model":null,"name":${evil}}]`, /^actors\[0\]\.name must be a string \(is an object\)/],
      [`,"audio":{"path":${evil}}`, /^audio\.path must be a file path or null \(is an object\)/],
      [`,"audio":{"path":"a.wav","volume":${evil}}`, /^audio\.volume must be a number/],
      [`,"aspect":{"width":${evil},"height":9}`, /^aspect\.width must be a number/],
      [`,"view":{"frame":${evil}}`, /^view\.frame must be a string, number/],
    ];
    for (const [body, re] of cases) {
      const r = parse(body);
      expect(r.ok, body).toBe(false);
      if (!r.ok) {
        expect(r.error.code, body).toBe('E_SCENE_SCHEMA');
        expect(r.error.message, body).toMatch(re);
      }
    }
    const v = parseScene(`{"format":"vmd-studio-scene","version":${evil}}`, '/p/s.vmdscene');
    expect(v).toMatchObject({ ok: false, error: { code: 'E_SCENE_SCHEMA', message: expect.stringMatching(/^version must be a whole number from 1 \(is an object\)/) } });
    const f = parseScene(`{"format":${evil},"version":1}`, '/p/s.vmdscene');
    expect(f).toMatchObject({ ok: false, error: { code: 'E_SCENE_FORMAT', message: expect.stringMatching(/"format" is an object/) } });
  });

  it('keeps __proto__ keys on save, as any field it does not know', () => {
    const r = parse(`,"__proto__":{"polluted":true},"actors":[{"model":null,"__proto__":5}],"audio":{"path":"a.wav","__proto__":"x"},"view":{"__proto__":"v","frame":3}`);
    if (!r.ok) throw new Error(r.error.message);
    const text = serializeScene(r.value, '/p/s.vmdscene');
    const back = JSON.parse(text);
    expect(Object.prototype.hasOwnProperty.call(back, '__proto__')).toBe(true);
    expect(text).toContain('"__proto__": {\n    "polluted": true\n  }');
    expect(text).toContain('"__proto__": 5');
    expect(text).toContain('"__proto__": "x"');
    expect(text).toContain('"__proto__": "v"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parseScene(text, '/p/s.vmdscene')).toMatchObject({ ok: true, value: r.value });
  });

  it("a JSON error says where and why, and never quotes the file's text", () => {
    const secret = 'hunter2-my-password';
    const cases: [string, RegExp][] = [
      [`{"format":"vmd-studio-scene","note":"${secret}" x}`, /expected ',' or '}' after a property's value \(line 1, column \d+\)$/],
      [`{"note":"${secret}", ${secret}}`, /expected a property name in double quotes/],
      [`${secret}`, /an unexpected character where a value should be \(line 1, column 1\)$/],
      // Far into the file V8 quotes the text around the fault in its `..."…"...` form.
      [`{"pad":"${'p'.repeat(200)}",\n"a":${secret}}`, /an unexpected character where a value should be \(line 2, column 5\)$/],
      [`{"a":tru, "note":"${secret}"}`, /an unexpected character where a value should be/],
      [`{"note":"${secret}`, /a string is not closed/],
      [`{"note":"${secret}\u0001"}`, /a control character inside a string/],
      [`{"note":"${secret}\\q"}`, /a bad escape in a string/],
      [`{"n":-,"note":"${secret}"}`, /a number without digits/],
      [`[1 2 "${secret}"]`, /expected ',' or '\]' after an array element/],
      [`{"a":1} "${secret}"`, /more text after the JSON value/],
      [`{"note":"${secret}",`, /the text ends inside an object/],
      [`{"n" "${secret}"}`, /expected ':' after a property name/],
    ];
    for (const [text, re] of cases) {
      const r = parseScene(text, '/p/s.vmdscene');
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      expect(r.error.code, text).toBe('E_SCENE_JSON');
      expect(r.error.message, text).toMatch(/^the scene file is not valid JSON: /);
      expect(r.error.message, text).toMatch(re);
      expect(r.error.message, text).not.toContain(secret);
      expect(r.error.message, text).not.toContain('hunter');
      expect(r.error.offset, text).toBeGreaterThanOrEqual(0);
    }
    // The position is the fault's: here the "x" after the note.
    const t = `{"note":"${secret}" x}`;
    const r = parseScene(t, '/p/s.vmdscene');
    expect(!r.ok && r.error.offset).toBe(t.indexOf(' x') + 1);
  });

  it(`holds at most ${MAX_SCENE_ACTORS} actors, and says so`, () => {
    const actors = (n: number) => `,"actors":[${Array.from({ length: n }, () => '{"model":null}').join(',')}]`;
    expect(parse(actors(MAX_SCENE_ACTORS)).ok).toBe(true);
    for (const n of [MAX_SCENE_ACTORS + 1, 2000]) {
      expect(parse(actors(n))).toMatchObject({ ok: false, error: { code: 'E_SCENE_SCHEMA', message: `actors: a scene holds at most ${MAX_SCENE_ACTORS} actors (this one names ${n})` } });
    }
  });
});

describe('scene file: the song’s beat grid (BPM… typed or found by Beats)', () => {
  const head = '{"format":"vmd-studio-scene","version":1,"audio":{"path":"song.wav"';

  it('reads audio.beats (shown defaults to true) and writes it back after muted, in that key order', () => {
    const r = parseScene(`${head},"beats":{"bpm":128.5,"firstBeat":-0.25}}}`, '/p/s.vmdscene');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.audio).toEqual({ path: '/p/song.wav', offsetFrames: 0, volume: 1, muted: false, beats: { bpm: 128.5, firstBeat: -0.25, shown: true } });
    const text = serializeScene(r.value, '/p/s.vmdscene');
    expect(text).toContain(['    "muted": false,', '    "beats": {', '      "bpm": 128.5,', '      "firstBeat": -0.25,', '      "shown": true', '    }'].join('\n'));
  });

  it('a scene without a grid writes no beats key (files from before it are unchanged)', () => {
    const r = parseScene(`${head},"offsetFrames":3}}`, '/p/s.vmdscene');
    expect(r.ok && !('beats' in r.value.audio!)).toBe(true);
    if (r.ok) expect(serializeScene(r.value, '/p/s.vmdscene')).not.toContain('beats');
  });

  it('a wrong grid is E_SCENE_SCHEMA naming the field', () => {
    const cases: [string, RegExp][] = [
      ['"beats":120', /^audio\.beats must be an object like/],
      ['"beats":{"firstBeat":0}', /^audio\.beats\.bpm is missing/],
      ['"beats":{"bpm":0}', /^audio\.beats\.bpm must be between 1 and 1000 \(is 0\)/],
      ['"beats":{"bpm":"120"}', /^audio\.beats\.bpm must be a number/],
      ['"beats":{"bpm":120,"firstBeat":"x"}', /^audio\.beats\.firstBeat must be a number/],
      ['"beats":{"bpm":120,"shown":1}', /^audio\.beats\.shown must be true or false/],
    ];
    for (const [body, re] of cases) {
      const r = parseScene(`${head},${body}}}`, '/p/s.vmdscene');
      expect(r.ok, body).toBe(false);
      if (r.ok) continue;
      expect(r.error.code, body).toBe('E_SCENE_SCHEMA');
      expect(r.error.message, body).toMatch(re);
    }
  });
});

describe('scene file: an actor’s outline width (edgeWidth, the model’s edge size × it)', () => {
  const scene = (actor: string) => `{"format":"vmd-studio-scene","version":1,"actors":[${actor}]}`;

  it('reads edgeWidth, writes it back after stage and before unknown fields, and round-trips', () => {
    const r = parseScene(scene('{"model":"m.pmx","motion":"d.vmd","stage":{"position":[1,0,0],"turn":0},"edgeWidth":0.5,"later":true}'), '/p/s.vmdscene');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.actors[0]).toEqual({ model: '/p/m.pmx', motion: '/p/d.vmd', hidden: false, stage: { position: [1, 0, 0], turn: 0 }, edgeWidth: 0.5, extra: { later: true } });
    const text = serializeScene(r.value, '/p/s.vmdscene');
    expect(Object.keys(JSON.parse(text).actors[0])).toEqual(['model', 'motion', 'hidden', 'stage', 'edgeWidth', 'later']);
    const again = parseScene(text, '/p/s.vmdscene');
    expect(again.ok && again.value.actors[0].edgeWidth).toBe(0.5);
    // The ends of the range are kept too: no outline, and twice the model's.
    for (const w of [0, 2]) {
      const e = parseScene(scene(`{"model":null,"edgeWidth":${w}}`), '/p/s.vmdscene');
      expect(e.ok && JSON.parse(serializeScene(e.value, '/p/s.vmdscene')).actors[0].edgeWidth).toBe(w);
    }
  });

  it('absent or 1 is the model’s own width: nothing is written (older files are unchanged)', () => {
    for (const a of ['{"model":null}', '{"model":null,"edgeWidth":1}']) {
      const r = parseScene(scene(a), '/p/s.vmdscene');
      expect(r.ok && 'edgeWidth' in r.value.actors[0]).toBe(false);
      if (r.ok) expect(serializeScene(r.value, '/p/s.vmdscene')).not.toContain('edgeWidth');
    }
  });

  it('a width outside 0–2 or not a number is E_SCENE_SCHEMA naming the field', () => {
    const cases: [string, RegExp][] = [
      ['2.5', /^actors\[0\]\.edgeWidth must be between 0 and 2 \(is 2\.5\)/],
      ['-0.1', /^actors\[0\]\.edgeWidth must be between 0 and 2 \(is -0\.1\)/],
      ['"1"', /^actors\[0\]\.edgeWidth must be a number/],
      ['null', /^actors\[0\]\.edgeWidth must be a number/],
    ];
    for (const [w, re] of cases) {
      const r = parseScene(scene(`{"model":null,"edgeWidth":${w}}`), '/p/s.vmdscene');
      expect(r.ok, w).toBe(false);
      if (r.ok) continue;
      expect(r.error.code, w).toBe('E_SCENE_SCHEMA');
      expect(r.error.message, w).toMatch(re);
    }
  });
});
