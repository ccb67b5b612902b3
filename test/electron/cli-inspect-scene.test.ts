// `inspect SCENE.vmdscene` gives the lengths a video maker compares: each actor's dance, the camera, the song
// (and where it ends in the scene, after its offset) and the scene's overall length, the longest of them; the
// actors' stage places and the music's volume and mute. Before, it listed the files' names only, and --json's
// `audio` dropped `volume` and `muted`.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** A WAV: 22,050 Hz mono 16-bit PCM, `samples` samples of silence (11,025: 0.5 s). */
function wav(samples: number): Uint8Array {
  const fmt = [...ascii('fmt '), ...le32(16), ...le16(1), ...le16(1), ...le32(22050), ...le32(22050 * 2), ...le16(2), ...le16(16)];
  const data = [...ascii('data'), ...le32(samples * 2), ...new Array(samples * 2).fill(0)];
  return new Uint8Array([...ascii('RIFF'), ...le32(4 + fmt.length + data.length), ...ascii('WAVE'), ...fmt, ...data]);
}

/**
 * The last key frame of a VMD that holds bone and morph keys only, read here by hand from the layout (30-byte
 * header, 20-byte model name; a count, then 111-byte bone records and 23-byte morph records, each with its
 * frame at byte 15); the camera, light and shadow counts after them must be 0 or absent.
 */
function lastKeyFrame(bytes: Uint8Array): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 50, last = 0;
  for (const size of [111, 23]) {
    const n = dv.getUint32(at, true);
    at += 4;
    for (let i = 0; i < n; i++) last = Math.max(last, dv.getUint32(at + i * size + 15, true));
    at += n * size;
  }
  for (let k = 0; k < 3 && at + 4 <= bytes.length; k++, at += 4) expect(dv.getUint32(at, true)).toBe(0);
  return last;
}

const jsonLine = (out: string) => JSON.parse(out.trim().split('\n')[0]) as Record<string, unknown>;

