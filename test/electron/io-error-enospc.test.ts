// A full disk in the app's words: ioError (electron/fs/files.ts) said "ENOSPC: no space left on device" (a video
// export filling a 256 KB tmpfs showed that raw). The errno is injected here (no small tmpfs to fill in every
// test machine); the space left is read from the real folder.
import { statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeMegabytes, ioError } from '../../electron/fs/files';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('ENOSPC', () => {
  it('says the disk is full with the MB left on the file’s disk', () => {
    const dir = os.tmpdir();
    const e = ioError(enospc(), path.join(dir, 'big.mp4'));
    const m = /^the disk is full \((\d+) MB free\)$/.exec(e.message);
    expect(m, e.message).not.toBeNull();
    // Against the folder's own figures (bavail × bsize), read here a moment apart: within 64 MB.
    const s = statfsSync(dir);
    expect(Math.abs(Number(m![1]) - (s.bavail * s.bsize) / 1048576)).toBeLessThan(64);
    expect(e.file).toBe(path.join(dir, 'big.mp4'));
    expect(e.message).not.toContain('ENOSPC');
  });

  it('a folder that cannot be read says only that the disk is full', () => {
    expect(freeMegabytes('/no/such/folder/at/all')).toBeNull();
    expect(ioError(enospc(), '/no/such/folder/at/all/x.mp4').message).toBe('the disk is full');
  });
});
