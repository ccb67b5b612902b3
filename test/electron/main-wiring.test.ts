/**
 * electron/main.ts wired against a scripted fake of Electron's API (the real binary is not available
 * here): single-instance lock, window security preferences, IPC registration, file hand-over from
 * argv / open-file / second-instance, navigation and window.open refusal, the unsaved-changes prompt,
 * and paths: only what a person chose may be read or written (electron/services/access.ts).
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REQUEST_NAMES } from '../../shared/ipc/contract';
import { ROOT } from '../helpers/build';
import { corpusPath } from '../helpers/corpus';

function makeFake(opts: { lock: boolean; argv?: string[] }) {
  const userData = mkdtempSync(path.join(os.tmpdir(), 'vmd-main-'));
  const calls: string[] = [];
  /** Each menu main set, as its template (the fake's buildFromTemplate hands the template back). */
  const menus: unknown[] = [];
  const app = Object.assign(new EventEmitter(), {
    isPackaged: true,
    setPath: (n: string, p: string) => calls.push(`setPath:${n}:${p}`),
    getPath: (n: string) => (n === 'userData' ? userData : n === 'home' ? os.tmpdir() : userData),
    getLocale: () => 'en-US',
    requestSingleInstanceLock: () => (calls.push('lock'), opts.lock),
    quit: () => calls.push('quit'),
    whenReady: () => (calls.push('whenReady'), Promise.resolve()),
    addRecentDocument: (p: string) => calls.push(`recentDocument:${p}`),
    clearRecentDocuments: () => undefined,
  });
  const windows: FakeWindow[] = [];
  const contentsCreated: FakeContents[] = [];
  class FakeContents extends EventEmitter {
    sent: { channel: string; payload: unknown }[] = [];
    openHandler: ((d: { url: string }) => { action: string }) | null = null;
    send(channel: string, payload: unknown) {
      this.sent.push({ channel, payload });
    }
    setWindowOpenHandler(fn: (d: { url: string }) => { action: string }) {
      this.openHandler = fn;
    }
    getURL() {
      return 'file:///app/dist/renderer/index.html';
    }
  }
  class FakeWindow extends EventEmitter {
    webContents = new FakeContents();
    title = '';
    closed = 0;
    constructor(readonly options: Record<string, any>) {
      super();
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadFile(f: string) {
      this.loadedFile = f;
      return Promise.resolve();
    }
    loadedFile = '';
    isDestroyed = () => false;
    isMinimized = () => false;
    restore() {}
    focus() {}
    show() {}
    maximize() {}
    isMaximized = () => false;
    getNormalBounds = () => ({ x: 1, y: 2, width: 1000, height: 700 });
    setTitle(t: string) {
      this.title = t;
    }
    setDocumentEdited() {}
    setRepresentedFilename() {}
    close() {
      this.closed++;
      const e = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      this.emit('close', e);
      return e.defaultPrevented;
    }
  }
  const handlers = new Map<string, (e: unknown, ...a: unknown[]) => Promise<unknown>>();
  /** ipcMain.on listeners (messages without an answer: the preload's dropped-file report). */
  const listeners = new Map<string, (e: unknown, ...a: unknown[]) => void>();
  /** What the next native open dialogs answer, in order (cancelled when empty). */
  const openAnswers: string[] = [];
  let messageResponse = 2;
  const messages: unknown[] = [];
  const fake = {
    app,
    BrowserWindow: FakeWindow,
    ipcMain: {
      handle: (c: string, f: any) => handlers.set(c, f),
      removeHandler: (c: string) => handlers.delete(c),
      on: (c: string, f: any) => listeners.set(c, f),
    },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => (menus.push(m), calls.push('menu')) },
    session: { defaultSession: { setPermissionRequestHandler: (f: any) => f(null, 'camera', (ok: boolean) => calls.push(`permission:${ok}`)) } },
    dialog: {
      showMessageBox: async (_w: unknown, o: unknown) => (messages.push(o), { response: messageResponse }),
      showOpenDialog: async () => {
        const next = openAnswers.shift();
        return next ? { canceled: false, filePaths: [next] } : { canceled: true, filePaths: [] };
      },
      showSaveDialog: async () => ({ canceled: true }),
    },
    shell: {
      openExternal: async () => undefined,
      openPath: async (p: string) => (calls.push(`openPath:${p}`), ''),
      showItemInFolder: (p: string) => calls.push(`showItemInFolder:${p}`),
    },
  };
  return {
    fake,
    calls,
    menus,
    windows,
    contentsCreated,
    handlers,
    listeners,
    openAnswers,
    messages,
    setResponse: (r: number) => (messageResponse = r),
    cleanup: () => rmSync(userData, { recursive: true, force: true }),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('electron/main.ts wiring', () => {
  let env: ReturnType<typeof makeFake>;
  const argv = process.argv;
  afterEach(() => {
    process.argv = argv;
    env?.cleanup();
    vi.doUnmock('electron');
    vi.resetModules();
  });

  async function load(opts: { lock: boolean; argv?: string[] }) {
    env = makeFake(opts);
    process.argv = opts.argv ?? ['/opt/vmd/vmd-studio'];
    vi.resetModules();
    vi.doMock('electron', () => ({ ...env.fake, default: env.fake }));
    await import('../../electron/main');
    // Start-up is asynchronous (whenReady, then the window and its page): wait for its end, not a fixed
    // pause, which a loaded machine outran (6 of 7 tests failed in a full parallel run).
    const e = env;
    await vi.waitFor(() => {
      if (opts.lock) expect(e.windows[0]?.loadedFile).toBeTruthy();
      else expect(e.calls).toContain('quit');
    }, { timeout: 15_000 });
    await tick();
    return env;
  }

  it('quits without a window when another instance holds the lock', async () => {
    const e = await load({ lock: false });
    expect(e.calls).toContain('quit');
    expect(e.calls).not.toContain('whenReady');
    expect(e.windows).toHaveLength(0);
  });

  it('takes the lock first, then opens one secure window with every request registered', async () => {
    const e = await load({ lock: true });
    expect(e.calls.indexOf('lock')).toBeLessThan(e.calls.indexOf('whenReady'));
    expect(e.windows).toHaveLength(1);
    const wp = e.windows[0].options.webPreferences;
    expect(wp).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(wp.preload).toMatch(/preload\.cjs$/);
    expect(e.windows[0].loadedFile).toMatch(/renderer[\\/]index\.html$/);
    expect([...e.handlers.keys()].sort()).toEqual(REQUEST_NAMES.map((n) => `vmd:${n}`).sort());
    expect(e.calls).toContain('permission:false');
    // New windows denied, navigation away blocked.
    const wc = e.windows[0].webContents;
    expect(wc.openHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    const nav = { prevented: false, preventDefault() { this.prevented = true; } };
    wc.emit('will-navigate', nav, 'https://evil.example/');
    expect(nav.prevented).toBe(true);
    // A request from a foreign frame is refused by the registered handler.
    const r = await e.handlers.get('vmd:listRecent')!({ senderFrame: { url: 'https://evil.example/', parent: null } });
    expect(r).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
  });

  it('hands files from argv, macOS open-file (before load) and second instances to the window as fileOpened', async () => {
    const e = await load({ lock: true, argv: ['/opt/vmd/vmd-studio', '/m/first.vmd'] });
    e.fake.app.emit('open-file', { preventDefault() {} }, '/m/mac.vpd');
    const wc = e.windows[0].webContents;
    expect(wc.sent).toEqual([]); // nothing before the page has loaded
    wc.emit('did-finish-load');
    e.fake.app.emit('second-instance', {}, ['/opt/vmd/vmd-studio', '--flag', 'rel/second.vmd'], '/home/me');
    expect(wc.sent.filter((s) => s.channel === 'vmd:fileOpened').map((s) => s.payload)).toEqual([
      { path: '/m/first.vmd' },
      { path: '/m/mac.vpd' },
      { path: '/home/me/rel/second.vmd' },
    ]);
  });

  it('refuses a path nobody chose with E_IO_DENIED, and opens what the person chose: argv, a dialog, a drop, open-file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-access-wiring-'));
    try {
      const file = (name: string) => {
        const p = path.join(dir, name);
        writeFileSync(p, 'Vocaloid Motion Data 0002');
        return p;
      };
      const [fromArgv, fromDialog, dropped, fromMac, never] = ['argv.vmd', 'dialog.vmd', 'dropped.vmd', 'mac.vmd', 'never.vmd'].map(file);
      const e = await load({ lock: true, argv: ['/opt/vmd/vmd-studio', fromArgv] });
      const w = e.windows[0];
      const frame = { url: 'file://' + w.loadedFile.replace(/\\/g, '/'), parent: null };
      const req = (name: string, ...args: unknown[]) => e.handlers.get(`vmd:${name}`)!({ senderFrame: frame }, ...args) as Promise<any>;
      const denied = { ok: false, error: { code: 'E_IO_DENIED' } };

      // Nothing was chosen for these: every kind of request is refused, and nothing is read or written.
      expect(await req('openFile', never)).toMatchObject({ ...denied, error: { ...denied.error, file: never } });
      expect(await req('saveFile', path.join(dir, 'planted.vmd'), new Uint8Array([1, 2, 3]))).toMatchObject(denied);
      expect(existsSync(path.join(dir, 'planted.vmd'))).toBe(false);
      expect(await req('listDirectory', dir)).toMatchObject(denied);
      expect(await req('listDirectory', '')).toMatchObject(denied);
      expect(await req('readModelFile', path.join(dir, 'm.pmx'))).toMatchObject(denied);
      expect(await req('readAsset', path.join(dir, 'm.pmx'), 'tex.png')).toMatchObject(denied);
      expect(await req('startBatch', { op: 'inspect', inputDir: dir, outputDir: path.join(dir, 'out'), options: {}, overwrite: true })).toMatchObject(denied);
      expect(existsSync(path.join(dir, 'out'))).toBe(false);
      expect(await req('setSettings', { previewModel: path.join(dir, 'm.pmx') })).toMatchObject(denied);

      // The file given on the command line.
      expect(await req('openFile', fromArgv)).toMatchObject({ ok: true, value: { path: fromArgv } });
      // A native dialog's answer.
      expect(await req('openFile', fromDialog)).toMatchObject(denied);
      e.openAnswers.push(fromDialog);
      expect(await req('pickFile', { filter: 'motion' })).toEqual({ ok: true, value: fromDialog });
      expect(await req('openFile', fromDialog)).toMatchObject({ ok: true, value: { path: fromDialog } });
      // A dropped file, as the preload reports it; the same message from another frame grants nothing.
      const drop = e.listeners.get('vmd:droppedFile')!;
      drop({ senderFrame: { url: 'https://evil.example/', parent: null } }, never);
      expect(await req('openFile', never)).toMatchObject(denied);
      drop({ senderFrame: frame }, dropped);
      expect(await req('openFile', dropped)).toMatchObject({ ok: true, value: { path: dropped } });
      // macOS open-file.
      e.fake.app.emit('open-file', { preventDefault() {} }, fromMac);
      expect(await req('openFile', fromMac)).toMatchObject({ ok: true, value: { path: fromMac } });
      // A chosen batch folder: listing and a job inside it are allowed, writing next to it is not.
      e.openAnswers.push(dir);
      expect(await req('pickFolder', {})).toEqual({ ok: true, value: dir });
      expect(await req('listDirectory', dir)).toMatchObject({ ok: true });
      expect(await req('saveFile', path.join(path.dirname(dir), 'beside.vmd'), new Uint8Array([1]))).toMatchObject(denied);
      expect(await req('openFile', never)).toMatchObject({ ok: true }); // inside the chosen folder now
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Open… of a VMD renamed .mvd: its first bytes only are read (readFileHead), and it opens as the VMD it is; a real .mvd is refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-head-wiring-'));
    try {
      // A VMD (header, model name, six empty blocks) under MikuMikuMoving's extension, and a real MVD's header.
      const vmd = Buffer.concat([Buffer.from('Vocaloid Motion Data 0002'.padEnd(30, '\0'), 'latin1'), Buffer.alloc(20), Buffer.alloc(24), Buffer.alloc(64 * 1024)]);
      const renamed = path.join(dir, 'dance.mvd');
      writeFileSync(renamed, vmd);
      const mvd = path.join(dir, 'motion.mvd');
      writeFileSync(mvd, Buffer.concat([Buffer.from('Motion Vector Data file', 'latin1'), Buffer.alloc(100)]));
      const e = await load({ lock: true });
      const frame = { url: 'file://' + e.windows[0].loadedFile.replace(/\\/g, '/'), parent: null };
      const req = (name: string, ...args: unknown[]) => e.handlers.get(`vmd:${name}`)!({ senderFrame: frame }, ...args) as Promise<any>;
      // Not chosen: refused as any read is.
      expect(await req('readFileHead', renamed)).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
      e.openAnswers.push(renamed);
      expect(await req('pickFile', { filter: 'open' })).toEqual({ ok: true, value: renamed });
      const head = await req('readFileHead', renamed);
      expect(head.ok).toBe(true);
      // 64 bytes of the 64 KiB file, and they are its first ones.
      expect(Buffer.from(head.value.bytes)).toEqual(vmd.subarray(0, 64));
      const opened = await req('openFile', renamed);
      expect(opened).toMatchObject({ ok: true, value: { path: renamed, name: 'dance.mvd' } });
      expect(Buffer.from(opened.value.bytes)).toEqual(vmd);
      // A real MikuMikuMoving motion still is not read as a motion.
      e.openAnswers.push(mvd);
      expect(await req('pickFile', { filter: 'open' })).toEqual({ ok: true, value: mvd });
      expect(Buffer.from((await req('readFileHead', mvd)).value.bytes).subarray(0, 23).toString('latin1')).toBe('Motion Vector Data file');
      expect(await req('openFile', mvd)).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Open video and Show in folder reach the shell for a file the person chose only', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-reveal-wiring-'));
    try {
      const video = path.join(dir, 'my dance.mp4');
      writeFileSync(video, 'not really a video');
      const other = path.join(dir, 'other.mp4');
      writeFileSync(other, 'x');
      const e = await load({ lock: true });
      const w = e.windows[0];
      const frame = { url: 'file://' + w.loadedFile.replace(/\\/g, '/'), parent: null };
      const req = (name: string, ...args: unknown[]) => e.handlers.get(`vmd:${name}`)!({ senderFrame: frame }, ...args) as Promise<any>;
      e.openAnswers.push(video);
      expect(await req('pickFile', { filter: 'any' })).toEqual({ ok: true, value: video });
      expect(await req('revealFile', video, 'open')).toEqual({ ok: true, value: undefined });
      expect(await req('revealFile', video, 'folder')).toEqual({ ok: true, value: undefined });
      expect(await req('revealFile', other, 'open')).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
      // A PNG sequence chosen as frames.png is shown by its first file, frames_000000.png.
      const frames = path.join(dir, 'frames.png');
      e.openAnswers.push(frames);
      expect(await req('pickFile', { filter: 'any' })).toEqual({ ok: true, value: frames });
      const first = path.join(dir, 'frames_000000.png');
      expect(await req('revealFile', first, 'folder')).toEqual({ ok: true, value: undefined });
      expect(e.calls.filter((c) => /^(openPath|showItemInFolder):/.test(c))).toEqual([`openPath:${video}`, `showItemInFolder:${video}`, `showItemInFolder:${first}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a chosen scene grants its paths by role through the wiring: not a folder, not through a link, not a network path (E_IO_REMOTE)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-scene-wiring-'));
    try {
      const dl = path.join(dir, 'downloaded');
      const secret = path.join(dir, 'secret');
      mkdirSync(dl);
      mkdirSync(secret);
      writeFileSync(path.join(secret, 'id_rsa'), 'KEY');
      writeFileSync(path.join(secret, 'photo.png'), 'PRIVATE');
      writeFileSync(path.join(dl, 'dance.vmd'), readFileSync(corpusPath('gene/motion/stand.vmd')));
      symlinkSync(path.join(secret, 'id_rsa'), path.join(dl, 'song.wav'));
      const scene = path.join(dl, 'duet.vmdscene');
      writeFileSync(
        scene,
        JSON.stringify({
          format: 'vmd-studio-scene',
          version: 1,
          actors: [
            { model: '//attacker/share/m.pmx', motion: 'dance.vmd' },
            { model: path.join(dir, 'gone', 'm.pmx'), motion: secret },
          ],
          camera: '\\\\attacker@SSL@443\\DavWWWRoot\\cam.vmd',
          audio: { path: 'song.wav' },
        }),
      );
      const e = await load({ lock: true });
      const frame = { url: 'file://' + e.windows[0].loadedFile.replace(/\\/g, '/'), parent: null };
      const req = (name: string, ...args: unknown[]) => e.handlers.get(`vmd:${name}`)!({ senderFrame: frame }, ...args) as Promise<any>;
      e.openAnswers.push(scene);
      expect(await req('pickFile', { filter: 'scene' })).toEqual({ ok: true, value: scene });
      expect(await req('openScene', scene)).toMatchObject({ ok: true });
      // The motion opens as a motion, and only as one.
      expect(await req('openFile', path.join(dl, 'dance.vmd'))).toMatchObject({ ok: true });
      expect(await req('readModelFile', path.join(dl, 'dance.vmd'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
      // The song is a link to a key: judged by the file it reaches, which is no audio file.
      expect(await req('readAudioFile', path.join(dl, 'song.wav'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
      // A folder named as a motion is no folder to list or to batch into.
      expect(await req('listDirectory', secret)).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
      expect(await req('startBatch', { op: 'mirror', inputDir: secret, outputDir: path.join(secret, 'work'), options: {} })).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
      // A model that is not there opens no folder of pictures.
      expect(await req('readAsset', path.join(dir, 'gone', 'm.pmx'), '../secret/photo.png')).toMatchObject({ ok: false });
      expect(await req('readAsset', path.join(dir, 'gone', 'm.pmx'), 'photo.png')).toMatchObject({ ok: false });
      // Network paths are not opened on the scene's word; the renderer gets a code it can show.
      expect(await req('readModelFile', '\\\\attacker\\share\\m.pmx')).toMatchObject({ ok: false, error: { code: 'E_IO_REMOTE' } });
      expect(await req('openFile', '\\\\attacker@SSL@443\\DavWWWRoot\\cam.vmd')).toMatchObject({ ok: false, error: { code: 'E_IO_REMOTE' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("only a file that opens goes on the OS recent documents and the recent list", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-recent-wiring-'));
    try {
      const good = path.join(dir, 'good.vmd');
      writeFileSync(good, readFileSync(corpusPath('gene/motion/stand.vmd')));
      const bad = path.join(dir, 'bad.vmd');
      writeFileSync(bad, 'Vocaloid Motion Data 0002');
      const e = await load({ lock: true, argv: ['/opt/vmd/vmd-studio', good, bad] });
      const frame = { url: 'file://' + e.windows[0].loadedFile.replace(/\\/g, '/'), parent: null };
      const req = (name: string, ...args: unknown[]) => e.handlers.get(`vmd:${name}`)!({ senderFrame: frame }, ...args) as Promise<any>;
      // Both hand their bytes back (the editor then says why the bad one does not open) …
      expect(await req('openFile', bad)).toMatchObject({ ok: true });
      expect(await req('openFile', good)).toMatchObject({ ok: true });
      // … but only the good one is recent, to the OS and in the app's list.
      expect(e.calls.filter((c) => c.startsWith('recentDocument:'))).toEqual([`recentDocument:${good}`]);
      expect((await req('listRecent')).value.map((r: { path: string }) => r.path)).toEqual([good]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closing with unsaved changes hands the questions to the renderer; only its closeWindow closes', async () => {
    const e = await load({ lock: true });
    const w = e.windows[0];
    const frame = { url: 'file://' + w.loadedFile.replace(/\\/g, '/'), parent: null };
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, { path: '/m/a.vmd', name: 'a.vmd', dirty: true });
    expect(w.title).toBe('a.vmd * — VMD Studio');
    expect(w.close()).toBe(true); // prevented
    // The renderer asks in the window (commands.ts askEachBeforeClose: one question listing the unsaved documents); main shows no box of its own.
    expect(w.webContents.sent.at(-1)).toEqual({ channel: 'vmd:menuCommand', payload: { command: 'saveAndClose' } });
    expect(e.messages).toHaveLength(0);
    // Cancel in the renderer: nothing more comes; a second close asks again.
    expect(w.close()).toBe(true);
    expect(w.webContents.sent.filter((m: { channel: string }) => m.channel === 'vmd:menuCommand')).toHaveLength(2);
    // Every answer was Save or Don't Save: the renderer's closeWindow closes it, this time not prevented.
    const before = w.closed;
    await e.handlers.get('vmd:closeWindow')!({ senderFrame: frame });
    expect(w.closed).toBe(before + 1);
    expect(w.close()).toBe(false); // not prevented any more
  });

  it('the native menu turns Export VPD/VRMA/BVH off while the renderer says a camera or light motion is active', async () => {
    const e = await load({ lock: true });
    const frame = { url: 'file://' + e.windows[0].loadedFile.replace(/\\/g, '/'), parent: null };
    // File's Export VPD at Frame… and Export → VRM Animation / BVH, as menu.test.ts finds them.
    const labels = ['Export VPD at Frame…', 'VRM Animation (.vrma)…', 'BVH…'];
    const exportsOf = (menu: unknown) => {
      const flat = (items: any[]): any[] => items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flat(i.submenu) : [])]);
      return labels.map((l) => flat(menu as any[]).find((i) => i.label === l));
    };
    const settle = (n: number) => vi.waitFor(() => expect(e.menus.length).toBeGreaterThan(n));
    expect(exportsOf(e.menus.at(-1)).map((i) => i.enabled)).toEqual([undefined, undefined, undefined]);
    let n = e.menus.length;
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, { path: '/m/camera.vmd', name: 'camera.vmd', dirty: false, stageMotion: 'camera' });
    await settle(n);
    expect(exportsOf(e.menus.at(-1)).map((i) => i.enabled)).toEqual([false, false, false]);
    // An edit that leaves it a camera motion does not rebuild the menu; a model's motion turns them on again.
    n = e.menus.length;
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, { path: '/m/camera.vmd', name: 'camera.vmd', dirty: true, stageMotion: 'camera' });
    await tick();
    expect(e.menus.length).toBe(n);
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, { path: '/m/dance.vmd', name: 'dance.vmd', dirty: false });
    await settle(n);
    expect(exportsOf(e.menus.at(-1)).map((i) => i.enabled)).toEqual([undefined, undefined, undefined]);
  });

  it('a job running with nothing unsaved (a video rendering) hands the close to the renderer too; after it ends the window closes at once', async () => {
    const e = await load({ lock: true });
    const w = e.windows[0];
    const frame = { url: 'file://' + w.loadedFile.replace(/\\/g, '/'), parent: null };
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, { path: '/m/a.vmd', name: 'a.vmd', dirty: false, busy: true });
    expect(w.title).toBe('a.vmd — VMD Studio');
    expect(w.close()).toBe(true); // prevented: the renderer asks "Stop it and close?"
    expect(w.webContents.sent.at(-1)).toEqual({ channel: 'vmd:menuCommand', payload: { command: 'saveAndClose' } });
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, { path: '/m/a.vmd', name: 'a.vmd', dirty: false });
    expect(w.close()).toBe(false);
  });

  it('a scene with unsaved documents is closed the same way; a clean one closes at once', async () => {
    const e = await load({ lock: true });
    const w = e.windows[0];
    const frame = { url: 'file://' + w.loadedFile.replace(/\\/g, '/'), parent: null };
    const state = { path: '/m/duet.vmdscene', name: 'a.vmd', dirty: true, unsaved: ['b.vmd', 'camera.vmd'], scene: 'duet.vmdscene', nameDirty: false };
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, state);
    // The * on the scene (b.vmd and the camera are unsaved), none after a.vmd, which is saved.
    expect(w.title).toBe('duet.vmdscene * — a.vmd — VMD Studio');
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, { ...state, nameDirty: true, unsaved: ['a.vmd'] });
    expect(w.title).toBe('duet.vmdscene * — a.vmd * — VMD Studio');
    expect(w.close()).toBe(true); // prevented
    expect(w.webContents.sent.at(-1)).toEqual({ channel: 'vmd:menuCommand', payload: { command: 'saveAndClose' } });
    await e.handlers.get('vmd:setDocumentState')!({ senderFrame: frame }, { ...state, dirty: false, unsaved: [] });
    expect(w.close()).toBe(false); // nothing unsaved: closes
  });

  it('loads the preload and the page from beside its own script, where the build and the package put them', async () => {
    const e = await load({ lock: true });
    // Under test the main script is electron/main.ts; packaged it is package.json's main (dist/electron/main.cjs).
    const mainDir = path.join(ROOT, 'electron');
    const preload = path.relative(mainDir, e.windows[0].options.webPreferences.preload);
    const page = path.relative(mainDir, e.windows[0].loadedFile);
    const shipped = path.dirname(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).main);
    // The files build/build-node.mjs and vite write, which builder-config.test.ts checks are packed.
    expect(path.join(shipped, preload).split(path.sep).join('/')).toBe('dist/electron/preload.cjs');
    expect(path.join(shipped, page).split(path.sep).join('/')).toBe('dist/renderer/index.html');
  });
});
