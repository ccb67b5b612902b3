// `inspect` of many files: each said in the order given (a first run printed models first and a failed file
// before the good ones), a model that cannot be read reported as a motion that cannot be is (it was a line on
// stderr only), and a file of another kind named (and described) as what it is — a WAV, a VMD Studio scene,
// an image, whatever its name says (they were "not a VMD motion or a VPD pose", E_VMD_MAGIC).
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { ballsPmx } from '../helpers/pmx-balls';
import { useTempDirs } from './batch-helpers';
import { fileKindByContent, fileKindByName, videoContainerOf } from '../../shared/ipc/file-kind';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

const BVH = 'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0\n';

const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const be32 = (n: number) => le32(n).reverse();
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** A WAV: 22,050 Hz mono 16-bit PCM, 11,025 samples (0.5 s) of silence. */
function wav(): Uint8Array {
  const samples = 11025;
  const fmt = [...ascii('fmt '), ...le32(16), ...le16(1) /* PCM */, ...le16(1) /* channels */, ...le32(22050), ...le32(22050 * 2) /* bytes/s */, ...le16(2) /* block align */, ...le16(16)];
  const data = [...ascii('data'), ...le32(samples * 2), ...new Array(samples * 2).fill(0)];
  return new Uint8Array([...ascii('RIFF'), ...le32(4 + fmt.length + data.length), ...ascii('WAVE'), ...fmt, ...data]);
}

/** A PNG's signature and IHDR: 300 × 200 (the rest of the file is never read). */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...be32(13), ...ascii('IHDR'), ...be32(300), ...be32(200), 8, 6, 0, 0, 0, ...be32(0)]);
/** A JPEG's SOI, an APP0 of 2 bytes' length, then SOF0: 8-bit, height 48, width 64. */
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02, 0xff, 0xc0, 0x00, 0x11, 8, 0x00, 48, 0x00, 64, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/** A BMP's file header and a 40-byte BITMAPINFOHEADER: 5 wide, 7 high (top-down: a negative height). */
const BMP = new Uint8Array([...ascii('BM'), ...le32(54), 0, 0, 0, 0, ...le32(54), ...le32(40), ...le32(5), ...le32(-7), ...le16(1), ...le16(24), ...new Array(24).fill(0)]);
/** A TGA's 18-byte header (no magic: type 2, true colour), 16 × 8. */
const TGA = new Uint8Array([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...le16(16), ...le16(8), 32, 0]);

function files(): string {
  const d = mk('inspect-kinds');
  writeFileSync(path.join(d, 'dance.vmd'), buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 10, pos: [1, 0, 0] }] }));
  writeFileSync(path.join(d, 'walk.bvh'), BVH);
  const pmx = ballsPmx([{ centre: [0, 0, 0], radius: 1, diffuse: [1, 0, 0, 1], ambient: [0, 0, 0], flags: 0, toon: null }]);
  writeFileSync(path.join(d, 'model.pmx'), pmx);
  // Cut in its vertices: no reader repairs that.
  writeFileSync(path.join(d, 'broken.pmx'), pmx.subarray(0, 120));
  return d;
}

/** The path lines of inspect's table for people (each file's block starts with its path, unindented). */
const pathLines = (out: string) => out.split('\n').filter((l) => l !== '' && !l.startsWith(' '));
const jsonLines = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as { file: string; ok: boolean; error?: { code: string }; modelCheck?: string });

