/**
 * The app as both entries make it (src/main.ts, the shipped one; src/e2e/main.ts, the e2e build's): Vue
 * with Pinia, and the audio player the music store drives. Mounting is the entry's.
 */
import { createApp, type App as VueApp } from 'vue';
import { createPinia, type Pinia } from 'pinia';
// A Japanese font shipped with the app (weight 400; the browser fetches only the unicode-range pieces a
// page uses), named after the system's fonts in every font stack, so bone and morph names render on a
// machine without CJK fonts. Bold Japanese text is synthesised from it.
import '@fontsource/noto-sans-jp/400.css';
import App from './App.vue';
import { useMusicStore } from './stores/music';
import { useSceneStore } from './stores/scene';
import { saveAllWithDialog } from './shell/commands';
import { pickPath } from './shell/file-dialog';
import { attachSavePicker } from './stores/save-refusal';
import type { AudioPlayer } from './audio/audio-player';

export function createVmdApp(player: AudioPlayer): { app: VueApp; pinia: Pinia } {
  const pinia = createPinia();
  const app = createApp(App).use(pinia);
  useMusicStore(pinia).attachPlayer(player);
  // Save All and Open (a file replacing unsaved work) saves as Save All does, asking the names it needs.
  useSceneStore(pinia).attachSaveAll(saveAllWithDialog);
  // Save As… after a refused save (changed on disk, read-only) asks through the shell's save dialog.
  attachSavePicker(pickPath);
  return { app, pinia };
}