describe.skipIf(!corpusPresent)('inspect of a scene: the lengths of its dances, camera and song', () => {
  it('each motion\'s last frame and seconds, the song\'s length and end, the scene\'s length; stage places, volume and mute', async () => {
    const d = mk('inspect-scene');
    const laugh = corpusPath('gene/motion/02_laugh.vmd');
    const normal = corpusPath('gene/motion/00_normal.vmd');
    const laughLast = lastKeyFrame(readFileSync(laugh));
    const normalLast = lastKeyFrame(readFileSync(normal));
    expect(laughLast).toBeGreaterThan(normalLast);
    // A camera motion of the test's own: keys at 0 and 45.
    writeFileSync(path.join(d, 'camera.vmd'), buildFixture({ cameras: [0, 45].map((frame) => ({ frame, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 })) }));
    writeFileSync(path.join(d, 'tone.wav'), wav(11025)); // 0.5 s: 15 frames
    const scene = (offsetFrames: number) =>
      JSON.stringify({
        format: 'vmd-studio-scene',
        version: 1,
        actors: [
          { name: 'Gene', model: null, motion: laugh, hidden: false, stage: { position: [5, 0, -2.5], turn: 90 } },
          { model: null, motion: normal, hidden: true },
          { model: null, motion: 'gone.vmd', hidden: false },
        ],
        camera: 'camera.vmd',
        audio: { path: 'tone.wav', offsetFrames, volume: 0.8, muted: true },
        aspect: { width: 16, height: 9 },
      });
    writeFileSync(path.join(d, 'dance.vmdscene'), scene(12));
    const secs = (f: number) => (f / 30).toFixed(2);

    const t = await cli(d, 'inspect', 'dance.vmdscene');
    expect(t.code, t.err).toBe(0);
    const lines = t.out.split('\n');
    expect(lines.find((l) => l.startsWith('  actor 1'))).toBe(`  actor 1 "Gene"  model (the built-in figure)  motion ${path.relative(d, laugh)}  ${laughLast} frames (${secs(laughLast)} s)`);
    expect(lines).toContain('          stands at (5, 0, -2.5), turned 90°');
    expect(lines.find((l) => l.startsWith('  actor 2'))).toBe(`  actor 2  model (the built-in figure)  motion ${path.relative(d, normal)}  ${normalLast} frames (${secs(normalLast)} s)  (hidden)`);
    expect(lines.find((l) => l.startsWith('  actor 3'))).toBe('  actor 3  model (the built-in figure)  motion gone.vmd (not found)');
    expect(lines).toContain('  camera  camera.vmd  45 frames (1.50 s)');
    // 15 frames of song, 12 of them before frame 0: it ends at scene frame 3.
    expect(lines).toContain('  music   tone.wav (offset 12 frames)  0.50 s, ends at frame 3  volume 80%  muted');
    expect(lines).toContain(`  length  ${laughLast} frames (${secs(laughLast)} s at 30 fps), the longest: actor 1`);
    expect(lines).toContain('  warning gone.vmd: not found');

    const j = jsonLine((await cli(d, 'inspect', '--json', 'dance.vmdscene')).out);
    expect(j).toMatchObject({
      ok: true,
      format: 'scene',
      actors: [
        { name: 'Gene', stage: { position: [5, 0, -2.5], turn: 90 }, motionLength: { lastFrame: laughLast, durationSeconds: Math.round((laughLast / 30) * 1000) / 1000 } },
        { hidden: true, motionLength: { lastFrame: normalLast } },
        { motion: 'gone.vmd', motionLength: null },
      ],
      cameraLength: { lastFrame: 45, durationSeconds: 1.5 },
      audio: { path: 'tone.wav', offsetFrames: 12, volume: 0.8, muted: true, durationSeconds: 0.5, endFrame: 3 },
      length: { lastFrame: laughLast, longest: 'actor 1' },
      missing: ['gone.vmd'],
    });
    expect((j.actors as Record<string, unknown>[])[1]).not.toHaveProperty('stage');

    // The song 600 frames into the dance: it ends last, and the scene is as long as it.
    writeFileSync(path.join(d, 'late.vmdscene'), scene(-600));
    const late = jsonLine((await cli(d, 'inspect', '--json', 'late.vmdscene')).out);
    expect(late).toMatchObject({ audio: { endFrame: 615 }, length: { lastFrame: 615, durationSeconds: 20.5, longest: 'music' } });
    const lt = await cli(d, 'inspect', 'late.vmdscene');
    expect(lt.out).toContain('  length  615 frames (20.50 s at 30 fps), the longest: music\n');
  });

  it('a song whose file is missing has no length, and one frame is "1 frame"', async () => {
    const d = mk('inspect-scene-missing');
    writeFileSync(path.join(d, 'one.vmd'), buildFixture({ bones: [{ name: 'センター', frame: 1 }] }));
    writeFileSync(
      path.join(d, 's.vmdscene'),
      JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'one.vmd', hidden: false }], camera: null, audio: { path: 'gone.mp3', offsetFrames: 1, volume: 1, muted: false }, aspect: { width: 4, height: 3 } }),
    );
    const t = await cli(d, 'inspect', 's.vmdscene');
    expect(t.out).toBe(
      's.vmdscene\n' +
        '  VMD Studio scene  1 actor, music; open it in the VMD Studio app\n' +
        '  actor 1  model (the built-in figure)  motion one.vmd  1 frame (0.03 s)\n' +
        '  music   gone.mp3 (not found) (offset 1 frame)  volume 100%\n' +
        '  aspect  4:3\n' +
        '  length  1 frame (0.03 s at 30 fps), the longest: actor 1\n' +
        '  warning gone.mp3: not found\n\n',
    );
  });

  it('an offset kept with no song ("path": null, the app\'s song removed after its offset was set) is said as such, names no file, and --json gives path null', async () => {
    const d = mk('inspect-scene-offset-alone');
    writeFileSync(path.join(d, 'one.vmd'), buildFixture({ bones: [{ name: 'センター', frame: 1 }] }));
    writeFileSync(
      path.join(d, 's.vmdscene'),
      JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'one.vmd', hidden: false }], camera: null, audio: { path: null, offsetFrames: 20, volume: 1, muted: false }, aspect: { width: 4, height: 3 } }),
    );
    const t = await cli(d, 'inspect', 's.vmdscene');
    expect(t.out).toBe(
      's.vmdscene\n' +
        '  VMD Studio scene  1 actor; open it in the VMD Studio app\n' +
        '  actor 1  model (the built-in figure)  motion one.vmd  1 frame (0.03 s)\n' +
        '  music   no song; its offset kept for the next one (20 frames)\n' +
        '  aspect  4:3\n' +
        '  length  1 frame (0.03 s at 30 fps), the longest: actor 1\n\n',
    );
    const j = await cli(d, 'inspect', 's.vmdscene', '--json');
    expect(jsonLine(j.out).audio).toEqual({ path: null, offsetFrames: 20, volume: 1, muted: false, durationSeconds: null, endFrame: null });
  });
});
