/**
 * The browser mode's server: serves the built renderer and the contract on 127.0.0.1.
 *
 *   GET  /…                      static files from the renderer build (no secrets in them)
 *   POST /api/call/<request>     header X-VMD-Token; body {"args":[…]} as application/json, or as a binary
 *                                frame (shared/ipc/wire-frame.ts) when an argument is bytes (saveFile)
 *                                → the IpcResult, as JSON, or as a frame when it holds bytes (openFile)
 *   GET  /api/events?token=…     server-sent events: `event: <name>` + JSON payload
 *
 * A page names itself (a random id, `client=` on its event stream, header X-VMD-Client on its calls): a video or a
 * PNG export it began is aborted (its temp file removed) when its page goes away, i.e. its event stream closes and
 * does not come back within CLIENT_GONE_MS. Before, a tab closed or reloaded during a render left the export's
 * temp file in the output folder until a later save there swept it (new-user pass nuchaos, finding 7). Another
 * tab's exports go on. The recovery sessions it began (beginRecovery) end then too (ServerOptions.onSessionGone): only
 * then are its unsaved documents' recovery copies offered to another page.
 *
 * Defences: bound to 127.0.0.1 only; the Host header must name this server (DNS rebinding); an Origin
 * or Sec-Fetch-Site that is not this server is refused; every API call needs the random token, which
 * only the URL printed at start carries. Requests reach the same service modules the Electron IPC uses.
 *
 * Even a token holder cannot exhaust it:
 * - A body is bounded by what its request can use: a save carries one file (saveFile a motion,
 *   MAX_MOTION_FILE_BYTES; saveScene a scene, MAX_SCENE_FILE_BYTES) and only as a binary frame, never as
 *   JSON (a JSON array of 134 million zeros killed the process); every other request is small JSON,
 *   MAX_JSON_BODY_BYTES. A frame holds only the parts its JSON asks for.
 * - The bodies held at once, all requests together, are bounded too (MAX_BODIES_BYTES): a request whose
 *   body would pass that waits, unread, until earlier ones are done (or its time runs out).
 * - Headers must arrive within HEADERS_TIMEOUT_MS and the whole request within REQUEST_TIMEOUT_MS.
 * - Sockets come in two pools. One that has not yet carried the token (a new one, a page's static
 *   files, anyone on the machine) is unauthenticated: at most MAX_UNAUTHENTICATED of those are open (a
 *   new one closes the oldest) and each is closed after UNAUTHENTICATED_IDLE_MS without a request in
 *   progress. A socket that carried the token joins the other pool, at most MAX_CONNECTIONS (a new one
 *   closes the one idle longest; 503 only when all are busy), and is kept open between requests for
 *   AUTHENTICATED_IDLE_MS: a local process without the token cannot hold the slots an authenticated page
 *   needs, nor make it connect anew.
 */
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { EVENT_NAMES, type Events, type RequestHandlers } from '../../shared/ipc/contract';
import { MAX_EXPORT_CHUNK_BYTES, MAX_MAP_BYTES, MAX_MOTION_FILE_BYTES, MAX_SCENE_FILE_BYTES } from '../../shared/ipc/validate';
import { dispatch } from '../services';
import { readBytes } from '../fs/files';
import { FRAME_CONTENT_TYPE, decodeFrame, encodeWire, isFrameContentType, toWireJson } from './wire';

