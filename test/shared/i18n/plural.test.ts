// `{n|one|many}` in a UI string: the word for the count, so English says "1 file" and "2 files" from one
// string (before, "1 file(s)" everywhere a count of files, bones, keys, bytes or folders was said).
import { describe, expect, it } from 'vitest';
import { t, tDynamic } from '../../../shared/i18n/strings';
import { agree, count, plural } from '../../../shared/i18n/plural';

describe('plural words in UI strings', () => {
  it('picks the word by the count, formatted or not; Japanese is unchanged', () => {
    expect(t('batch.inSubfolders', 'en', { n: 1 })).toBe('1 file in sub-folders was not included: turn on “Include sub-folders” to take them');
    expect(t('batch.inSubfolders', 'en', { n: 4 })).toBe('4 files in sub-folders were not included: turn on “Include sub-folders” to take them');
    expect(t('note.W_VMD_TRAILING', 'en', { n: '1' })).toBe('1 byte after the last block is kept as it is');
    expect(t('note.W_VMD_TRAILING', 'en', { n: '1,234' })).toBe('1,234 bytes after the last block are kept as they are');
    expect(t('scene.poseApplied', 'en', { name: 'p.vpd', actor: 'a', frame: 3, bones: 1, morphs: 0 })).toBe('Applied p.vpd to a at frame 3: 1 bone and 0 morphs keyed (one undo step)');
    expect(t('batch.inSubfolders', 'ja', { n: 1 })).toContain('1 件');
  });

  it('a track\'s key count and the preview\'s camera line say "1 key" and "1 cut" (they said "1 keys", "1 cuts")', () => {
    expect([0, 1, 2].map((n) => t('editor.keys', 'en', { n }))).toEqual(['0 keys', '1 key', '2 keys']);
    expect(t('preview.cameraInfo', 'en', { keys: 1, cuts: 0 })).toBe('Camera: 1 key, 0 cuts');
    expect(t('preview.cameraInfo', 'en', { keys: 70, cuts: 1 })).toBe('Camera: 70 keys, 1 cut');
    expect(t('editor.keys', 'ja', { n: 1 })).toBe('1 キー');
  });

  it('a count not given leaves the form as written; no English string says "(s)" any more', () => {
    expect(tDynamic('batch.withWarnings', 'en', {})).toBe('{n} {n|file|files} with warnings (⚠ in the list)');
    for (const key of ['batch.cancelledNotRun', 'batch.withWarnings', 'batch.earlierOutputs', 'batchResults.mirror', 'batchResults.exportBvh', 'scene.notInScene', 'note.W_VPD_COUNT', 'note.N_BONE_DUPLICATES', 'note.N_MORPH_DUPLICATES', 'note.N_NON_UNIT', 'batch.notTaken', 'batch.notTakenCapture']) {
      expect(tDynamic(key, 'en', { n: 2, done: 2, pairs: 2, missing: 2, declared: 2, kept: 1, changed: 1, frames: 1, joints: 1, names: 'a', ext: '.bvh' }), key).not.toContain('(s)');
    }
  });
});

// The engines' and the CLI's own English messages (not translated): one helper, so a count reads "1 key was",
// "2 keys were", and a formatted count ("1,234") counts as its number.
describe('plural() and agree() in the engines\' messages', () => {
  it('singular for one and minus one, plural otherwise; a given plural form where not noun + s', () => {
    expect([0, 1, 2, -1].map((n) => plural(n, 'camera cut'))).toEqual(['0 camera cuts', '1 camera cut', '2 camera cuts', '-1 camera cut']);
    expect(plural('1,234', 'byte')).toBe('1,234 bytes');
    expect(plural('1', 'byte')).toBe('1 byte');
    expect(plural(2, 'body', 'bodies')).toBe('2 bodies');
    expect([1, 3].map((n) => agree(n, 'was', 'were'))).toEqual(['was', 'were']);
  });

  it('count() groups a whole number by thousands (3,016), as the summary lines do; small numbers and fractions as they are', () => {
    expect([0, 999, 1000, 3016, -1234, 1234567, 1.5].map(count)).toEqual(['0', '999', '1,000', '3,016', '-1,234', '1,234,567', '1.5']);
    expect(plural(count(3016), 'bone key')).toBe('3,016 bone keys');
  });
});
