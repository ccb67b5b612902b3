/**
 * The contract over HTTP + server-sent events, for the browser mode (electron/server/server.ts).
 * Same interface as the Electron preload, so nothing above this file knows which one it talks to.
 */
import {
  EVENT_NAMES,
  REQUEST_NAMES,
  subscribeNameOf,
  type EventName,
  type Events,
  type IpcResult,
  type RequestName,
  type Requests,
  type VmdStudioApi,
} from '../../../shared/ipc/contract';
import { FRAME_CONTENT_TYPE, decodeFrame, encodeWire, fromWireJson, isFrameContentType } from './wire';
import { pageTurns } from './page-turns';

/** The largest settings request sent as keepalive (characters of JSON; the browser's budget is 64 KiB for all). */
const KEEPALIVE_MAX_CHARS = 16 * 1024;

/**
 * A frame at least this big is copied into its request body a slice at a time, giving the page a turn between
 * slices: a Blob copies its parts when made, and 66.6 MB (a 600,000-key motion's recovery copy or Save) copied at
 * once held the page for hundreds of ms. The bytes sent must not change meanwhile (they are values the caller made).
 */
const SLICED_FRAME_BYTES = 4 << 20;
const FRAME_SLICE_BYTES = 1 << 20;
/** Main-thread time the body's copy may take before the page gets a turn. */
const FRAME_SLICE_MS = 8;

/** A big frame's request body: its chunks in one Blob, made in slices (see SLICED_FRAME_BYTES). */
async function frameBlobInSlices(chunks: readonly Uint8Array[]): Promise<Blob> {
  // A Blob made of Blobs refers to them without copying: only each slice is copied, once.
  const parts: Blob[] = [];
  const turn = pageTurns(FRAME_SLICE_MS);
  for (const c of chunks) {
    for (let a = 0; a < c.byteLength; a += FRAME_SLICE_BYTES) {
      parts.push(new Blob([c.subarray(a, Math.min(c.byteLength, a + FRAME_SLICE_BYTES))] as BlobPart[]));
      await turn();
    }
  }
  return new Blob(parts);
}

export interface HttpClientOptions {
  /** Server origin; default the page's. */
  base?: string;
  token: string;
  fetch?: typeof fetch;
  EventSource?: typeof EventSource;
}

/** This page's id for the server: 16 random bytes as base64url. */
function newClientId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function createHttpApi(o: HttpClientOptions): VmdStudioApi {
  const base = o.base ?? '';
  // The page names itself on its event stream and its calls: the server aborts the exports of a page whose stream
  // is gone (closed or reloaded mid-render), so no temp file is left in the output folder (server.ts).
  const client = newClientId();
  const doFetch = o.fetch ?? fetch.bind(globalThis);
  const call = async (name: RequestName, args: unknown[]): Promise<IpcResult<unknown>> => {
    // An export is tied to this page's event stream (it ends when the page goes away): open it if nothing has yet.
    if (name === 'beginExportFile') ensureSource();
    // Trailing undefined optional arguments would become null in JSON; drop them.
    while (args.length && args[args.length - 1] === undefined) args = args.slice(0, -1);
    // Bytes (saveFile) go as a frame: a Blob of the chunks, so the file's bytes are never turned into text.
    const body = encodeWire({ args });
    // A settings change goes as a keepalive fetch: the browser finishes it after the page is gone (the settings
    // store sends what it still holds when the page unloads: stores/settings.ts flush). Keepalive bodies share a
    // 64 KiB budget; past it (or refused) the request goes as an ordinary one.
    const keepalive = name === 'setSettings' && body.kind === 'json' && body.text.length <= KEEPALIVE_MAX_CHARS;
    // A small frame's Blob is made at once (so requests go out in the order they were made, as before); a big one
    // in slices.
    const blob = body.kind === 'json' ? null : body.byteLength < SLICED_FRAME_BYTES ? new Blob(body.chunks as BlobPart[]) : await frameBlobInSlices(body.chunks);
    const post = (keep: boolean) =>
      doFetch(`${base}/api/call/${name}`, {
        method: 'POST',
        headers: { 'content-type': body.kind === 'json' ? 'application/json' : FRAME_CONTENT_TYPE, 'x-vmd-token': o.token, 'x-vmd-client': client },
        body: body.kind === 'json' ? body.text : blob!,
        ...(keep ? { keepalive: true } : {}),
      });
    let res: Response;
    try {
      res = await post(keepalive).catch((e) => (keepalive ? post(false) : Promise.reject(e)));
    } catch (e) {
      return { ok: false, error: { code: 'E_IO', message: `the VMD Studio server is not reachable (${(e as Error)?.message ?? e})` } };
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      return { ok: false, error: { code: res.status === 401 ? 'E_IO_DENIED' : 'E_IO', message: `server refused ${name}: ${res.status} ${text.trim()}` } };
    }
    try {
      if (isFrameContentType(res.headers.get('content-type'))) {
        // One buffer for the whole answer; the bytes in the value are views into it.
        const r = decodeFrame(new Uint8Array(await res.arrayBuffer()));
        if (!r.ok) return { ok: false, error: { code: 'E_IO', message: `bad answer to ${name}: ${r.error.message}` } };
        return r.value as IpcResult<unknown>;
      }
      return fromWireJson(await res.text()) as IpcResult<unknown>;
    } catch (e) {
      return { ok: false, error: { code: 'E_IO', message: `the answer to ${name} did not arrive (${(e as Error)?.message ?? e})` } };
    }
  };

  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  let source: EventSource | null = null;
  const ensureSource = () => {
    if (source) return;
    const ES = o.EventSource ?? globalThis.EventSource;
    if (!ES) return;
    source = new ES(`${base}/api/events?token=${encodeURIComponent(o.token)}&client=${client}`);
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (ev) => {
        const payload = fromWireJson((ev as MessageEvent<string>).data);
        listeners.get(name)?.forEach((l) => l(payload));
      });
    }
  };

  const api: Record<string, unknown> = {};
  for (const name of REQUEST_NAMES) api[name] = (...args: unknown[]) => call(name, args);
  for (const name of EVENT_NAMES) {
    api[subscribeNameOf(name)] = (listener: (p: Events[typeof name]) => void) => {
      ensureSource();
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    };
  }
  // A dropped File has no path in a browser: the caller reads its bytes instead.
  api.getPathForFile = () => null;
  return api as unknown as Requests & VmdStudioApi;
}
