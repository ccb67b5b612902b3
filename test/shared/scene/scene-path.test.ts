import { describe, expect, it } from 'vitest';
import {
  basenamePath,
  dirnamePath,
  isAbsolutePath,
  normalizePath,
  relativePath,
  resolvePath,
  samePath,
} from '../../../shared/scene/scene-path';

describe("scene paths (posix and windows, by the shape of each path)", () => {
  it('tells absolute from relative in both styles', () => {
    for (const p of ['/home/a', 'C:\\x', 'c:/x', '\\\\srv\\share\\x', '//srv/share']) expect(isAbsolutePath(p), p).toBe(true);
    for (const p of ['a/b', 'a\\b', '..\\x', 'C:', 'C:x', '']) expect(isAbsolutePath(p), p).toBe(false);
  });

  it('normalises . and .. and separators', () => {
    expect(normalizePath('/a/./b/../c//d')).toBe('/a/c/d');
    expect(normalizePath('c:/a/b/../c')).toBe('C:\\a\\c');
    expect(normalizePath('\\\\srv\\share\\a\\..\\b')).toBe('\\\\srv\\share\\b');
    expect(normalizePath('a\\b/../c')).toBe('a/c');
    expect(normalizePath('../../x')).toBe('../../x');
    expect(normalizePath('/..')).toBe('/');
  });

  it('dirname and basename', () => {
    expect(dirnamePath('/s/scene.vmdscene')).toBe('/s');
    expect(dirnamePath('/scene.vmdscene')).toBe('/');
    expect(dirnamePath('D:\\mmd\\scene.vmdscene')).toBe('D:\\mmd');
    expect(dirnamePath('D:\\scene.vmdscene')).toBe('D:\\');
    expect(basenamePath('D:\\mmd\\ミク.pmx')).toBe('ミク.pmx');
    expect(basenamePath('/a/b.vmd')).toBe('b.vmd');
    expect(basenamePath('/')).toBe('');
  });

  it("resolves relative paths (either separator) against a folder, in the folder's style", () => {
    expect(resolvePath('/home/u/proj', 'models/miku.pmx')).toBe('/home/u/proj/models/miku.pmx');
    expect(resolvePath('/home/u/proj', 'models\\miku.pmx')).toBe('/home/u/proj/models/miku.pmx');
    expect(resolvePath('/home/u/proj', '../song.wav')).toBe('/home/u/song.wav');
    expect(resolvePath('/home', '../../../x')).toBe('/x');
    expect(resolvePath('C:\\Users\\u\\proj', 'models/miku.pmx')).toBe('C:\\Users\\u\\proj\\models\\miku.pmx');
    expect(resolvePath('C:\\Users\\u\\proj', '..\\song.wav')).toBe('C:\\Users\\u\\song.wav');
    expect(resolvePath('\\\\srv\\share\\p', 'a/b.vmd')).toBe('\\\\srv\\share\\p\\a\\b.vmd');
    // An absolute path stays absolute (a file on another drive).
    expect(resolvePath('C:\\proj', 'D:/music/song.wav')).toBe('D:\\music\\song.wav');
    expect(resolvePath('/proj', '/music/song.wav')).toBe('/music/song.wav');
  });

  it('makes relative paths with / and gives null when none exists', () => {
    expect(relativePath('/home/u/proj', '/home/u/proj/models/miku.pmx')).toBe('models/miku.pmx');
    expect(relativePath('/home/u/proj', '/home/u/song.wav')).toBe('../song.wav');
    expect(relativePath('/home/u/proj', '/etc/x')).toBe('../../../etc/x');
    expect(relativePath('/home/u/proj', '/home/u/proj')).toBe('.');
    expect(relativePath('C:\\Users\\U\\Proj', 'c:\\users\\u\\proj\\Models\\Miku.pmx')).toBe('Models/Miku.pmx');
    expect(relativePath('/home/U', '/home/u/x')).toBe('../u/x'); // posix is case-sensitive
    expect(relativePath('C:\\proj', 'D:\\song.wav')).toBeNull();
    expect(relativePath('/proj', 'C:\\song.wav')).toBeNull();
    expect(relativePath('\\\\a\\s\\p', '\\\\b\\s\\p\\x')).toBeNull();
  });

  it('relative then resolve is the identity', () => {
    const cases: [string, string][] = [
      ['/home/u/proj', '/home/u/other/dance.vmd'],
      ['/a', '/a/b/c/d.vmd'],
      ['C:\\mmd\\scenes', 'C:\\mmd\\models\\miku.pmx'],
      ['\\\\srv\\share\\p', '\\\\srv\\share\\q\\r.wav'],
    ];
    for (const [dir, target] of cases) expect(resolvePath(dir, relativePath(dir, target)!)).toBe(target);
  });

  it("samePath follows each style's case rule", () => {
    expect(samePath('C:\\A\\b.vmd', 'c:/a/B.vmd')).toBe(true);
    expect(samePath('/a/b.vmd', '/a/B.vmd')).toBe(false);
    expect(samePath('/a/./b.vmd', '/a/b.vmd')).toBe(true);
  });
});
