/**
 * Render → Video… (export/video-export.ts): the dialog's choices, the export running (progress, ETA,
 * Cancel) and its outcome. The frame source comes from the mounted preview (`attachSource`, use-preview.ts):
 * a factory held here outside Vue's reactivity, never a three.js object. One export at a time.
 */
import { defineStore } from 'pinia';
import { markRaw, ref, shallowRef, watch } from 'vue';
import { useApi } from '../api';
import { useTimeStore } from './time';
import { useMusicStore } from './music';
import { useSceneStore } from './scene';
import { useSettingsStore } from './settings';
import { usePreviewStore } from './preview';
import { fileNameOf, folderOf, isAbsoluteTyped, stemOf } from '../paths';
import type { IpcError } from '../../../shared/ipc/contract';
import { isCancelled } from '../../../shared/vmd/errors';
import { chooseCodecs, pngOf, runVideoExport, type CodecChoice, type ExportFormat, type ExportProgress, type ExportReport, type FrameSource } from '../export/video-export';
import { heightIssue, outputFrameCount, outputSize, sequenceFramePath } from '../export/frame-times';
import { addSpeedSample, estimateRenderMs, readSpeedRecord } from '../export/render-estimate';

/** How the exported frames look beside the scene itself: the editor's grid, and the background colour. */
export interface FrameLook {
  grid: boolean;
  /** '#rrggbb'. */
  background: string;
}
/**
 * What the video simulates, chosen in its dialog (not the preview's switches): physics (MMD renders with it on),
 * and the default self-shadow where the motion has no self-shadow keys.
 */
export interface VideoSimulation {
  physics: boolean;
  selfShadow: boolean;
  /**
   * With physics on and a range starting after frame 0: the frame the first video frame shows, physics warmed up
   * to it from frame 0 (each frame before it simulated, not drawn) as the bake does by default; absent or 0:
   * physics restarts at the range's first frame, settled there holding that pose.
   */
  warmUpTo?: number;
}
/** Where the video's physics starts: warmed up from frame 0 (as the bake, the default), or settled at the range's first frame. */
export type PhysicsStart = 'zero' | 'range';
/** `sim` null: the preview's own physics and self-shadow, untouched (the PNG size sample draws the scene as it stands). */
export type FrameSourceFactory = (width: number, height: number, throughCamera: boolean, look: FrameLook, sim: VideoSimulation | null) => FrameSource;

/** settings.ui keys: the export's grid, background colour, and the last render's speed (the estimate). */
export const VIDEO_GRID_SETTING = 'video.grid';
export const VIDEO_BACKGROUND_SETTING = 'video.background';
/**
 * The dialog's choices a user re-picked every time (it opened at 720p, 30 fps, MP4, warmed up from frame 0 whatever
 * was chosen last): remembered in settings.ui as the look is, read back when the dialog opens.
 */
export const VIDEO_SIZE_SETTING = 'video.size';
export const VIDEO_HEIGHT_SETTING = 'video.height';
export const VIDEO_FPS_SETTING = 'video.fps';
export const VIDEO_FORMAT_SETTING = 'video.format';
export const VIDEO_PHYSICS_START_SETTING = 'video.physicsStart';
/** Earlier renders' speeds (render-estimate.ts SpeedRecord); the old one-figure key is no longer read. */
export const VIDEO_SPEED_SETTING = 'video.renderSpeed';
/** MMD's default background: white (its 背景色 starts at 255, 255, 255); a video shows no grid, as MMD's output hides its ground and axes. */
export const DEFAULT_VIDEO_BACKGROUND = '#ffffff';
const EXTENSION_RE = /\.(mp4|webm|png)$/i;

/** The extension a format's file has. */
export const extensionOf = (format: ExportFormat): string => `.${format}`;

function joinPath(dir: string, name: string): string {
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return dir.endsWith('/') || dir.endsWith('\\') ? dir + name : dir + sep + name;
}

