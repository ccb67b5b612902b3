/**
 * A warning whose CLI line names a command-line option is said in the app with the batch form's field instead
 * (fixwarn4: a Japanese batch row said "--from 5000 は…" beside a field labelled 開始フレーム); the CLI keeps the
 * option's name, in both languages, and --json its English line.
 */
import { describe, expect, it } from 'vitest';
import { buildVmd } from '../../shared/vmd';
import { warningLines } from '../../shared/i18n/warning-line';
import { t } from '../../shared/i18n/strings';
import { warningFields } from '../../shared/edit-core/report';
import { trimRangeWarnings } from '../../electron/batch/op-warnings';

const ID = [0, 0, 0, 1];
// Keys at frames 10 and 30 only.
const doc = buildVmd({ bones: [10, 30].map((frame) => ({ name: '腕', frame, position: [0, 0, 0], rotation: ID })) });

describe('trim\'s empty range: the option in the CLI, the field in the app', () => {
  it('past the end (From frame), held pose', () => {
    const r = warningFields(trimRangeWarnings(doc, 5000, undefined, true));
    expect(warningLines(r, 'en')).toEqual(["--from 5000 is after the motion's last key (frame 30): no key is kept, the output is the pose at frame 30 held at frame 0"]);
    expect(warningLines(r, 'ja')).toEqual(['--from 5000 はモーションの最後のキー（フレーム 30）より後です。残るキーはなく、フレーム 30 のポーズをフレーム 0 に置いて書き出します']);
    expect(warningLines(r, 'en', 'app')).toEqual(["From frame 5000 is after the motion's last key (frame 30): no key is kept, the output is the pose at frame 30 held at frame 0"]);
    expect(warningLines(r, 'ja', 'app')).toEqual(['開始フレーム 5000 はモーションの最後のキー（フレーム 30）より後です。残るキーはなく、フレーム 30 のポーズをフレーム 0 に置いて書き出します']);
  });

  it('before the start (To frame), with and without the held pose: each app line starts with the field\'s own label', () => {
    for (const hold of [true, false]) {
      const r = warningFields(trimRangeWarnings(doc, 0, 5, hold));
      expect(r.warnings[0]).toMatch(/^--to 5 is before the motion's first key \(frame 10\)/);
      expect(warningLines(r, 'ja')[0]).toMatch(/^--to 5 は/);
      for (const locale of ['en', 'ja'] as const) expect(warningLines(r, locale, 'app')[0].startsWith(`${t('batch.opt.to', locale)} 5 `)).toBe(true);
    }
    for (const hold of [true, false]) {
      const r = warningFields(trimRangeWarnings(doc, 40, undefined, hold));
      for (const locale of ['en', 'ja'] as const) expect(warningLines(r, locale, 'app')[0].startsWith(`${t('batch.opt.from', locale)} 40 `)).toBe(true);
    }
  });
});
