/**
 * The CLI run in this process (electron/cli/main's runCli) with its standard output and error captured:
 * what the command-line tests call instead of spawning a process (those that test signals and exit codes
 * of a real process spawn one).
 */
import { runCli } from '../../electron/cli/main';

export async function runCliCaptured(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd, isTTY: false });
  return { code, out, err };
}