describe('inspect of many files', () => {
  it('says them in the order given, a missing one and a model in the middle, in the table and in --json', async () => {
    const d = files();
    const given = ['dance.vmd', 'nothere.vrma', 'model.pmx', 'walk.bvh'];
    const t = await cli(d, 'inspect', ...given);
    expect(t.code).toBe(1);
    expect(pathLines(t.out)).toEqual(given);
    expect(t.err).toBe('vmd-studio: nothere.vrma: no such file or folder\n');
    const j = await cli(d, 'inspect', '--json', ...given);
    expect(j.code).toBe(1);
    expect(jsonLines(j.out).map((l) => [path.basename(l.file), l.ok])).toEqual([['dance.vmd', true], ['nothere.vrma', false], ['model.pmx', true], ['walk.bvh', true]]);
  });

  it('a count of one is said in the singular: "1 frame", "1 joint", "1 channel" (it said "1 frames")', async () => {
    const d = files();
    writeFileSync(path.join(d, 'one.vmd'), buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 1 }] }));
    const t = await cli(d, 'inspect', 'one.vmd', 'walk.bvh');
    expect(t.code, t.err).toBe(0);
    expect(t.out).toContain('\n  length  1 frame (0.03 s at 30 fps)\n');
    expect(t.out).toContain('\n  tracks  1 bone, 0 morphs\n');
    // walk.bvh: one joint (Hips) with one end site, 3 channels, 1 frame.
    expect(t.out).toContain('\n  capture (BVH)  1 joint, 1 end site, root Hips; 3 channels\n  length  1 frame at ');
  });

  it('a model that cannot be read is reported as a motion that cannot be: its block, its --json line, stderr, exit 1', async () => {
    const d = files();
    const t = await cli(d, 'inspect', 'dance.vmd', 'broken.pmx', 'walk.bvh');
    expect(t.code).toBe(1);
    expect(pathLines(t.out)).toEqual(['dance.vmd', 'broken.pmx', 'walk.bvh']);
    expect(t.out).toMatch(/\nbroken\.pmx\n {2}ERROR E_PMX_TRUNCATED: .* \(at byte \d+\)\n\n/);
    expect(t.err).toMatch(/^vmd-studio: broken\.pmx: .* \(at byte \d+\)\n$/);
    const j = await cli(d, 'inspect', '--json', 'dance.vmd', 'broken.pmx', 'walk.bvh');
    expect(j.code).toBe(1);
    const lines = jsonLines(j.out);
    expect(lines.map((l) => path.basename(l.file))).toEqual(['dance.vmd', 'broken.pmx', 'walk.bvh']);
    expect(lines[1]).toMatchObject({ file: path.join(d, 'broken.pmx'), ok: false, error: { code: 'E_PMX_TRUNCATED' } });
  });

  it('--model that cannot be read: said once, not once per motion', async () => {
    const d = files();
    writeFileSync(path.join(d, 'again.vmd'), buildFixture({ bones: [{ name: 'arm', frame: 0 }] }));
    const t = await cli(d, 'inspect', 'dance.vmd', 'again.vmd', '--model', 'broken.pmx');
    expect(t.code).toBe(1);
    expect(pathLines(t.out)).toEqual(['dance.vmd', 'broken.pmx', 'again.vmd']);
    expect(t.out).toContain('broken.pmx\n  ERROR E_PMX_TRUNCATED');
    expect(t.err.split('\n').filter(Boolean)).toHaveLength(1);
    const j = await cli(d, 'inspect', '--json', 'dance.vmd', 'again.vmd', '--model', 'broken.pmx');
    expect(jsonLines(j.out).map((l) => [path.basename(l.file), l.ok])).toEqual([['dance.vmd', true], ['broken.pmx', false], ['again.vmd', true]]);
  });

  it('with --model, each motion\'s check follows its own line', async () => {
    const d = files();
    const j = await cli(d, 'inspect', '--json', 'dance.vmd', 'walk.bvh', 'dance.vmd', '--model', 'model.pmx');
    expect(j.code).toBe(0);
    expect(jsonLines(j.out).map((l) => [path.basename(l.file), l.modelCheck ? 'check' : 'file'])).toEqual([['dance.vmd', 'file'], ['dance.vmd', 'check'], ['walk.bvh', 'file'], ['dance.vmd', 'file'], ['dance.vmd', 'check']]);
  });
});

