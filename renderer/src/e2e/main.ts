/**
 * The e2e build's entry (vite.config.ts puts it in index.html's place in `vite build --mode e2e`, which the
 * e2e harness runs into dist/renderer-e2e): the app as src/main.ts makes it, with the test hooks installed
 * before it mounts. The production build's entry, src/main.ts, never reaches this folder, so its bundle
 * holds none of it (test/e2e/bundle-hooks.test.ts).
 */
import { createVmdApp } from '../app';
import { installTestHooks } from './hooks';
import { TimedAudioPlayer } from './music-hook';

const player = new TimedAudioPlayer();
const { app, pinia } = createVmdApp(player);
installTestHooks(pinia, player);
app.mount('#app');
