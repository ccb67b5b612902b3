/**
 * The one error sink: error values from any store or request become visible notifications here.
 * Errors stay until dismissed; other kinds fade after a few seconds.
 *
 * A notice keeps what it means, not a translated line: a string key with its parameters, or the error
 * value itself (code, message, file, offset). `noticeLines` phrases it in the language in force when it
 * is shown, so a notice raised before a language switch follows the new language. The store needs no
 * locale, and so does not import the settings store (which imports this one to report its errors).
 *
 * A notice about a file (an error naming its `file`, or one made `about` it) is that file's: when the document
 * or model it is about is closed or replaced, `dropAbout` takes it away (the workspace's documents, the
 * preview's models), so notices about files no longer open do not pile up over the panels.
 */
import { defineStore } from 'pinia';
import { markRaw, type Raw } from 'vue';
import { fileNameOf } from '../paths';
import { hasString, t, type Locale, type UiStringKey } from '../../../shared/i18n/strings';
import type { CodecError } from '../../../shared/vmd/errors';
import { errorPlainLine } from '../../../shared/i18n/error-line';

export type NoticeKind = 'error' | 'warning' | 'info' | 'success';

/**
 * Text of a notice: a literal (a codec's exact message, a file name), a string key with parameters
 * (which may themselves be texts, e.g. a translated operation name), or parts joined by " · ".
 */
export type NoticeText =
  | string
  | { readonly key: UiStringKey; readonly params?: Readonly<Record<string, string | number | NoticeText>> }
  | readonly NoticeText[];

/**
 * The error a notice shows: the app's one error shape (IpcError, CodecError: `code` from ERROR_CODES), whose
 * message may be a NoticeText (an option error the app phrases itself). Anything else a notice says is a
 * NoticeText, through info/success/warning.
 */
export type NoticeError = Omit<CodecError, 'message'> & { message: NoticeText };

export interface Notice {
  id: number;
  kind: NoticeKind;
  /** The line (non-errors). */
  text?: NoticeText;
  /** Secondary line. */
  detail?: NoticeText;
  /** The error value (errors), phrased by code when shown. */
  error?: NoticeError;
  /** The file (a document's or a model's path) this notice is about, besides an error's `file`: see dropAbout. */
  about?: string;
  /**
   * A button under the text that does what the notice points to (the reference camera's "Edit this camera"), in
   * sight whatever the text's length: a route named behind More was missed (new-user pass numigrate). Pressing it
   * runs `run` and dismisses the notice. Also the follow's offers ("Turn follow off").
   */
  action?: NoticeAction;
  /**
   * The undo step this notice reports (a key registered, a pose applied, keys replaced by a move…: workspace
   * editNotice tags it with the step just recorded): when that step is undone, the notice goes with it (dropStep),
   * or "Camera key registered at frame 0" stayed beside "No unsaved changes" after Ctrl+Z (docs pass, docsfix 6).
   * Only its identity is used; a redo does not bring the notice back.
   */
  step?: object;
}

/** A notice's button: its label (a string key) and what it does. */
export interface NoticeAction {
  readonly label: UiStringKey;
  readonly run: () => void;
}

/** How long a notice with a button stays (it is to be pressed, not only read); hover or focus still holds it. */
export const ACTION_NOTICE_MS = 15000;

/** A notice text in `locale`. */
export function renderText(x: NoticeText, locale: Locale): string {
  if (typeof x === 'string') return x;
  if (Array.isArray(x)) return (x as readonly NoticeText[]).map((p) => renderText(p, locale)).filter((s) => s).join(' · ');
  const k = x as { key: UiStringKey; params?: Record<string, string | number | NoticeText> };
  if (!k.params) return t(k.key, locale);
  const params: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(k.params)) params[name] = typeof v === 'number' ? v : renderText(v, locale);
  return t(k.key, locale, params);
}

/** Codes of a file cut short or damaged: their notice leads with the code's plain line in every language. */
const DAMAGED_FILE_CODES: ReadonlySet<string> = new Set(['E_VMD_TRUNCATED', 'E_VMD_COUNT', 'E_PMX_TRUNCATED']);

/**
 * Codes whose English message names a command (physics-bake, export-bvh) or its flags (E_SPAN's "give --from
 * and --to"): the app says its own line in English too.
 */
const COMMAND_WORDED_CODES: ReadonlySet<string> = new Set(['E_CAMERA_MOTION', 'E_SPAN']);
/** Codes of a file that does not start as its format does (its magic bytes): always at byte 0. */
const MAGIC_CODES: ReadonlySet<string> = new Set(['E_VMD_MAGIC', 'E_VPD_MAGIC', 'E_PMX_MAGIC']);
/** Codes whose English message gives the CLI's advice: the detail line has only the code (the line says what to do here). */
const CLI_ADVICE_CODES: ReadonlySet<string> = new Set(['E_SPAN']);

