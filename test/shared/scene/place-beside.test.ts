// Where a new actor stands beside the others (shared/scene/place-beside.ts): worked out by hand from the boxes.
import { describe, expect, it } from 'vitest';
import { BESIDE_GAP, DEFAULT_FOOTPRINT, placeBeside } from '../../../shared/scene/place-beside';

describe('placeBeside', () => {
  it('no one there: the origin (no stage)', () => {
    expect(placeBeside([], { minX: -4, maxX: 4, minZ: -1, maxZ: 1 })).toBeUndefined();
  });

  it('right of the right-most reach, by the gap and the new one\'s left half; rounded up to a tenth', () => {
    const f = { minX: -8.04, maxX: 8.04, minZ: -2, maxZ: 2 };
    // One actor at the origin: 8.04 + 2 + 8.04 = 18.08 → 18.1.
    expect(placeBeside([{ footprint: f }], f)).toEqual({ position: [18.1, 0, 0], turn: 0 });
    // The right-most is the one at X 30 (another at −50 is further left, not right).
    expect(placeBeside([{ footprint: f }, { stage: { position: [30, 0, 9], turn: 0 }, footprint: f }, { stage: { position: [-50, 0, 0], turn: 0 }, footprint: f }], f)).toEqual({ position: [48.1, 0, 0], turn: 0 });
    expect(BESIDE_GAP).toBe(2);
  });

  it('a turned actor reaches as its turned box does; unknown sizes are the known one\'s, else the default', () => {
    const wide = { minX: -8, maxX: 8, minZ: -1, maxZ: 1 };
    // Turned 90°: its X reach is its Z extent (±1) about X 20: 21; + 2 + 8.
    expect(placeBeside([{ stage: { position: [20, 0, 0], turn: 90 }, footprint: wide }], wide)).toEqual({ position: [31, 0, 0], turn: 0 });
    // The new one's size not known: the first known one's (8 to the left).
    expect(placeBeside([{ footprint: null }, { footprint: wide }], null)).toEqual({ position: [18, 0, 0], turn: 0 });
    // Nothing known: the default both ways (5 + 2 + 5).
    expect(placeBeside([{ footprint: null }], null)).toEqual({ position: [5 + 2 - DEFAULT_FOOTPRINT.minX, 0, 0], turn: 0 });
  });
});
