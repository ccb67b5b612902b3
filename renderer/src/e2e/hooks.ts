/**
 * The e2e build's test hooks, installed at start by its entry (main.ts here), before the app mounts:
 * `window.__vmdEditor` (editor-hook.ts), `window.__vmdPreview` (preview-hook.ts, the preview mounted when
 * read), `window.__vmdMusic` (music-hook.ts) and `window.__vmdFit` (fit-hook.ts). They read the stores,
 * the mounted preview and the fitting client through their public getters, and time what the perf tests
 * report around the stores' actions ($onAction) and the audio player; no production module knows of them.
 */
import type { Pinia } from 'pinia';
import { installEditorTestHook } from './editor-hook';
import { installPreviewTestHook } from './preview-hook';
import { installMusicTestHook, type TimedAudioPlayer } from './music-hook';
import { installFitTestHook } from './fit-hook';

export function installTestHooks(pinia: Pinia, player: TimedAudioPlayer): void {
  installEditorTestHook(pinia);
  installPreviewTestHook();
  installMusicTestHook(pinia, player);
  installFitTestHook();
}
