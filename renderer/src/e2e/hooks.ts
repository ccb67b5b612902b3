/**
 * The e2e build's test hooks (see index.ts for how only that build holds them): `editor` installs
 * `window.__vmdEditor` (editor/test-hook.ts), `preview` installs `window.__vmdPreview`
 * (preview/preview-test-hook.ts), `music` installs `window.__vmdMusic` (editor/music-test-hook.ts). Each
 * returns the function that removes it.
 */
import { installEditorTestHook } from '../editor/test-hook';
import { installPreviewTestHook } from '../preview/preview-test-hook';
import { installMusicTestHook } from '../editor/music-test-hook';

export const testHooks = { editor: installEditorTestHook, preview: installPreviewTestHook, music: installMusicTestHook };
export type TestHooks = typeof testHooks;
