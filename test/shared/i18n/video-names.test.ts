// Where a text tells the user where videos are made, it names what they can click (docsfix 5): the browser mode
// has no Render menu, only the toolbar's Video… button; the desktop app has both. Before, the "not a song" notice
// for a video said "Render → Video…" alone in English and "レンダー → 動画…" (the menu reads レンダリング) in Japanese.
import { describe, expect, it } from 'vitest';
import { t } from '../../../shared/i18n/strings';

describe('the notice for a video names the Video… button and the desktop menu as they are labelled', () => {
  for (const locale of ['en', 'ja'] as const) {
    it(locale, () => {
      const text = t('audio.kind.video', locale);
      const menuPath = `${t('menu.render', locale)} → ${t('menu.renderVideo', locale)}`;
      expect(text).toContain(menuPath);
      // The toolbar button's own label, said apart from the menu path.
      expect(text.replace(menuPath, '')).toContain(t('video.menu', locale));
    });
  }
});
