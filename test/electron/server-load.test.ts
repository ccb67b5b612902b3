/**
 * The browser-mode server against a token holder who means harm, on 127.0.0.1 only: a frame
 * of 20 MiB of empty parts, a 100 MB JSON body (declared and chunked), 40 half-sent requests. The server
 * runs in its own process so its resident memory can be read: it must stay up, answer, drop the stalled
 * requests by itself, and grow by less than 200 MB. Every loop here is bounded and stops by itself.
 */
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerChild, type ServerChild } from './server-child';
import { rawCall, streamCall } from './server-requests';
import { FRAME_CONTENT_TYPE } from '../../shared/ipc/wire-frame';

const MB = 1024 * 1024;
const HEADERS_TIMEOUT_MS = 1500;
const REQUEST_TIMEOUT_MS = 3000;

let server: ServerChild;
let dir: string;
let child: ChildProcess;
let port = 0;
let token = '';

const memory = () => server.memory();

/** One call on a fresh connection (no keep-alive), body written as given. */
const call = (name: string, body: string) => rawCall(server, name, body, { close: true });

/**
 * Streams `total` bytes to a call, `chunk` repeated (one buffer reused: the sender holds no 100 MB),
 * with or without a Content-Length. Stops when everything is written, or when the server answers or
 * drops the connection; resolves with the status it answered (0 when it only closed). With a
 * Content-Length the body starts 150 ms after the headers, as a server that refuses on the headers alone
 * has answered by then (else the reset of the connection can overtake its answer).
 */
const stream = (name: string, type: string, head: Buffer, chunk: Buffer, total: number, declareLength: boolean) =>
  streamCall(server, name, { type, head, chunk, total, declareLength, delayMs: declareLength ? 150 : 0 });

/** A socket that sends part of a request and then nothing: resolves `closed` when the server hangs up. */
function halfSent(text: string): { socket: net.Socket; closed: Promise<void> } {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(text);
  return { socket, closed };
}

function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  const late = new Promise<never>((_r, reject) => {
    setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms).unref();
  });
  return Promise.race([p, late]);
}

beforeAll(async () => {
  server = await startServerChild('vmd-server-load-', [String(HEADERS_TIMEOUT_MS), String(REQUEST_TIMEOUT_MS)]);
  ({ dir, child, port, token } = server);
});

afterAll(async () => {
  await server?.stop();
});


describe('browser-mode server under a token holder (own process, loopback only)', () => {
  it('survives empty-part frames, a 100 MB JSON body and 40 half-sent requests, answering throughout, growing < 200 MB', async () => {
    expect((await call('listRecent', '{"args":[]}')).status).toBe(200);
    const before = await memory();

    // 1. A frame whose JSON asks for no part, followed by 20 MiB of zeros: 5 million empty parts to the old decoder.
    const json = Buffer.from('{"args":[]}');
    const frameHead = Buffer.alloc(8 + json.length);
    frameHead.write('VMW1', 0, 'latin1');
    frameHead.writeUInt32LE(json.length, 4);
    json.copy(frameHead, 8);
    const zeros = Buffer.alloc(MB);
    const empties = await stream('saveFile', FRAME_CONTENT_TYPE, frameHead, zeros, 20 * MB, true);
    expect(empties.status).toBe(400);
    expect(empties.text).toMatch(/part 0 is not referenced by the JSON \(it asks for 0 parts/);
    // The same, but asking for one part that is empty.
    const oneJson = Buffer.from(JSON.stringify({ args: [path.join(dir, 'x.vmd'), { $bytes: 0 }] }));
    const oneHead = Buffer.alloc(8 + oneJson.length);
    oneHead.write('VMW1', 0, 'latin1');
    oneHead.writeUInt32LE(oneJson.length, 4);
    oneJson.copy(oneHead, 8);
    const empty = await stream('saveFile', FRAME_CONTENT_TYPE, oneHead, zeros, 4 * MB, true);
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/part 0 at offset \d+ is empty/);
    expect((await call('listRecent', '{"args":[]}')).status).toBe(200);

    // 2. A 100 MB JSON body: refused on its Content-Length, and, sent chunked, cut off after the JSON limit.
    const spaces = Buffer.alloc(MB, 0x20);
    const declared = await stream('listRecent', 'application/json', Buffer.from('{"args":['), spaces, 100 * MB, true);
    expect(declared.status).toBe(413);
    const chunked = await stream('listRecent', 'application/json', Buffer.from('{"args":['), spaces, 100 * MB, false);
    expect([413, 0]).toContain(chunked.status);
    // The server stopped reading long before the end: the client could not push 100 MB into it.
    expect(chunked.written).toBeLessThan(100 * MB);
    expect((await call('listRecent', '{"args":[]}')).status).toBe(200);

    // 3. Forty requests that never finish: half of them stop inside the headers, half inside the body.
    const host = `Host: 127.0.0.1:${port}\r\n`;
    const stalled = [
      ...Array.from({ length: 20 }, () => halfSent(`POST /api/call/listRecent HTTP/1.1\r\n${host}X-VMD-Tok`)),
      ...Array.from({ length: 20 }, () =>
        halfSent(`POST /api/call/listRecent HTTP/1.1\r\n${host}Content-Type: application/json\r\nX-VMD-Token: ${token}\r\nContent-Length: 1000\r\n\r\n{"args":[`),
      ),
    ];
    await new Promise((r) => setTimeout(r, 200));
    // While they hang, the server still answers.
    const during = await call('listRecent', '{"args":[]}');
    expect(during.status).toBe(200);
    expect(JSON.parse(during.text)).toEqual({ ok: true, value: [] });
    // The header and request timeouts drop every one of them without help from this side.
    await withDeadline(Promise.all(stalled.map((s) => s.closed)), REQUEST_TIMEOUT_MS * 4, 'stalled requests closed by the server');
    expect(stalled.every((s) => s.socket.destroyed)).toBe(true);

    // 4. Still up and answering; memory grew by less than 200 MB at its highest.
    expect((await call('listRecent', '{"args":[]}')).status).toBe(200);
    const after = await memory();
    expect(child.exitCode).toBe(null);
    expect(after.peak - before.rss).toBeLessThan(200 * MB);
    expect(after.rss - before.rss).toBeLessThan(200 * MB);
    console.log(`server rss: ${(before.rss / MB).toFixed(0)} MB before, peak ${(after.peak / MB).toFixed(0)} MB, ${(after.rss / MB).toFixed(0)} MB after`);
  });
});
