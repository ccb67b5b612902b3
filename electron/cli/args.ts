/**
 * A small argument parser for the CLI: positionals, `--flag`, `--key value`, `--key=value`, `-o value`.
 * Each command declares which options take values and which are booleans, so typos are errors
 * (exit status 2) rather than silently ignored.
 */
import { parseDecimal } from '../../shared/batch/options';

export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string[]>;
  flags: Set<string>;
}

export interface ArgSpec {
  /** Options that take a value (may repeat). Short aliases map like { o: 'output' }. */
  values?: string[];
  flags?: string[];
  aliases?: Record<string, string>;
}

/**
 * A command-line mistake: `message` is the English line (--json's, and the default); `ja` the same in Japanese, said
 * under --lang ja / a Japanese locale (new-user pass nujp 3: a user who typed --form could not tell what was wrong).
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly ja?: string,
  ) {
    super(message);
  }
}

/** The mistake of a command that takes one input file and was given none or several. */
export function oneInputError(): UsageError {
  return new UsageError('give exactly one input file', '入力ファイルを 1 つだけ指定してください');
}

/** The mistake of a command whose -o was left out. */
export function outputRequired(): UsageError {
  return new UsageError('-o OUT is required', '-o で出力ファイルを指定してください');
}

/** Short options every command takes where it has the long one (COMMON_HELP lists them). */
export const SHORT_OPTIONS: Readonly<Record<string, string>> = { o: 'output', q: 'quiet', j: 'jobs', r: 'recursive' };

/**
 * The options many commands share, said once: `COMMAND --help` adds the lines for those its usage names, so each
 * reads the same everywhere (the "never an input" rule of --overwrite was in the README only).
 */
export const COMMON_HELP: readonly { option: string; line: string }[] = [
  { option: '--overwrite', line: '  --overwrite      replace an existing output (without it an existing output is kept: a one-file command fails,\n                   a batch skips it); an input is never replaced' },
  { option: '--json', line: '  --json           the result as one line of JSON on standard output, {"ok": true, …}; a failure is\n                   {"ok": false, "error": {"code", "message", "offset"}} (README lists the codes)' },
  { option: '--quiet', line: '  -q, --quiet      no summary line (and no progress); warnings and errors still go to standard error' },
  { option: '--recursive', line: '  -r, --recursive  include sub-folders' },
  { option: '--jobs', line: '  -j, --jobs N     worker threads' },
];

/**
 * The common lines for the options `usage` names (none when it names none), except those it explains on a line
 * of its own (convert's --overwrite keeps a backup: the common line would contradict it).
 */
export function commonHelp(usage: string): string {
  const own = (o: string) => new RegExp(`^\\s+(-\\w, )?${o}\\b`, 'm').test(usage);
  const lines = COMMON_HELP.filter((c) => new RegExp(`${c.option}\\b`).test(usage) && !own(c.option)).map((c) => c.line);
  return lines.length ? `\nCommon options:\n${lines.join('\n')}` : '';
}

export function parseArgs(argv: string[], spec: ArgSpec): ParsedArgs {
  const values: Record<string, string[]> = {};
  const flags = new Set<string>();
  const positionals: string[] = [];
  const takesValue = new Set(spec.values ?? []);
  const isFlag = new Set(spec.flags ?? []);
  // The short options mean the same in every command that has the long one (-q was --quiet in mirror but an
  // unknown option in convert): a command's own aliases come on top.
  const aliases: Record<string, string> = { ...SHORT_OPTIONS, ...(spec.aliases ?? {}) };
  for (const [k, v] of Object.entries(SHORT_OPTIONS)) if (!takesValue.has(v) && !isFlag.has(v) && spec.aliases?.[k] === undefined) delete aliases[k];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    let name: string | null = null;
    let inline: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      inline = eq >= 0 ? a.slice(eq + 1) : undefined;
    } else if (a.startsWith('-') && a.length === 2 && !/^-\d/.test(a)) {
      name = aliases[a.slice(1)] ?? a.slice(1);
    }
    if (name === null) {
      positionals.push(a);
      continue;
    }
    name = aliases[name] ?? name;
    if (takesValue.has(name)) {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`option --${name} needs a value`, `--${name} には値を指定してください`);
      (values[name] ??= []).push(v);
    } else if (isFlag.has(name)) {
      if (inline !== undefined) throw new UsageError(`option --${name} takes no value`, `--${name} には値を付けません`);
      flags.add(name);
    } else {
      throw new UsageError(`unknown option ${a}`, `「${a}」というオプションはありません`);
    }
  }
  return { positionals, values, flags };
}

/** The last value of an option, or undefined. */
export function optValue(p: ParsedArgs, name: string): string | undefined {
  const v = p.values[name];
  return v ? v[v.length - 1] : undefined;
}

/** A numeric option; throws UsageError when it is not a number. */
export function optNumber(p: ParsedArgs, name: string, opts: { integer?: boolean; min?: number } = {}): number | undefined {
  const v = optValue(p, name);
  if (v === undefined) return undefined;
  const n = parseDecimal(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${v}"`, `--${name} には数値を指定してください（「${v}」が指定されました）`);
  if (opts.integer && !Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number, got "${v}"`, `--${name} には整数を指定してください（「${v}」が指定されました）`);
  if (opts.min !== undefined && n < opts.min) throw new UsageError(`--${name} must be at least ${opts.min}, got "${v}"`, `--${name} は ${opts.min} 以上にしてください（「${v}」が指定されました）`);
  return n;
}
