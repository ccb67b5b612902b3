// Builds the renderer (Vue UI) into dist/renderer. The same bundle is loaded by Electron and by the browser mode.
// `vite build --mode e2e` (the e2e harness runs it) builds the same UI from another entry, src/e2e/main.ts,
// which installs the test hooks, into dist/renderer-e2e instead; the production entry (src/main.ts) never
// reaches src/e2e/, so its bundle holds none of them (test/e2e/bundle-hooks.test.ts).
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

/** The e2e build's entry in index.html's place of the app's (src/main.ts → src/e2e/main.ts). */
const e2eEntry: Plugin = {
  name: 'vmd-e2e-entry',
  transformIndexHtml: {
    order: 'pre',
    handler(html) {
      const out = html.replace('src="./src/main.ts"', 'src="./src/e2e/main.ts"');
      if (out === html) throw new Error('vmd-e2e-entry: index.html does not load ./src/main.ts');
      return out;
    },
  },
};

export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: mode === 'e2e' ? [vue(), woff2Only, e2eEntry] : [vue(), woff2Only],
  // The fitting worker (renderer/src/fit/fit.worker.ts) is a module worker, its chunk an ES module.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL(mode === 'e2e' ? './dist/renderer-e2e' : './dist/renderer', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
}));
