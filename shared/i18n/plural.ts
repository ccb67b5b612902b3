/**
 * English counts in the messages the engines, the CLI and the services write (the app's own texts go
 * through the renderer's translations, with `{n|one|many}`): singular for one, so a report says
 * "1 camera cut was lost" and "3 camera cuts were lost", never "cut(s)".
 */

/**
 * A count as a person reads it: a whole number grouped by thousands ("3,016"), as the CLI's summary lines and the
 * string table's {n} write counts (shared/i18n/strings.ts COUNT_PARAMS), so a warning's English line reads as its
 * Japanese does. Frame numbers, byte offsets and line numbers are not counts: written as they are.
 */
export function count(n: number): string {
  return Number.isInteger(n) && Math.abs(n) >= 1000 ? n.toLocaleString('en-US') : String(n);
}

/** A count with its noun, singular for one (`1 frame`, `0 frames`, `2 frames`); `many`: the plural where not noun + s. */
export function plural(n: number | string, noun: string, many = `${noun}s`): string {
  return `${n} ${Math.abs(Number(n)) === 1 ? noun : many}`;
}

/** The verb that goes with a count: `one` for 1, else `many` ("was"/"were", "has"/"have"). */
export function agree(n: number, one: string, many: string): string {
  return Math.abs(n) === 1 ? one : many;
}
