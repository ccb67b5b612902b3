/**
 * The one error sink: error values from any store or request become visible notifications here.
 * Errors stay until dismissed; other kinds fade after a few seconds.
 */
import { defineStore } from 'pinia';

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

/** One line for people: "file: message (at byte N)". */
export function describeError(e: ErrorLike): { message: string; detail?: string } {
  if (typeof e === 'string') return { message: e };
  if (e instanceof Error) return { message: e.message };
  const name = e.file ? e.file.split(/[\\/]/).pop() + ': ' : '';
  const at = e.offset !== undefined ? ` (at byte ${e.offset})` : '';
  return { message: `${name}${e.message}${at}`, detail: e.code };
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
      const d = describeError(e);
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
