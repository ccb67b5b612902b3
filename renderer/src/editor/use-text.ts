/**
 * `t(key, params)` for the editor's components: editor strings (shared/i18n/editor-strings.ts) in the
 * settings store's locale, falling back to the shared table for other keys.
 */
import { editorStrings } from '../../../shared/i18n/editor-strings';
import { useSettingsStore } from '../stores/settings';

export function useText() {
  const settings = useSettingsStore();
  return function t(key: string, params?: Record<string, string | number>): string {
    const table = editorStrings[settings.locale] as Record<string, string>;
    const s = table[key] ?? (editorStrings.en as Record<string, string>)[key];
    if (s === undefined) return settings.t(key, params);
    if (!params) return s;
    return s.replace(/\{(\w+)\}/g, (m, n: string) => (n in params ? String(params[n]) : m));
  };
}