describe('a WAV, a scene, an image: named as what they are, by their content', () => {
  function others(): string {
    const d = files();
    writeFileSync(path.join(d, 'tone.wav'), wav());
    writeFileSync(
      path.join(d, 'my.vmdscene'),
      JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ name: 'Miku', model: 'model.pmx', motion: 'dance.vmd', hidden: false }, { model: null, motion: null, hidden: true }], camera: 'cam/camera.vmd', audio: { path: 'tone.wav', offsetFrames: 12, volume: 1, muted: false }, aspect: { width: 4, height: 3 } }),
    );
    writeFileSync(path.join(d, 'picture.vmd'), PNG);
    writeFileSync(path.join(d, 'photo.jpg'), JPEG);
    writeFileSync(path.join(d, 'icon.bmp'), BMP);
    writeFileSync(path.join(d, 'skin.tga'), TGA);
    return d;
  }

  it('the sniffing knows a WAV, a scene and the images by their first bytes (a TGA has none to know)', () => {
    expect([wav(), new TextEncoder().encode('\ufeff {"format": "vmd-studio-scene", "version": 1}'), PNG, JPEG, BMP, TGA].map((b) => fileKindByContent(b))).toEqual(['wav', 'scene', 'png', 'jpeg', 'bmp', null]);
  });

  it('inspect describes a WAV: format, rate, channels, length', async () => {
    const d = others();
    const t = await cli(d, 'inspect', 'tone.wav');
    expect(t.code, t.err).toBe(0);
    expect(t.out).toBe("tone.wav\n  audio   WAV (PCM)  22050 Hz, 1 channel, 16-bit; a song for a scene's music in the VMD Studio app\n  length  0.50 s (15 frames at 30 fps)\n\n");
    const j = jsonLines((await cli(d, 'inspect', '--json', 'tone.wav')).out)[0];
    expect(j).toEqual({ file: path.join(d, 'tone.wav'), ok: true, format: 'wav', audioFormat: 'WAV (PCM)', sampleRate: 22050, channels: 1, bitsPerSample: 16, samples: 11025, durationSeconds: 0.5, warnings: [] });
  });

  it('a WAV whose header is whole but with no sample in the file: said as cut short (or empty), not as a format that cannot be decoded; one cut later says how much is there', async () => {
    const d = others();
    const whole = wav(); // its data chunk (22,050 bytes) starts at byte 44
    const header = whole.subarray(0, 44);
    writeFileSync(path.join(d, 'gone.wav'), header);
    // The data chunk's size set to 0: the header itself promises nothing.
    const empty = new Uint8Array(header);
    empty.set(le32(0), 40);
    empty.set(le32(36), 4);
    writeFileSync(path.join(d, 'empty.wav'), empty);
    writeFileSync(path.join(d, 'part.wav'), whole.subarray(0, 44 + 1000));
    const t = await cli(d, 'inspect', 'gone.wav', 'empty.wav', 'part.wav');
    expect(t.code).toBe(1);
    expect(t.out).toBe(
      'gone.wav\n  ERROR E_AUDIO_NO_SAMPLES: cut short: the header promises 22,050 bytes of samples, the file has none\n\n' +
        'empty.wav\n  ERROR E_AUDIO_NO_SAMPLES: no sound in it: the header promises 0 bytes of samples (its data chunk is empty)\n\n' +
        "part.wav\n  audio   WAV (PCM)  22050 Hz, 1 channel, 16-bit; a song for a scene's music in the VMD Studio app\n  length  0.02 s (1 frame at 30 fps)\n" +
        '  warning cut short: the header promises 22,050 bytes of samples, the file has 1,000; what is there plays\n\n',
    );
    expect(t.err).toBe('vmd-studio: gone.wav: cut short: the header promises 22,050 bytes of samples, the file has none\nvmd-studio: empty.wav: no sound in it: the header promises 0 bytes of samples (its data chunk is empty)\n');
    const j = jsonLines((await cli(d, 'inspect', '--json', 'gone.wav', 'part.wav')).out);
    expect(j[0]).toEqual({ file: path.join(d, 'gone.wav'), ok: false, error: { code: 'E_AUDIO_NO_SAMPLES', message: 'cut short: the header promises 22,050 bytes of samples, the file has none', offset: null } });
    expect(j[1]).toMatchObject({ ok: true, samples: 500, warnings: ['cut short: the header promises 22,050 bytes of samples, the file has 1,000; what is there plays'] });
  });

  it('inspect lists what a scene holds and the files it names that are not there, and says to open it in the app', async () => {
    const d = others();
    const t = await cli(d, 'inspect', 'my.vmdscene');
    expect(t.code, t.err).toBe(0);
    expect(t.out).toBe(
      'my.vmdscene\n' +
        '  VMD Studio scene  2 actors, a camera, music; open it in the VMD Studio app\n' +
        // dance.vmd's keys at 0 and 10; the song's 15 frames less the 12 before frame 0.
        '  actor 1 "Miku"  model model.pmx  motion dance.vmd  10 frames (0.33 s)\n' +
        '  actor 2  model (the built-in figure)  motion (none)  (hidden)\n' +
        '  camera  cam/camera.vmd (not found)\n' +
        '  music   tone.wav (offset 12 frames)  0.50 s, ends at frame 3  volume 100%\n' +
        '  aspect  4:3\n' +
        '  length  10 frames (0.33 s at 30 fps), the longest: actor 1\n' +
        '  warning cam/camera.vmd: not found\n\n',
    );
    const j = jsonLines((await cli(d, 'inspect', '--json', 'my.vmdscene')).out)[0];
    expect(j).toMatchObject({ ok: true, format: 'scene', camera: 'cam/camera.vmd', audio: { path: 'tone.wav', offsetFrames: 12, volume: 1, muted: false, durationSeconds: 0.5, endFrame: 3 }, missing: ['cam/camera.vmd'] });
  });

  it('inspect names an image by its bytes, whatever its name, with its size', async () => {
    const d = others();
    const t = await cli(d, 'inspect', 'picture.vmd', 'photo.jpg', 'icon.bmp', 'skin.tga');
    expect(t.code, t.err).toBe(0);
    expect(t.out).toBe(
      "picture.vmd\n  image (PNG)  300 × 200 pixels; VMD Studio uses images as a model's textures\n" +
        '  warning a PNG image named .vmd: MMD and VMD Studio open a file by its extension and refuse this one; rename it picture.png\n\n' +
        "photo.jpg\n  image (JPEG)  64 × 48 pixels; VMD Studio uses images as a model's textures\n\n" +
        "icon.bmp\n  image (BMP)  5 × 7 pixels; VMD Studio uses images as a model's textures\n\n" +
        "skin.tga\n  image (TGA)  16 × 8 pixels; VMD Studio uses images as a model's textures\n\n",
    );
    // A file named as an image that is none is said so.
    writeFileSync(path.join(d, 'fake.png'), 'hello');
    const f = await cli(d, 'inspect', 'fake.png');
    expect(f.code).toBe(1);
    expect(f.err).toBe('vmd-studio: fake.png: named as a PNG image, but it does not start with the PNG signature (at byte 0)\n');
  });

  it('other commands name them too, with what they take', async () => {
    const d = others();
    // A song, an image: in the app's words, what it is and what to do (nubegin 2).
    expect((await cli(d, 'convert', 'tone.wav', '-o', 'x.json')).err).toBe('vmd-studio: tone.wav: a song (WAV), not a motion: load it with ♪ Music…\n');
    expect((await cli(d, 'mirror', 'my.vmdscene', '-o', 'x.vmd')).err).toBe(
      'vmd-studio: my.vmdscene: a VMD Studio scene, not a VMD motion: mirror works on VMD motions; open a scene in the VMD Studio app (vmd-studio inspect lists what it holds)\n',
    );
    // Content wins over the name: a PNG named .vmd is an image, in one-file commands and in a batch.
    expect((await cli(d, 'mirror', 'picture.vmd', '-o', 'x.vmd')).err).toBe('vmd-studio: picture.vmd: an image (PNG), not a motion: VMD Studio uses images only as a model’s textures, from the model’s folder\n');
    const b = await cli(d, 'batch', 'mirror', '.', '-o', 'out');
    expect(b.code).toBe(1);
    expect(b.out).toContain('picture.vmd: E_VMD_MAGIC a PNG image, not a VMD motion (at byte 0)');
  });
});

