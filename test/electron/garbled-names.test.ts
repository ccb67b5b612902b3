// A zip made on Japanese Windows, extracted on a system that is not Japanese (Windows Explorer in English, many
// unzips), gives UTF-8 names that are its Shift_JIS bytes read as CP437 or CP1252: ジェネ.pmx is "âWâFâl.pmx" or
// "ƒWƒFƒl.pmx". Before (fixmisc3), the Open dialog listed them as they are with no word, while raw Shift_JIS names
// got theirs; now each carries its Shift_JIS reading for the dialog's hint, decoded by the tables locateAsset finds
// textures by. Accented Latin names are left alone. The garbled spellings are written out here (Python's cp437 and
// cp1252 codecs on cp932 bytes: ジェネ 83 57 83 46 83 6C, モデル 83 82 83 66 83 8B, まばたき 82 DC 82 CE 82 BD 82 AB).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileService, garbledSjisName } from '../../electron/services/file-service';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'vmd-garbled-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('names garbled from Shift_JIS by an unzip', () => {
  it('the Open dialog’s listing gives a CP437 or CP1252 name’s Shift_JIS reading; other names none', async () => {
    for (const f of ['âWâFâl.pmx', 'ƒWƒFƒl.pmx', 'ジェネ.pmx', 'Gene_light.pmx', 'Hélène.pmx', 'Château.pmx', 'Øresund.pmx']) writeFileSync(path.join(dir, f), 'x');
    mkdirSync(path.join(dir, 'âéâfâï'));
    const r = await createFileService().listDirectory(dir, { filter: 'model' });
    if (!r.ok) throw new Error(r.error.message);
    const hints = Object.fromEntries(r.value.entries.map((e) => [e.name.normalize('NFC'), e.garbledSjis ?? null]));
    expect(hints).toEqual({
      'âéâfâï': { name: 'モデル', as: 'cp437' },
      'âWâFâl.pmx': { name: 'ジェネ.pmx', as: 'cp437' },
      'ƒWƒFƒl.pmx': { name: 'ジェネ.pmx', as: 'cp1252' },
      'ジェネ.pmx': null,
      'Gene_light.pmx': null,
      'Hélène.pmx': null,
      'Château.pmx': null,
      'Øresund.pmx': null,
    });
  });

  it('reads a longer name with kanji and an underscore; not Latin names whose bytes happen to be Shift_JIS', () => {
    // あにまさ式ミク_まばたき.vmd as CP437 reads it.
    expect(garbledSjisName('éáé╔é▄é│Ä«â~âN_é▄é╬é╜é½.vmd')).toEqual({ name: 'あにまさ式ミク_まばたき.vmd', as: 'cp437' });
    // As Shift_JIS these read "HＭ穫e" (a full-width letter), "Chフeau" (one kana among five letters), "Bj排k" (no kana).
    for (const latin of ['Hélène', 'Château', 'Björk', 'naïve', 'Señor Niño', 'café', 'readme.txt']) expect(garbledSjisName(latin), latin).toBeNull();
  });
});
