// The Morphs tab's cut names (editor/morph-names.ts): names that differ only in the middle keep the differing
// character in their tail (eye_surprise_geo_L / eye_sad_geo_L read "eye_s…eo_L" both before); L/R pairs keep
// their last four; short names are not split.
import { describe, expect, it } from 'vitest';
import { morphNameParts } from '../../../renderer/src/editor/morph-names';

describe('morph name parts', () => {
  it('names sharing their end keep one character more than the shared end in the tail', () => {
    const p = morphNameParts(['eye_surprise_geo_L', 'eye_sad_geo_L', 'まばたき']);
    // Shared end "_geo_L" (6): the tail is the last 7 characters.
    expect(p.get('eye_surprise_geo_L')).toEqual(['eye_surpris', 'e_geo_L']);
    expect(p.get('eye_sad_geo_L')).toEqual(['eye_sa', 'd_geo_L']);
    expect(p.get('まばたき')).toEqual(['まばたき', '']);
  });

  it('an L/R pair differs at its last character: the tail stays four long', () => {
    const p = morphNameParts(['eye_wink_geo_L', 'eye_wink_geo_R']);
    expect(p.get('eye_wink_geo_L')).toEqual(['eye_wink_g', 'eo_L']);
    expect(p.get('eye_wink_geo_R')).toEqual(['eye_wink_g', 'eo_R']);
  });

  it('a tail never takes the whole name: three characters of the start stay ahead of it, and at most nine behind', () => {
    const p = morphNameParts(['mouth_smile_open_geo', 'brow_smile_open_geo']);
    // Shared end "_smile_open_geo" (15): capped at 9.
    expect(p.get('mouth_smile_open_geo')).toEqual(['mouth_smile', '_open_geo']);
  });
});
