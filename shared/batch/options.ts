/**
 * Operation options and their errors as values. Options are spelled as on the command line without
 * dashes (`from`, `factor`); values may be strings (CLI) or numbers/booleans (UI). A bad option is an
 * `OptionError`: `E_ARGUMENT` naming the `option` and the `problem`, with the values the problem names
 * in `params`. Its `message` is the CLI's English (`--from must be a number, got "x"`); the app phrases
 * `problem` in its own words with the option's form label (shared/i18n/error-strings.ts, `opt.*`).
 *
 * The option readers below throw `OptionFailure` so that a chain of checks reads straight; whoever
 * validates a whole set of options catches it at its boundary (`checkOptions`) and returns the value.
 */
import type { ArgumentError, Outcome } from '../vmd/errors';
import type { ChannelsProblem, CurveProblem } from '../motion-ops/preset';
import type { MappingProblem } from '../motion-ops/rename';
import type { PatternProblem } from '../edit-core/name-pattern';

export type OpOptions = Record<string, string | number | boolean | string[]>;

/** What is wrong with an option (the UI's string key is `opt.<problem>`). */
export type OptionProblem =
  | 'required'
  | 'number'
  | 'integer'
  | 'min'
  | 'positive'
  | 'boolean'
  | 'order'
  | 'mapFormat'
  | 'invalid'
  // An option's text that its parser refused (motion-ops and edit-core: parseCurveSpec, parseChannels, namePattern, parseMapping).
  | CurveProblem
  | ChannelsProblem
  | PatternProblem
  | MappingProblem;

export interface OptionError extends ArgumentError<OptionProblem> {
  option: string;
  /** `value` (as given), `min`, `other` (the option it is compared with), `detail` (English, for 'invalid'). */
  params: Record<string, string | number>;
}

/** The CLI's English for a problem, naming the option with its dashes. */
function cliText(option: string, problem: OptionProblem, p: Record<string, string | number>): string {
  const o = `--${option}`;
  switch (problem) {
    case 'required':
      return `${o} is required`;
    case 'number':
      return `${o} must be a number, got "${p.value}"`;
    case 'integer':
      return `${o} must be a whole number, got "${p.value}"`;
    case 'min':
      return `${o} must be at least ${p.min}, got "${p.value}"`;
    case 'positive':
      return `${o} must be greater than 0, got ${p.value}`;
    case 'boolean':
      return `${o} must be true or false, got "${p.value}"`;
    case 'order':
      return `${o} (${p.value}) must not be before --${p.other} (${p.min})`;
    case 'mapFormat':
      return `${o} must name a .csv or .json file`;
    case 'invalid':
      return String(p.detail);
    default:
      // A parser's problem: its error carries its own message (see refuseWith).
      return String(p.detail ?? `${o} is not valid`);
  }
}

/**
 * An option error value. `usage` replaces the CLI's line where it says more than the problem does
 * (`--curve is required (linear, ease-in, …)`).
 */
export function optionError(option: string, problem: OptionProblem, params: Record<string, string | number> = {}, usage?: string): OptionError {
  return { code: 'E_ARGUMENT', message: usage ?? cliText(option, problem, params), option, problem, params };
}

/** Thrown only by the option readers here and the checks built on them; caught by `checkOptions`. */
export class OptionFailure extends Error {
  constructor(readonly error: OptionError) {
    super(error.message);
  }
}

/** Throws the option error (inside a `checkOptions` callback). */
export function refuse(option: string, problem: OptionProblem, params: Record<string, string | number> = {}, usage?: string): never {
  throw new OptionFailure(optionError(option, problem, params, usage));
}

/** Throws a parser's error about an option's text as that option's error (inside a `checkOptions` callback). */
export function refuseWith(option: string, e: ArgumentError<OptionProblem>): never {
  throw new OptionFailure({ ...e, option });
}

/** Runs option checks and returns their value, or the first option error as a value. */
export function checkOptions<T>(check: () => T): Outcome<T, OptionError> {
  try {
    return { ok: true, value: check() };
  } catch (e) {
    if (e instanceof OptionFailure) return { ok: false, error: e.error };
    throw e;
  }
}

/** The last value given for an option (the CLI may repeat one). */
function last(o: OpOptions, k: string): string | number | boolean | undefined {
  const v = o[k];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/**
 * A number as people type one: decimal, optional sign, fraction and exponent ("12", "-0.5", "1e-3");
 * NaN for anything else — hex ("0x10"), "Infinity", an empty string — which Number() would take.
 */
export function parseDecimal(text: string): number {
  const t = text.trim();
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : NaN;
}

/** A numeric option, or undefined when not given. */
export function numOpt(o: OpOptions, k: string, what: { integer?: boolean; min?: number; positive?: boolean; required?: boolean; usage?: string } = {}): number | undefined {
  const v = last(o, k);
  if (v === undefined || v === '') {
    if (what.required) refuse(k, 'required', {}, what.usage);
    return undefined;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' ? parseDecimal(v) : NaN;
  if (!Number.isFinite(n)) refuse(k, 'number', { value: String(v) });
  if (what.integer && !Number.isInteger(n)) refuse(k, 'integer', { value: String(v) });
  if (what.positive && !(n > 0)) refuse(k, 'positive', { value: n });
  if (what.min !== undefined && n < what.min) refuse(k, 'min', { min: what.min, value: String(v) });
  return n;
}

export function strOpt(o: OpOptions, k: string): string | undefined {
  const v = last(o, k);
  return v === undefined ? undefined : String(v);
}

export function boolOpt(o: OpOptions, k: string, dflt: boolean): boolean {
  const v = last(o, k);
  if (v === undefined) return dflt;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  return refuse(k, 'boolean', { value: String(v) });
}

/** `to` must not be before `from` (both frame options of one operation). */
export function checkOrder(from: number | undefined, to: number | undefined): void {
  if (from !== undefined && to !== undefined && to < from) refuse('to', 'order', { value: to, other: 'from', min: from });
}
