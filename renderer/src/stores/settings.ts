/**
 * Settings (persisted by main in settings.json), the recent-files mirror, app info and the UI locale.
 * `t(key)` reads the current locale, so templates re-render when it changes.
 */
import { defineStore } from 'pinia';
import { DEFAULT_SETTINGS, type AppInfo, type RecentFile, type Settings } from '../../../shared/ipc/contract';
import { localeFromLanguage, t as translate, tDynamic, type Locale, type UiStringKey } from '../../../shared/i18n/strings';
import { useApi } from '../api';
import type { Diagnostic } from '../../../shared/vmd';
import { useNotifyStore } from './notify';

/** Per settings store, the last patch queued for main (settled when answered; see `update`). */
const sending = new WeakMap<object, Promise<unknown>>();

export const useSettingsStore = defineStore('settings', {
  state: () => ({
    settings: structuredClone(DEFAULT_SETTINGS) as Settings,
    recent: [] as RecentFile[],
    appInfo: null as AppInfo | null,
    loaded: false,
  }),
  getters: {
    locale(state): Locale {
      return state.settings.locale ?? localeFromLanguage(typeof navigator !== 'undefined' ? navigator.language : 'en');
    },
    /** True under Electron with native dialogs; the browser mode shows the in-app dialog. */
    nativeDialogs(state): boolean {
      return state.appInfo?.nativeDialogs ?? false;
    },
  },
  actions: {
    t(key: UiStringKey, params?: Record<string, string | number>): string {
      return translate(key, this.locale, params);
    },
    /** `t` for a key built at run time or read from data (not checked by the compiler). */
    tDynamic(key: string, params?: Record<string, string | number>): string {
      return tDynamic(key, this.locale, params);
    },
    /**
     * A reader's note (a diagnostic) in the UI language: its code's text (`note.CODE`) with its values,
     * counts in the locale's digit grouping (1,234) and names as they are; its English message where the
     * code has no text or no values.
     */
    note(d: Diagnostic): string {
      if (!d.params) return d.message;
      const nf = new Intl.NumberFormat(this.locale);
      const params = Object.fromEntries(Object.entries(d.params).map(([k, v]) => [k, typeof v === 'number' ? nf.format(v) : v]));
      const key = `note.${d.code}`;
      const text = tDynamic(key, this.locale, params);
      return text !== key ? text : d.message;
    },
    async load() {
      const api = useApi();
      const [s, r, info] = await Promise.all([api.getSettings(), api.listRecent(), api.appInfo()]);
      if (s.ok) this.settings = s.value;
      if (r.ok) this.recent = r.value;
      if (info.ok) this.appInfo = info.value;
      const failed = [s, r, info].find((x) => !x.ok);
      if (failed && !failed.ok) useNotifyStore().error(failed.error);
      this.loaded = true;
      if (typeof document !== 'undefined') document.documentElement.lang = this.locale;
    },
    async update(patch: Partial<Settings>) {
      // Optimistic: the UI follows at once; main's answer (normalised) replaces it. One patch goes to main at
      // a time, after the previous one's answer: the browser mode's requests could otherwise arrive out of
      // order (two pane drags in a row stored the first drag's widths last). So main applies them in order and
      // the last update's answer holds them all: an earlier answer that comes after a later update began is
      // not applied (it would take that update back until its own answer came: a language chosen just after
      // a panel toggle showed English again for a moment).
      this.settings = { ...this.settings, ...patch };
      const api = useApi();
      const sent = (sending.get(this) ?? Promise.resolve()).then(() => api.setSettings(patch));
      const mine = sent.catch(() => undefined);
      sending.set(this, mine);
      const r = await sent;
      if (!r.ok) useNotifyStore().error(r.error);
      // Still the last queued: no later update began, so this answer is the newest.
      else if (r.value && sending.get(this) === mine) this.settings = r.value;
      if (typeof document !== 'undefined') document.documentElement.lang = this.locale;
    },
    setLocale(locale: Locale) {
      return this.update({ locale });
    },
    async refreshRecent() {
      const r = await useApi().listRecent();
      if (r.ok) this.recent = r.value;
    },
    async clearRecent() {
      const r = await useApi().clearRecent();
      if (r.ok) this.recent = r.value;
      else useNotifyStore().error(r.error);
    },
  },
});