export interface ServerOptions {
  /** 0 (default) = a random free port. */
  port?: number;
  /** Folder with index.html and assets/ (the renderer build). */
  staticDir: string;
  handlers: RequestHandlers;
  /** Fixed token (tests); default = 32 random bytes. */
  token?: string;
  /** Largest accepted saveFile body (its bytes travel raw in a frame); default: the largest motion file plus room for the path. */
  maxBodyBytes?: number;
  /** Largest accepted saveScene body; default: the largest scene file plus room for the path. */
  maxSceneBodyBytes?: number;
  /** Bodies held at once, all requests together; default MAX_BODIES_BYTES (at least the largest single body). */
  maxBodiesBytes?: number;
  /** Largest body of any other request (they carry paths and small objects); default MAX_JSON_BODY_BYTES. */
  maxJsonBytes?: number;
  /** Time for a request's headers to arrive; default HEADERS_TIMEOUT_MS. */
  headersTimeoutMs?: number;
  /** Time for a whole request (headers and body) to arrive; default REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
  /** Authenticated sockets open at once (event streams included); default MAX_CONNECTIONS. */
  maxConnections?: number;
  /** Unauthenticated sockets open at once; default MAX_UNAUTHENTICATED. */
  maxUnauthenticated?: number;
  /** How long an unauthenticated socket may sit without a request in progress; default UNAUTHENTICATED_IDLE_MS. */
  unauthenticatedIdleMs?: number;
  /** How long an authenticated socket is kept open between requests (keep-alive); default AUTHENTICATED_IDLE_MS. */
  authenticatedIdleMs?: number;
  /** How long a page's exports outlive its event stream before they are aborted; default CLIENT_GONE_MS. */
  clientGoneMs?: number;
  /**
   * A page's recovery session (beginRecovery) ended: its page is gone (its event stream closed and did not come back
   * within clientGoneMs). Its recovery copies stay, for the next page to offer (services/recovery-service.ts).
   */
  onSessionGone?: (session: string) => void;
}

/** Every request but saveFile is a few paths and options: 1 MiB is a thousand times what they need. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** A save's frame beyond the file itself: the JSON (a path of up to 4096 characters, options) and a prefix. */
const SAVE_ARGS_ROOM = 64 * 1024;
export const HEADERS_TIMEOUT_MS = 10_000;
/** A 256 MiB save crosses the loopback in about a second; 30 s leaves room for a slow machine. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** A browser opens about six connections per host, plus one event stream per window. */
export const MAX_CONNECTIONS = 64;
/** Sockets that have not shown the token: a page's first connections and its static files need a few. */
export const MAX_UNAUTHENTICATED = 16;
/**
 * A page's event stream closed: its exports are aborted after this long unless the stream is back (EventSource
 * reconnects within a few seconds when only its connection dropped; a closed or reloaded page never does).
 */
export const CLIENT_GONE_MS = 10_000;
/** What a page's id may be (http-client.ts makes 22 base64url characters). */
const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A page sends its request as soon as it connects; a socket that says nothing for this long is dropped. */
export const UNAUTHENTICATED_IDLE_MS = 2000;
/**
 * A page's connections that carried the token stay open this long between requests, so the page keeps
 * its way in while the unauthenticated pool is crowded (Node's default, 5 s, made it connect anew).
 */
export const AUTHENTICATED_IDLE_MS = 120_000;
/** Two of the largest saves at once; a third waits its turn. */
export const MAX_BODIES_BYTES = 2 * (MAX_MOTION_FILE_BYTES + SAVE_ARGS_ROOM);

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  /** Pushes an event to every connected window. */
  emit<E extends keyof Events>(event: E, payload: Events[E]): void;
  /** Number of connected event streams. */
  clients(): number;
  /** Resolves when a window has connected its event stream (so pushed events will arrive). */
  firstClient(): Promise<void>;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

/** The largest file of the renderer build served (its biggest script is a few MB). */
const MAX_STATIC_BYTES = 64 * 1024 * 1024;

/**
 * Same policy as renderer/index.html's meta tag, plus what only a header can say. 'wasm-unsafe-eval' lets the page
 * and its workers compile WebAssembly (Bullet's wasm, renderer/src/physics/bullet-web.ts) and nothing else.
 */
export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

