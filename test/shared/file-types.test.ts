import { describe, expect, it } from 'vitest';
import { DOCUMENT_EXTENSIONS, extensionOf, FILE_FILTERS, FILTER_EXTENSIONS, FILTER_NAMES, hasExtension, KNOWN_EXTENSIONS, MODEL_EXTENSIONS } from '../../shared/ipc/file-types';

describe('file types', () => {
  it('finds the extension as Node does, on either separator, in any case', () => {
    expect(extensionOf('C:\\MMD\\Dance.VMD')).toBe('.vmd');
    expect(extensionOf('/a.b/c')).toBe('');
    expect(extensionOf('/x/.vmd')).toBe('');
    expect(extensionOf('scene.VmdScene')).toBe('.vmdscene');
    expect(hasExtension('/m/ミク.PMX', MODEL_EXTENSIONS)).toBe(true);
    expect(hasExtension('/m/miku.pmx.bak', MODEL_EXTENSIONS)).toBe(false);
  });

  it('gives every filter its extensions and a dialog name; any lists every file', () => {
    for (const f of FILE_FILTERS) {
      expect(FILTER_NAMES[f], f).toBeTruthy();
      const exts = FILTER_EXTENSIONS[f];
      if (f === 'any') expect(exts).toBeNull();
      else for (const e of exts!) expect(e, f).toMatch(/^\.[a-z0-9]+$/);
    }
    expect(FILTER_EXTENSIONS.motion).toEqual(['.vmd', '.vpd']);
    expect(DOCUMENT_EXTENSIONS).toEqual(['.vmd', '.vpd', '.vmdscene', '.bvh', '.vrma']);
    // Open… lists the documents (what a double-click opens) and more: models and songs (open-kinds.test.ts).
    for (const e of DOCUMENT_EXTENSIONS) expect(FILTER_EXTENSIONS.open).toContain(e);
    expect(FILTER_EXTENSIONS.map).toEqual(['.csv', '.json']);
    for (const f of FILE_FILTERS) for (const e of FILTER_EXTENSIONS[f] ?? []) expect(KNOWN_EXTENSIONS, e).toContain(e);
  });
});
