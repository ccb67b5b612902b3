import { okValue, type Settings, type VmdStudioApi } from '../../shared/ipc/contract';

/**
 * A bridge whose settings last as main keeps them (a shallow merge, `ui` key by key): the settings folder, for
 * tests that open "a new window over the same settings" (a fresh Pinia, setApi of this over the same `stored`).
 */
export function persistentSettingsApi(stored: { settings: Settings }): VmdStudioApi {
  const api = new Proxy({} as Record<string, unknown>, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        if (name === 'getSettings') return okValue(structuredClone(stored.settings));
        if (name === 'setSettings') {
          const patch = args[0] as Partial<Settings>;
          stored.settings = { ...stored.settings, ...patch, ui: { ...stored.settings.ui, ...(patch.ui ?? {}) } };
          return okValue(structuredClone(stored.settings));
        }
        if (name === 'listRecent') return okValue([]);
        return okValue(undefined);
      };
    },
  });
  return api as unknown as VmdStudioApi;
}
