import { describe, expect, it, vi } from 'vitest';
import { channelOf, EVENT_NAMES, okValue, REQUEST_NAMES, type RequestHandlers } from '../../shared/ipc/contract';
import { validateRequest } from '../../shared/ipc/validate';
import { registerIpcHandlers, trustedFrameCheck, type IpcMainLike, type SenderFrame } from '../../electron/ipc';

const APP = 'file:///opt/vmd-studio/resources/app.asar/dist/renderer/index.html';

/** Handlers that record calls and answer ok, so a test can see whether a request got through. */
function recordingHandlers() {
  const calls: { name: string; args: unknown[] }[] = [];
  const h: Record<string, unknown> = {};
  for (const name of REQUEST_NAMES) h[name] = async (...args: unknown[]) => (calls.push({ name, args }), okValue('handled'));
  return { handlers: h as unknown as RequestHandlers, calls };
}

function fakeIpcMain() {
  const map = new Map<string, (e: unknown, ...a: unknown[]) => Promise<unknown>>();
  const fake = {
    map,
    handle: (c: string, fn: (e: unknown, ...a: unknown[]) => Promise<unknown>) => void map.set(c, fn),
    removeHandler: (c: string) => void map.delete(c),
  };
  return fake as typeof fake & IpcMainLike;
}

const mainFrame: SenderFrame = { url: APP + '?x=1#top', parent: null };

describe('IPC registration', () => {
  it('registers one vmd:-prefixed channel per request and removes them again', () => {
    const ipc = fakeIpcMain();
    const off = registerIpcHandlers(ipc, recordingHandlers().handlers, trustedFrameCheck(APP));
    expect([...ipc.map.keys()].sort()).toEqual(REQUEST_NAMES.map((n) => `vmd:${n}`).sort());
    off();
    expect(ipc.map.size).toBe(0);
  });

  it('passes valid arguments from the app frame to the handler', async () => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerIpcHandlers(ipc, handlers, trustedFrameCheck(APP));
    const bytes = new Uint8Array([1, 2, 3]);
    const r = await ipc.map.get(channelOf('saveFile'))!({ senderFrame: mainFrame }, '/tmp/a.vmd', bytes, { overwrite: true });
    expect(r).toEqual({ ok: true, value: 'handled' });
    expect(calls).toEqual([{ name: 'saveFile', args: ['/tmp/a.vmd', bytes, { overwrite: true }] }]);
  });

  it.each([
    ['openFile', []],
    ['openFile', [42]],
    ['openFile', ['']],
    ['openFile', ['/a.vmd', 'extra']],
    ['openFile', ['/a.vmd', { recent: 'no' }]],
    ['openFile', ['/a\0.vmd']],
    ['saveFile', ['/a.vmd', [1, 2, 3]]],
    ['saveFile', ['/a.vmd', new Uint8Array(1), { overwrite: 'yes' }]],
    ['saveFile', ['/a.vmd', new Uint8Array(1), { clobber: true }]],
    ['listDirectory', [null]],
    ['listDirectory', ['/', { filter: 'exe' }]],
    ['readAsset', ['/m.pmx']],
    ['setSettings', [{ locale: 'fr' }]],
    ['setSettings', [{ window: { width: 'wide', height: 1, maximized: false } }]],
    ['setSettings', [{ ui: { nested: { no: 1 } } }]],
    ['setSettings', []],
    ['startBatch', [{ op: 'explode', inputDir: '/a', outputDir: '/b', options: {} }]],
    ['startBatch', [{ op: 'mirror', inputDir: '/a', options: {} }]],
    ['startBatch', [{ op: 'mirror', inputDir: '/a', outputDir: '/b', options: { f: { deep: 1 } } }]],
    ['cancelBatch', [7]],
    ['pickFile', [{ filter: 'motion', title: 3 }]],
    ['listRecent', ['unexpected']],
    ['setDocumentState', [{ path: null, name: null }]],
    // Field names that live on Object.prototype are unknown fields, looked up as own properties only.
    ['saveFile', ['/a.vmd', new Uint8Array(1), { constructor: true }]],
    ['saveFile', ['/a.vmd', new Uint8Array(1), JSON.parse('{"__proto__": true}')]],
    ['pickFile', [{ toString: 'x' }]],
    ['setSettings', [JSON.parse('{"__proto__": {"locale": "en"}}')]],
    ['setSettings', [{ hasOwnProperty: null }]],
    ['setSettings', [{ ui: JSON.parse('{"__proto__": 1}') }]],
    ['setSettings', [{ ui: { constructor: 'x' } }]],
    ['setSettings', [{ window: JSON.parse('{"__proto__": {"width": 1, "height": 1, "maximized": false}}') }]],
    ['startBatch', [{ op: 'mirror', inputDir: '/a', outputDir: '/b', options: {}, constructor: 1 }]],
    ['startBatch', [{ op: 'mirror', inputDir: '/a', outputDir: '/b', options: JSON.parse('{"__proto__": "x"}') }]],
    ['startBatch', [Object.assign(Object.create({ op: 'mirror', inputDir: '/a', outputDir: '/b', options: {} }), {})]],
    ['setDocumentState', [Object.create({ dirty: true })]],
    ['setDocumentState', [{ path: null, name: 's', dirty: true, unsaved: [1] }]],
    ['setDocumentState', [{ path: null, name: 's', dirty: true, unsaved: 'a.vmd' }]],
    ['setDocumentState', [{ path: null, name: 's', dirty: true, scene: 1 }]],
    ['setDocumentState', [{ path: null, name: 's', dirty: true, scene: 's.vmdscene', nameDirty: 'yes' }]],
    ['setDocumentState', [{ path: null, name: 's', dirty: true, stageMotion: 'model' }]],
    ['listDirectory', ['/', { valueOf: true }]],
  ])('refuses %s with bad arguments %j as E_ARGUMENT without calling the handler', async (name, args) => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerIpcHandlers(ipc, handlers, trustedFrameCheck(APP));
    const r = (await ipc.map.get(`vmd:${name}`)!({ senderFrame: mainFrame }, ...(args as unknown[]))) as { ok: boolean; error?: { code: string } };
    expect(r.ok).toBe(false);
    expect(r.error?.code).toBe('E_ARGUMENT');
    expect(calls).toEqual([]);
  });

  it.each([
    ['a sub-frame of the app', { url: APP, parent: {} }],
    ['another file', { url: 'file:///tmp/evil.html', parent: null }],
    ['a web page', { url: 'https://example.com/', parent: null }],
    ['no frame (destroyed)', null],
  ])('refuses requests from %s', async (_what, frame) => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerIpcHandlers(ipc, handlers, trustedFrameCheck(APP));
    const r = (await ipc.map.get('vmd:listRecent')!({ senderFrame: frame })) as { ok: boolean; error?: { code: string } };
    expect(r).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect(calls).toEqual([]);
  });

  it('turns a handler that throws into an E_INTERNAL value', async () => {
    const ipc = fakeIpcMain();
    const { handlers } = recordingHandlers();
    (handlers as unknown as Record<string, unknown>).listRecent = async () => {
      throw new Error('disk on fire');
    };
    registerIpcHandlers(ipc, handlers, trustedFrameCheck(APP));
    expect(await ipc.map.get('vmd:listRecent')!({ senderFrame: mainFrame })).toEqual({ ok: false, error: { code: 'E_INTERNAL', message: 'disk on fire' } });
  });

  it('refuses unknown request names in the shared validator', () => {
    expect(validateRequest('invoke', ['vmd:openFile'])).toMatch(/unknown request/);
    expect(validateRequest('toString', [])).toMatch(/unknown request/);
  });
});

