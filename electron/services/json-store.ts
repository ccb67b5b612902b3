/** A small JSON file in the settings folder, written atomically; unreadable or corrupt files read as the default. */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { atomicWrite, readBytes } from '../fs/files';

/** settings.json and recent.json are a few kB; a file far larger than that is not one of them. */
export const MAX_JSON_STORE_BYTES = 4 * 1024 * 1024;

export async function readJson<T>(file: string, fallback: T): Promise<T> {
  // A regular file of a settings file's size only: a FIFO or a device there must not hold the app's start.
  const r = await readBytes(file, { maxBytes: MAX_JSON_STORE_BYTES });
  if (!r.ok) return fallback;
  try {
    return JSON.parse(new TextDecoder('utf-8').decode(r.value)) as T;
  } catch {
    // Missing on first run, or hand-edited into invalid JSON: start from the default rather than fail.
    return fallback;
  }
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const r = await atomicWrite(file, new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n'), { overwrite: true });
  if (!r.ok) throw new Error(r.error.message);
}

/** Serialises async updates of one file so concurrent requests do not lose writes. */
export function serial(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}
