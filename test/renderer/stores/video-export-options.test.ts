// What Render → Video… hands the exporter from the editor's state: the editor's Mute and Volume are for
// listening while editing, never the video's (a new user's muted editor wrote a video with no sound track
// while the dialog said "Music at its offset"; Volume 0.2 wrote the song 14 dB down).
// The unit project shares one module graph between files (isolate off): the exporter and the music store are
// mocked on a fresh graph here (vi.mock alone came too late when an earlier file had loaded the real ones: the real
// exporter ran and every test failed in the whole-project run), and the graph is reset again afterwards.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoExportOptions } from '../../../renderer/src/export/video-export';
import type { VideoSimulation } from '../../../renderer/src/stores/video-export';

const calls: VideoExportOptions[] = [];
/** What the next render reports (frames, steady ms a frame, start-up). */
const next = { frames: 1, steadyMsPerFrame: 0, startupMs: 0 };
const song = { duration: 3, sampleRate: 48000, numberOfChannels: 2 } as unknown as AudioBuffer;
const music = { muted: false, volume: 1, offsetFrames: 6, song: () => song };

vi.resetModules();
vi.doMock('../../../renderer/src/export/video-export', async (orig) => ({
  ...(await orig<typeof import('../../../renderer/src/export/video-export')>()),
  runVideoExport: vi.fn(async (_api: unknown, _source: unknown, o: VideoExportOptions) => {
    calls.push(o);
    return { ok: true, value: { path: o.path, frames: next.frames, seconds: 1 / 30, bytes: 1, videoCodec: 'avc', audioCodec: 'aac', fps: 1, elapsedMs: 1, startupMs: next.startupMs, steadyMsPerFrame: next.steadyMsPerFrame } };
  }),
}));
vi.doMock('../../../renderer/src/stores/music', () => ({ useMusicStore: () => music }));
afterAll(() => {
  vi.doUnmock('../../../renderer/src/export/video-export');
  vi.doUnmock('../../../renderer/src/stores/music');
  vi.resetModules();
});

const { createPinia, setActivePinia } = await import('pinia');
const { setQuietApi } = await import('../../helpers/quiet-api');
const { useVideoExportStore } = await import('../../../renderer/src/stores/video-export');
const { usePreviewStore } = await import('../../../renderer/src/stores/preview');
const { useSettingsStore } = await import('../../../renderer/src/stores/settings');
const { readSpeedRecord } = await import('../../../renderer/src/export/render-estimate');
const { setApi } = await import('../../../renderer/src/api');

setQuietApi();

const sims: (VideoSimulation | null)[] = [];

async function exportWith(muted: boolean, volume: number): Promise<VideoExportOptions> {
  music.muted = muted;
  music.volume = volume;
  const v = useVideoExportStore();
  v.attachSource((_w, _h, _c, _look, sim) => {
    sims.push(sim);
    return { canvas: {} as HTMLCanvasElement, advanceTo() {}, draw() {}, dispose() {} };
  });
  v.from = 0;
  v.to = 0;
  v.path = '/v/out.mp4';
  calls.length = 0;
  const r = await v.start();
  expect(r.kind).toBe('done');
  expect(calls.length).toBe(1);
  return calls[0];
}

describe('the video carries the song as loaded, whatever the editor’s Mute and Volume', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('a muted editor still writes the song, at full volume', async () => {
    const o = await exportWith(true, 1);
    expect(o.audio).not.toBeNull();
    expect(o.audio!.buffer).toBe(song);
    expect(o.audio!.volume).toBe(1);
    expect(o.audio!.offsetFrames).toBe(6);
  });

  it('the editor’s Volume at 0.2 writes full volume', async () => {
    const o = await exportWith(false, 0.2);
    expect(o.audio!.volume).toBe(1);
  });

  it('unticked Music writes none', async () => {
    music.muted = false;
    const v = useVideoExportStore();
    v.withMusic = false;
    const o = await exportWith(false, 1);
    expect(o.audio).toBeNull();
  });
});

// Physics followed the preview's switch, off on a first load: every video of a user who never ticked it had stiff
// hair, though MMD renders with physics on. The default self-shadow followed the preview's Self-shadow silently.
describe('the video simulates as its dialog says, not as the preview’s switches stand', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    sims.length = 0;
  });

  it('physics on by default with the preview’s Physics off; off when unticked', async () => {
    expect(usePreviewStore().physics).toBe(false);
    await exportWith(false, 1);
    expect(sims.at(-1)!.physics).toBe(true);
    useVideoExportStore().physics = false;
    usePreviewStore().physics = true;
    await exportWith(false, 1);
    expect(sims.at(-1)!.physics).toBe(false);
  });

  it('self-shadow starts as the preview’s switch when the dialog opens, and is the dialog’s after', async () => {
    usePreviewStore().selfShadow = true;
    const v = useVideoExportStore();
    v.show();
    expect(v.selfShadow).toBe(true);
    v.selfShadow = false;
    await exportWith(false, 1);
    expect(sims.at(-1)!.selfShadow).toBe(false);
  });
});

// The speed record went to main as an object, and main's settings take plain values only: every render put up
// "setSettings: ui.video.renderSpeed: a string, number, true/false or null is needed" (seen in a screenshot).
describe('the render speed is remembered as a plain settings value', () => {
  it('a 30-frame render at 640 × 360 stores its sample as JSON text that reads back', async () => {
    setActivePinia(createPinia());
    const sent: Record<string, unknown>[] = [];
    setApi(new Proxy({}, { get: (_t, name) => async (p: { ui?: Record<string, unknown> }) => {
      if (name === 'setSettings' && p?.ui) sent.push(p.ui);
      return { ok: true, value: undefined };
    } }) as never);
    const v = useVideoExportStore();
    v.size = 'scene';
    v.sceneHeight = 360;
    Object.assign(next, { frames: 30, steadyMsPerFrame: 250, startupMs: 1500 });
    await exportWith(false, 1);
    Object.assign(next, { frames: 1, steadyMsPerFrame: 0, startupMs: 0 });
    const value = sent.at(-1)?.['video.renderSpeed'];
    expect(['string', 'number', 'boolean']).toContain(typeof value);
    expect(readSpeedRecord(value)).toEqual({ samples: [{ megapixels: (640 * 360) / 1e6, msPerFrame: 250 }], startupMs: 1500 });
    expect(readSpeedRecord(useSettingsStore().settings.ui['video.renderSpeed'])).not.toBeNull();
    setQuietApi();
  });
});
