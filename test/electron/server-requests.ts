/**
 * Raw requests to the browser-mode server in its own process (server-child.ts), for the load and bounds
 * tests: one call, and a body streamed from one reused chunk (the sender never holds what it sends).
 * Neither throws: a connection the server drops is status 0. Every wait is bounded.
 */
import http from 'node:http';

/** Where the server listens, and the token its API asks for. */
export interface ServerAt {
  port: number;
  token: string;
}

function callOptions(at: ServerAt, name: string, headers: Record<string, string | number>, agent: http.Agent | false): http.RequestOptions {
  return {
    host: '127.0.0.1',
    port: at.port,
    method: 'POST',
    path: `/api/call/${name}`,
    agent,
    headers: { host: `127.0.0.1:${at.port}`, 'x-vmd-token': at.token, ...headers },
  };
}

/**
 * One call, its body written as given with its Content-Length; `agent` false opens a fresh connection,
 * `close` asks the server to close it after the answer.
 */
export function rawCall(at: ServerAt, name: string, body: Buffer | string, opts: { type?: string; agent?: http.Agent | false; close?: boolean } = {}): Promise<{ status: number; text: string }> {
  const headers: Record<string, string | number> = { 'content-type': opts.type ?? 'application/json', 'content-length': Buffer.byteLength(body) };
  if (opts.close) headers.connection = 'close';
  return new Promise((resolve) => {
    const req = http.request(callOptions(at, name, headers, opts.agent ?? false), (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
      res.on('error', () => resolve({ status: 0, text }));
    });
    req.setTimeout(15_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(body);
  });
}

/** A body sent in pieces: `head`, then `total` bytes of `chunk` repeated, then `tail`. */
export interface StreamedBody {
  type: string;
  head: Buffer;
  chunk: Buffer;
  total: number;
  tail?: Buffer;
  /** Send a Content-Length (else the body is chunked). */
  declareLength: boolean;
  /** Wait this long after the head before the rest (a server that refuses on the headers alone has answered by then). */
  delayMs: number;
}

/**
 * Streams a body to a call on a fresh connection. Stops when everything is written, or when the server
 * answers or drops the connection; resolves with the status it answered (0 when it only closed), its
 * text, and the chunk bytes written.
 */
export function streamCall(at: ServerAt, name: string, b: StreamedBody): Promise<{ status: number; text: string; written: number }> {
  const tailLength = b.tail?.length ?? 0;
  return new Promise((resolve) => {
    let written = 0;
    let status = 0;
    let text = '';
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      resolve({ status, text, written });
    };
    const headers: Record<string, string | number> = { 'content-type': b.type };
    if (b.declareLength) headers['content-length'] = b.head.length + b.total + tailLength;
    const req = http.request(callOptions(at, name, headers, false), (res) => {
      status = res.statusCode!;
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', finish);
    req.on('close', () => setTimeout(finish, 50));
    req.write(b.head);
    req.flushHeaders();
    const pump = () => {
      while (!finished && !req.destroyed && written < b.total) {
        const n = Math.min(b.chunk.length, b.total - written);
        written += n;
        if (!req.write(n === b.chunk.length ? b.chunk : b.chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      if (!finished && !req.destroyed) {
        if (b.tail) req.end(b.tail);
        else req.end();
      }
    };
    if (b.delayMs > 0) setTimeout(pump, b.delayMs);
    else pump();
  });
}
