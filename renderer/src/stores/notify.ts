/**
 * The one error sink: error values from any store or request become visible notifications here.
 * Errors stay until dismissed; other kinds fade after a few seconds.
 */
import { defineStore } from 'pinia';
import { t, type Locale } from '../../../shared/i18n/strings';
import { useSettingsStore } from './settings';

export type NoticeKind = 'error' | 'warning' | 'info' | 'success';

export interface Notice {
  id: number;
  kind: NoticeKind;
  message: string;
  /** Secondary line: error code, offset. */
  detail?: string;
}

/** Anything error-shaped: IpcError, CodecError, an Error, a string. */
export type ErrorLike = { code?: string; message: string; file?: string; offset?: number } | Error | string;

/**
 * One line for people: "file: message (at byte N)". In English the codec's own message is the line (it
 * is exact); in Japanese the line says by error code what is wrong, and the English message moves to the
 * detail line with the code, so nothing is lost.
 */
export function describeError(e: ErrorLike, locale: Locale = 'en'): { message: string; detail?: string } {
  if (typeof e === 'string') return { message: e };
  if (e instanceof Error) return { message: e.message };
  const name = e.file ? e.file.split(/[\\/]/).pop() + ': ' : '';
  const key = `err.${e.code}`;
  const said = locale === 'en' || !e.code ? null : t(key, locale);
  if (said === null || said === key) {
    const at = e.offset !== undefined ? ` (${t('err.atByte', 'en', { n: e.offset })})` : '';
    return { message: `${name}${e.message}${at}`, detail: e.code };
  }
  const at = e.offset !== undefined ? `（${t('err.atByte', locale, { n: e.offset })}）` : '';
  return { message: `${name}${said}${at}`, detail: `${e.code}: ${e.message}` };
}

let nextId = 1;

export const useNotifyStore = defineStore('notify', {
  state: () => ({ items: [] as Notice[] }),
  actions: {
    push(kind: NoticeKind, message: string, detail?: string, timeoutMs = kind === 'error' ? 0 : kind === 'warning' ? 8000 : 4000): number {
      const id = nextId++;
      this.items.push({ id, kind, message, detail });
      // Keep the stack short; drop the oldest non-errors first so an error is not pushed out by successes.
      while (this.items.length > 4) {
        const i = this.items.findIndex((n) => n.kind !== 'error');
        this.items.splice(i >= 0 ? i : 0, 1);
      }
      if (timeoutMs > 0) setTimeout(() => this.dismiss(id), timeoutMs);
      return id;
    },
    error(e: ErrorLike): number {
      const d = describeError(e, useSettingsStore().locale);
      return this.push('error', d.message, d.detail);
    },
    info(message: string): number {
      return this.push('info', message);
    },
    success(message: string): number {
      return this.push('success', message);
    },
    warning(message: string): number {
      return this.push('warning', message);
    },
    dismiss(id: number) {
      const i = this.items.findIndex((n) => n.id === id);
      if (i >= 0) this.items.splice(i, 1);
    },
    clear() {
      this.items = [];
    },
  },
});
