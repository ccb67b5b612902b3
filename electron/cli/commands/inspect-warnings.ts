/**
 * `inspect`'s warnings with their codes, so that `--lang ja` says them in Japanese (fixwarn4: a capture's roots, a
 * WAV cut short, a scene's missing texture, a misnamed file and a VMD's own reader notes were English there). Each
 * description keeps `warnings` as English lines (--json, batch inspect's files); the codes ride beside them, not
 * enumerable, so no JSON document gains a field. The lines are said from `note.<code>` (shared/i18n/warning-strings.ts)
 * by shared/i18n/warning-line.ts, as the edits' warnings are.
 */
import type { Diagnostic } from '../../../shared/vmd';
import type { Locale } from '../../../shared/i18n/locale';
import { warningLines } from '../../../shared/i18n/warning-line';

type Described = { warnings: string[] };

/** The codes of a description's warnings (none for one that has not any). */
export function codesOf(info: object): Diagnostic[] {
  return (info as { warningCodes?: Diagnostic[] }).warningCodes ?? [];
}

/** Sets the codes beside `info`'s warnings (not enumerable: JSON.stringify and a spread leave them out). */
export function withCodes<T extends object>(info: T, codes: readonly Diagnostic[]): T {
  Object.defineProperty(info, 'warningCodes', { value: [...codes], enumerable: false, writable: true, configurable: true });
  return info;
}

/** Adds a warning: its English line to `warnings`, its code and values beside it. */
export function addWarning(info: Described, code: string, message: string, params: Record<string, string | number> = {}): void {
  info.warnings.push(message);
  withCodes(info, [...codesOf(info), { code, message, params }]);
}

/** A description's warnings as lines in `locale` (English: its `warnings` as they are). */
export function inspectWarningLines(info: Described, locale: Locale | undefined): string[] {
  return warningLines({ warnings: info.warnings, warningCodes: codesOf(info) }, locale ?? 'en');
}