/** Whether ffmpeg and ffprobe run here (they make and measure the songs below; the tests that need them are skipped without). */
const haveFfmpeg = ['ffmpeg', 'ffprobe'].every((c) => spawnSync(c, ['-version'], { encoding: 'utf8' }).status === 0);

describe('songs other than a WAV (MP3, Ogg, FLAC, M4A): named as audio, as the app\'s song check names them', () => {
  it('the sniffing knows them by their first bytes (hand-written magic) and by name; an image brand of ftyp, or a bare FF sync, is not one', () => {
    const id3 = new Uint8Array([...ascii('ID3'), 4, 0, 0, 0, 0, 0, 0]);
    const frame = new Uint8Array([0xff, 0xfb, 0x90, 0x64]); // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz
    const ogg = new Uint8Array([...ascii('OggS'), 0, 2]);
    const flac = new Uint8Array([...ascii('fLaC'), 0]);
    const m4a = new Uint8Array([...be32(32), ...ascii('ftypM4A '), 0, 0, 0, 0]);
    const heic = new Uint8Array([...be32(32), ...ascii('ftypheic'), 0, 0, 0, 0]);
    const noise = new Uint8Array([0xff, 0xff, 0xff, 0xff]); // reserved bitrate: no MPEG header
    expect([id3, frame, ogg, flac, m4a, heic, noise].map((b) => fileKindByContent(b))).toEqual(['audio', 'audio', 'audio', 'audio', 'audio', null, null]);
    expect(['a.mp3', 'a.ogg', 'a.flac', 'a.m4a', 'a.wav', 'a.txt'].map((n) => fileKindByName(n))).toEqual(['audio', 'audio', 'audio', 'audio', 'wav', null]);
  });

  it.skipIf(!haveFfmpeg)('inspect says each is audio, its format, rate and channels, and its length where the header gives it (as ffprobe measures it); a command that takes a motion names it as a song', async () => {
    const d = mk('inspect-songs');
    // 1.5 s of a 440 Hz tone, stereo at 44.1 kHz, made by ffmpeg here (never a fixture in the repository).
    const make = (file: string, codec: string) => {
      const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1.5:sample_rate=44100', '-ac', '2', '-c:a', codec, path.join(d, file)], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    };
    make('tone.mp3', 'libmp3lame');
    make('tone.ogg', 'libvorbis');
    make('tone.flac', 'flac');
    make('tone.m4a', 'aac');
    const probe = (file: string) => Number(spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path.join(d, file)], { encoding: 'utf8' }).stdout.trim());
    const t = await cli(d, 'inspect', '--json', 'tone.mp3', 'tone.ogg', 'tone.flac', 'tone.m4a');
    expect(t.code, t.err).toBe(0);
    const [mp3, ogg, flac, m4a] = jsonLines(t.out) as unknown as { format: string; audioFormat: string; sampleRate: number | null; channels: number | null; durationSeconds: number | null }[];
    expect(mp3).toMatchObject({ ok: true, format: 'audio', audioFormat: 'MP3', sampleRate: 44100, channels: 2, warnings: [] });
    // LAME's Info frame counts the frames, the encoder's padding included (as ffprobe's length does).
    expect(Math.abs(mp3.durationSeconds! - probe('tone.mp3'))).toBeLessThan(0.001);
    // An Ogg's length is in its last page, which inspect does not read.
    expect(ogg).toMatchObject({ ok: true, format: 'audio', audioFormat: 'Ogg', sampleRate: 44100, channels: 2, durationSeconds: null });
    expect(flac).toMatchObject({ ok: true, format: 'audio', audioFormat: 'FLAC', sampleRate: 44100, channels: 2 });
    expect(Math.abs(flac.durationSeconds! - probe('tone.flac'))).toBeLessThan(0.001);
    expect(m4a).toMatchObject({ ok: true, format: 'audio', audioFormat: 'MP4/M4A', sampleRate: null, channels: null });
    expect(Math.abs(m4a.durationSeconds! - probe('tone.m4a'))).toBeLessThan(0.001);
    // The table for people; the same bytes under a motion's name are still the song they are.
    writeFileSync(path.join(d, 'song.vmd'), readFileSync(path.join(d, 'tone.flac')));
    const h = await cli(d, 'inspect', 'song.vmd', 'tone.ogg');
    expect(h.out).toBe(
      "song.vmd\n  audio   FLAC  44100 Hz, 2 channels; a song for a scene's music in the VMD Studio app\n  length  1.50 s (45 frames at 30 fps)\n" +
        '  warning an audio file (FLAC) named .vmd: MMD and VMD Studio open a file by its extension and refuse this one\n\n' +
        "tone.ogg\n  audio   Ogg  44100 Hz, 2 channels; a song for a scene's music in the VMD Studio app\n\n",
    );
    // A name that says song over bytes that say nothing: named by its name, with what is not known.
    writeFileSync(path.join(d, 'notes.mp3'), 'not a song\n');
    const notes = jsonLines((await cli(d, 'inspect', '--json', 'notes.mp3')).out)[0];
    expect(notes).toEqual({
      file: path.join(d, 'notes.mp3'),
      ok: true,
      format: 'audio',
      audioFormat: '.mp3 file of unknown format',
      sampleRate: null,
      channels: null,
      durationSeconds: null,
      warnings: ["its first bytes are none of the audio formats known here (MP3, AAC, Ogg, FLAC, MP4/M4A, AIFF, WebM, WMA); the app hands it to the system's decoder, which may or may not play it"],
    });
    const trim = await cli(d, 'trim', 'tone.mp3', '-o', 'x.vmd', '--from', '0');
    expect([trim.code, trim.err]).toEqual([1, 'vmd-studio: tone.mp3: a song (MP3), not a motion: load it with ♪ Music…\n']);
  });
});

