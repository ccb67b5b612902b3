/**
 * The browser mode's server: serves the built renderer and the contract on 127.0.0.1.
 *
 *   GET  /…                      static files from the renderer build (no secrets in them)
 *   POST /api/call/<request>     body {"args":[…]}, header X-VMD-Token → IpcResult as wire JSON
 *   GET  /api/events?token=…     server-sent events: `event: <name>` + wire-JSON payload
 *
 * Defences: bound to 127.0.0.1 only; the Host header must name this server (DNS rebinding); an Origin
 * or Sec-Fetch-Site that is not this server is refused; every API call needs the random token, which
 * only the URL printed at start carries. Requests reach the same service modules the Electron IPC uses.
 */
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { EVENT_NAMES, type Events, type RequestHandlers } from '../../shared/ipc/contract';
import { dispatch } from '../services';
import { fromWireJson, toWireJson } from './wire';

export interface ServerOptions {
  /** 0 (default) = a random free port. */
  port?: number;
  /** Folder with index.html and assets/ (the renderer build). */
  staticDir: string;
  handlers: RequestHandlers;
  /** Fixed token (tests); default = 32 random bytes. */
  token?: string;
  /** Largest accepted request body; base64 makes bytes 4/3 larger. */
  maxBodyBytes?: number;
}

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

/** Same policy as renderer/index.html's meta tag, plus what only a header can say. */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

function tokenMatches(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const token = o.token ?? randomBytes(32).toString('base64url');
  const maxBody = o.maxBodyBytes ?? 768 * 1024 * 1024;
  const staticRoot = path.resolve(o.staticDir);
  const streams = new Set<http.ServerResponse>();
  let port = 0;
  let clientWaiters: (() => void)[] = [];

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
    let body: Buffer;
    try {
      body = await fsp.readFile(file);
    } catch {
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

  const readBody = (req: http.IncomingMessage) =>
    new Promise<Buffer | null>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBody) {
          resolve(null);
          req.destroy();
        } else chunks.push(c);
      });
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  const server = http.createServer(async (req, res) => {
    try {
      const why = checkOrigin(req);
      if (why) return refuse(res, 403, why);
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      if (url.pathname.startsWith('/api/')) {
        const given = (req.headers['x-vmd-token'] as string | undefined) ?? url.searchParams.get('token');
        if (!tokenMatches(given, token)) return refuse(res, 401, 'missing or wrong token');
        if (url.pathname === '/api/events' && req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
          res.write(': connected\n\n');
          streams.add(res);
          req.on('close', () => streams.delete(res));
          const waiters = clientWaiters;
          clientWaiters = [];
          waiters.forEach((w) => w());
          return;
        }
        const m = /^\/api\/call\/([A-Za-z]+)$/.exec(url.pathname);
        if (m && req.method === 'POST') {
          if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return refuse(res, 415, 'expected application/json');
          const body = await readBody(req);
          if (!body) return refuse(res, 413, 'request too large');
          let args: unknown;
          try {
            args = (fromWireJson(body.toString('utf8')) as { args?: unknown })?.args;
          } catch {
            return refuse(res, 400, 'bad JSON');
          }
          const result = await dispatch(o.handlers, m[1], Array.isArray(args) ? args : (args as unknown[]));
          const text = toWireJson(result);
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
          res.end(text);
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
  });

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
        streams.forEach((s) => s.end());
        streams.clear();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
