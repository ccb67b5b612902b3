import { describe, expect, it } from 'vitest';
import { createHttpApi } from '../../../renderer/src/api/http-client';
import { FRAME_CONTENT_TYPE, encodeWire } from '../../../renderer/src/api/wire';
import { REQUEST_NAMES } from '../../../shared/ipc/contract';

describe('browser-mode client', () => {
  it('posts each request with the token, drops trailing undefined args, and decodes the answer', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      // An answer holding bytes comes as a binary frame, as the real server sends it.
      const body = encodeWire({ ok: true, value: { bytes: new Uint8Array([5, 6]) } });
      if (body.kind !== 'frame') throw new Error('expected a frame');
      return new Response(new Blob(body.chunks as BlobPart[]), { status: 200, headers: { 'content-type': FRAME_CONTENT_TYPE } });
    }) as unknown as typeof globalThis.fetch;
    const api = createHttpApi({ token: 'tok', fetch, base: 'http://127.0.0.1:1' });
    for (const n of REQUEST_NAMES) expect(typeof (api as unknown as Record<string, unknown>)[n]).toBe('function');
    const r = await api.listDirectory('/x', undefined);
    expect(r).toEqual({ ok: true, value: { bytes: new Uint8Array([5, 6]) } });
    expect(seen[0].url).toBe('http://127.0.0.1:1/api/call/listDirectory');
    expect((seen[0].init.headers as Record<string, string>)['x-vmd-token']).toBe('tok');
    expect(JSON.parse(seen[0].init.body as string)).toEqual({ args: ['/x'] });
  });

  it('turns refused or failed requests into error values, never throws', async () => {
    const refused = createHttpApi({ token: 'x', fetch: (async () => new Response('missing or wrong token', { status: 401 })) as unknown as typeof fetch });
    expect(await refused.listRecent()).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    const down = createHttpApi({ token: 'x', fetch: (async () => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch });
    expect(await down.listRecent()).toMatchObject({ ok: false, error: { code: 'E_IO' } });
  });

  it('sends a settings change as a keepalive fetch (finished after the page is gone); past the budget, or refused, as an ordinary one', async () => {
    const seen: RequestInit[] = [];
    let refuseKeepalive = false;
    const fetch = (async (_url: string, init: RequestInit) => {
      seen.push(init);
      if (init.keepalive && refuseKeepalive) throw new TypeError('keepalive budget exceeded');
      return new Response(JSON.stringify({ ok: true, value: null }), { headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof globalThis.fetch;
    const api = createHttpApi({ token: 't', fetch });
    expect(await api.setSettings({ ui: { a: 1 } })).toEqual({ ok: true, value: null });
    expect(seen.map((i) => i.keepalive)).toEqual([true]);
    // Other requests are ordinary (a file's bytes may be far past the 64 KiB keepalive budget).
    await api.listRecent();
    expect(seen[1].keepalive).toBeUndefined();
    // A settings patch of 20,000 characters goes ordinary (keepalive bodies share 64 KiB).
    await api.setSettings({ ui: { big: 'x'.repeat(20_000) } });
    expect(seen[2].keepalive).toBeUndefined();
    // The browser refuses a keepalive (its budget taken by others): sent again as ordinary, answered.
    refuseKeepalive = true;
    expect(await api.setSettings({ ui: { a: 2 } })).toEqual({ ok: true, value: null });
    expect(seen.slice(3).map((i) => i.keepalive)).toEqual([true, undefined]);
  });

  it('sends big bytes (a 600,000-key motion) as the frame, byte for byte, its body made in 1 MB slices', async () => {
    let body: Uint8Array | null = null;
    const fetch = (async (_url: string, init: RequestInit) => {
      body = new Uint8Array(await (init.body as Blob).arrayBuffer());
      return new Response(JSON.stringify({ ok: true, value: { savedAt: 1 } }), { headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof globalThis.fetch;
    const api = createHttpApi({ token: 't', fetch });
    // 5 MB + 3 bytes (five whole slices and a short one), each byte its offset's low 8 bits times 7.
    const bytes = new Uint8Array(5 * (1 << 20) + 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    const info = { doc: '1', name: 'a.vmd', path: null, kind: 'motion', format: 'vmd', keys: 1 } as const;
    expect(await api.keepRecoveryCopy('s', info, bytes)).toEqual({ ok: true, value: { savedAt: 1 } });
    // The frame built here by its layout (shared/ipc/wire-frame.ts): magic, JSON length, JSON, part length, part.
    const json = new TextEncoder().encode(JSON.stringify({ args: ['s', info, { $bytes: 0 }] }));
    const frame = new Uint8Array(8 + json.length + 4 + bytes.length);
    frame.set([0x56, 0x4d, 0x57, 0x31]);
    new DataView(frame.buffer).setUint32(4, json.length, true);
    frame.set(json, 8);
    new DataView(frame.buffer).setUint32(8 + json.length, bytes.length, true);
    frame.set(bytes, 12 + json.length);
    expect(body!.length).toBe(frame.length);
    expect(Buffer.from(body!).equals(Buffer.from(frame))).toBe(true);
  });

  it('delivers server-sent events to subscribers until they unsubscribe', () => {
    const sources: FakeES[] = [];
    class FakeES {
      listeners = new Map<string, ((e: { data: string }) => void)[]>();
      constructor(readonly url: string) {
        sources.push(this);
      }
      addEventListener(n: string, l: (e: { data: string }) => void) {
        this.listeners.set(n, [...(this.listeners.get(n) ?? []), l]);
      }
      fire(n: string, payload: unknown) {
        this.listeners.get(n)?.forEach((l) => l({ data: JSON.stringify(payload) }));
      }
    }
    const api = createHttpApi({ token: 't k', fetch: (async () => new Response('{}')) as unknown as typeof fetch, EventSource: FakeES as unknown as typeof EventSource });
    const got: unknown[] = [];
    const off = api.onFileOpened((p) => got.push(p));
    api.onBatchDone(() => got.push('done'));
    expect(sources).toHaveLength(1); // one stream for all events
    // The token, and the page's own id (server-page-gone.test.ts: the server cancels a closed page's exports by it).
    const url = new URL(sources[0].url, 'http://h');
    expect(url.pathname).toBe('/api/events');
    expect(url.searchParams.get('token')).toBe('t k');
    expect(url.searchParams.get('client')).toMatch(/^[\w-]{8,}$/);
    sources[0].fire('fileOpened', { path: '/a.vmd' });
    off();
    sources[0].fire('fileOpened', { path: '/b.vmd' });
    sources[0].fire('batchDone', {});
    expect(got).toEqual([{ path: '/a.vmd' }, 'done']);
  });
});
