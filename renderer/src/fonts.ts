/**
 * Japanese glyphs on first draw (issue 30 §4). The bundled Noto Sans JP comes in ~120 unicode-range subsets
 * the browser fetches only when laid-out text needs them; text drawn on a canvas asks for none, and a
 * canvas drawn before a subset arrives keeps its boxes (□□ｭｯ for ｷﾞｭｯ). So:
 *  - the half-width katakana (MMD morph names use them: ｷﾞｭｯ, ｳｨﾝｸ) are spread over many subsets: they
 *    are all asked for at start-up, and the UI's strings of a language when it is chosen;
 *  - `fontsVersion` counts finished font loads; the canvases (timeline, curve pane) redraw when it moves.
 */
import { nextTick, ref, watch } from 'vue';

/** Bumped whenever the document's fonts finish loading something: canvases redraw on it. */
export const fontsVersion = ref(0);

/** U+FF61–FF9F: half-width punctuation and katakana, with the voiced marks. */
export const HALF_WIDTH_KANA = Array.from({ length: 0xff9f - 0xff61 + 1 }, (_, i) => String.fromCharCode(0xff61 + i)).join('');

/** The bundled family, as its CSS names it. */
const FAMILY = '"Noto Sans JP"';

/** Asks the browser for the bundled font's subsets that `text` needs; resolves once they are in. */
export function loadGlyphs(text: string): Promise<void> {
  const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
  if (!fonts || !text) return Promise.resolve();
  return fonts.load(`13px ${FAMILY}`, text).then(
    () => void fontsVersion.value++,
    () => undefined,
  );
}

/** Starts the watch (once, from App.vue): loads the half-width katakana; returns when they are in. */
export function installFontWatch(): Promise<void> {
  const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
  if (!fonts) return Promise.resolve();
  fonts.addEventListener?.('loadingdone', () => void fontsVersion.value++);
  return loadGlyphs(HALF_WIDTH_KANA);
}

/**
 * For App.vue's setup: starts the watch, and after each change of language (and once settings are loaded)
 * asks for the subsets of whatever text the page shows, so names drawn anywhere next are whole.
 */
export function useFontWatch(locale: () => string): void {
  void installFontWatch();
  watch(locale, () => void nextTick(() => loadGlyphs(document.body?.innerText ?? '')), { immediate: true });
}
