/**
 * `npm run serve`: the browser mode. Starts the server on 127.0.0.1 and prints the URL (with its token).
 *
 *   node dist/electron/serve.mjs [--port N] [--settings-dir DIR] [--static-dir DIR] [--open] [FILE…]
 *
 * FILEs are opened in the first window that connects (like a double-click on them).
 * Prints `VMD Studio is running at <url>` on stdout, then serves until SIGINT/SIGTERM.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { noDialogs } from '../services/dialog-service';
import { createServices } from '../services';
import { runBatch } from '../batch/engine';
import { startServer, type RunningServer } from './server';
import { defaultSettingsDir } from './paths';
import type { Events } from '../../shared/ipc/contract';
import { APP_NAME, APP_VERSION } from '../services/app-version';

interface ServeArgs {
  port: number;
  settingsDir: string;
  staticDir: string;
  open: boolean;
  files: string[];
}

export function parseServeArgs(argv: string[], here: string): ServeArgs | string {
  const out: ServeArgs = { port: 0, settingsDir: defaultSettingsDir(), staticDir: path.resolve(here, '../renderer'), open: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--port') {
        const p = Number(value());
        if (!Number.isInteger(p) || p < 0 || p > 65535) return `--port: not a port number`;
        out.port = p;
      } else if (a === '--settings-dir') out.settingsDir = path.resolve(value());
      else if (a === '--static-dir') out.staticDir = path.resolve(value());
      else if (a === '--open') out.open = true;
      else if (a === '--help' || a === '-h') return 'usage: serve [--port N] [--settings-dir DIR] [--static-dir DIR] [--open] [FILE…]';
      else if (a.startsWith('--')) return `unknown option ${a}`;
      else out.files.push(path.resolve(a));
    } catch (e) {
      return (e as Error).message;
    }
  }
  return out;
}

/** Opens a URL in the default browser when the OS has an opener; false if none could be started. */
export function openInBrowser(url: string): boolean {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '""', url] : [url];
  // spawn reports a missing program only asynchronously; look it up first so we can say so.
  if (process.platform === 'linux' && !(process.env.PATH ?? '').split(path.delimiter).some((d) => d && existsSync(path.join(d, cmd)))) return false;
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const args = parseServeArgs(process.argv.slice(2), here);
  if (typeof args === 'string') {
    process.stderr.write(args + '\n');
    process.exit(2);
  }
  let server: RunningServer | null = null;
  const services = createServices({
    settingsDir: args.settingsDir,
    dialogs: noDialogs,
    emit: <E extends keyof Events>(e: E, p: Events[E]) => server?.emit(e, p),
    runBatch,
    appInfo: {
      name: APP_NAME,
      version: APP_VERSION,
      mode: 'browser',
      homeDir: os.homedir(),
      versions: { node: process.versions.node, v8: process.versions.v8 },
    },
  });
  server = await startServer({ port: args.port, staticDir: args.staticDir, handlers: services.handlers, onSessionGone: (s) => void services.recovery.end(s) });
  process.stdout.write(`VMD Studio is running at ${server.url}\n`);
  if (args.files.length) {
    const s = server;
    void s.firstClient().then(() => args.files.forEach((f) => s.emit('fileOpened', { path: f })));
  }
  if (args.open && !openInBrowser(server.url)) process.stdout.write('No browser opener found (xdg-open); open that address in a browser.\n');
  const stop = async () => {
    services.batch.idle().catch(() => undefined);
    services.recovery.close();
    await server?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

// Only run as a program (the bundle), not when a test imports parseServeArgs.
if (process.argv[1] && /serve\.(mjs|ts|js)$/.test(process.argv[1])) {
  main().catch((e) => {
    process.stderr.write(`serve: ${(e as Error)?.message ?? e}\n`);
    process.exit(1);
  });
}
