/**
 * Settings and window state, persisted as settings.json in a folder given by the caller
 * (Electron: app.getPath('userData'); browser mode: --settings-dir; tests: a temp folder).
 */
import path from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/ipc/contract';
import { MAX_UI_KEY_LENGTH, MAX_UI_KEYS, MAX_UI_STRING_LENGTH, MAX_WINDOW_EXTENT, uiBagProblem } from '../../shared/ipc/validate';
import { readJson, serial, writeJson } from './json-store';
import { isLocale } from '../../shared/i18n/locale';

export interface SettingsService {
  get(): Promise<Settings>;
  /** Shallow merge; `ui` and `window` merge key by key. Throws SettingsRefused when the merged `ui` bag is past its bounds. */
  set(patch: Partial<Settings>): Promise<Settings>;
}

/** A change refused because the stored `ui` bag would pass its bounds (uiBagProblem); nothing is written. */
export class SettingsRefused extends Error {}

/** What a settings file's `ui` bag keeps: JSON scalars with keys and strings of a sane length, the first MAX_UI_KEYS. */
function normaliseUi(raw: unknown): Settings['ui'] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const out: Settings['ui'] = {};
  let n = 0;
  for (const [k, v] of Object.entries(raw)) {
    if (n >= MAX_UI_KEYS) break;
    if (k.length === 0 || k.length > MAX_UI_KEY_LENGTH || k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    const keep = v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= MAX_UI_STRING_LENGTH);
    if (!keep) continue;
    out[k] = v as Settings['ui'][string];
    n++;
  }
  return out;
}

/** A window size within [min, MAX_WINDOW_EXTENT], else the default. */
const extent = (v: unknown, min: number, dflt: number) => (Number.isFinite(v) && (v as number) >= min && (v as number) <= MAX_WINDOW_EXTENT ? (v as number) : dflt);
const coord = (v: unknown) => Number.isFinite(v) && Math.abs(v as number) <= MAX_WINDOW_EXTENT;

/** Fills in missing fields (older files, hand edits) so callers always see a whole Settings. */
export function normaliseSettings(raw: unknown): Settings {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Settings>;
  const w = (typeof r.window === 'object' && r.window !== null ? r.window : {}) as Partial<Settings['window']>;
  return {
    locale: isLocale(r.locale) ? r.locale : null,
    lastDirectory: typeof r.lastDirectory === 'string' ? r.lastDirectory : null,
    previewModel: typeof r.previewModel === 'string' ? r.previewModel : null,
    window: {
      ...(coord(w.x) ? { x: w.x } : {}),
      ...(coord(w.y) ? { y: w.y } : {}),
      width: extent(w.width, 400, DEFAULT_SETTINGS.window.width),
      height: extent(w.height, 300, DEFAULT_SETTINGS.window.height),
      maximized: w.maximized === true,
    },
    ui: normaliseUi(r.ui),
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
        const ui = { ...cur.ui, ...(patch.ui ?? {}) };
        const why = uiBagProblem(ui);
        if (why) throw new SettingsRefused(why);
        const next = normaliseSettings({
          ...cur,
          ...patch,
          window: { ...cur.window, ...(patch.window ?? {}) },
          ui,
        });
        await writeJson(file, next);
        cache = next;
        return next;
      }),
  };
}