/**
 * The detail line of a code whose English message names a CLI command, in the app's words: a camera or light
 * motion refused (E_CAMERA_MOTION) says which operation in the menu's name (its op: physics-bake, export-bvh…);
 * an op the table lacks, the code alone. Null: the code and the English message, as for any other code.
 */
function appDetail(e: NoticeError, locale: Locale): string | null {
  if (e.code !== 'E_CAMERA_MOTION') return CLI_ADVICE_CODES.has(e.code) ? e.code : null;
  const op = typeof e.params?.op === 'string' ? `err.stageMotion.op.${e.params.op.replace(/ /g, '-')}` : '';
  return op && hasString(op) ? `${e.code}: ${t('err.stageMotion.detail', locale, { op: t(op, locale) })}` : e.code;
}

/**
 * One line for people: "file: message (at byte N)". In English the codec's own message is the line (it
 * is exact), but for a damaged file (DAMAGED_FILE_CODES); in Japanese the line says by error code what is
 * wrong, and the English message moves to the detail line with the code, so nothing is lost.
 */
export function describeError(e: NoticeError, locale: Locale = 'en'): { message: string; detail?: string } {
  const d = describeErrorLines(e, locale);
  // A file not found: the line names the whole path looked for, not only its name (a name typed in the Open
  // dialog was looked for elsewhere, and "kb2.vmd: no such file or folder" hid where: new-user pass nuprefs 1).
  if (e.code === 'E_IO_NOT_FOUND' && e.file && e.file !== fileNameOf(e.file)) return { ...d, message: locale === 'ja' ? `${d.message}（${e.file}）` : `${d.message} (${e.file})` };
  return d;
}

function describeErrorLines(e: NoticeError, locale: Locale): { message: string; detail?: string } {
  const message = renderText(e.message, locale);
  const name = e.file ? fileNameOf(e.file) + ': ' : '';
  const key = `err.${e.code}`;
  // An option error phrased by the app (a string key naming the option) says more than its code's line.
  const phrased = e.option !== undefined && typeof e.message !== 'string';
  // A damaged file leads with a plain sentence in English too; the reader's own line ("bone block promises 470
  // records of 111 bytes, but only 2946 bytes remain") follows in the detail.
  const plain = locale !== 'en' || DAMAGED_FILE_CODES.has(e.code) || COMMAND_WORDED_CODES.has(e.code);
  const said = !plain || phrased ? null : errorPlainLine(e, locale);
  // A file that does not start as its format does fails at byte 0, always: "(at byte 0)" on the line told a new
  // user nothing. The offset moves to the detail line, beside the code.
  const atStart = MAGIC_CODES.has(e.code) && e.offset === 0 && e.line === undefined;
  if (said === null || said === key) {
    const at = e.line !== undefined ? ` (${t('err.atLine', 'en', { n: e.line })})` : e.offset !== undefined ? ` (${t('err.atByte', 'en', { n: e.offset })})` : '';
    return atStart ? { message: `${name}${message}`, detail: `${e.code}${at}` } : { message: `${name}${message}${at}`, detail: e.code };
  }
  // A text file's error (a BVH, a map file) says its line; a binary file's, its byte.
  const [open, close] = locale === 'ja' ? ['（', '）'] : [' (', ')'];
  const at = e.line !== undefined ? `${open}${t('err.atLine', locale, { n: e.line })}${close}` : e.offset !== undefined ? `${open}${t('err.atByte', locale, { n: e.offset })}${close}` : '';
  if (atStart) return { message: `${name}${said}`, detail: `${e.code}: ${message}${at}` };
  return { message: `${name}${said}${at}`, detail: appDetail(e, locale) ?? `${e.code}: ${message}` };
}

/** What a notice shows in `locale`: its line and the secondary line. */
export function noticeLines(n: Notice, locale: Locale): { message: string; detail?: string } {
  if (n.error !== undefined) return describeError(n.error, locale);
  return { message: n.text === undefined ? '' : renderText(n.text, locale), detail: n.detail === undefined ? undefined : renderText(n.detail, locale) || undefined };
}

/** How long a notice of each kind stays (ms; 0 = until dismissed). */
export const NOTICE_TIMEOUT_MS: Record<NoticeKind, number> = { error: 0, warning: 8000, info: 4000, success: 4000 };

/** Most notices kept; beyond it the oldest non-errors go first, then the oldest errors. */
export const MAX_NOTICES = 6;

let nextId = 1;

/** The fade timer of each notice that fades, by id (ids are unique across stores): its handle (null while held), when it is due, the time left. */
const fadeTimers = new Map<number, { handle: ReturnType<typeof setTimeout> | null; due: number; left: number; items: Raw<Notice>[] }>();

/**
 * While the pointer is over the notices or the keyboard is in them, no notice fades (a slow reader, or a keyboard
 * user on their way to its ×, lost it after 4 s); released, each fades after the time it had left, at least
 * MIN_AFTER_HOLD_MS.
 */