/**
 * The path a typed name will be written to: never relative to the app's working folder (main refuses that),
 * so a bare name or a relative path goes into `folder` (the scene's), `~` is the home folder, and a name
 * without .mp4/.webm/.png gets the chosen format's extension (`duet` → `duet.mp4`; `duet.v2` → `duet.v2.mp4`,
 * as Browse… and the save dialogs add it). '' stays '' (nothing chosen).
 */
export function resolveVideoPath(typed: string, format: ExportFormat, folder: string, home: string): string {
  let p = typed.trim();
  if (!p) return '';
  if (p === '~' || /^~[\\/]/.test(p)) p = home ? joinPath(home, p.slice(2)) : p;
  else if (!isAbsoluteTyped(p) && folder) p = joinPath(folder, p.replace(/^\.[\\/]/, ''));
  if (/[\\/]$/.test(p)) p += 'video';
  return EXTENSION_RE.test(p) ? p : p + extensionOf(format);
}
export type SizeChoice = '720p' | '1080p' | 'scene';
/** The frame rates offered. */
export const VIDEO_FPS = [24, 25, 30, 60] as const;
export type VideoFps = (typeof VIDEO_FPS)[number];
export type ExportResult = { kind: 'done'; report: ExportReport } | { kind: 'cancelled' } | { kind: 'failed'; error: IpcError };

