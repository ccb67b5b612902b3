/**
 * A report's warnings in the reader's language: each English line of `warnings` that has its code in
 * `warningCodes` (shared/edit-core/report.ts `warn`) is said from the `note.<code>` string; a line without one
 * (an older report, a warning not coded yet) stays as it is. Shared by the app's batch rows and notices and the
 * CLI's warning lines (electron/cli/locale.ts).
 */
import { hasString, tDynamic } from './strings';
import type { Locale } from './locale';
import type { Diagnostic } from '../vmd/errors';

/** A warning as text to render: the English line, or a string key with its values (`kind` and `<name>Word` keys of their own). */
export type WarningText = string | { key: string; params: Record<string, string | number | { key: string }> };

function codesOf(report: unknown): Diagnostic[] {
  const c = (report as { warningCodes?: unknown } | null | undefined)?.warningCodes;
  return Array.isArray(c) ? c.filter((d): d is Diagnostic => !!d && typeof d.code === 'string' && typeof d.message === 'string') : [];
}

/** The report's warnings, each a key with values where its code has a string, else its English line. */
export function warningTexts(report: unknown): WarningText[] {
  const codes = codesOf(report);
  return englishLines(report).map((text) => {
      const d = codes.find((c) => c.message === text);
      if (!d || !hasString(`note.${d.code}`)) return text;
      const params: Record<string, string | number | { key: string }> = { ...d.params };
      const kind = d.params?.kind;
      if (typeof kind === 'string' && hasString(`note.kind.${kind}`)) params.kind = { key: `note.kind.${kind}` };
      // `<name>Word`: `{name}` holds English words (retarget's "the standard MMD skeleton"), said from `note.<name>Word.<value>`.
      for (const [k, v] of Object.entries(d.params ?? {})) {
        const name = k.endsWith('Word') ? k.slice(0, -4) : '';
        if (name && typeof v === 'string' && hasString(`note.${k}.${v}`)) params[name] = { key: `note.${k}.${v}` };
      }
      return { key: `note.${d.code}`, params };
    });
}

/** One warning as a line in `locale` (English: the edit's own message). */
export function renderWarning(w: WarningText, locale: Locale): string {
  if (typeof w === 'string') return w;
  const params = Object.fromEntries(Object.entries(w.params).map(([k, v]) => [k, typeof v === 'object' ? tDynamic(v.key, locale) : v]));
  return tDynamic(w.key, locale, params);
}

/** The report's warnings as lines in `locale`; in English, exactly its `warnings` (the edits' own messages). */
export function warningLines(report: unknown, locale: Locale): string[] {
  return locale === 'en' ? englishLines(report) : warningTexts(report).map((w) => renderWarning(w, locale));
}

function englishLines(report: unknown): string[] {
  const w = (report as { warnings?: unknown } | null | undefined)?.warnings;
  return Array.isArray(w) ? w.filter((x): x is string => typeof x === 'string' && x !== '') : [];
}
