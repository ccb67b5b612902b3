/**
 * The browser-mode server: token, host and origin checks, the contract over HTTP (JSON, and binary frames
 * for bytes), malformed frames answered 400, events over SSE; and the renderer's HTTP client against it.
 */
import http from 'node:http';
import net from 'node:net';
import { realpathSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServices } from '../../electron/services';
import { CORPUS } from '../helpers/build';
import { noDialogs } from '../../electron/services/dialog-service';
import { startServer, type RunningServer } from '../../electron/server/server';
import { FRAME_CONTENT_TYPE, decodeFrame, encodeWire, fromWireJson, joinChunks, toWireJson } from '../../electron/server/wire';
import { parseServeArgs } from '../../electron/server/serve';
import { createHttpApi } from '../../renderer/src/api/http-client';


/** Raw request with full control over headers (fetch would set Origin/Host itself). */
function request(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; raw: Buffer }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body: raw.toString('utf8'), raw });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** A frame written byte by byte here, independently of the encoder: magic, JSON length, JSON, parts. */
function handFrame(json: string, parts: Uint8Array[] = [], magic = 'VMW1'): Buffer {
  const j = Buffer.from(json, 'utf8');
  const head = Buffer.alloc(8);
  head.write(magic, 0, 'latin1');
  head.writeUInt32LE(j.length, 4);
  const rest = parts.flatMap((p) => {
    const n = Buffer.alloc(4);
    n.writeUInt32LE(p.length);
    return [n, Buffer.from(p)];
  });
  return Buffer.concat([head, j, ...rest]);
}

