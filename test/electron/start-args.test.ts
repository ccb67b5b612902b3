/** `npm start -- dance.vmd camera.vmd`: relative paths are the user's folder's (npm's INIT_CWD), not the project's. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startArgs } from '../../electron/start.mjs';

describe('electron/start.mjs startArgs', () => {
  it('resolves relative paths against the folder given (INIT_CWD by default), keeping absolute paths, URLs and switches', () => {
    expect(startArgs(['dance.vmd', 'cam/camera.vmd'], '/home/me/mmd')).toEqual(['/home/me/mmd/dance.vmd', '/home/me/mmd/cam/camera.vmd']);
    expect(startArgs(['/abs/a.vmd', 'file:///x/b.vmd', '--port', '--', 'c.vmd'], '/u')).toEqual(['/abs/a.vmd', 'file:///x/b.vmd', '--port', '--', '/u/c.vmd']);
    const prev = process.env.INIT_CWD;
    process.env.INIT_CWD = '/typed/here';
    try {
      expect(startArgs(['dance.vmd'])).toEqual([path.resolve('/typed/here', 'dance.vmd')]);
    } finally {
      if (prev === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = prev;
    }
  });
});
