/** Renderer entry: Pinia, then the window frame. The same bundle runs under Electron and in a browser. */
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';

createApp(App).use(createPinia()).mount('#app');
