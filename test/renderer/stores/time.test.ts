// The time store's play range (⟲ in the curve pane): bounds, clamping, and when it ends.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { useTimeStore } from '../../../renderer/src/stores/time';

describe('play range', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('plays from..to in a loop, clamped to the motion; bounds fall back to the whole motion', () => {
    const time = useTimeStore();
    time.setRange(80);
    expect(time.bounds).toEqual([0, 80]);
    time.loop = false;
    time.playRange(27, 19);
    expect(time.range).toEqual({ from: 19, to: 27 });
    expect(time.bounds).toEqual([19, 27]);
    expect([time.frame, time.playing, time.loop]).toEqual([19, true, true]);
    time.playRange(70, 200);
    expect(time.range).toEqual({ from: 70, to: 80 });
    time.clearRange();
    expect(time.bounds).toEqual([0, 80]);
    // The range looped; the user's Loop setting (off) comes back with the whole motion.
    expect(time.loop).toBe(false);
  });

  it('an empty range is refused, and a shorter motion ends the range', () => {
    const time = useTimeStore();
    time.setRange(80);
    time.playRange(30, 30);
    expect(time.range).toBeNull();
    expect(time.playing).toBe(false);
    time.playRange(60, 75);
    time.setRange(40);
    expect(time.range).toBeNull();
  });
});
