/**
 * Settings and window state, persisted as settings.json in a folder given by the caller
 * (Electron: app.getPath('userData'); browser mode: --settings-dir; tests: a temp folder).
 */
import path from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/ipc/contract';
import { readJson, serial, writeJson } from './json-store';
import { isLocale } from '../../shared/i18n/locale';

export interface SettingsService {
  get(): Promise<Settings>;
  /** Shallow merge; `ui` and `window` merge key by key. */
  set(patch: Partial<Settings>): Promise<Settings>;
}

/** Fills in missing fields (older files, hand edits) so callers always see a whole Settings. */
export function normaliseSettings(raw: unknown): Settings {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Settings>;
  const w = (typeof r.window === 'object' && r.window !== null ? r.window : {}) as Partial<Settings['window']>;
  return {
    locale: isLocale(r.locale) ? r.locale : null,
    lastDirectory: typeof r.lastDirectory === 'string' ? r.lastDirectory : null,
    previewModel: typeof r.previewModel === 'string' ? r.previewModel : null,
    window: {
      ...(Number.isFinite(w.x) ? { x: w.x } : {}),
      ...(Number.isFinite(w.y) ? { y: w.y } : {}),
      width: Number.isFinite(w.width) && (w.width as number) >= 400 ? (w.width as number) : DEFAULT_SETTINGS.window.width,
      height: Number.isFinite(w.height) && (w.height as number) >= 300 ? (w.height as number) : DEFAULT_SETTINGS.window.height,
      maximized: w.maximized === true,
    },
    ui: typeof r.ui === 'object' && r.ui !== null && !Array.isArray(r.ui) ? { ...r.ui } : {},
  };
}

export function createSettingsService(settingsDir: string): SettingsService {
  const file = path.join(settingsDir, 'settings.json');
  const queue = serial();
  let cache: Settings | null = null;
  const load = async () => (cache ??= normaliseSettings(await readJson<unknown>(file, {})));
  return {
    get: () => queue(load),
    set: (patch) =>
      queue(async () => {
        const cur = await load();
        const next = normaliseSettings({
          ...cur,
          ...patch,
          window: { ...cur.window, ...(patch.window ?? {}) },
          ui: { ...cur.ui, ...(patch.ui ?? {}) },
        });
        await writeJson(file, next);
        cache = next;
        return next;
      }),
  };
}
