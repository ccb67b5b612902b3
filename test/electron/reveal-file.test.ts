// After a video export, Open video and Show in folder (the new-user pass nubegin, finding 9: only a path was
// there to copy): revealFile hands a written file to the system's shell under Electron and says it cannot in
// the browser mode; a bad `how` is refused before any shell call.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, dispatch, type ServicesOptions } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vmd-reveal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function handlers(shell?: ServicesOptions['shell']) {
  return createServices({ settingsDir: path.join(dir, 'settings'), dialogs: noDialogs, emit: () => undefined, runBatch: (() => undefined) as never, appInfo: { name: 't', version: '0', mode: shell ? 'electron' : 'browser', versions: { node: '' } }, shell }).handlers;
}

describe('revealFile', () => {
  it('opens the file or shows it in its folder through the shell', async () => {
    const calls: string[] = [];
    const h = handlers({ openPath: async (p) => (calls.push(`open ${p}`), ''), showItemInFolder: (p) => void calls.push(`folder ${p}`) });
    const video = path.join(dir, 'my dance.mp4');
    expect(await dispatch(h, 'revealFile', [video, 'open'])).toEqual({ ok: true, value: undefined });
    expect(await dispatch(h, 'revealFile', [video, 'folder'])).toEqual({ ok: true, value: undefined });
    expect(calls).toEqual([`open ${video}`, `folder ${video}`]);
  });

  it('passes on the system’s reason when the file does not open', async () => {
    const h = handlers({ openPath: async () => 'No application is associated with the specified file', showItemInFolder: () => undefined });
    const r = await dispatch(h, 'revealFile', [path.join(dir, 'a.mp4'), 'open']);
    expect(r).toMatchObject({ ok: false, error: { code: 'E_IO' } });
    expect(r.ok ? '' : r.error.message).toContain('No application is associated');
  });

  it('refuses in the browser mode, and refuses a bad request before the shell', async () => {
    expect(await dispatch(handlers(), 'revealFile', [path.join(dir, 'a.mp4'), 'folder'])).toMatchObject({ ok: false, error: { code: 'E_UNSUPPORTED' } });
    const calls: string[] = [];
    const h = handlers({ openPath: async (p) => (calls.push(p), ''), showItemInFolder: (p) => void calls.push(p) });
    expect(await dispatch(h, 'revealFile', [path.join(dir, 'a.mp4'), 'run'])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(await dispatch(h, 'revealFile', [path.join(dir, 'a.mp4')])).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(calls).toEqual([]);
  });
});