let held = false;
export const MIN_AFTER_HOLD_MS = 1500;

function stopFade(id: number): void {
  const f = fadeTimers.get(id);
  if (f === undefined) return;
  if (f.handle !== null) clearTimeout(f.handle);
  fadeTimers.delete(id);
}

function runFade(id: number): void {
  const f = fadeTimers.get(id);
  if (!f || held) return;
  f.due = Date.now() + f.left;
  f.handle = setTimeout(() => {
    fadeTimers.delete(id);
    removeNotice(f.items, id);
  }, f.left);
}

/** Takes notice `id` out of `items`, if there. */
function removeNotice(items: Raw<Notice>[], id: number): void {
  const i = items.findIndex((n) => n.id === id);
  if (i >= 0) items.splice(i, 1);
}

export const useNotifyStore = defineStore('notify', {
  // Raw: a notice never changes once made, and its text type is recursive (Vue need not unwrap it).
  state: () => ({ items: [] as Raw<Notice>[] }),
  getters: {
    errorCount: (state) => state.items.filter((n) => n.kind === 'error').length,
  },
  actions: {
    add(n: Omit<Notice, 'id'>, timeoutMs = NOTICE_TIMEOUT_MS[n.kind]): number {
      const id = nextId++;
      this.items.push(markRaw({ id, ...n }));
      // Keep the stack short; drop the oldest non-errors first so an error is not pushed out by successes.
      while (this.items.length > MAX_NOTICES) {
        const i = this.items.findIndex((x) => x.kind !== 'error');
        stopFade(this.items.splice(i >= 0 ? i : 0, 1)[0].id);
      }
      // The fade takes the notice out of the state directly, not through an action: pinia makes the acting
      // store's pinia the active one, and a timer must not change which pinia a later useXStore() reads.
      if (timeoutMs > 0) {
        fadeTimers.set(id, { handle: null, due: 0, left: timeoutMs, items: this.items });
        runFade(id);
      }
      return id;
    },
    /**
     * A notice with a button (Notice.action), replacing an earlier one with the same button: stays longer than a plain one of its kind (`timeoutMs`), or until
     * dismissed or pressed with 0 (an offer that must not be lost to the fade: the follow's "Turn follow off").
     */
    offer(kind: Exclude<NoticeKind, 'error'>, text: NoticeText, action: NoticeAction, timeoutMs = ACTION_NOTICE_MS): number {
      // One button per offer in sight: an earlier notice offering the same (its label) goes, the newer text says
      // why now (a reference camera's load notice, then K's refusal: two "Edit this camera" doing one thing).
      for (const n of this.items.filter((x) => x.action?.label === action.label)) this.dismiss(n.id);
      return this.add({ kind, text, action }, timeoutMs);
    },
    /** Pauses every notice's fade (`on`), or lets them go on (NotificationList: hover, focus inside). */
    hold(on: boolean) {
      if (on === held) return;
      held = on;
      const now = Date.now();
      for (const [id, f] of fadeTimers) {
        if (on) {
          if (f.handle !== null) clearTimeout(f.handle);
          f.handle = null;
          f.left = Math.max(0, f.due - now);
        } else {
          f.left = Math.max(f.left, MIN_AFTER_HOLD_MS);
          runFade(id);
        }
      }
    },
    push(kind: NoticeKind, text: NoticeText, detail?: NoticeText, timeoutMs?: number): number {
      return this.add({ kind, text, detail }, timeoutMs);
    },
    error(e: NoticeError): number {
      return this.add({ kind: 'error', error: e });
    },
    info(text: NoticeText): number {
      return this.push('info', text);
    },
    success(text: NoticeText): number {
      return this.push('success', text);
    },
    warning(text: NoticeText, detail?: NoticeText): number {
      return this.push('warning', text, detail);
    },
    /** Presses notice `id`'s button: does what it offers and dismisses it. */
    runAction(id: number) {
      const n = this.items.find((x) => x.id === id);
      if (!n?.action) return;
      this.dismiss(id);
      n.action.run();
    },
    dismiss(id: number) {
      stopFade(id);
      removeNotice(this.items, id);
    },
    /**
     * The notices about these files (an error whose `file` is one, or a notice `about` one) go: the document or
     * model they were about was closed or replaced. Others stay.
     */
    dropAbout(files: Iterable<string>) {
      const gone = new Set(files);
      if (gone.size === 0) return;
      for (const n of [...this.items]) {
        const of = n.about ?? n.error?.file;
        if (of !== undefined && gone.has(of)) this.dismiss(n.id);
      }
    },
    /** The notices reporting undo step `step` go: it was undone (workspace step). */
    dropStep(step: object) {
      for (const n of [...this.items]) if (n.step === step) this.dismiss(n.id);
    },
    /** "Dismiss all": every notice, errors included (their fade timers stop). */
    clear() {
      for (const n of this.items) stopFade(n.id);
      this.items = [];
    },
  },
});
