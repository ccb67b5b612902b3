import { describe, expect, it } from 'vitest';
import { filesFromArgv } from '../../electron/argv';

describe('filesFromArgv', () => {
  it('skips the Electron binary and the app path in development', () => {
    expect(filesFromArgv(['/usr/lib/electron/electron', '.', 'dance.vmd'], { packaged: false, platform: 'linux', cwd: '/home/me' })).toEqual([
      '/home/me/dance.vmd',
    ]);
    // The app path itself must never be taken for a file, even if it were a .vmd-looking name.
    expect(filesFromArgv(['electron', 'dist/electron/main.cjs', '/m/a.vmd'], { packaged: false, platform: 'linux', cwd: '/' })).toEqual(['/m/a.vmd']);
  });

  it('skips only the executable when packaged', () => {
    expect(filesFromArgv(['/opt/VMD Studio/vmd-studio', '/home/me/a.vmd', 'b.VPD'], { packaged: true, platform: 'linux', cwd: '/w' })).toEqual([
      '/home/me/a.vmd',
      '/w/b.VPD',
    ]);
  });

  it('reads Windows paths, drive-relative and UNC, and drops Chromium switches from second-instance argv', () => {
    const argv = [
      'C:\\Program Files\\VMD Studio\\VMD Studio.exe',
      '--allow-file-access-from-files',
      '--original-process-start-time=13345',
      'C:\\Users\\初音\\Desktop\\ダンス.vmd',
      '\\\\nas\\share\\pose.vpd',
      'sub\\x.vmd',
    ];
    expect(filesFromArgv(argv, { packaged: true, platform: 'win32', cwd: 'D:\\work' })).toEqual([
      'C:\\Users\\初音\\Desktop\\ダンス.vmd',
      '\\\\nas\\share\\pose.vpd',
      'D:\\work\\sub\\x.vmd',
    ]);
  });

  it('converts file: URLs from Linux desktop launchers and Windows', () => {
    expect(filesFromArgv(['app', 'file:///home/me/My%20Motion.vmd'], { packaged: true, platform: 'linux', cwd: '/' })).toEqual(['/home/me/My Motion.vmd']);
    expect(filesFromArgv(['app', 'file:///C:/Users/me/a%20b.vpd'], { packaged: true, platform: 'win32', cwd: 'C:\\' })).toEqual(['C:\\Users\\me\\a b.vpd']);
  });

  it('ignores the old macOS -psn switch, non-motion files, empty and duplicate arguments', () => {
    const argv = ['/Applications/VMD Studio.app/Contents/MacOS/VMD Studio', '-psn_0_123456', '/Users/me/a.vmd', '/Users/me/notes.txt', '', '/Users/me/A.vmd'];
    // macOS file systems are case-insensitive by default: a.vmd and A.vmd are one file.
    expect(filesFromArgv(argv, { packaged: true, platform: 'darwin', cwd: '/' })).toEqual(['/Users/me/a.vmd']);
  });

  it('takes arguments after -- as files even if they start with a dash, and strips stray quotes', () => {
    expect(filesFromArgv(['app', '--', '-odd.vmd', '"/x/with space.vpd"'], { packaged: true, platform: 'linux', cwd: '/c' })).toEqual([
      '/c/-odd.vmd',
      '/x/with space.vpd',
    ]);
  });
});
