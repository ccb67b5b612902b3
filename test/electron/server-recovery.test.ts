/**
 * Recovery over the browser-mode server (server.ts, services/recovery-service.ts): two pages on one server, each its
 * own session. A page never sees another live page's copies; once a page's event stream is gone (closed, not back
 * within clientGoneMs) its session ends and its copies are listed to the other page. A copy's bytes go only as a
 * binary frame (a JSON body is refused). Real services, a real temp folder, real sockets.
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServices, type Services } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { startServer, type RunningServer } from '../../electron/server/server';
import { decodeFrame, encodeWire, FRAME_CONTENT_TYPE, fromWireJson, joinChunks } from '../../electron/server/wire';

let dir = '';
let server: RunningServer;
let services: Services;
const GONE_MS = 300;

function post(page: string, name: string, body: { type: string; data: Buffer | string }): Promise<{ status: number; type: string; data: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, method: 'POST', path: `/api/call/${name}`, headers: { host: `127.0.0.1:${server.port}`, 'content-type': body.type, 'x-vmd-token': server.token, 'x-vmd-client': page } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), data: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body.data);
  });
}
async function call(page: string, name: string, args: unknown[]): Promise<{ ok: boolean; value?: any; error?: { message: string } }> {
  const body = encodeWire({ args });
  const r = await post(page, name, body.kind === 'json' ? { type: 'application/json', data: body.text } : { type: FRAME_CONTENT_TYPE, data: Buffer.from(joinChunks(body.chunks)) });
  if (r.status !== 200) throw new Error(`${r.status} ${r.data.toString()}`);
  if (r.type.startsWith(FRAME_CONTENT_TYPE)) {
    const f = decodeFrame(new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength));
    if (!f.ok) throw new Error(f.error.message);
    return f.value as never;
  }
  return fromWireJson(r.data.toString('utf8')) as never;
}
async function openStream(page: string): Promise<http.ClientRequest> {
  const before = server.clients();
  const req = http.get({ host: '127.0.0.1', port: server.port, path: `/api/events?token=${server.token}&client=${page}`, headers: { host: `127.0.0.1:${server.port}` } });
  req.on('error', () => undefined);
  await vi.waitFor(() => expect(server.clients()).toBe(before + 1), { timeout: 10_000 });
  return req;
}

const SA = 'pageAsession1';
const SB = 'pageBsession2';
const info = { doc: '3', name: 'dance.vmd', path: '/m/dance.vmd', kind: 'motion', format: 'vmd', keys: 12 };

describe('recovery through the browser-mode server', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-server-recovery-'));
    services = createServices({ settingsDir: dir, dialogs: noDialogs, emit: () => undefined, runBatch: (() => undefined) as never, appInfo: { name: 't', version: '0', mode: 'browser', versions: { node: '' } } });
    server = await startServer({ staticDir: dir, handlers: services.handlers, token: 'tok', clientGoneMs: GONE_MS, onSessionGone: (s) => void services.recovery.end(s) });
  });
  afterAll(async () => {
    services.recovery.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("offers a page's copies to another page only once that page is gone", async () => {
    const a = await openStream('pageA');
    const b = await openStream('pageB');
    expect((await call('pageA', 'beginRecovery', [SA])).ok).toBe(true);
    expect((await call('pageB', 'beginRecovery', [SB])).ok).toBe(true);
    const bytes = new Uint8Array(1000).map((_, i) => i & 255);
    // Bytes as JSON: refused (415), never parsed as numbers in text.
    const asJson = await post('pageA', 'keepRecoveryCopy', { type: 'application/json', data: JSON.stringify({ args: [SA, info, [1, 2, 3]] }) });
    expect(asJson.status).toBe(415);
    expect((await call('pageA', 'keepRecoveryCopy', [SA, info, bytes])).ok).toBe(true);
    // Page A is live: page B sees nothing of it, and cannot discard it.
    expect((await call('pageB', 'listRecovery', [])).value.copies).toEqual([]);
    expect((await call('pageB', 'discardRecovery', [SA])).ok).toBe(false);
    // Page A's tab is closed: its stream goes, and does not come back.
    a.destroy();
    await vi.waitFor(async () => expect((await call('pageB', 'listRecovery', [])).value.copies).toHaveLength(1), { timeout: 10_000, interval: 100 });
    const l = (await call('pageB', 'listRecovery', [])).value;
    expect(l.copies[0]).toMatchObject({ ...info, session: SA, bytes: 1000 });
    expect(JSON.parse(readFileSync(path.join(dir, 'recovery', SA, 'session.json'), 'utf8')).ended).toBeTypeOf('number');
    const r = await call('pageB', 'readRecoveryCopy', [SA, '3']);
    expect(r.value.bytes).toEqual(bytes);
    // Page B's own session is never offered to itself while it is live.
    expect((await call('pageB', 'keepRecoveryCopy', [SB, { ...info, doc: '1' }, bytes])).ok).toBe(true);
    expect((await call('pageB', 'listRecovery', [])).value.copies.map((c: { session: string }) => c.session)).toEqual([SA]);
    b.destroy();
  });
});
