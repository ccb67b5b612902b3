import { describe, expect, it } from 'vitest';
import { hasString, localeFromLanguage, strings, t, tDynamic } from '../../../shared/i18n/strings';
import { ERROR_CODES } from '../../../shared/vmd/errors';
import { errValue } from '../../../shared/ipc/contract';

describe('i18n strings', () => {
  it('has the same keys in Japanese and English, none empty', () => {
    expect(Object.keys(strings.ja).sort()).toEqual(Object.keys(strings.en).sort());
    for (const loc of ['ja', 'en'] as const) for (const [k, v] of Object.entries(strings[loc])) expect(v.trim(), `${loc}:${k}`).not.toBe('');
  });

  it('keeps the same {placeholders} in both languages', () => {
    const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const k of Object.keys(strings.en) as (keyof typeof strings.en)[]) expect(ph(strings.ja[k]), k).toEqual(ph(strings.en[k]));
  });

  it('fills placeholders, falls back to English then to the key', () => {
    expect(t('summary.frames', 'en', { n: 120 })).toBe('120 frames');
    expect(t('summary.frames', 'ja', { n: 120 })).toBe('120 フレーム');
    expect(t('notify.savedBackup', 'en', { name: 'a.vmd' })).toBe('Saved a.vmd (previous version kept as {backup})');
    expect(tDynamic('no.such.key', 'ja')).toBe('no.such.key');
  });

  it('takes only keys the tables define; a key built at run time goes through tDynamic', () => {
    // @ts-expect-error a misspelled key does not compile
    expect(t('summary.framez', 'en')).toBe('summary.framez');
    expect(tDynamic(`summary.${'frames'}`, 'en', { n: 2 })).toBe('2 frames');
    expect(hasString('summary.frames')).toBe(true);
    expect(hasString('summary.framez')).toBe(false);
  });

  it('phrases every error code in both languages, and a misspelled code does not compile', () => {
    for (const code of ERROR_CODES) {
      expect(hasString(`err.${code}`), code).toBe(true);
      expect(tDynamic(`err.${code}`, 'ja'), code).not.toBe(tDynamic(`err.${code}`, 'en'));
    }
    // @ts-expect-error not an ErrorCode
    expect(errValue('E_NO_SUCH_CODE', 'x').ok).toBe(false);
  });

  it('names the active track apart from the selected tracks in Japanese (選択中 and 選択した read the same)', () => {
    for (const [active, selected] of [['timeline.scope.active', 'timeline.scope.selected'], ['timeline.rangeActive', 'timeline.rangeSelected'], ['timeline.scopeOf.active', 'timeline.scopeOf.selected']] as const) {
      expect(t(active, 'ja'), active).toContain('アクティブ');
      expect(t(active, 'ja'), active).not.toContain('選択');
      expect(t(selected, 'ja'), selected).toContain('選択');
    }
  });

  it('maps system languages to a locale', () => {
    expect(localeFromLanguage('ja-JP')).toBe('ja');
    expect(localeFromLanguage('ja')).toBe('ja');
    expect(localeFromLanguage('jam')).toBe('en');
    expect(localeFromLanguage('en-US')).toBe('en');
    expect(localeFromLanguage(undefined)).toBe('en');
  });
});
