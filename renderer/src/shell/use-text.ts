/**
 * `t(key, params)` for the views (editor, preview, panels), in the settings store's locale. The editor's strings
 * (shared/i18n/editor-strings.ts) are part of the shared lookup in strings.ts. `t` takes only keys the
 * tables define (a misspelled key fails to compile); `t.dynamic` takes a key read from data (a row's
 * label, a preset's name key), which falls back to the key itself.
 */
import type { UiStringKey } from '../../../shared/i18n/strings';
import { useSettingsStore } from '../stores/settings';

type Params = Record<string, string | number>;

export interface Text {
  (key: UiStringKey, params?: Params): string;
  dynamic(key: string, params?: Params): string;
}

export function useText(): Text {
  const settings = useSettingsStore();
  const t = (key: UiStringKey, params?: Params): string => settings.t(key, params);
  return Object.assign(t, { dynamic: (key: string, params?: Params): string => settings.tDynamic(key, params) });
}
