// The time store: where the time line ends (the motions' last key or the song's end), how far the playhead
// goes, and the play range (⟲ in the curve pane): bounds, clamping, and when it ends.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { PLAYHEAD_MAX, useTimeStore } from '../../../renderer/src/stores/time';

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

describe('the time line and the playhead', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it("goes to any frame past the last key (as MMD's frame box), up to 999,999", () => {
    const time = useTimeStore();
    time.setRange(0); // a new motion: no key yet
    time.seek(900);
    expect(time.frame).toBe(900);
    time.step(1);
    expect(time.frame).toBe(901);
    time.seek(5_000_000);
    expect(time.frame).toBe(999_999);
    expect(PLAYHEAD_MAX).toBe(999_999);
    time.seek(-4);
    expect(time.frame).toBe(0);
  });

  it("runs to the later of the last key and the song's end; a shorter motion leaves the playhead where it is", () => {
    const time = useTimeStore();
    time.setRange(300);
    time.setMusicEnd(1755);
    expect([time.lastFrame, time.bounds]).toEqual([1755, [0, 1755]]);
    time.seek(1200);
    time.setRange(2809);
    expect(time.lastFrame).toBe(2809);
    time.setRange(100);
    expect([time.lastFrame, time.frame]).toEqual([1755, 1200]);
    time.setMusicEnd(0); // the song removed
    expect([time.lastFrame, time.frame]).toEqual([100, 1200]);
  });

  it("a range within the song but past the last key stays until the song goes", () => {
    const time = useTimeStore();
    time.setRange(0);
    time.setMusicEnd(1800);
    time.playRange(30, 90);
    expect(time.range).toEqual({ from: 30, to: 90 });
    time.setMusicEnd(0);
    expect(time.range).toBeNull();
  });
});

// nusync 5: a play range set on the ruler (or from the selected keys) without playing at once.
describe('setting the play range', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('sets frames from..to (either order, within the time line) to loop, the playhead at its start, not playing', () => {
    const time = useTimeStore();
    time.setRange(0);
    time.setMusicEnd(600);
    time.loop = false;
    time.seek(400);
    expect(time.setPlayRange(90, 30)).toBe(true);
    expect([time.range, time.bounds, time.frame, time.playing, time.loop]).toEqual([{ from: 30, to: 90 }, [30, 90], 30, false, true]);
    expect(time.setPlayRange(500, 700)).toBe(true);
    expect(time.range).toEqual({ from: 500, to: 600 });
    expect(time.setPlayRange(40, 40)).toBe(false);
    expect(time.range).toEqual({ from: 500, to: 600 }); // an empty one changes nothing
    time.clearRange();
    expect([time.range, time.loop]).toEqual([null, false]);
  });
});
