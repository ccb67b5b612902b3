/**
 * The command line's language for its error lines (translator pass nui18n, finding 13: every line was English
 * under LANG=ja_JP.UTF-8, though the app phrases the same codes in Japanese). Japanese when asked for: `--lang ja`,
 * or the locale the environment sets (LC_ALL, then LC_MESSAGES, then LANG, as POSIX ranks them) starting with
 * "ja"; on Windows, where those are usually unset, the system's locale (Intl) decides. English otherwise — a
 * machine with no locale set (CI, whose conformance run reads these lines) keeps English. The error lines, the
 * unknown-command line, command-line mistakes (args.ts UsageError's `ja`) and the edits' coded warnings are
 * translated; usage texts, reports and --json stay English (README).
 */
import { formatError, type CodecError } from '../../shared/vmd';
import { t } from '../../shared/i18n/strings';
import { errorPlainLine } from '../../shared/i18n/error-line';
import type { Locale } from '../../shared/i18n/locale';

/** The language the environment asks for: the first of LC_ALL, LC_MESSAGES, LANG that is set and not empty. */
export function envLocale(env: Record<string, string | undefined>, platform: string, intlLocale: () => string): Locale {
  const set = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '');
  if (set !== undefined) return /^ja/i.test(set) ? 'ja' : 'en';
  if (platform === 'win32') return /^ja/i.test(intlLocale()) ? 'ja' : 'en';
  return 'en';
}

/**
 * `--lang ja|en` taken out of the command line (any place before a lone "--"): the language it names and the
 * arguments left. An unknown value is an error line (null locale), not a silent English.
 */
export function takeLangOption(argv: string[]): { lang?: Locale | null; rest: string[] } {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  let lang: Locale | null | undefined;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (i < end && (a === '--lang' || a.startsWith('--lang='))) {
      const v = a === '--lang' ? argv[++i] : a.slice('--lang='.length);
      lang = v === 'ja' || v === 'en' ? v : null;
      continue;
    }
    rest.push(a);
  }
  return { lang, rest };
}

/**
 * One error line, "file: message (at byte N)": English as the codec says it (formatError); Japanese by the error's
 * code and values, as the app's notices say it, with the place in Japanese ("（50 バイト目）"). A code with no
 * Japanese line keeps the English message.
 */
export function errorLine(e: CodecError, locale: Locale | undefined): string {
  if (locale !== 'ja') return formatError(e);
  const plain = errorPlainLine(e, 'ja');
  if (plain === `err.${e.code}`) return formatError(e);
  // The CLI's "output exists" says how to go on (--overwrite); the app's line for the code does not, as the app asks
  // instead (new-user pass nujp 4: the Japanese line lost the way out).
  if (e.code === 'E_IO_EXISTS' && e.message.includes('--overwrite')) return `${e.file ? e.file + ': ' : ''}${plain}（置き換えるには --overwrite を付けてください）`;
  const at = e.line !== undefined ? `（${t('err.atLine', 'ja', { n: e.line })}）` : e.offset !== undefined ? `（${t('err.atByte', 'ja', { n: e.offset })}）` : '';
  return `${e.file ? e.file + ': ' : ''}${plain}${at}`;
}

/** The word before a warning line: `vmd-studio: warning: FILE: …` (警告 in Japanese). */
export function warningPrefix(locale: Locale | undefined): string {
  return locale === 'ja' ? '警告' : 'warning';
}

/** The unknown-command line. */
export function unknownCommand(name: string, locale: Locale | undefined): string {
  return locale === 'ja' ? `vmd-studio: 「${name}」というコマンドはありません（vmd-studio --help で一覧）\n` : `vmd-studio: unknown command "${name}" (try vmd-studio --help)\n`;
}

/**
 * A path as a shell takes it back as one argument, for a command line the user may paste: bare when it has only
 * characters no shell splits or expands; else in double quotes (Windows' cmd and PowerShell, and POSIX shells, take
 * them; a full-width space splits nothing but is quoted all the same, as it reads as a gap); on POSIX a name with
 * `"`, `$`, `` ` ``, `\` or `!` (which double quotes do not keep as they are) in single quotes instead.
 */
export function shellQuote(arg: string, platform: string = process.platform): string {
  if (arg !== '' && !/[\s\u3000"'$`\\!*?#&;|<>(){}[\]~^%=,]/.test(arg.replace(/^[A-Za-z]:\\/, ''))) return arg;
  if (platform === 'win32' || !/["$`\\!]/.test(arg)) return `"${arg}"`;
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * For a VMD cut short (E_VMD_COUNT, E_VMD_TRUNCATED): the command that writes the keys it still holds
 * (commands/salvage.ts), or '' for any other error or file. The path is quoted as a shell needs it (nujp 5: a
 * name with a space, pasted, was two arguments).
 */
export function salvageHint(e: { code: string }, file: string | undefined, locale: Locale | undefined, platform: string = process.platform): string {
  if ((e.code !== 'E_VMD_COUNT' && e.code !== 'E_VMD_TRUNCATED') || !file?.toLowerCase().endsWith('.vmd')) return '';
  const arg = shellQuote(file, platform);
  return locale === 'ja' ? `壊れた箇所より前のキーは読み出せます: vmd-studio salvage ${arg} -o OUT.vmd` : `the keys before the damage can be read: vmd-studio salvage ${arg} -o OUT.vmd`;
}