describe('binary frame (shared/ipc/wire-frame.ts)', () => {
  it('sends values without bytes as plain JSON and values with bytes as a frame, bytes raw and in order', () => {
    expect(encodeWire({ args: ['/x', { overwrite: true }] })).toEqual({ kind: 'json', text: '{"args":["/x",{"overwrite":true}]}' });
    const a = new Uint8Array([1, 2, 3]);
    const b = Buffer.from([250, 251]); // a Node Buffer is bytes too, not {type:'Buffer',data:[…]}
    const body = encodeWire({ args: ['/p', a, { nested: [b] }] });
    expect(body.kind).toBe('frame');
    if (body.kind !== 'frame') return;
    const frame = Buffer.from(joinChunks(body.chunks));
    expect(frame.length).toBe(body.byteLength);
    const json = '{"args":["/p",{"$bytes":0},{"nested":[{"$bytes":1}]}]}';
    expect(Buffer.compare(frame, handFrame(json, [a, b]))).toBe(0);
    // The caller's arrays are chunks themselves: no copy of a large file on the way out.
    expect(body.chunks).toContain(a);
    // Events go as plain JSON; bytes there would be a programming error, not silently base64.
    expect(toWireJson({ path: '/a' })).toBe('{"path":"/a"}');
    expect(() => toWireJson({ b: new Uint8Array(1) })).toThrow(/frame/);
  });

  it('decodes into views of the frame (no copy) and round-trips small and large parts', () => {
    const big = new Uint8Array(3_000_000).map((_, i) => (i * 31) & 255);
    const frame = joinChunks((encodeWire({ ok: true, value: { one: new Uint8Array([5]), big, n: 7 } }) as { chunks: Uint8Array[] }).chunks);
    const r = decodeFrame(frame);
    expect(r.ok).toBe(true);
    const v = (r as { value: { value: { one: Uint8Array; big: Uint8Array; n: number } } }).value.value;
    expect(v.n).toBe(7);
    expect([...v.one]).toEqual([5]);
    expect(Buffer.compare(Buffer.from(v.big), Buffer.from(big))).toBe(0);
    expect(v.big.buffer).toBe(frame.buffer);
    // A frame that is itself a view into a larger buffer (a pooled Node Buffer) decodes the same.
    const padded = new Uint8Array(frame.length + 16);
    padded.set(frame, 16);
    const again = decodeFrame(padded.subarray(16));
    expect(again.ok && Buffer.compare(Buffer.from((again.value as typeof r & { value: { big: Uint8Array } }).value.big), Buffer.from(big))).toBe(0);
  });

  it('turns every kind of malformed frame into a one-line reason, never a throw', () => {
    const p = new Uint8Array([9, 9]);
    const cases: [string, Uint8Array, RegExp][] = [
      ['empty', new Uint8Array(0), /shorter than its 8-byte head/],
      ['short head', new Uint8Array([0x56, 0x4d, 0x57]), /shorter than/],
      ['wrong magic', handFrame('{}', [], 'VMW2'), /does not start with "VMW1"/],
      ['base64 JSON sent as a frame', Buffer.from('{"args":[{"$bytes":"AAE="}]}'), /does not start with/],
      ['JSON length past the end', (() => { const f = handFrame('{"a":1}'); f.writeUInt32LE(1000, 4); return f; })(), /JSON length 1000 runs past the end/],
      ['JSON length at 4 GiB - 1', (() => { const f = handFrame('{}'); f.writeUInt32LE(0xffffffff, 4); return f; })(), /runs past the end/],
      ['invalid UTF-8', handFrame('"\u0000"').fill(0xff, 8, 10), /not valid UTF-8/],
      ['invalid JSON', handFrame('{"args": [1,'), /bad JSON/],
      ['cut length prefix', Buffer.concat([handFrame('{"a":{"$bytes":0},"b":{"$bytes":1}}', [p]), Buffer.from([1, 0])]), /part 1: length prefix cut short at offset 49/],
      // The JSON says how many parts there are: zero-length prefixes cannot make millions of them.
      ['more parts than placeholders', handFrame('{"a":{"$bytes":0}}', [p, p]), /part 1 is not referenced by the JSON \(it asks for 1 part; offset 32\)/],
      ['zeros after a JSON that asks for none', Buffer.concat([handFrame('{"args":[]}'), Buffer.alloc(4000)]), /part 0 is not referenced .*asks for 0 parts; offset 19/],
      ['empty part', handFrame('{"a":{"$bytes":0}}', [new Uint8Array(0)]), /part 0 at offset 26 is empty/],
      ['part past the end', handFrame('{"a":{"$bytes":0}}', [p]).subarray(0, -1), /part 0: length 2 .* runs past the end/],
      ['placeholder out of range', handFrame('{"a":{"$bytes":1}}', [p]), /names no part \(the frame has 1\)/],
      ['negative placeholder', handFrame('{"a":{"$bytes":-1}}', [p]), /names no part/],
      ['string placeholder', handFrame('{"a":{"$bytes":"AAE="}}', [p]), /names no part/],
      ['unreferenced part', handFrame('{"a":1}', [p]), /part 0 is not referenced/],
      ['part used twice', handFrame('{"a":{"$bytes":0},"b":{"$bytes":0}}', [p, p]), /part 0 is referenced twice/],
    ];
    for (const [what, bytes, reason] of cases) {
      const r = decodeFrame(bytes);
      expect(r.ok, what).toBe(false);
      if (!r.ok) expect(r.error.message, what).toMatch(reason);
    }
  });
});

