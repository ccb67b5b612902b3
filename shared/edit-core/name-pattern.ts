/**
 * Name patterns, the bone/morph selectors that the curve presets, the fitting ops and the batch form share,
 * and the shape of an option text's refusal (an `ArgumentError` naming its problem).
 */
import type { ArgumentError, Outcome } from '../vmd/errors';

/** What is wrong with a name pattern (the app's string is `opt.pattern`). */
export type PatternProblem = 'pattern';

/** An option text's refusal: its problem (the app's string `opt.<problem>`), the CLI's message and the values named. */
export function argumentError<P extends string>(problem: P, message: string, params: Record<string, string | number> = {}): { ok: false; error: ArgumentError<P> } {
  return { ok: false, error: { code: 'E_ARGUMENT', message, problem, params } };
}

/**
 * A name pattern: "/regex/" or comma-separated globs with * and ? (e.g. "左*,右*"). Matched against
 * the whole decoded name.
 */
export function namePattern(spec: string): Outcome<(name: string) => boolean, ArgumentError<PatternProblem>> {
  const m = /^\/(.*)\/([iu]*)$/.exec(spec);
  if (m) {
    try {
      const re = new RegExp(m[1], m[2]);
      return { ok: true, value: (n) => re.test(n) };
    } catch (e) {
      return argumentError('pattern', `bad regular expression ${spec}: ${(e as Error).message}`, { value: spec });
    }
  }
  const globs = spec.split(',').map((g) => g.trim()).filter(Boolean);
  const res = globs.map((g) => new RegExp('^' + g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', 'u'));
  return { ok: true, value: (n) => res.some((r) => r.test(n)) };
}
