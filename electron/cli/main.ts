/**
 * The `vmd-studio` command line. Every command runs on plain Node with the same shared/ codec as the app.
 * Exit status: 0 success, 1 a file failed, 2 bad arguments. Errors are one line on stderr, no stack trace.
 */
import { convertCommand } from './commands/convert';
import { salvageCommand } from './commands/salvage';
import { lipsyncCommand } from './commands/lipsync';
import { inspectCommand } from './commands/inspect';
import { sampleCommand } from './commands/sample';
import { editCommands } from './commands/edit';
import { physicsBakeCommand } from './commands/physics-bake';
import { ikBakeCommand } from './commands/ik-bake';
import { mocapCommands } from './commands/mocap';
import { commonHelp, UsageError } from './args';
import type { CliIo, CommandInfo } from './io';
import { escapeControls } from './format';
import { jsonFailure } from './commands/edit-output';
import { PLAIN_EVERY_MS } from './progress';
import { APP_VERSION } from '../services/app-version';
import { envLocale, takeLangOption, unknownCommand } from './locale';

export const commands: Record<string, CommandInfo> = {
  inspect: inspectCommand,
  sample: sampleCommand,
  convert: convertCommand,
  salvage: salvageCommand,
  ...editCommands,
  'physics-bake': physicsBakeCommand,
  'ik-bake': ikBakeCommand,
  ...mocapCommands,
  lipsync: lipsyncCommand,
};

/** The app's version (package.json's, as the app and the server say it). */
const VERSION = APP_VERSION;

export function helpText(): string {
  const names = Object.keys(commands);
  const w = Math.max(...names.map((n) => n.length));
  return (
    `vmd-studio ${VERSION} — MikuMikuDance VMD motion and VPD pose files\n\n` +
    `Usage: vmd-studio COMMAND [options]   (vmd-studio COMMAND --help, or vmd-studio help COMMAND, for details)\n\nCommands:\n` +
    names.map((n) => `  ${n.padEnd(w)}  ${commands[n].summary}`).join('\n') +
    '\n\n  vmd-studio --version (-v) prints the version; vmd-studio --help (-h) this text.\n' +
    '  --lang ja|en (any command): error lines in Japanese or English (default: Japanese where LC_ALL, LC_MESSAGES\n' +
    '  or LANG starts with "ja", or on Windows set to Japanese; else English). Error lines, warnings and command-line\n' +
    '  mistakes follow it; usage, reports and --json stay English.\n' +
    '  （--lang ja：エラー・警告・コマンドラインの誤りを日本語で表示します。使い方、レポート、--json は英語のままです）\n' +
    '\nExit status: 0 success; 1 a file failed (an input missing, unreadable, damaged or of the wrong kind, an output\n' +
    'that exists or cannot be written; a batch: some file failed); 2 a bad command line (nothing read or written);\n' +
    '130 / 143 after Ctrl+C / SIGTERM. Errors under --json carry a code (E_…): README lists them.\n'
  );
}

/**
 * Runs one command line; returns the exit status. Never throws. Every line it prints has its control
 * characters escaped (escapeControls): file names and the names inside files reach the terminal as text.
 */
export async function runCli(argvIn: string[], raw: CliIo): Promise<number> {
  // `--lang ja|en` anywhere before "--", for every command: the language of the error lines (locale.ts).
  const { lang, rest: argv } = takeLangOption(argvIn);
  if (lang === null) {
    raw.stderr('vmd-studio: --lang takes ja or en\n');
    return 2;
  }
  const io: CliIo = {
    ...raw,
    locale: lang ?? raw.locale,
    stdout: (s) => raw.stdout(escapeControls(s)),
    stderr: (s) => raw.stderr(escapeControls(s)),
    terminal: raw.terminal ?? raw.stderr,
  };
  const [name, ...rest] = argv;
  // `help CMD` is `CMD --help`.
  if (name === 'help' && rest.length > 0) {
    const topic = commands[rest[0]];
    if (!topic) {
      io.stderr(unknownCommand(rest[0], io.locale));
      return 2;
    }
    io.stdout(topic.usage + commonHelp(topic.usage) + '\n');
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(VERSION + '\n');
    return 0;
  }
  const cmd = commands[name];
  if (!cmd) {
    io.stderr(unknownCommand(name, io.locale));
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(cmd.usage + commonHelp(cmd.usage) + '\n');
    return 0;
  }
  // --json among the options (not after "--"), to a command that takes it: failures as JSON on stdout too.
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  const cmdIo: CliIo = { ...io, json: cmd.usage.includes('--json') && options.includes('--json') };
  try {
    return await cmd.run(rest, cmdIo);
  } catch (e) {
    if (e instanceof UsageError) {
      jsonFailure(cmdIo, { code: 'E_ARGUMENT', message: e.message });
      // The mistake in the user's language where it has a Japanese line; the usage after it stays English (--help).
      io.stderr(`vmd-studio ${name}: ${io.locale === 'ja' && e.ja ? e.ja : e.message}\n${cmd.usageAfterError?.(rest) ?? cmd.usage}\n`);
      return 2;
    }
    jsonFailure(cmdIo, { code: 'E_INTERNAL', message: `internal error: ${(e as Error)?.message ?? String(e)}` });
    io.stderr(`vmd-studio ${name}: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 1;
  }
}

const isEntry = typeof process !== 'undefined' && process.argv[1] !== undefined && /(cli\.mjs|vmd-studio(\.mjs)?)$/.test(process.argv[1]);
if (isEntry) {
  // A reader that stops early (`vmd-studio inspect … | head`) closes the pipe: the rest of the output has
  // nowhere to go. It is dropped and the command finishes (a batch still writes its files), instead of
  // Node's unhandled EPIPE and its stack trace.
  let stdoutGone = false;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    stdoutGone = true;
  });
  runCli(process.argv.slice(2), {
    stdout: (s) => void (stdoutGone || process.stdout.write(s)),
    stderr: (s) => process.stderr.write(s),
    cwd: process.cwd(),
    isTTY: Boolean(process.stderr.isTTY),
    progressEveryMs: PLAIN_EVERY_MS,
    locale: envLocale(process.env, process.platform, () => Intl.DateTimeFormat().resolvedOptions().locale),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`vmd-studio: internal error: ${(e as Error)?.message ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