/** An ISO-BMFF box: a 32-bit size, its type, its body. */
const box = (type: string, ...body: number[][]) => {
  const b = body.flat();
  return [...be32(8 + b.length), ...ascii(type), ...b];
};
/** A track whose handler (moov → trak → mdia → hdlr) is `handler` ("vide", "soun"). */
const trak = (handler: string) => box('trak', box('mdia', box('hdlr', [0, 0, 0, 0], [0, 0, 0, 0], ascii(handler), new Array(12).fill(0), [0])));
/** An EBML header with DocType `doc`, then a CodecID element (0x86) of `codec`. */
const ebml = (doc: string, codec: string) => new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x80 | (3 + doc.length), 0x42, 0x82, 0x80 | doc.length, ...ascii(doc), 0x86, 0x80 | codec.length, ...ascii(codec)]);

describe('videos (MP4, MOV, WebM, MKV, AVI): named as a video, with their format; an M4A stays a song', () => {
  it('the sniffing tells a film from a song by its brands, its tracks where its moov is read, a Matroska codec', () => {
    const ftyp = (major: string, ...compatible: string[]) => box('ftyp', ascii(major), [0, 0, 2, 0], ...compatible.map(ascii));
    const cases: [string, Uint8Array][] = [
      // What the app's Video… writes (mediabunny: isom, avc1, mp41; its moov at the end, not read).
      ['app mp4', new Uint8Array([...ftyp('isom', 'isom', 'avc1', 'mp41'), ...box('mdat', [1, 2, 3])])],
      ['mp42', new Uint8Array(ftyp('mp42', 'mp42', 'isom'))],
      ['iso5 (fragmented)', new Uint8Array(ftyp('iso5', 'iso5', 'iso6', 'mp41'))],
      ['M4V', new Uint8Array(ftyp('M4V ', 'M4V ', 'M4A ', 'mp42', 'isom'))],
      ['QuickTime', new Uint8Array(ftyp('qt  ', 'qt  '))],
      ['M4A', new Uint8Array(ftyp('M4A ', 'M4A ', 'isom', 'iso2'))],
      // Generic brands, but the moov (read) says: sound only, or a picture track.
      ['isom, sound only', new Uint8Array([...ftyp('isom', 'isom', 'mp41'), ...box('moov', trak('soun'))])],
      ['isom, film with sound', new Uint8Array([...ftyp('isom', 'isom'), ...box('moov', trak('soun'), trak('vide'))])],
      ['M4A brand, a picture track', new Uint8Array([...ftyp('M4A ', 'M4A '), ...box('moov', trak('vide'))])],
      ['WebM VP9', ebml('webm', 'V_VP9')],
      ['WebM Opus', ebml('webm', 'A_OPUS')],
      ['Matroska AVC', ebml('matroska', 'V_MPEG4/ISO/AVC')],
      ['AVI', new Uint8Array([...ascii('RIFF'), ...le32(4), ...ascii('AVI LIST')])],
      ['HEIC image', new Uint8Array(ftyp('heic', 'mif1', 'heic'))],
    ];
    expect(cases.map(([name, b]) => [name, fileKindByContent(b), videoContainerOf(b)])).toEqual([
      ['app mp4', 'video', 'mp4'],
      ['mp42', 'video', 'mp4'],
      ['iso5 (fragmented)', 'video', 'mp4'],
      ['M4V', 'video', 'mp4'],
      ['QuickTime', 'video', 'mov'],
      ['M4A', 'audio', null],
      ['isom, sound only', 'audio', null],
      ['isom, film with sound', 'video', 'mp4'],
      ['M4A brand, a picture track', 'video', 'mp4'],
      ['WebM VP9', 'video', 'webm'],
      ['WebM Opus', 'audio', null],
      ['Matroska AVC', 'video', 'mkv'],
      ['AVI', 'video', 'avi'],
      ['HEIC image', null, null],
    ]);
    expect(['a.mp4', 'a.mov', 'a.mkv', 'a.m4a'].map((n) => fileKindByName(n))).toEqual(['video', 'video', 'video', 'audio']);
  });

  it('inspect says a video is one and that VMD Studio writes but does not read them (exit 1); other commands, the batch and a song\'s format too', async () => {
    const d = mk('inspect-videos');
    const ffmpeg = (args: string[]) => {
      const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    };
    if (haveFfmpeg) {
      // Made here by ffmpeg (never a fixture in the repository): H.264 in MP4 and VP9 in WebM, as the app writes them; an M4A song.
      ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=30', '-t', '0.5', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', path.join(d, 'clip.mp4')]);
      ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=30', '-t', '0.5', '-c:v', 'libvpx-vp9', path.join(d, 'clip.webm')]);
      ffmpeg(['-f', 'lavfi', '-i', 'sine=duration=0.5', '-c:a', 'aac', path.join(d, 'tone.m4a')]);
    } else {
      // Hand-written first boxes of the same.
      writeFileSync(path.join(d, 'clip.mp4'), new Uint8Array([...box('ftyp', ascii('isom'), [0, 0, 2, 0], ascii('isom'), ascii('avc1'), ascii('mp41')), ...box('mdat', [0])]));
      writeFileSync(path.join(d, 'clip.webm'), ebml('webm', 'V_VP9'));
      writeFileSync(path.join(d, 'tone.m4a'), new Uint8Array([...box('ftyp', ascii('M4A '), [0, 0, 2, 0], ascii('M4A ')), ...box('mdat', [0])]));
    }
    const says = (format: string) => `a video (${format}), not a motion, a model, a song or a scene: VMD Studio writes videos (Video…; Render → Video… in the desktop app) but does not read them`;
    const t = await cli(d, 'inspect', 'clip.mp4', 'clip.webm', 'tone.m4a');
    expect(t.code).toBe(1);
    expect(t.out).toContain(`clip.mp4\n  ERROR E_UNSUPPORTED: ${says('MP4')} (at byte 0)\n\n`);
    expect(t.out).toContain(`clip.webm\n  ERROR E_UNSUPPORTED: ${says('WebM')} (at byte 0)\n\n`);
    expect(t.out).toContain('tone.m4a\n  audio   MP4/M4A;');
    expect(t.err).toBe(`vmd-studio: clip.mp4: ${says('MP4')} (at byte 0)\nvmd-studio: clip.webm: ${says('WebM')} (at byte 0)\n`);
    const j = jsonLines((await cli(d, 'inspect', '--json', 'clip.mp4')).out)[0];
    expect(j).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED', message: says('MP4') } });
    expect((await cli(d, 'mirror', 'clip.mp4', '-o', 'x.vmd')).err).toBe('vmd-studio: clip.mp4: a video (MP4), not a motion: VMD Studio makes videos (Video…) but does not open them\n');
    expect((await cli(d, 'convert', 'tone.m4a', '-o', 'x.vpd')).err).toBe('vmd-studio: tone.m4a: a song (M4A), not a motion: load it with ♪ Music…\n');
    // The same bytes under a motion's name, in a batch.
    mkdirSync(path.join(d, 'in'));
    writeFileSync(path.join(d, 'in', 'dance.vmd'), readFileSync(path.join(d, 'clip.webm')));
    const b = await cli(d, 'batch', 'mirror', 'in', '-o', 'out');
    expect(b.code).toBe(1);
    expect(b.out).toContain('dance.vmd: E_VMD_MAGIC a video (WebM), not a VMD motion');
  });
});
