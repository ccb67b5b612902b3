// `inspect` of a short camera motion that also has light keys (a new camera document: 5 camera keys, 2 light
// keys, 3 self-shadow keys) says camera; it said light, as the File panel's badge did, since the notes' rule
// called a file with a light key and at most 10 camera keys a light motion. A light motion alone is still one.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { buildFixture } from '../helpers/vmd-fixtures';

const mk = useTempDirs();
const cam = (frame: number) => ({ frame, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 });
const light = (frame: number) => ({ frame, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] });

describe('inspect: a camera with light keys is a camera', () => {
  it('5 camera keys, 2 light keys, 3 self-shadow keys: kind camera (JSON and text); light keys alone: light', async () => {
    const dir = mk('inspect-cam-kind');
    writeFileSync(path.join(dir, 'mycam.vmd'), buildFixture({
      cameras: [0, 30, 60, 61, 90].map(cam),
      lights: [light(0), light(30)],
      shadows: [{ frame: 0, mode: 1, distance: 0.01125 }, { frame: 30, mode: 2, distance: 0.05 }, { frame: 90, mode: 0, distance: 0.01125 }],
    }));
    writeFileSync(path.join(dir, 'light.vmd'), buildFixture({ lights: [light(0), light(30)] }));
    const j = await runCliCaptured(['inspect', '--json', 'mycam.vmd'], dir);
    expect(j.code).toBe(0);
    const info = JSON.parse(j.out.trim().split('\n').at(-1)!);
    expect(info.counts).toMatchObject({ bone: 0, morph: 0, camera: 5, light: 2, shadow: 3 });
    expect(info.kind).toBe('camera');
    const text = await runCliCaptured(['inspect', 'mycam.vmd'], dir);
    // The kind is the first word of the second line ("  camera  Vocaloid Motion Data 0002  model …").
    expect(text.out.split('\n')[1].trim().split(/\s+/)[0]).toBe('camera');
    const l = await runCliCaptured(['inspect', '--json', 'light.vmd'], dir);
    expect(JSON.parse(l.out.trim().split('\n').at(-1)!).kind).toBe('light');
  });
});
