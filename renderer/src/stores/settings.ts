/**
 * Settings (persisted by main in settings.json), the recent-files mirror, app info and the UI locale.
 * `t(key)` reads the current locale, so templates re-render when it changes.
 */
import { defineStore } from 'pinia';
import { DEFAULT_SETTINGS, type AppInfo, type IpcResult, type RecentFile, type Settings } from '../../../shared/ipc/contract';
import { localeFromLanguage, t as translate, tDynamic, hasString, type Locale, type UiStringKey } from '../../../shared/i18n/strings';
import { useApi } from '../api';
import type { Diagnostic } from '../../../shared/vmd';
import { useNotifyStore } from './notify';

/**
 * Per settings store, what goes to main (see `update`): how many requests are out, and the changes made while
 * one was, merged into one patch that goes when the request out answers (or at once when the page unloads).
 */
interface Outbox {
  out: number;
  queued: Partial<Settings> | null;
  /** Settles with the answer to the request that carries `queued`. */
  queuedAnswer: { promise: Promise<IpcResult<Settings>>; resolve: (r: IpcResult<Settings>) => void } | null;
}
const outboxes = new WeakMap<object, Outbox>();
/** The stores whose unload listeners are installed (once each). */
const unloadListened = new WeakSet<object>();
const outboxOf = (store: object): Outbox => {
  let box = outboxes.get(store);
  if (!box) outboxes.set(store, (box = { out: 0, queued: null, queuedAnswer: null }));
  return box;
};

/** Two patches as one, merged as main merges them (settings-service.ts: `ui` and `window` key by key). */
export function mergeSettingsPatch(a: Partial<Settings>, b: Partial<Settings>): Partial<Settings> {
  const out: Partial<Settings> = { ...a, ...b };
  if (a.ui && b.ui) out.ui = { ...a.ui, ...b.ui };
  if (a.window && b.window) out.window = { ...a.window, ...b.window };
  return out;
}

/** Sends one patch; then the changes queued meanwhile, as one request. Main's refusal is shown once. */
async function send(box: Outbox, patch: Partial<Settings>): Promise<IpcResult<Settings>> {
  box.out++;
  let r: IpcResult<Settings>;
  try {
    r = await useApi().setSettings(patch);
  } catch (e) {
    r = { ok: false, error: { code: 'E_IO', message: `setSettings: ${(e as Error)?.message ?? e}` } };
  }
  box.out--;
  if (!r.ok) useNotifyStore().error(r.error);
  if (box.out === 0) sendQueued(box);
  return r;
}

/** Sends what is queued now (nothing when nothing is). */
function sendQueued(box: Outbox): void {
  const patch = box.queued, answer = box.queuedAnswer;
  if (!patch || !answer) return;
  box.queued = null;
  box.queuedAnswer = null;
  void send(box, patch).then(answer.resolve);
}

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
      // A block's kind (W_NAME_SKIPPED's "bone"/"morph") in the UI's words, as the edits' warnings say it (warning-line.ts).
      if (typeof d.params.kind === 'string' && hasString(`note.kind.${d.params.kind}`)) params.kind = tDynamic(`note.kind.${d.params.kind}`, this.locale);
      const key = `note.${d.code}`;
      const text = tDynamic(key, this.locale, params);
      return text !== key ? text : d.message;
    },
    async load() {
      this.listenForUnload();
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
      // Optimistic: the UI follows at once; main's answer (normalised) replaces it. One request goes to main at
      // a time, after the previous one's answer: the browser mode's requests could otherwise arrive out of
      // order (two pane drags in a row stored the first drag's widths last). The changes made while one is out
      // wait merged, and go as one request when it answers (a pane drag's many changes, or a window closed with
      // three queued, made three round trips before; those left when the page went were lost: `flush`). So
      // main applies them in order and the last answer holds them all: an earlier answer that comes after a
      // later update began is not applied (it would take that update back until its own answer came: a
      // language chosen just after a panel toggle showed English again for a moment).
      this.settings = { ...this.settings, ...patch };
      const box = outboxOf(this);
      let r: IpcResult<Settings>;
      if (box.out === 0 && !box.queued) r = await send(box, patch);
      else {
        box.queued = box.queued ? mergeSettingsPatch(box.queued, patch) : patch;
        if (!box.queuedAnswer) {
          let resolve!: (r: IpcResult<Settings>) => void;
          const promise = new Promise<IpcResult<Settings>>((res) => (resolve = res));
          box.queuedAnswer = { promise, resolve };
        }
        r = await box.queuedAnswer.promise;
      }
      // Nothing out or queued any more: this answer is the newest.
      if (r.ok && r.value && box.out === 0 && !box.queued) this.settings = r.value;
      if (typeof document !== 'undefined') document.documentElement.lang = this.locale;
    },
    /**
     * Sends the queued changes now, without waiting for the request out (the page is going: `listenForUnload`).
     * The request leaves while the page still runs: over HTTP as a keepalive fetch (http-client.ts), which
     * the browser finishes after the page is gone; under Electron as an IPC message main handles anyway.
     */
    flush() {
      sendQueued(outboxOf(this));
    },
    /** Flushes the queued changes when the page is hidden for good or unloads (closing the window or tab, reload). */
    listenForUnload() {
      if (typeof window === 'undefined' || unloadListened.has(this)) return;
      unloadListened.add(this);
      const flush = () => this.flush();
      window.addEventListener('pagehide', flush);
      window.addEventListener('beforeunload', flush);
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
