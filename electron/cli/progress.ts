/**
 * Progress of a one-file command that can take seconds (reduce, bake, speed --refit, physics-bake, retarget,
 * import-bvh, mirror and merge on a large motion), on stderr as batch shows its own (batch.ts): on a terminal one line redrawn in
 * place ("reduce: 27 / 172 tracks, 4 s") and erased at the end; into a file or pipe a plain line at most every second, and only once
 * the work has run that long, so a quick run (and every script that reads stderr for warnings) sees nothing.
 * Nothing under --quiet. --json keeps it: the JSON is on stdout, which progress never touches.
 */
import type { CliIo } from './io';
import { formatCount as group } from './format';

/** How often a plain (not a terminal) progress line is printed, as batch prints its own (main.ts gives it). */
export const PLAIN_EVERY_MS = 1000;
/** How often the terminal line is redrawn: often enough to move, not so often that drawing costs. */
const TTY_EVERY_MS = 100;

export interface CliProgress {
  /** `done` of `total` (tracks, or steps when `unit` is null: then a percentage is shown). */
  tell: (done: number, total: number) => void;
  /**
   * The work is over: a terminal's line is erased (the summary that follows says the result; a quick run leaves
   * nothing behind); into a file, the last figures, where a line was printed.
   */
  end: () => void;
}

/**
 * A progress reporter for `label` (the command's name). `unit`: what `done` and `total` count ("tracks"), or
 * null for steps of unlike work (physics-bake: simulate, fit, measure), shown as a percentage.
 * Silent without `io.progressEveryMs` (the plain lines' interval: main.ts gives PLAIN_EVERY_MS; tests 0).
 */
export function cliProgress(io: CliIo, label: string, unit: string | null, quiet: boolean, now: () => number = () => performance.now()): CliProgress {
  if (quiet || io.progressEveryMs === undefined) return { tell: () => {}, end: () => {} };
  const start = now();
  const plainEvery = io.progressEveryMs;
  const ttyEvery = Math.min(io.progressEveryMs, TTY_EVERY_MS);
  let lastAt = -Infinity;
  let lastLine = '';
  let drew = false;
  let latest: { done: number; total: number } | null = null;
  const line = (done: number, total: number, ms: number) => {
    const count = unit === null ? `${total > 0 ? Math.floor((100 * done) / total) : 100}%` : `${group(done)} / ${group(total)} ${unit}`;
    return `${label}: ${count}, ${Math.floor(ms / 1000)} s`;
  };
  const show = (done: number, total: number, t: number) => {
    const text = line(done, total, t - start);
    if (text === lastLine) return;
    lastLine = text;
    lastAt = t;
    // The line holds the command's name and numbers only (never a file's text): it may go out unescaped.
    if (io.isTTY) (io.terminal ?? io.stderr)(`\r${text}\x1b[K`);
    else io.stderr(`${text}\n`);
    drew = true;
  };
  return {
    tell(done, total) {
      latest = { done, total };
      const t = now();
      if (io.isTTY ? t - lastAt >= ttyEvery : t - start >= plainEvery && t - lastAt >= plainEvery) show(done, total, t);
    },
    end() {
      if (!drew) return;
      drew = false;
      if (io.isTTY) (io.terminal ?? io.stderr)('\r\x1b[K');
      else if (latest) show(latest.done, latest.total, now());
    },
  };
}
