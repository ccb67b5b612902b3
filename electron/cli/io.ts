/**
 * What a CLI command gets to talk to the world: streams and the working folder, so tests can run
 * commands in-process and capture their output.
 */
import type { Locale } from '../../shared/i18n/locale';

export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  cwd: string;
  /** True when stderr is a terminal (progress bars), false for plain lines. */
  isTTY: boolean;
  /**
   * Cursor control on stderr (the progress bar's carriage return and erase-line), the one output runCli does
   * not escape: never give it text from a file or a file name. Absent, stderr is used.
   */
  terminal?: (s: string) => void;
  /**
   * The command line asks for --json and the command takes it (runCli sets it): a failure is also printed
   * on stdout as a JSON object (edit-output.ts jsonFailure), beside the one-line message on stderr.
   */
  json?: boolean;
  /**
   * How often a one-file command's progress line may be printed into a file or pipe (progress.ts; a terminal's
   * line is redrawn at most every 0.1 s, or this if shorter). The process entry (main.ts) gives 1000; absent,
   * no progress is shown, so that the in-process callers (tests) see stderr as it was unless they ask: 0 there
   * shows every step without a run that lasts seconds.
   */
  progressEveryMs?: number;
  /**
   * The language of the error lines (locale.ts): the process entry's from the environment, `--lang` over it
   * (runCli). Absent, English.
   */
  locale?: Locale;
}

export type Command = (argv: string[], io: CliIo) => Promise<number>;

export interface CommandInfo {
  run: Command;
  /** One line for `vmd-studio --help`. */
  summary: string;
  /** Full usage text for `vmd-studio COMMAND --help`. */
  usage: string;
  /**
   * What a bad argument prints under its error, for a command whose usage is long (batch: the operation's
   * own lines and a pointer to --help, so the error does not scroll away); absent, `usage`.
   */
  usageAfterError?: (argv: string[]) => string;
}