describe('preload', () => {
  it('exposes exactly the contract methods (no generic invoke) and on… returns a working unsubscribe', async () => {
    vi.resetModules();
    const exposed: Record<string, Record<string, unknown>> = {};
    const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
    const invoke = vi.fn(async (..._a: unknown[]) => 'answer');
    const send = vi.fn((..._a: unknown[]) => undefined);
    let dropPath = '/dropped/a.vmd';
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (k: string, v: Record<string, unknown>) => (exposed[k] = v) },
      ipcRenderer: {
        invoke,
        send,
        on: (c: string, l: (...a: unknown[]) => void) => {
          if (!listeners.has(c)) listeners.set(c, new Set());
          listeners.get(c)!.add(l);
        },
        removeListener: (c: string, l: (...a: unknown[]) => void) => listeners.get(c)?.delete(l),
      },
      webUtils: { getPathForFile: () => dropPath },
    }));
    await import('../../electron/preload');
    const api = exposed.vmdStudio;
    const expected = [...REQUEST_NAMES, ...EVENT_NAMES.map((e) => `on${e[0].toUpperCase()}${e.slice(1)}`), 'getPathForFile'].sort();
    expect(Object.keys(api).sort()).toEqual(expected);
    expect(api.invoke).toBeUndefined();

    await (api.openFile as (p: string) => Promise<unknown>)('/x.vmd');
    expect(invoke).toHaveBeenCalledWith('vmd:openFile', '/x.vmd');

    const got: unknown[] = [];
    const off = (api.onFileOpened as (l: (p: unknown) => void) => () => void)((p) => got.push(p));
    listeners.get('vmd:fileOpened')!.forEach((l) => l({}, { path: '/a.vmd' }));
    off();
    listeners.get('vmd:fileOpened')!.forEach((l) => l({}, { path: '/b.vmd' }));
    expect(got).toEqual([{ path: '/a.vmd' }]);
    expect(listeners.get('vmd:fileOpened')!.size).toBe(0);
    expect(send).not.toHaveBeenCalled();
    expect((api.getPathForFile as (f: unknown) => string)({})).toBe('/dropped/a.vmd');
    // A dropped file's path is reported to main, which may then open it; a File without a path is not.
    expect(send.mock.calls).toEqual([['vmd:droppedFile', '/dropped/a.vmd']]);
    dropPath = '';
    expect((api.getPathForFile as (f: unknown) => string | null)({})).toBe(null);
    expect(send).toHaveBeenCalledTimes(1);
    vi.doUnmock('electron');
  });
});