function tokenMatches(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const token = o.token ?? randomBytes(32).toString('base64url');
  const maxSaveBody = o.maxBodyBytes ?? MAX_MOTION_FILE_BYTES + SAVE_ARGS_ROOM;
  const maxSceneBody = Math.min(o.maxSceneBodyBytes ?? MAX_SCENE_FILE_BYTES + SAVE_ARGS_ROOM, maxSaveBody);
  const maxJsonBody = Math.min(o.maxJsonBytes ?? MAX_JSON_BODY_BYTES, maxSaveBody);
  const maxBodies = Math.max(o.maxBodiesBytes ?? MAX_BODIES_BYTES, maxSaveBody);
  /** The requests whose body carries a file: only as a frame, bounded by that file's limit. */
  // A mocap import carries its capture's bytes, an export its motion's (each at most a motion file); a map file is small.
  const SAVES: Record<string, number> = {
    saveFile: maxSaveBody,
    saveScene: maxSceneBody,
    writeExportChunk: MAX_EXPORT_CHUNK_BYTES + SAVE_ARGS_ROOM,
    importMocap: maxSaveBody,
    exportMocap: maxSaveBody,
    saveMapFile: Math.min(MAX_MAP_BYTES + SAVE_ARGS_ROOM, maxSaveBody),
    // An autosave's copy: the bytes Save would write, at most one motion file.
    keepRecoveryCopy: maxSaveBody,
  };
  /** What a request can use: a save its file (as a frame); anything else, and anything as JSON, small JSON. */
  const bodyLimitFor = (request: string, frame: boolean) => (frame && Object.prototype.hasOwnProperty.call(SAVES, request) ? SAVES[request] : maxJsonBody);
  const staticRoot = path.resolve(o.staticDir);
  const streams = new Set<http.ServerResponse>();
  let port = 0;
  let clientWaiters: (() => void)[] = [];
  /** Per page id: its open event streams, the exports it began and has not finished or aborted, its pending abort. */
  const pages = new Map<string, { streams: number; exports: Set<string>; sessions: Set<string>; gone: NodeJS.Timeout | null }>();
  const pageOf = (id: string) => {
    let p = pages.get(id);
    if (!p) pages.set(id, (p = { streams: 0, exports: new Set(), sessions: new Set(), gone: null }));
    return p;
  };
  const clientGoneMs = o.clientGoneMs ?? CLIENT_GONE_MS;
  const clientOf = (v: string | string[] | null | undefined) => (typeof v === 'string' && CLIENT_ID.test(v) ? v : null);
  /** The page's stream closed: abort its exports unless a stream of it is open again by then. */
  const pageClosed = (id: string) => {
    const p = pageOf(id);
    if (--p.streams > 0 || p.gone) return;
    p.gone = setTimeout(() => {
      p.gone = null;
      if (p.streams > 0) return;
      const ids = [...p.exports];
      pages.delete(id);
      for (const e of ids) void dispatch(o.handlers, 'abortExportFile', [e]).catch(() => undefined);
      for (const s of p.sessions) o.onSessionGone?.(s);
    }, clientGoneMs);
    p.gone.unref?.();
  };
  /** Keeps the page's list of exports: begun (ok) adds, finished or aborted removes. */
  const noteExport = (client: string | null, request: string, args: unknown[], result: unknown) => {
    if (!client) return;
    if (request === 'beginRecovery') {
      if ((result as { ok?: boolean })?.ok && typeof args[0] === 'string') pageOf(client).sessions.add(args[0]);
    } else if (request === 'beginExportFile') {
      const r = result as { ok: boolean; value?: { id?: unknown } };
      if (r?.ok && typeof r.value?.id === 'string') pageOf(client).exports.add(r.value.id);
    } else if ((request === 'finishExportFile' || request === 'abortExportFile') && typeof args[0] === 'string') pages.get(client)?.exports.delete(args[0]);
  };

  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);

  const refuse = (res: http.ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(message + '\n');
  };

  /** Null when the request may proceed, else why not. */
  const checkOrigin = (req: http.IncomingMessage): string | null => {
    const host = req.headers.host ?? '';
    if (!allowedHosts().includes(host.toLowerCase())) return `host "${host}" refused`;
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().includes(origin.toLowerCase())) return `origin "${origin}" refused`;
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return `cross-site request refused (${site})`;
    return null;
  };

  const serveStatic = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      return refuse(res, 400, 'bad path');
    }
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = path.resolve(staticRoot, '.' + rel);
    if (file !== staticRoot && !file.startsWith(staticRoot + path.sep)) return refuse(res, 403, 'outside the app');
    let body: Uint8Array;
    // A regular file of the build only (a link there to a device or a FIFO is not served).
    const r = await readBytes(file, { maxBytes: MAX_STATIC_BYTES });
    if (r.ok) body = r.value;
    else {
      // Browsers ask for a favicon on their own; the renderer build has none.
      if (rel === '/favicon.ico') {
        res.writeHead(204, { 'cache-control': 'max-age=86400' });
        return void res.end();
      }
      return refuse(res, 404, 'not found');
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': body.length,
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
      'cross-origin-resource-policy': 'same-origin',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  /**
   * The budget of body bytes held at once. A request takes its share before its body is read (its
   * Content-Length, or its limit when it has none) and gives it back once answered; one that does not fit
   * waits, unread (the socket's buffers fill and the client stops sending), in order of arrival, until it
   * fits or its request closes.
   */
  let bodiesHeld = 0;
  const budgetWaiters: { need: number; grant: () => void }[] = [];
  const grantWaiting = () => {
    for (let i = 0; i < budgetWaiters.length; ) {
      const w = budgetWaiters[i];
      if (bodiesHeld + w.need > maxBodies) {
        i++;
        continue;
      }
      budgetWaiters.splice(i, 1);
      bodiesHeld += w.need;
      w.grant();
    }
  };
  /** Resolves with the function that gives the share back, or null when the request closed first. */
  const reserveBody = (req: http.IncomingMessage, need: number) =>
    new Promise<(() => void) | null>((resolve) => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        bodiesHeld -= need;
        grantWaiting();
      };
      if (bodiesHeld + need <= maxBodies && budgetWaiters.length === 0) {
        bodiesHeld += need;
        return resolve(release);
      }
      const waiter = { need, grant: () => resolve(release) };
      budgetWaiters.push(waiter);
      req.once('close', () => {
        const i = budgetWaiters.indexOf(waiter);
        if (i >= 0) {
          budgetWaiters.splice(i, 1);
          resolve(null);
        }
      });
    });

  /**
   * The whole body in one buffer, or null once it passes `limit` (reading then stops). With a
   * Content-Length the buffer is allocated once at that size and filled in place: a large save is held
   * once, not once in chunks and again joined.
   */
  const readBody = (req: http.IncomingMessage, limit: number) =>
    new Promise<Buffer | null>((resolve, reject) => {
      let done = false;
      const tooLarge = () => {
        done = true;
        req.removeAllListeners('data');
        req.pause();
        resolve(null);
      };
      const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
      if (declared !== null && !(declared <= limit)) return tooLarge();
      // Its own memory (not the pool's): given back as a whole once the request is done with it.
      const whole = declared !== null ? Buffer.allocUnsafeSlow(declared) : null;
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        if (done) return;
        if (size + c.length > (whole ? whole.length : limit)) return tooLarge();
        if (whole) c.copy(whole, size);
        else chunks.push(c);
        size += c.length;
      });
      req.on('end', () => {
        if (done) return;
        done = true;
        if (whole) resolve(size === whole.length ? whole : whole.subarray(0, size));
        else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      });
      req.on('error', (e) => {
        if (done) return;
        done = true;
        reject(e);
      });
    });

  /** Parses a call's body into its argument list, or says why it cannot (→ 400). */
  const parseArgs = (contentType: string, body: Buffer): { args: unknown[] } | { error: string } => {
    let value: unknown;
    if (isFrameContentType(contentType)) {
      const r = decodeFrame(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
      if (!r.ok) return { error: `bad frame: ${r.error.message}` };
      value = r.value;
    } else {
      try {
        value = JSON.parse(body.toString('utf8'));
      } catch {
        return { error: 'bad JSON' };
      }
    }
    const args = (value as { args?: unknown } | null)?.args;
    if (!Array.isArray(args)) return { error: 'expected a body {"args": [...]}' };
    return { args };
  };

  /** Writes an IpcResult: JSON, or a frame whose bytes go out as they are (no copy, no base64). */
  const sendResult = (res: http.ServerResponse, result: unknown) => {
    const body = encodeWire(result);
    if (body.kind === 'json') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(body.text);
      return;
    }
    res.writeHead(200, { 'content-type': FRAME_CONTENT_TYPE, 'content-length': body.byteLength, 'cache-control': 'no-store' });
    res.cork();
    for (const c of body.chunks) res.write(c);
    res.end();
  };

  /**
   * Every open socket: whether it has carried the token, how many of its requests are in progress, and
   * since when it has had none (a Map keeps them in the order they connected: oldest first).
   */
  const sockets = new Map<Socket, { authed: boolean; busy: number; idleSince: number }>();
  const maxAuthed = o.maxConnections ?? MAX_CONNECTIONS;
  const maxUnauthed = o.maxUnauthenticated ?? MAX_UNAUTHENTICATED;
  const unauthIdleMs = o.unauthenticatedIdleMs ?? UNAUTHENTICATED_IDLE_MS;
  const drop = (s: Socket) => {
    sockets.delete(s);
    s.destroy();
  };
  const onConnection = (s: Socket) => {
    // The unauthenticated pool is full: the oldest goes, so that a page's new connection always gets in.
    let unauthed = 0;
    let oldest: Socket | null = null;
    for (const [x, st] of sockets) {
      if (st.authed) continue;
      unauthed++;
      oldest ??= x;
    }
    if (unauthed >= maxUnauthed && oldest) drop(oldest);
    sockets.set(s, { authed: false, busy: 0, idleSince: performance.now() });
    s.once('close', () => sockets.delete(s));
  };
  /** Unauthenticated sockets without a request in progress are closed after unauthIdleMs. */
  const sweeper = setInterval(() => {
    const now = performance.now();
    for (const [s, st] of sockets) if (!st.authed && st.busy === 0 && now - st.idleSince > unauthIdleMs) drop(s);
  }, Math.max(50, Math.min(500, unauthIdleMs / 4)));
  sweeper.unref();
  /** Marks a request in progress on its socket until its answer is done. */
  const track = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const st = sockets.get(req.socket);
    if (!st) return;
    st.busy++;
    res.once('close', () => {
      st.busy--;
      st.idleSince = performance.now();
    });
  };
  /**
   * Moves a socket that carried the token into the authenticated pool. When that pool is full, the one
   * idle longest of it is closed to make room (a browser opens new connections as pages come and go, and
   * connects again when an idle one is gone); false only when every one of them has a request in progress.
   */
  const promote = (req: http.IncomingMessage): boolean => {
    const st = sockets.get(req.socket);
    if (!st || st.authed) return true;
    let authed = 0;
    let idlest: [Socket, number] | null = null;
    for (const [x, y] of sockets) {
      if (!y.authed) continue;
      authed++;
      if (y.busy === 0 && (!idlest || y.idleSince < idlest[1])) idlest = [x, y.idleSince];
    }
    if (authed >= maxAuthed) {
      if (!idlest) return false;
      drop(idlest[0]);
    }
    st.authed = true;
    return true;
  };

  const headersTimeout = o.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(o.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, headersTimeout);
  const onRequest = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    track(req, res);
    try {
      const why = checkOrigin(req);
      if (why) return refuse(res, 403, why);
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      if (url.pathname.startsWith('/api/')) {
        const given = (req.headers['x-vmd-token'] as string | undefined) ?? url.searchParams.get('token');
        if (!tokenMatches(given, token)) {
          // Nothing more from this socket: it does not stay open as a slot held without the token.
          res.setHeader('connection', 'close');
          return refuse(res, 401, 'missing or wrong token');
        }
        if (!promote(req)) {
          res.setHeader('connection', 'close');
          return refuse(res, 503, 'too many connections');
        }
        if (url.pathname === '/api/events' && req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
          res.write(': connected\n\n');
          streams.add(res);
          const client = clientOf(url.searchParams.get('client'));
          if (client) {
            const p = pageOf(client);
            p.streams++;
            if (p.gone) clearTimeout(p.gone);
            p.gone = null;
          }
          req.on('close', () => {
            streams.delete(res);
            if (client) pageClosed(client);
          });
          const waiters = clientWaiters;
          clientWaiters = [];
          waiters.forEach((w) => w());
          return;
        }
        const m = /^\/api\/call\/([A-Za-z]+)$/.exec(url.pathname);
        if (m && req.method === 'POST') {
          const type = req.headers['content-type'] ?? '';
          const frame = isFrameContentType(type);
          const dropRest = () => {
            // The rest of the body is not read: answer, then drop the connection.
            res.setHeader('connection', 'close');
            res.once('finish', () => req.destroy());
          };
          if (!type.startsWith('application/json') && !frame) return refuse(res, 415, `expected application/json or ${FRAME_CONTENT_TYPE}`);
          // A file's bytes travel only as raw bytes in a frame: as JSON a save would be numbers in text.
          if (!frame && Object.prototype.hasOwnProperty.call(SAVES, m[1])) {
            dropRest();
            return refuse(res, 415, `${m[1]} takes its bytes only as ${FRAME_CONTENT_TYPE}`);
          }
          const limit = bodyLimitFor(m[1], frame);
          const declared = Number(req.headers['content-length'] ?? NaN);
          if (declared > limit) {
            dropRest();
            return refuse(res, 413, 'request too large');
          }
          const release = await reserveBody(req, Number.isFinite(declared) && declared >= 0 ? declared : limit);
          if (!release) return; // closed (timed out) while it waited its turn
          try {
            const body = await readBody(req, limit);
            if (!body) {
              dropRest();
              return refuse(res, 413, 'request too large');
            }
            const parsed = parseArgs(type, body);
            if ('error' in parsed) return refuse(res, 400, parsed.error);
            const result = await dispatch(o.handlers, m[1], parsed.args);
            noteExport(clientOf(req.headers['x-vmd-client']), m[1], parsed.args, result);
            sendResult(res, result);
          } finally {
            release();
          }
          return;
        }
        return refuse(res, 404, 'no such API');
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
      await serveStatic(req, res, url.pathname);
    } catch (e) {
      if (!res.headersSent) refuse(res, 500, (e as Error)?.message ?? 'internal error');
      else res.destroy();
    }
  };
  const server = http.createServer(
    // Node checks these timeouts every connectionsCheckingInterval (30 s by default): check often enough
    // that a request that stalls is dropped close to its deadline.
    { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(100, Math.min(1000, headersTimeout / 2)) },
    (req, res) => void onRequest(req, res),
  );
  // Both pools full and one more: Node closes it at once (never reached: a new socket closes the oldest
  // unauthenticated one, and only a socket that carried the token joins the other pool).
  server.maxConnections = maxAuthed + maxUnauthed + 1;
  server.keepAliveTimeout = o.authenticatedIdleMs ?? AUTHENTICATED_IDLE_MS;
  server.on('connection', onConnection);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const heartbeat = setInterval(() => streams.forEach((s) => s.write(': ping\n\n')), 15_000);
  heartbeat.unref();

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    emit(event, payload) {
      if (!(EVENT_NAMES as readonly string[]).includes(event)) return;
      const msg = `event: ${event}\ndata: ${toWireJson(payload)}\n\n`;
      streams.forEach((s) => s.write(msg));
    },
    clients: () => streams.size,
    firstClient: () => (streams.size > 0 ? Promise.resolve() : new Promise<void>((r) => clientWaiters.push(r))),
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(heartbeat);
        clearInterval(sweeper);
        for (const p of pages.values()) if (p.gone) clearTimeout(p.gone);
        streams.forEach((s) => s.end());
        streams.clear();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
