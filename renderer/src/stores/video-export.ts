/**
 * Render → Video… (export/video-export.ts): the dialog's choices, the export running (progress, ETA,
 * Cancel) and its outcome. The frame source comes from the mounted preview (`attachSource`, use-preview.ts):
 * a factory held here outside Vue's reactivity, never a three.js object. One export at a time.
 */
import { defineStore } from 'pinia';
import { markRaw, ref, shallowRef } from 'vue';
import { useApi } from '../api';
import { useTimeStore } from './time';
import { useMusicStore } from './music';
import { useSceneStore } from './scene';
import type { IpcError } from '../../../shared/ipc/contract';
import { isCancelled } from '../../../shared/vmd/errors';
import { chooseCodecs, runVideoExport, type CodecChoice, type ExportFormat, type ExportProgress, type ExportReport, type FrameSource } from '../export/video-export';
import { outputFrameCount, outputSize } from '../export/frame-times';

export type FrameSourceFactory = (width: number, height: number, throughCamera: boolean) => FrameSource;
export type SizeChoice = '720p' | '1080p' | 'scene';
export type ExportResult = { kind: 'done'; report: ExportReport } | { kind: 'cancelled' } | { kind: 'failed'; error: IpcError };

export const useVideoExportStore = defineStore('video-export', () => {
  const open = ref(false);
  const size = ref<SizeChoice>('720p');
  const sceneHeight = ref(720);
  const fps = ref<30 | 60>(30);
  const from = ref(0);
  const to = ref(0);
  const format = ref<ExportFormat>('mp4');
  const throughCamera = ref(true);
  const withMusic = ref(true);
  const path = ref('');
  const overwrite = ref(false);
  const running = ref<ExportProgress | null>(null);
  const preparing = ref(false);
  const result = shallowRef<ExportResult | null>(null);
  /** What the platform encodes at the chosen size (null while unknown). */
  const support = shallowRef<{ mp4: CodecChoice | null; webm: CodecChoice | null } | null>(null);
  let factory: FrameSourceFactory | null = null;
  let controller: AbortController | null = null;

  /** The mounted preview offers its scene; returns the detach function (call on unmount). */
  function attachSource(f: FrameSourceFactory): () => void {
    factory = markRaw(f);
    return () => {
      if (factory === f) factory = null;
    };
  }

  function sceneAspect(): number {
    return useSceneStore().outputAspect.ratio;
  }

  function dimensions(): { width: number; height: number } {
    return outputSize(size.value, sceneAspect(), sceneHeight.value);
  }

  function frameCount(): number {
    return outputFrameCount({ from: from.value, to: to.value }, fps.value);
  }

  async function probe(): Promise<void> {
    const { width, height } = dimensions();
    const [mp4, webm] = await Promise.all([chooseCodecs('mp4', width, height, true), chooseCodecs('webm', width, height, true)]);
    support.value = { mp4, webm };
    if (format.value === 'mp4' && !mp4 && webm) format.value = 'webm';
  }

  function show(): void {
    if (running.value) {
      open.value = true;
      return;
    }
    const time = useTimeStore();
    from.value = 0;
    to.value = Math.max(0, time.lastFrame);
    result.value = null;
    open.value = true;
    void probe();
  }

  function close(): void {
    if (running.value || preparing.value) return;
    open.value = false;
  }

  function cancel(): void {
    controller?.abort();
  }

  /** Runs the export with the dialog's choices; resolves with the outcome (also kept in `result`). */
  async function start(): Promise<ExportResult> {
    if (running.value || preparing.value) return { kind: 'failed', error: { code: 'E_BUSY', message: 'an export is running' } };
    if (!factory) return (result.value = { kind: 'failed', error: { code: 'E_UNSUPPORTED', message: 'the 3D preview is not running' } });
    if (!path.value) return (result.value = { kind: 'failed', error: { code: 'E_ARGUMENT', message: 'no file chosen' } });
    const { width, height } = dimensions();
    // Playback would pose the scene between the export's frames and play the song over it.
    const time = useTimeStore();
    if (time.playing) time.pause();
    const music = useMusicStore();
    const buffer = withMusic.value && !music.muted ? music.song() : null;
    controller = new AbortController();
    preparing.value = true;
    result.value = null;
    let source: FrameSource | null = null;
    try {
      source = factory(width, height, throughCamera.value);
      const outcome = await runVideoExport(
        useApi(),
        source,
        {
          path: path.value,
          overwrite: overwrite.value,
          format: format.value,
          width,
          height,
          fps: fps.value,
          range: { from: from.value, to: to.value },
          audio: buffer && format.value !== 'png' ? { buffer, offsetFrames: music.offsetFrames, volume: music.volume } : null,
        },
        (p) => {
          preparing.value = false;
          running.value = p;
        },
        controller.signal,
      );
      result.value = outcome.ok ? { kind: 'done', report: outcome.value } : isCancelled(outcome) ? { kind: 'cancelled' } : { kind: 'failed', error: outcome.error };
    } catch (e) {
      result.value = { kind: 'failed', error: { code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e) } };
    } finally {
      source?.dispose();
      controller = null;
      running.value = null;
      preparing.value = false;
    }
    return result.value!;
  }

  return { open, size, sceneHeight, fps, from, to, format, throughCamera, withMusic, path, overwrite, running, preparing, result, support, attachSource, dimensions, frameCount, probe, show, close, cancel, start };
});
