/**
 * The browser-mode server in a process of its own (server-load-child.ts, bundled with esbuild into a temp
 * folder), so a test can read that process's resident memory: the load and bounds tests start it here.
 * Every wait is bounded.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

export interface ServerChild {
  /** The temp folder the server's settings and files live in. */
  dir: string;
  child: ChildProcess;
  port: number;
  token: string;
  /** The child's next message (20 s at most). */
  nextMessage<T>(): Promise<T>;
  /**
   * Its resident memory now and at its peak ('reset' starts a new peak), and what its JavaScript holds
   * after a GC: V8's heap in use and the memory outside it (Buffers' ArrayBuffers among it).
   */
  memory(what?: 'rss' | 'reset'): Promise<ServerMemory>;
  /** Stops it (10 s, then SIGKILL) and removes the folder. */
  stop(): Promise<void>;
}

export interface ServerMemory {
  rss: number;
  peak: number;
  heapUsed: number;
  external: number;
}

export async function startServerChild(prefix: string, args: string[]): Promise<ServerChild> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const script = path.join(dir, 'server-child.mjs');
  await build({
    entryPoints: [path.resolve('test/electron/server-load-child.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    external: ['electron'],
  });
  const child = fork(script, [dir, ...args], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const nextMessage = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the server process did not answer')), 20_000);
      child.once('message', (m) => {
        clearTimeout(t);
        resolve(m as T);
      });
    });
  const hello = await nextMessage<{ port: number; token: string }>();
  return {
    dir,
    child,
    port: hello.port,
    token: hello.token,
    nextMessage,
    memory(what = 'rss') {
      const answer = nextMessage<ServerMemory>();
      child.send(what);
      return answer;
    },
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.disconnect();
        await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000).unref())]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
