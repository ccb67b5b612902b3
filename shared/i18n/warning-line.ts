/**
 * A report's warnings in the reader's language: each English line of `warnings` that has its code in
 * `warningCodes` (shared/edit-core/report.ts `warn`) is said from the `note.<code>` string; a line without one
 * (an older report, a warning not coded yet) stays as it is. Shared by the app's batch rows and notices and the
 * CLI's warning lines (electron/cli/locale.ts).
 */
import { hasString, tDynamic } from './strings';
import type { Locale } from './locale';
import type { Diagnostic } from '../vmd/errors';

/** A warning as text to render: the English line, or a string key with its values (`kind`, `<name>Word` and `<name>Kinds` said in the reader's language). */
export type WarningText = string | { key: string; params: Record<string, WarningParam> };
/**
 * A value of a warning: as it is; a word (`note.<name>Word.<value>`) with the values it names (as a notice's
 * nested text, so the app's notices render it too); or a list of block kinds' words (the batch rows and the CLI).
 */
type WarningParam = string | number | { key: string; params?: Record<string, WarningParam> } | { kinds: string[] };

function codesOf(report: unknown): Diagnostic[] {
  const c = (report as { warningCodes?: unknown } | null | undefined)?.warningCodes;
  return Array.isArray(c) ? c.filter((d): d is Diagnostic => !!d && typeof d.code === 'string' && typeof d.message === 'string') : [];
}

/**
 * Where a warning is said: the CLI (its lines name command-line options, as its --json's English does) or the app,
 * whose rows and notices name the form's field instead where the table has the app's words (`note.app.<code>`).
 */
export type WarningPlace = 'cli' | 'app';

/** The report's warnings, each a key with values where its code has a string, else its English line. */
export function warningTexts(report: unknown, place: WarningPlace = 'cli'): WarningText[] {
  const codes = codesOf(report);
  return englishLines(report).map((text) => {
      const d = codes.find((c) => c.message === text);
      if (!d || !hasString(`note.${d.code}`)) return text;
      const key = place === 'app' && hasString(`note.app.${d.code}`) ? `note.app.${d.code}` : `note.${d.code}`;
      const params: Record<string, WarningParam> = { ...d.params };
      const kind = d.params?.kind;
      if (typeof kind === 'string' && hasString(`note.kind.${kind}`)) params.kind = { key: `note.kind.${kind}` };
      // `<name>Word`: `{name}` holds English words (retarget's "the standard MMD skeleton"), said from `note.<name>Word.<value>`.
      // `<name>Kinds`: `{name}` lists block kinds (comma-separated), each said as its `note.kind.*` word.
      const words: Record<string, { key: string }> = {};
      for (const [k, v] of Object.entries(d.params ?? {})) {
        const name = k.endsWith('Word') ? k.slice(0, -4) : '';
        if (name && typeof v === 'string' && hasString(`note.${k}.${v}`)) words[name] = { key: `note.${k}.${v}` };
        const list = k.endsWith('Kinds') ? k.slice(0, -5) : '';
        if (list && typeof v === 'string' && v.split(',').every((x) => hasString(`note.kind.${x}`))) params[list] = { kinds: v.split(',') };
      }
      // A word's string may name the warning's values and its other words ("the BVH is {who} standing still").
      for (const [name, w] of Object.entries(words)) {
        const inner: Record<string, WarningParam> = {};
        for (const [k, v] of Object.entries(d.params ?? {})) if (typeof v === 'number' || typeof v === 'string') inner[k] = v;
        for (const [other, o] of Object.entries(words)) if (other !== name) inner[other] = o;
        params[name] = { key: w.key, params: inner };
      }
      return { key, params };
    });
}

/** One warning as a line in `locale` (English: the edit's own message). */
export function renderWarning(w: WarningText, locale: Locale): string {
  if (typeof w === 'string') return w;
  return String(said(w, locale));
}

function said(v: WarningParam, locale: Locale): string | number {
  if (typeof v !== 'object') return v;
  if ('kinds' in v) return kindList(v.kinds, locale);
  return tDynamic(v.key, locale, v.params && Object.fromEntries(Object.entries(v.params).map(([k, x]) => [k, said(x, locale)])));
}

/** Block kinds' words as a list: "morph and IK/display" in English, 「表情・表示・IK」 in Japanese. */
function kindList(kinds: readonly string[], locale: Locale): string {
  const words = kinds.map((k) => tDynamic(`note.kind.${k}`, locale));
  if (locale === 'ja') return words.join('・');
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : (words[0] ?? '');
}

/** The report's warnings as lines in `locale`; the CLI's English is exactly its `warnings` (the edits' own messages). */
export function warningLines(report: unknown, locale: Locale, place: WarningPlace = 'cli'): string[] {
  return locale === 'en' && place === 'cli' ? englishLines(report) : warningTexts(report, place).map((w) => renderWarning(w, locale));
}

function englishLines(report: unknown): string[] {
  const w = (report as { warnings?: unknown } | null | undefined)?.warnings;
  return Array.isArray(w) ? w.filter((x): x is string => typeof x === 'string' && x !== '') : [];
}
