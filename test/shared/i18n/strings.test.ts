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

// Counts in the app's texts are grouped by thousands in both languages (they showed "657032 selected" and
// "キー 657032 → 32140" beside the summary panel's "601,948"); frame numbers and non-count params are not.
describe('counts grouped by thousands', () => {
  it('the toolbar, the Key panel and the reduce notice, in English and Japanese', () => {
    expect(t('editor.selected', 'en', { n: 657032 })).toBe('657,032 selected');
    expect(t('editor.selected', 'ja', { n: 657032 })).toBe('657,032 個選択');
    expect(t('inspector.multiKinds', 'en', { n: 657032, m: 601948 })).toBe('657,032 keys selected, of several kinds — edits here apply to the 601,948 of this kind');
    expect(t('batchResults.keys', 'en', { before: 658556, after: 32999 })).toBe('keys 658,556 → 32,999');
    expect(t('batchResults.keys', 'ja', { before: 657032, after: 32140 })).toBe('キー 657,032 → 32,140');
  });

  it('under 1000, strings and fractions as given; plural forms still pick by the count', () => {
    expect(t('editor.selected', 'en', { n: 999 })).toBe('999 selected');
    expect(t('editor.selected', 'en', { n: '12345' })).toBe('12345 selected');
    expect(t('merge.collisions', 'en', { n: 1 })).toBe('1 key at a (name, frame) already keyed was dropped (first file wins)');
    expect(t('merge.collisions', 'en', { n: 1500 })).toBe('1,500 keys at a (name, frame) already keyed were dropped (first file wins)');
  });

  it('frames stay ungrouped: a frame param, and {n} where it is a byte offset or a line', () => {
    expect(t('editor.copiedPose', 'en', { name: 'センター', frame: 1200 })).toBe('Copied the pose of センター at frame 1200');
    expect(t('paste.plan', 'en', { n: 1, keys: 2400, first: 1200, last: 3600 })).toBe('1 paste, 2,400 keys, frames 1200–3600');
    expect(t('err.atLine', 'en', { n: 1200 })).toBe('line 1200');
    expect(t('err.atByte', 'en', { n: 123456 })).toBe('at byte 123456');
  });
});
