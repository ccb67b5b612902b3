// Builds the renderer (Vue UI) into dist/renderer. The same bundle is loaded by Electron and by the browser mode.
// `vite build --mode e2e` (the e2e harness runs it) builds the same UI with its test hooks (src/e2e/) into
// dist/renderer-e2e instead; the production bundle holds none of them (test/renderer/no-test-hooks.test.ts).
import { defineConfig, type Plugin } from 'vite';
import vue from '@vitejs/plugin-vue';
import { fileURLToPath } from 'node:url';

/**
 * The bundled Japanese font (@fontsource/noto-sans-jp, see renderer/src/main.ts): its CSS names a .woff
 * beside every .woff2. Chromium (and Electron's) reads woff2, so the woff copies, which would more than
 * double the font's size in the app, are left out.
 */
const woff2Only: Plugin = {
  name: 'vmd-woff2-only',
  enforce: 'pre',
  transform(code, id) {
    if (/@fontsource[\\/][^?]*\.css(\?|$)/.test(id)) return code.replace(/,\s*url\([^)]*\.woff\)\s*format\('woff'\)/g, '');
  },
};

export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [vue(), woff2Only],
  define: { __VMD_E2E__: JSON.stringify(mode === 'e2e') },
  // The fitting worker (renderer/src/fit/fit.worker.ts) is a module worker, its chunk an ES module.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL(mode === 'e2e' ? './dist/renderer-e2e' : './dist/renderer', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
}));
