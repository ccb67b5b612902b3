/** The browser-mode server: token, host and origin checks, the contract over HTTP, events over SSE. */
import http from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { startServer, type RunningServer } from '../../electron/server/server';
import { fromWireJson, toWireJson } from '../../electron/server/wire';
import { parseServeArgs } from '../../electron/server/serve';

const CORPUS = process.env.VMD_CORPUS ?? path.resolve('../shared/corpus');

/** Raw request with full control over headers (fetch would set Origin/Host itself). */
function request(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

describe('browser-mode server', () => {
  let dir: string;
  let server: RunningServer;
  let call: (name: string, args: unknown[], headers?: Record<string, string>) => Promise<{ status: number; result: any }>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-server-'));
    const staticDir = path.join(dir, 'static');
    mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(path.join(staticDir, 'assets', 'a.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'secret.txt'), 'secret');
    let s: RunningServer | null = null;
    const services = createServices({
      settingsDir: path.join(dir, 'settings'),
      dialogs: noDialogs,
      emit: (e, p) => s?.emit(e, p),
      runBatch: async () => ({ jobId: '', total: 0, ok: 0, failed: 0, skipped: 0, cancelled: false, results: [], ms: 0 }),
      appInfo: { name: 'VMD Studio', version: '0', mode: 'browser', versions: { node: process.versions.node } },
    });
    server = s = await startServer({ staticDir, handlers: services.handlers });
    call = async (name, args, headers = {}) => {
      const r = await request(server.port, {
        method: 'POST',
        path: `/api/call/${name}`,
        headers: { host: `127.0.0.1:${server.port}`, 'content-type': 'application/json', 'x-vmd-token': server.token, ...headers },
        body: toWireJson({ args }),
      });
      return { status: r.status, result: r.status === 200 ? fromWireJson(r.body) : r.body };
    };
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 with a random port and a long random token in the URL', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{40,}$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('carries a request and its bytes over HTTP: openFile returns the corpus file exactly', async () => {
    const src = path.join(CORPUS, 'threejs/vmds/wavefile_camera.vmd');
    const r = await call('openFile', [src]);
    expect(r.status).toBe(200);
    expect(r.result.ok).toBe(true);
    expect(r.result.value.bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.compare(Buffer.from(r.result.value.bytes), readFileSync(src))).toBe(0);
  });

  it('writes bytes sent from the client (saveFile) and answers bad arguments as E_ARGUMENT values', async () => {
    const target = path.join(dir, 'out.vmd');
    const r = await call('saveFile', [target, new Uint8Array([0, 255, 7]), { overwrite: false }]);
    expect(r.result).toMatchObject({ ok: true, value: { bytesWritten: 3 } });
    expect([...readFileSync(target)]).toEqual([0, 255, 7]);
    const bad = await call('saveFile', [target, 'not bytes']);
    expect(bad.result).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect((await call('nope', [])).result).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
  });

  it('refuses API calls without the token or with a wrong one', async () => {
    expect((await call('listRecent', [], { 'x-vmd-token': '' })).status).toBe(401);
    expect((await call('listRecent', [], { 'x-vmd-token': server.token.slice(0, -1) + (server.token.endsWith('A') ? 'B' : 'A') })).status).toBe(401);
    const ok = await call('listRecent', []);
    expect(ok.status).toBe(200);
  });

  it('refuses other origins, cross-site fetches and foreign Host headers (DNS rebinding), even with the token', async () => {
    expect((await call('listRecent', [], { origin: 'http://evil.example' })).status).toBe(403);
    expect((await call('listRecent', [], { origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect((await call('listRecent', [], { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await call('listRecent', [], { host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await call('listRecent', [], { origin: `http://127.0.0.1:${server.port}`, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await call('listRecent', [], { origin: `http://localhost:${server.port}`, host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('serves the renderer with a CSP, without the token, and nothing outside its folder', async () => {
    const index = await request(server.port, { path: '/', headers: { host: `127.0.0.1:${server.port}` } });
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    expect(index.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const js = await request(server.port, { path: '/assets/a.js', headers: { host: `127.0.0.1:${server.port}` } });
    expect(js.headers['content-type']).toMatch(/javascript/);
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const r = await request(server.port, { path: p, headers: { host: `127.0.0.1:${server.port}` } });
      expect(r.body, p).not.toContain('secret');
      expect([403, 404]).toContain(r.status);
    }
    expect((await request(server.port, { method: 'POST', path: '/', headers: { host: `127.0.0.1:${server.port}` } })).status).toBe(405);
  });

  it('pushes events to connected windows over server-sent events (token required)', async () => {
    expect((await request(server.port, { path: '/api/events', headers: { host: `127.0.0.1:${server.port}` } })).status).toBe(401);
    const received = await new Promise<string>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: server.port, path: `/api/events?token=${server.token}`, headers: { host: `127.0.0.1:${server.port}` } }, (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          buf += d;
          if (buf.includes('event: fileOpened')) {
            req.destroy();
            resolve(buf);
          }
        });
      });
      req.on('error', (e) => (String(e).includes('socket hang up') ? undefined : reject(e)));
      void server.firstClient().then(() => server.emit('fileOpened', { path: '/x/a.vmd' }));
    });
    const data = /event: fileOpened\ndata: (.*)\n/.exec(received)![1];
    expect(fromWireJson(data)).toEqual({ path: '/x/a.vmd' });
  });
});

describe('serve command line', () => {
  it('parses --port, --settings-dir, --open and files; rejects bad values', () => {
    const a = parseServeArgs(['--port', '8123', '--settings-dir', '/tmp/s', '--open', 'x.vmd'], '/app/dist/electron');
    expect(a).toMatchObject({ port: 8123, settingsDir: '/tmp/s', open: true, staticDir: '/app/dist/renderer', files: [path.resolve('x.vmd')] });
    expect(parseServeArgs(['--port', 'http'], '/')).toMatch(/port/);
    expect(parseServeArgs(['--port'], '/')).toMatch(/needs a value/);
    expect(parseServeArgs(['--bogus'], '/')).toMatch(/unknown option/);
    expect(parseServeArgs([], '/a/b')).toMatchObject({ port: 0 });
  });
});