describe('browser-mode server', () => {
  let dir: string;
  let server: RunningServer;
  let call: (name: string, args: unknown[], headers?: Record<string, string>) => Promise<{ status: number; result: any; type?: string; raw?: Buffer }>;
  /** POSTs a hand-made body to a call; returns status and text. */
  const post = (name: string, body: string | Uint8Array, type: string, headers: Record<string, string> = {}) =>
    request(server.port, {
      method: 'POST',
      path: `/api/call/${name}`,
      headers: { host: `127.0.0.1:${server.port}`, 'content-type': type, 'x-vmd-token': server.token, ...headers },
      body,
    });

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
      runBatch: async () => ({ ok: true, value: { jobId: '', total: 0, ok: 0, failed: 0, skipped: 0, cancelled: false, results: [], ms: 0 } }),
      appInfo: { name: 'VMD Studio', version: '0', mode: 'browser', versions: { node: process.versions.node } },
    });
    server = s = await startServer({ staticDir, handlers: services.handlers });
    call = async (name, args, headers = {}) => {
      const body = encodeWire({ args });
      const r = await request(server.port, {
        method: 'POST',
        path: `/api/call/${name}`,
        headers: {
          host: `127.0.0.1:${server.port}`,
          'content-type': body.kind === 'json' ? 'application/json' : FRAME_CONTENT_TYPE,
          'x-vmd-token': server.token,
          ...headers,
        },
        body: body.kind === 'json' ? body.text : joinChunks(body.chunks),
      });
      if (r.status !== 200) return { status: r.status, result: r.body, type: r.headers['content-type'] };
      const type = r.headers['content-type'] ?? '';
      if (type === FRAME_CONTENT_TYPE) {
        const d = decodeFrame(r.raw);
        if (!d.ok) throw new Error(d.error.message);
        return { status: 200, result: d.value, type, raw: r.raw };
      }
      return { status: 200, result: fromWireJson(r.body), type, raw: r.raw };
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

  it('answers openFile with a binary frame whose last bytes are the file itself (no base64)', async () => {
    const src = path.join(CORPUS, 'threejs/vmds/wavefile_camera.vmd');
    const file = readFileSync(src);
    const r = await call('openFile', [src]);
    expect(r.status).toBe(200);
    expect(r.type).toBe(FRAME_CONTENT_TYPE);
    expect(r.result.ok).toBe(true);
    expect(r.result.value.bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.compare(Buffer.from(r.result.value.bytes), file)).toBe(0);
    // Read the frame by hand: "VMW1", JSON length, JSON naming part 0, then the file's length and bytes.
    const raw = r.raw!;
    expect(raw.subarray(0, 4).toString('latin1')).toBe('VMW1');
    const j = raw.readUInt32LE(4);
    // The version read travels beside the bytes as JSON (its size, mtime and inode as the file's stat gives them).
    const st = statSync(src, { bigint: true });
    const json = JSON.parse(raw.subarray(8, 8 + j).toString('utf8'));
    expect(json).toMatchObject({ ok: true, value: { path: src, name: 'wavefile_camera.vmd', bytes: { $bytes: 0 }, stamp: { size: file.length, mtimeNs: st.mtimeNs.toString(), ino: st.ino.toString() } } });
    // …and its real path, links resolved (one file reached by two paths has one owner).
    expect(Object.keys(json.value).sort()).toEqual(['bytes', 'name', 'path', 'realPath', 'stamp']);
    expect(json.value.realPath).toBe(realpathSync(src));
    expect(raw.readUInt32LE(8 + j)).toBe(file.length);
    expect(raw.length).toBe(8 + j + 4 + file.length);
    expect(Buffer.compare(raw.subarray(8 + j + 4), file)).toBe(0);
    // Answers without bytes stay plain JSON.
    expect((await call('listRecent', [])).type).toMatch(/^application\/json/);
  });

  it('writes bytes sent in a frame (saveFile) and answers bad arguments as E_ARGUMENT values', async () => {
    const target = path.join(dir, 'out.vmd');
    const r = await call('saveFile', [target, new Uint8Array([0, 255, 7]), { overwrite: false }]);
    expect(r.result).toMatchObject({ ok: true, value: { bytesWritten: 3 } });
    expect([...readFileSync(target)]).toEqual([0, 255, 7]);
    // A frame whose argument is not bytes reaches the validator and is refused as a value.
    const bad = await post('saveFile', handFrame(JSON.stringify({ args: [target, 'not bytes', { $bytes: 0 }] }), [new Uint8Array([1])]), FRAME_CONTENT_TYPE);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    // A save's bytes travel only in a frame: as JSON (base64 objects, arrays of numbers) it is not read at all.
    for (const body of [
      JSON.stringify({ args: [path.join(dir, 'legacy.vmd'), { $bytes: 'AP8H' }] }),
      JSON.stringify({ args: [path.join(dir, 'legacy.vmd'), [0, 255, 7]] }),
      JSON.stringify({ args: [path.join(dir, 'legacy.vmdscene'), [0, 255, 7]] }),
    ]) {
      const legacy = await post(body.includes('vmdscene') ? 'saveScene' : 'saveFile', body, 'application/json');
      expect(legacy.status).toBe(415);
      expect(legacy.body).toMatch(/takes its bytes only as application\/vnd\.vmd-studio\.frame/);
    }
    expect(() => readFileSync(path.join(dir, 'legacy.vmd'))).toThrow();
    expect((await call('nope', [])).result).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
  });

  it('saves and reopens 20 MB byte for byte through frames', async () => {
    const big = new Uint8Array(20_000_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
    const target = path.join(dir, 'big.vmd');
    const w = await call('saveFile', [target, big, { overwrite: true }]);
    expect(w.result).toMatchObject({ ok: true, value: { bytesWritten: big.length } });
    expect(Buffer.compare(readFileSync(target), Buffer.from(big))).toBe(0);
    const back = await call('openFile', [target]);
    expect(Buffer.compare(Buffer.from(back.result.value.bytes), Buffer.from(big))).toBe(0);
  });

  it('answers a malformed frame or body with a clear 400 and keeps serving', async () => {
    const target = path.join(dir, 'never.vmd');
    const p = new Uint8Array([1, 2]);
    const cases: [string, Uint8Array | string, RegExp][] = [
      ['empty frame', new Uint8Array(0), /^bad frame: frame of 0 bytes is shorter/],
      ['wrong magic', handFrame(JSON.stringify({ args: [target, { $bytes: 0 }] }), [p], 'XXXX'), /^bad frame: .*"VMW1"/],
      ['JSON length past the end', (() => { const f = handFrame('{"args":[]}'); f.writeUInt32LE(1 << 30, 4); return f; })(), /^bad frame: JSON length 1073741824 runs past/],
      ['part cut short', handFrame(JSON.stringify({ args: [target, { $bytes: 0 }] }), [p]).subarray(0, -1), /^bad frame: part 0: length 2/],
      ['dangling placeholder', handFrame(JSON.stringify({ args: [target, { $bytes: 3 }] }), [p]), /^bad frame: placeholder \{"\$bytes": 3\} names no part/],
      ['unreferenced part', handFrame(JSON.stringify({ args: [target] }), [p]), /^bad frame: part 0 is not referenced/],
      ['broken JSON in a frame', handFrame('{"args":[', [p]), /^bad frame: bad JSON/],
      ['no args in a frame', handFrame(JSON.stringify({ argz: [{ $bytes: 0 }] }), [p]), /^expected a body \{"args": \[...\]\}/],
      ['args not a list', handFrame(JSON.stringify({ args: { $bytes: 0 } }), [p]), /^expected a body/],
    ];
    for (const [what, body, reason] of cases) {
      const r = await post('saveFile', body, FRAME_CONTENT_TYPE);
      expect(r.status, what).toBe(400);
      expect(r.body.trim(), what).toMatch(reason);
    }
    for (const [what, body] of [['broken JSON', '{"args": ['], ['JSON null', 'null'], ['args a string', '{"args":"x"}']] as const) {
      const r = await post('listRecent', body, 'application/json');
      expect(r.status, what).toBe(400);
    }
    expect((await post('listRecent', '{"args":[]}', 'text/plain')).status).toBe(415);
    expect(() => readFileSync(target)).toThrow();
    // Still serving, on a fresh connection and a good frame alike.
    expect((await call('listRecent', [])).status).toBe(200);
    expect((await call('saveFile', [target, p])).result).toMatchObject({ ok: true });
  });

  it('refuses a body over the size limit with 413 and keeps serving', async () => {
    const small = await startServer({ staticDir: path.join(dir, 'static'), handlers: { listRecent: async () => ({ ok: true, value: [] }) } as never, maxBodyBytes: 1000 });
    try {
      const r = await request(small.port, {
        method: 'POST',
        path: '/api/call/saveFile',
        headers: { host: `127.0.0.1:${small.port}`, 'content-type': FRAME_CONTENT_TYPE, 'x-vmd-token': small.token },
        body: handFrame(JSON.stringify({ args: ['/x', { $bytes: 0 }] }), [new Uint8Array(2000)]),
      });
      expect(r.status).toBe(413);
      const ok = await request(small.port, {
        method: 'POST',
        path: '/api/call/listRecent',
        headers: { host: `127.0.0.1:${small.port}`, 'content-type': 'application/json', 'x-vmd-token': small.token },
        body: '{"args":[]}',
      });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body)).toEqual({ ok: true, value: [] });
    } finally {
      await small.close();
    }
  });

  it('answers fields named after Object.prototype with E_ARGUMENT, never a 500', async () => {
    for (const body of [
      '{"args":[{"__proto__":{"locale":"en"}}]}',
      '{"args":[{"constructor":{"locale":"en"}}]}',
      '{"args":[{"ui":{"__proto__":1}}]}',
      '{"args":[{"ui":{"constructor":"x"}}]}',
    ]) {
      const r = await post('setSettings', body, 'application/json');
      expect(r.status, body).toBe(200);
      expect(JSON.parse(r.body), body).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    }
    const frame = handFrame('{"args":["' + path.join(dir, 'p.vmd').replace(/\\/g, '/') + '",{"$bytes":0},{"__proto__":true}]}', [new Uint8Array([1])]);
    const r = await post('saveFile', frame, FRAME_CONTENT_TYPE);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(() => readFileSync(path.join(dir, 'p.vmd'))).toThrow();
  });

  it('bounds each body by its request: only a save may carry a file (a scene save a scene), other calls stop at the JSON limit', async () => {
    const big = '{"args":[],"pad":"' + 'x'.repeat(2 * 1024 * 1024) + '"}';
    expect((await post('listRecent', big, 'application/json')).status).toBe(413);
    const bytes = new Uint8Array(2 * 1024 * 1024).fill(7);
    const target = path.join(dir, 'two-mib.vmd');
    expect((await call('saveFile', [target, bytes, { overwrite: true }])).result).toMatchObject({ ok: true, value: { bytesWritten: bytes.length } });
    // A scene save carries a scene: past the scene file's 4 MiB it is refused on its length, unread.
    const scene = handFrame(JSON.stringify({ args: [path.join(dir, 'big.vmdscene'), { $bytes: 0 }, { overwrite: true }] }), [new Uint8Array(4 * 1024 * 1024 + 100 * 1024).fill(32)]);
    expect((await post('saveScene', scene, FRAME_CONTENT_TYPE)).status).toBe(413);
    expect(() => readFileSync(path.join(dir, 'big.vmdscene'))).toThrow();
    expect((await call('listRecent', [])).status).toBe(200);
  });

  it("keeps sockets without the token in a small pool of their own: a new one closes the oldest, an idle one is closed soon, the token holders' pool is bounded apart", async () => {
    const small = await startServer({
      staticDir: path.join(dir, 'static'),
      handlers: { listRecent: async () => ({ ok: true, value: [] }) } as never,
      maxConnections: 2,
      maxUnauthenticated: 2,
      unauthenticatedIdleMs: 400,
    });
    const open = (): Promise<{ socket: net.Socket; closed: Promise<void>; data: () => string }> =>
      new Promise((resolve) => {
        let text = '';
        const socket = net.connect(small.port, '127.0.0.1', () => resolve({ socket, closed, data: () => text }));
        socket.on('error', () => undefined);
        socket.on('data', (d) => (text += d.toString('latin1')));
        const closed = new Promise<void>((r) => socket.once('close', () => r()));
      });
    const within = (p: Promise<unknown>, ms: number, what: string) => Promise.race([p, new Promise((_r, reject) => setTimeout(() => reject(new Error(what)), ms))]);
    /** A call on a raw socket, kept open afterwards (HTTP/1.1 keep-alive); resolves with the status line's code. */
    const rawCall = async (s: { socket: net.Socket; data: () => string }, tok: string) => {
      const body = '{"args":[]}';
      s.socket.write(`POST /api/call/listRecent HTTP/1.1\r\nHost: 127.0.0.1:${small.port}\r\nContent-Type: application/json\r\nX-VMD-Token: ${tok}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      await vi.waitFor(() => expect(s.data()).toMatch(/^HTTP\/1\.1 \d+/), { timeout: 3000 });
      return Number(/^HTTP\/1\.1 (\d+)/.exec(s.data())![1]);
    };
    try {
      // Two that say nothing fill the unauthenticated pool; a third closes the oldest of them, not itself.
      const u1 = await open();
      const u2 = await open();
      await new Promise((r) => setTimeout(r, 30));
      const u3 = await open();
      await within(u1.closed, 1000, 'the oldest silent socket stayed open');
      expect(u2.socket.destroyed || u3.socket.destroyed).toBe(false);
      // Silent ones are closed after the idle limit, without help from this side.
      await within(Promise.all([u2.closed, u3.closed]), 3000, 'silent sockets stayed open past the idle limit');

      // A wrong token is answered and its socket closed: it does not stay as a slot held without the token.
      const wrong = await open();
      expect(await rawCall(wrong, 'nope')).toBe(401);
      await within(wrong.closed, 1000, 'a socket with a wrong token stayed open');

      // Two that showed the token fill their own pool and stay open (past the unauthenticated idle limit).
      const a1 = await open();
      const a2 = await open();
      expect(await rawCall(a1, small.token)).toBe(200);
      expect(await rawCall(a2, small.token)).toBe(200);
      await new Promise((r) => setTimeout(r, 800));
      expect(a1.socket.destroyed || a2.socket.destroyed).toBe(false);
      // Silent sockets meanwhile do not touch the token holders' pool.
      const silent = await Promise.all([open(), open(), open()]);
      expect(a1.socket.destroyed || a2.socket.destroyed).toBe(false);
      silent.forEach((x) => x.socket.destroy());
      // A third token holder closes the one idle longest (a browser connects again), not itself.
      const a3 = await open();
      expect(await rawCall(a3, small.token)).toBe(200);
      await within(a1.closed, 1000, 'the token holder idle longest stayed open');
      expect(a2.socket.destroyed || a3.socket.destroyed).toBe(false);
      // With every token holder in the middle of a request, a new one is told the pool is full.
      for (const a of [a2, a3]) a.socket.write(`POST /api/call/listRecent HTTP/1.1\r\nHost: 127.0.0.1:${small.port}\r\nContent-Type: application/json\r\nX-VMD-Token: ${small.token}\r\nContent-Length: 100\r\n\r\n{"args":[`);
      await new Promise((r) => setTimeout(r, 100));
      const a4 = await open();
      expect(await rawCall(a4, small.token)).toBe(503);
      await within(a4.closed, 1000, 'a socket refused for a full pool stayed open');
      a3.socket.destroy();
      await a3.closed;
      await new Promise((r) => setTimeout(r, 50));
      const ok = await request(small.port, {
        method: 'POST',
        path: '/api/call/listRecent',
        headers: { host: `127.0.0.1:${small.port}`, 'content-type': 'application/json', 'x-vmd-token': small.token, connection: 'close' },
        body: '{"args":[]}',
      });
      expect(ok.status).toBe(200);
      a2.socket.destroy();
    } finally {
      await small.close();
    }
  });

  it('checks token, origin and host before reading a frame', async () => {
    const frame = handFrame(JSON.stringify({ args: [path.join(dir, 'x.vmd'), { $bytes: 0 }] }), [new Uint8Array([1])]);
    expect((await post('saveFile', frame, FRAME_CONTENT_TYPE, { 'x-vmd-token': 'wrong' })).status).toBe(401);
    expect((await post('saveFile', frame, FRAME_CONTENT_TYPE, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post('saveFile', frame, FRAME_CONTENT_TYPE, { host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await post('saveFile', frame, FRAME_CONTENT_TYPE, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(() => readFileSync(path.join(dir, 'x.vmd'))).toThrow();
  });

  it("serves the renderer's own HTTP client: open and save a corpus dance through fetch", async () => {
    const api = createHttpApi({ base: `http://127.0.0.1:${server.port}`, token: server.token });
    const src = path.join(CORPUS, 'mmd-viewer-js/vmd/wavefile_v2.vmd');
    const opened = await api.openFile(src);
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.value.name).toBe('wavefile_v2.vmd');
    expect(Buffer.compare(Buffer.from(opened.value.bytes), readFileSync(src))).toBe(0);
    const target = path.join(dir, 'client copy.vmd');
    const saved = await api.saveFile(target, opened.value.bytes, { overwrite: false });
    expect(saved).toMatchObject({ ok: true, value: { bytesWritten: readFileSync(src).length } });
    expect(Buffer.compare(readFileSync(target), readFileSync(src))).toBe(0);
    expect(await api.openFile(path.join(dir, 'missing.vmd'))).toMatchObject({ ok: false, error: { code: 'E_IO_NOT_FOUND' } });
    const wrong = createHttpApi({ base: `http://127.0.0.1:${server.port}`, token: 'nope' });
    expect(await wrong.saveFile(target, new Uint8Array([1]), { overwrite: true })).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(Buffer.compare(readFileSync(target), readFileSync(src))).toBe(0);
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
