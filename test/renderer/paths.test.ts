import { describe, expect, it } from 'vitest';
import { fileNameOf, folderOf, withoutTrailingSeparators } from '../../renderer/src/paths';

describe('renderer paths', () => {
  it('splits POSIX and Windows paths into folder and file name', () => {
    expect(fileNameOf('/home/miku/dance.vmd')).toBe('dance.vmd');
    expect(folderOf('/home/miku/dance.vmd')).toBe('/home/miku');
    expect(fileNameOf('C:\\MMD\\motion\\歩き.vmd')).toBe('歩き.vmd');
    expect(folderOf('C:\\MMD\\motion\\歩き.vmd')).toBe('C:\\MMD\\motion');
    expect(folderOf('C:/MMD\\mixed/a.vpd')).toBe('C:/MMD\\mixed');
  });

  it('keeps a bare name whole, gives no folder for it or for a file at the root', () => {
    expect(fileNameOf('a.vmd')).toBe('a.vmd');
    expect(folderOf('a.vmd')).toBe('');
    expect(folderOf('/a.vmd')).toBe('');
    expect(fileNameOf('/out/')).toBe('');
  });

  it('drops separators at the end only', () => {
    expect(withoutTrailingSeparators('C:\\out\\\\')).toBe('C:\\out');
    expect(withoutTrailingSeparators('/in/')).toBe('/in');
    expect(withoutTrailingSeparators('/in/a')).toBe('/in/a');
  });
});
