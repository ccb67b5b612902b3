import { describe, expect, it } from 'vitest';
import { editingStrings } from '../../../shared/i18n/editing-strings';
import { t } from '../../../shared/i18n/strings';

describe('editing tool strings', () => {
  it('has every key in both languages with the same {placeholders}, none empty', () => {
    const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    expect(Object.keys(editingStrings.ja).sort()).toEqual(Object.keys(editingStrings.en).sort());
    for (const k of Object.keys(editingStrings.en) as (keyof typeof editingStrings.en)[]) {
      expect(editingStrings.ja[k].trim(), k).not.toBe('');
      expect(ph(editingStrings.ja[k]), k).toEqual(ph(editingStrings.en[k]));
    }
  });

  it('is reachable through t()', () => {
    expect(t('mirror.paste', 'ja')).toBe('反転貼り付け');
    expect(t('dialog.err.notFolder', 'en', { path: '/a/b.vmd' })).toBe('/a/b.vmd is not a folder (a part of the path is a file)');
  });
});
