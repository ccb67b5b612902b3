/**
 * The e2e build's test hooks (see index.ts for how only that build holds them): `editor` installs
 * `window.__vmdEditor` (editor/test-hook.ts), `preview` installs `window.__vmdPreview`
 * (preview/preview-test-hook.ts), `music` installs `window.__vmdMusic` (editor/music-test-hook.ts). Each
 * returns the function that removes it. `fit` installs `window.__vmdFit` (fit/fit-test-hook.ts).
 */
import { installEditorTestHook } from '../editor/test-hook';
import { installPreviewTestHook } from '../preview/preview-test-hook';
import { installMusicTestHook } from '../editor/music-test-hook';
import { installFitTestHook } from '../fit/fit-test-hook';

export const testHooks = { editor: installEditorTestHook, preview: installPreviewTestHook, music: installMusicTestHook, fit: installFitTestHook };
export type TestHooks = typeof testHooks;
