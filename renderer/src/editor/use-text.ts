/**
 * `t(key, params)` for the editor's components, in the settings store's locale. The editor's strings
 * (shared/i18n/editor-strings.ts) are part of the shared lookup in strings.ts.
 */
import { useSettingsStore } from '../stores/settings';

export function useText() {
  const settings = useSettingsStore();
  return (key: string, params?: Record<string, string | number>): string => settings.t(key, params);
}
