/** Renderer entry: Pinia, then the window frame. The same bundle runs under Electron and in a browser. */
import { createApp } from 'vue';
import { createPinia } from 'pinia';
// A Japanese font shipped with the app (weight 400; the browser fetches only the unicode-range pieces a
// page uses), named after the system's fonts in every font stack, so bone and morph names render on a
// machine without CJK fonts. Bold Japanese text is synthesised from it.
import '@fontsource/noto-sans-jp/400.css';
import App from './App.vue';
import { loadTestHooks } from './e2e';

const mount = () => createApp(App).use(createPinia()).mount('#app');
// The e2e build loads its test hooks before mounting, so they are there as soon as a component is.
if (__VMD_E2E__) void loadTestHooks().then(mount);
else mount();
