/** Renderer entry: the app (app.ts) with the Web Audio player, mounted. The same bundle runs under Electron and in a browser. */
import { createVmdApp } from './app';
import { WebAudioPlayer } from './audio/web-audio-player';

createVmdApp(new WebAudioPlayer()).app.mount('#app');