export const useVideoExportStore = defineStore('video-export', () => {
  const open = ref(false);
  const size = ref<SizeChoice>('720p');
  const sceneHeight = ref(720);
  /** 24 and 25 (film, PAL) sample the 30 fps motion between its frames, as 60 does (frame-times.ts). */
  const fps = ref<VideoFps>(30);
  const from = ref(0);
  const to = ref(0);
  const format = ref<ExportFormat>('mp4');
  const throughCamera = ref(true);
  const withMusic = ref(true);
  /** Physics in the video: on by default, as MMD renders, whatever the preview's switch. */
  const physics = ref(true);
  /** Where physics starts for a range that starts after frame 0: as the bake's default, warmed up from frame 0. */
  const physicsStart = ref<PhysicsStart>('zero');
  /** The default self-shadow in the video: starts as the preview's switch each time the dialog opens. */
  const selfShadow = ref(false);
  const path = ref('');
  /**
   * The render may replace a file there: the person said so in a save dialog (Browse…; under Electron every path
   * is confirmed there) for this path. Otherwise the dialog asks before rendering (targetExists).
   */
  const overwrite = ref(false);
  /** The exported frames' grid and background (remembered in settings.ui); the preview keeps its own. */
  const grid = ref(false);
  const background = ref(DEFAULT_VIDEO_BACKGROUND);
  /** The path last proposed: kept while the person has not typed another (re-proposed for a new scene). */
  let proposed = '';
  const running = ref<ExportProgress | null>(null);
  const preparing = ref(false);
  const result = shallowRef<ExportResult | null>(null);
  /**
   * A PNG sequence's bytes per pixel, from one picture of the export's look (its size, camera, grid, background)
   * at the current frame, encoded once (samplePng): the PNG sequence's size estimate. Null until sampled.
   */
  const pngBytesPerPixel = ref<number | null>(null);
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

  function dimensions(): { width: number; height: number; rounded: boolean } {
    return outputSize(size.value, sceneAspect(), sceneHeight.value);
  }

  /** Why the typed height cannot be rendered (Other height only; null when it can): refused, never clamped silently. */
  function sizeIssue(): 'invalid' | 'small' | 'large' | null {
    return size.value === 'scene' ? heightIssue(sceneHeight.value) : null;
  }

  /**
   * Why the range cannot be rendered: a field that is no frame number (an empty field read as 0 before), or
   * a start after the end; null when it can.
   */
  function rangeIssue(): 'from' | 'to' | 'reversed' | null {
    const ok = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;
    if (!ok(from.value)) return 'from';
    if (!ok(to.value)) return 'to';
    return from.value > to.value ? 'reversed' : null;
  }

  function frameCount(): number {
    if (rangeIssue()) return 0;
    return outputFrameCount({ from: from.value, to: to.value }, fps.value);
  }

  /**
   * Where a bare name goes: beside the scene file, else the active document's file; else the folder the
   * save dialogs start in (the last one used), else the home folder.
   */
  function defaultFolder(): string {
    const scene = useSceneStore();
    const settings = useSettingsStore();
    const beside = scene.path ?? scene.active?.path ?? null;
    if (beside) return folderOf(beside) || '/';
    return settings.settings.lastDirectory ?? settings.appInfo?.homeDir ?? '';
  }

  /** The file proposed when the dialog opens and by Browse…: the scene's (or document's) name with the format's extension, in its folder. */
  function defaultPath(): string {
    const folder = defaultFolder();
    return folder ? joinPath(folder, defaultStem() + extensionOf(format.value)) : '';
  }

  /** The scene's (or document's) name without its extension, or "video". */
  function defaultStem(): string {
    const scene = useSceneStore();
    const source = scene.path ?? scene.active?.path ?? null;
    return stemOf(source ? fileNameOf(source) : (scene.active?.fileName ?? '')) || 'video';
  }

  /** The full path the field's text will write (see resolveVideoPath). */
  function resolvedPath(): string {
    return resolveVideoPath(path.value, format.value, defaultFolder(), useSettingsStore().appInfo?.homeDir ?? '');
  }

  /**
   * The field's text made the full path that is written (resolvedPath); for a PNG sequence, a name typed without
   * .png that is a folder already there writes into it: `NAME_000000.png` … inside, NAME the scene's (as
   * defaultPath), where the pictures went beside the folder as `folder_000000.png`. A folder main cannot list (not
   * granted) is taken as a name, as before. Runs one after another (the field's change, then Render's press, which
   * waits for it), each on the field's text as it is then.
   */
  function settlePath(): Promise<void> {
    settling = settling.then(settleNow, settleNow);
    return settling;
  }
  let settling: Promise<void> = Promise.resolve();
  async function settleNow(): Promise<void> {
    const typed = path.value.trim();
    path.value = resolvedPath();
    if (format.value !== 'png' || !typed || EXTENSION_RE.test(typed) || /[\\/]$/.test(typed)) return;
    const folder = path.value.replace(/\.png$/i, '');
    const listed = await useApi().listDirectory(folder);
    if (!listed.ok) return;
    path.value = joinPath(folder, defaultStem() + extensionOf('png'));
  }

  /**
   * The file the render would write first (a PNG sequence: its first picture), when something is already there
   * under that name; null when nothing is (or main cannot say: the render then says why). Asked of that one file
   * (fileStamp: a stat, nothing listed or read), not by listing its folder, which under Electron's access list is
   * refused for a file picked in a save dialog (the file is granted, not its folder).
   */
  async function existingTarget(): Promise<string | null> {
    const target = format.value === 'png' ? sequenceFramePath(path.value, 0) : path.value;
    if (!target) return null;
    const r = await useApi().fileStamp(target);
    return r.ok && r.value ? target : null;
  }

  /** Reads the remembered grid and background. */
  function loadLook(): void {
    const ui = useSettingsStore().settings.ui;
    grid.value = ui[VIDEO_GRID_SETTING] === true;
    const bg = ui[VIDEO_BACKGROUND_SETTING];
    background.value = typeof bg === 'string' && /^#[0-9a-f]{6}$/i.test(bg) ? bg.toLowerCase() : DEFAULT_VIDEO_BACKGROUND;
  }

  /** Reads the remembered size, frame rate, format and physics start (a value no longer offered is left as it is). */
  function loadChoices(): void {
    const ui = useSettingsStore().settings.ui;
    const sz = ui[VIDEO_SIZE_SETTING], h = ui[VIDEO_HEIGHT_SETTING], r = ui[VIDEO_FPS_SETTING], f = ui[VIDEO_FORMAT_SETTING], p = ui[VIDEO_PHYSICS_START_SETTING];
    if (sz === '720p' || sz === '1080p' || sz === 'scene') size.value = sz;
    if (typeof h === 'number' && heightIssue(h) === null) sceneHeight.value = h;
    if ((VIDEO_FPS as readonly unknown[]).includes(r)) fps.value = r as VideoFps;
    if (f === 'mp4' || f === 'webm' || f === 'png') format.value = f;
    if (p === 'zero' || p === 'range') physicsStart.value = p;
  }

  // Each choice remembered as it is made (a height only when it can be rendered); a value already there is not written again.
  watch([size, sceneHeight, fps, format, physicsStart], () => {
    const settings = useSettingsStore(), ui = settings.settings.ui;
    const next: Record<string, string | number> = { [VIDEO_SIZE_SETTING]: size.value, [VIDEO_FPS_SETTING]: fps.value, [VIDEO_FORMAT_SETTING]: format.value, [VIDEO_PHYSICS_START_SETTING]: physicsStart.value };
    if (heightIssue(sceneHeight.value) === null) next[VIDEO_HEIGHT_SETTING] = sceneHeight.value;
    if (Object.entries(next).every(([k, x]) => ui[k] === x)) return;
    void settings.update({ ui: { ...ui, ...next } });
  });

  /** Sets and remembers the grid and background. */
  function setLook(look: Partial<FrameLook>): void {
    if (look.grid !== undefined) grid.value = look.grid;
    if (look.background !== undefined && /^#[0-9a-f]{6}$/i.test(look.background)) background.value = look.background.toLowerCase();
    const settings = useSettingsStore();
    void settings.update({ ui: { ...settings.settings.ui, [VIDEO_GRID_SETTING]: grid.value, [VIDEO_BACKGROUND_SETTING]: background.value } });
  }

  /**
   * The frames physics is warmed up through before the first (frames 0 to the range's first − 1, simulated, not
   * drawn): with the video's physics on, warmed up from frame 0, a range after 0 and an actor drawn with rigid
   * bodies (offline-render.ts warms up only then); else 0.
   */
  function warmUpFrames(): number {
    const preview = usePreviewStore();
    const bodies = preview.physicsActors.length > 0 || preview.physicsCounts.bodies > 0;
    return !rangeIssue() && physics.value && physicsStart.value === 'zero' && from.value > 0 && bodies ? from.value : 0;
  }

  /**
   * An estimate of the render's time (ms) at the chosen size from earlier renders' speeds (render-estimate.ts),
   * the physics warm-up included; null when unknown.
   */
  function estimateMs(): number | null {
    const { width, height } = dimensions();
    return estimateRenderMs(readSpeedRecord(useSettingsStore().settings.ui[VIDEO_SPEED_SETTING]), frameCount(), (width * height) / 1e6, warmUpFrames());
  }

  let pngSampleKey = '';
  /**
   * Encodes one picture as the PNG sequence would draw it (the scene as it stands: nothing is stepped) and keeps its
   * bytes per pixel; again only when the size or look changed. Nothing while a render runs or without a preview.
   */
  async function samplePng(): Promise<void> {
    if (!factory || running.value || preparing.value || sizeIssue()) return;
    const { width, height } = dimensions();
    const key = JSON.stringify([width, height, throughCamera.value, grid.value, background.value, useTimeStore().frame]);
    if (key === pngSampleKey) return;
    pngSampleKey = key;
    let src: FrameSource | null = null;
    try {
      src = factory(width, height, throughCamera.value, { grid: grid.value, background: background.value }, null);
      src.draw();
      const blob = await pngOf(src.canvas);
      if (key === pngSampleKey) pngBytesPerPixel.value = blob && blob.size > 0 ? blob.size / (width * height) : null;
    } catch {
      if (key === pngSampleKey) pngBytesPerPixel.value = null;
    } finally {
      src?.dispose();
    }
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
    selfShadow.value = usePreviewStore().selfShadow;
    loadLook();
    loadChoices();
    // The scene's (or document's) name in its folder, filled in; a path the person typed is kept.
    if (!path.value || path.value === proposed) path.value = proposed = defaultPath();
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
  async function start(opts: { overwrite?: boolean } = {}): Promise<ExportResult> {
    if (running.value || preparing.value) return { kind: 'failed', error: { code: 'E_BUSY', message: 'an export is running' } };
    if (rangeIssue()) return (result.value = { kind: 'failed', error: { code: 'E_ARGUMENT', message: 'the frame range is empty' } });
    if (sizeIssue()) return (result.value = { kind: 'failed', error: { code: 'E_ARGUMENT', message: 'the height is out of range' } });
    if (!factory) return (result.value = { kind: 'failed', error: { code: 'E_UNSUPPORTED', message: 'the 3D preview is not running' } });
    // The field shows the full path that is written (a bare name beside the scene, the format's extension added,
    // a PNG sequence into a folder named).
    await settlePath();
    if (!path.value) return (result.value = { kind: 'failed', error: { code: 'E_ARGUMENT', message: 'no file chosen' } });
    const { width, height } = dimensions();
    // Playback would pose the scene between the export's frames and play the song over it.
    const time = useTimeStore();
    if (time.playing) time.pause();
    const music = useMusicStore();
    // The song as loaded, at full volume: the editor's Mute and Volume are for listening while editing (MMD's
    // AVI output writes the WAV as loaded). A muted editor gave a video with no sound track, the dialog still
    // saying "Music at its offset"; Volume at 0.2 wrote the song 14 dB down.
    const buffer = withMusic.value ? music.song() : null;
    controller = new AbortController();
    preparing.value = true;
    result.value = null;
    let source: FrameSource | null = null;
    try {
      source = factory(width, height, throughCamera.value, { grid: grid.value, background: background.value }, { physics: physics.value, selfShadow: selfShadow.value, ...(physics.value && physicsStart.value === 'zero' && from.value > 0 ? { warmUpTo: from.value } : {}) });
      const outcome = await runVideoExport(
        useApi(),
        source,
        {
          path: path.value,
          // Replace (asked in the dialog) counts for this render only.
          overwrite: opts.overwrite ?? overwrite.value,
          format: format.value,
          width,
          height,
          fps: fps.value,
          range: { from: from.value, to: to.value },
          audio: buffer && format.value !== 'png' ? { buffer, offsetFrames: music.offsetFrames, volume: 1 } : null,
        },
        (p) => {
          preparing.value = false;
          running.value = p;
        },
        controller.signal,
      );
      result.value = outcome.ok ? { kind: 'done', report: outcome.value } : isCancelled(outcome) ? { kind: 'cancelled' } : { kind: 'failed', error: outcome.error };
      // This computer's speed at this size, for the next render's estimate (a render of a few frames says too little).
      if (outcome.ok) {
        const settings = useSettingsStore(), r = outcome.value;
        const before = readSpeedRecord(settings.settings.ui[VIDEO_SPEED_SETTING]);
        const after = addSpeedSample(before, r.frames, (width * height) / 1e6, r.steadyMsPerFrame, r.startupMs, r.warmUp);
        // The settings' ui values are plain: the record is kept as its JSON text.
        if (after && after !== before) void settings.update({ ui: { ...settings.settings.ui, [VIDEO_SPEED_SETTING]: JSON.stringify(after) } });
      }
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

  return {
    open, size, sceneHeight, fps, from, to, format, throughCamera, withMusic, physics, physicsStart, selfShadow, path, overwrite, grid, background, running, preparing, result, support, pngBytesPerPixel,
    attachSource, sceneAspect, dimensions, sizeIssue, rangeIssue, frameCount, defaultFolder, defaultPath, resolvedPath, settlePath, existingTarget, setLook, warmUpFrames, estimateMs, samplePng, probe, show, close, cancel, start,
  };
});
