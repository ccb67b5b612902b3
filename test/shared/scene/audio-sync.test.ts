import { describe, expect, it } from 'vitest';
import {
  audioStart,
  audioTimeAtFrame,
  createClock,
  frameAt,
  frameAtAudioTime,
  GRAIN_SHAPE,
  loopPassAt,
  nextWrapTime,
  pause,
  planGrain,
  play,
  seek,
  setLoop,
  songEndFrame,
} from '../../../shared/scene/audio-sync';

describe('offset maths: frame = (audio time − offset) × 30', () => {
  it('hand-worked values', () => {
    expect(frameAtAudioTime(2, 0)).toBe(60);
    expect(frameAtAudioTime(2, 15)).toBe(45); // offset 15 frames = 0.5 s of intro
    expect(frameAtAudioTime(0, 15)).toBe(-15);
    expect(frameAtAudioTime(1, -30)).toBe(60); // song starts at frame 30
    expect(audioTimeAtFrame(45, 15)).toBe(2);
    expect(audioTimeAtFrame(0, -30)).toBe(-1);
  });

  it('each is the inverse of the other', () => {
    for (const off of [-123.5, -1, 0, 7, 900]) for (const t of [0, 0.001, 1.5, 61.25, 240]) {
      expect(audioTimeAtFrame(frameAtAudioTime(t, off), off)).toBeCloseTo(t, 9);
    }
  });
});

describe("the song's end frame (the CLI's inspect and the app's time line)", () => {
  it('hand-worked values: whole frames up, never before 0', () => {
    expect(songEndFrame(60, 0)).toBe(1800);
    expect(songEndFrame(60, 45)).toBe(1755); // 1.5 s of intro: it ends 45 frames earlier
    expect(songEndFrame(61.5, 90)).toBe(1755); // 1.5 s of silence first, lined up at +90
    expect(songEndFrame(60, -30)).toBe(1830); // starts at frame 30
    expect(songEndFrame(10.01, 0)).toBe(301); // 300.3 frames: the last sound is on frame 301
    expect(songEndFrame(1, 45)).toBe(0); // the whole song is intro
  });
});

describe('playback clock', () => {
  it('play, pause, seek: hand-worked frames', () => {
    let c = createClock(0);
    expect(frameAt(c, 123)).toBe(0); // paused: the context time does not matter
    c = play(c, 2.5);
    expect(frameAt(c, 2.5)).toBe(0);
    expect(frameAt(c, 3.5)).toBe(30);
    c = pause(c, 4.5);
    expect(frameAt(c, 4.5)).toBe(60);
    expect(frameAt(c, 100)).toBe(60);
    c = seek(c, 300, 5);
    expect(frameAt(c, 50)).toBe(300);
    c = play(c, 6);
    expect(frameAt(c, 7)).toBe(330);
    c = seek(c, 10, 8); // seek while playing keeps playing from there
    expect(c.playing).toBe(true);
    expect(frameAt(c, 9)).toBe(40);
    expect(play(c, 20)).toBe(c); // play while playing changes nothing
  });

  it("does not drift: an hour of 60 Hz ticks with jitter, pauses and resumes, lands on the sound's frame", () => {
    // Reference: the sound has played exactly `heard` seconds when the clock is paused or polled.
    let c = createClock(0);
    let t = 1000.123; // context time when the user pressed play
    c = play(c, t);
    let heard = 0;
    let playing = true;
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let tick = 0; tick < 60 * 3600; tick++) {
      const dt = 1 / 60 + (rnd() - 0.5) * 0.004; // display ticks are never exactly 1/60 s
      t += dt;
      if (playing) heard += dt;
      if (tick % 50_000 === 49_999) {
        if (playing) c = pause(c, t);
        else c = play(c, t);
        playing = !playing;
      }
      frameAt(c, t); // the renderer samples every tick; sampling must not change anything
    }
    expect(Math.abs(frameAt(c, t) - heard * 30)).toBeLessThan(1e-6);
  });

  it('loops: wraps to the loop start in closed form, from before or inside the loop', () => {
    let c = play(createClock(0, { start: 10, end: 20 }), 0);
    expect(frameAt(c, 0.5)).toBeCloseTo(15, 9);
    expect(frameAt(c, 19.9 / 30)).toBeCloseTo(19.9, 9);
    expect(frameAt(c, 20 / 30)).toBeCloseTo(10, 9);
    expect(frameAt(c, 25 / 30)).toBeCloseTo(15, 9);
    expect(frameAt(c, 1)).toBeCloseTo(10, 9);
    expect(frameAt(c, 1000 + 5 / 30)).toBeCloseTo(15, 6); // 1000 s later: still in phase
    // Started past the loop's end: plays on.
    c = play(createClock(40, { start: 10, end: 20 }), 0);
    expect(frameAt(c, 1)).toBeCloseTo(70, 9);
  });

  it('setting a loop while playing re-anchors without a jump', () => {
    let c = play(createClock(0), 0);
    c = setLoop(c, { start: 0, end: 60 }, 1.5); // at frame 45
    expect(frameAt(c, 1.5)).toBeCloseTo(45, 9);
    expect(frameAt(c, 2)).toBeCloseTo(0, 9); // reaches 60 and wraps to 0
    expect(setLoop(c, { start: 5, end: 5 }, 2).loop).toBeNull(); // an empty range is no loop
  });

  it('tells when the next wrap is, so the audio restarts there', () => {
    const c = play(createClock(0, { start: 30, end: 60 }), 10);
    expect(nextWrapTime(c, 10)).toBeCloseTo(12, 9); // frame 60 at 2 s
    expect(nextWrapTime(c, 12.5)).toBeCloseTo(13, 9); // then every 1 s
    expect(nextWrapTime(c, 13)).toBeCloseTo(14, 9);
    expect(nextWrapTime(pause(c, 11), 11)).toBeNull();
    expect(nextWrapTime(play(createClock(0), 0), 5)).toBeNull();
  });

  it('says how to start the audio source to match the clock', () => {
    const c = play(createClock(90), 5); // frame 90 at context time 5
    expect(audioStart(c, 5, 0, 240)).toEqual({ when: 5, offset: 3 });
    expect(audioStart(c, 5, 15, 240)).toEqual({ when: 5, offset: 3.5 });
    // Offset −120: the song starts at frame 120, 1 s after frame 90: start later, from its beginning.
    expect(audioStart(c, 5, -120, 240)).toEqual({ when: 6, offset: 0 });
    expect(audioStart(c, 5, 0, 2)).toBeNull(); // past the song's end
    expect(audioStart(pause(c, 6), 6, 0, 240)).toBeNull();
  });
});

describe('loop passes: the sound restarts at the loop start exactly at each wrap', () => {
  it('each pass starts at its wrap from the loop start and stops at the next wrap', () => {
    const c = play(createClock(0, { start: 30, end: 60 }), 10); // wraps at 12, 13, 14 …
    expect(loopPassAt(c, 12, 0, 240)).toEqual({ when: 12, offset: 1, stopAt: 13 });
    // Offset 15 frames: loop start is 1.5 s into the song.
    expect(loopPassAt(c, 13, 15, 240)).toEqual({ when: 13, offset: 1.5, stopAt: 14 });
    // The song starts at frame 45 (offset −45): half a second into the pass, from its beginning.
    expect(loopPassAt(c, 12, -45, 240)).toEqual({ when: 12.5, offset: 0, stopAt: 13 });
    expect(loopPassAt(c, 12, -90, 240)).toBeNull(); // the song starts after the loop's end
    expect(loopPassAt(c, 12, 0, 0.5)).toBeNull(); // loop start past the song's end
    expect(loopPassAt(play(createClock(0), 0), 12, 0, 240)).toBeNull();
  });

  it('passes scheduled wrap after wrap stay on the clock: after an hour the pass starts where the clock wraps', () => {
    const loop = { start: 7, end: 50 };
    const c = play(createClock(3, loop), 0.25);
    let wrapAt = nextWrapTime(c, 0.25)!;
    for (let i = 0; i < 3600 / (43 / 30); i++) {
      const p = loopPassAt(c, wrapAt, 0, 240)!;
      expect(p.offset).toBeCloseTo(7 / 30, 12);
      // Just after the pass starts the clock shows the loop start; the next wrap is where the pass stops.
      expect(frameAt(c, p.when + 1e-9)).toBeCloseTo(7, 5);
      const next = nextWrapTime(c, p.when + 1e-9)!;
      expect(next).toBeCloseTo(p.stopAt, 6);
      wrapAt = next;
    }
    expect(wrapAt).toBeGreaterThan(3600);
  });
});

describe('scrub grains: a short piece of the song at the cursor, throttled on the context clock', () => {
  const shape = { length: 0.07, fade: 0.008, interval: 0.05 };

  it('the first grain starts now at the cursor’s place in the song', () => {
    expect(GRAIN_SHAPE).toEqual(shape);
    expect(planGrain(90, 0, 240, 5, null)).toEqual({ grain: { when: 5, offset: 3, length: 0.07, fade: 0.008 }, replace: false });
    expect(planGrain(90, 15, 240, 5, null).grain!.offset).toBeCloseTo(3.5, 12);
  });

  it('outside the song: silence (and a pending grain is still cancelled)', () => {
    expect(planGrain(30, -60, 240, 5, null)).toEqual({ grain: null, replace: false }); // song starts at frame 60
    expect(planGrain(9000, 0, 240, 5, null).grain).toBeNull(); // 300 s > 240 s
    const pending = { when: 6, offset: 1, length: 0.07, fade: 0.008 };
    expect(planGrain(9000, 0, 240, 5.99, pending)).toEqual({ grain: null, replace: true });
  });

  it('near the song’s end the grain is cut to what is left, fades included', () => {
    const g = planGrain(30 * 9.98, 0, 10, 1, null).grain!;
    expect(g.length).toBeCloseTo(0.02, 9);
    expect(g.fade).toBeCloseTo(0.008, 9);
    expect(planGrain(30 * 9.995, 0, 10, 1, null).grain!.fade).toBeCloseTo(0.0025, 9);
  });

  it('a drag on a fake clock: at most one grain begins per 50 ms, a pending one is replaced, the latest cursor is heard', () => {
    // Pointer moves every 16 ms, one frame further each time, from frame 100 at context time 2.
    let last: ReturnType<typeof planGrain>['grain'] = null;
    const begun: { when: number; offset: number }[] = [];
    let pending: { when: number; offset: number } | null = null;
    for (let i = 0; i < 40; i++) {
      const now = 2 + i * 0.016;
      if (pending && pending.when <= now) {
        begun.push(pending);
        pending = null;
      }
      const r = planGrain(100 + i, 0, 240, now, last);
      expect(r.replace).toBe(pending !== null);
      last = r.grain;
      pending = { when: r.grain!.when, offset: r.grain!.offset };
      if (pending.when <= now) {
        begun.push(pending);
        pending = null;
      }
    }
    for (let k = 1; k < begun.length; k++) expect(begun[k].when - begun[k - 1].when).toBeGreaterThanOrEqual(0.05 - 1e-12);
    // 40 moves over 0.624 s: one grain per 50 ms, not one per move.
    expect(begun.length).toBeGreaterThanOrEqual(11);
    expect(begun.length).toBeLessThanOrEqual(14);
    // Each grain begun plays a cursor the pointer was at by then (never a stale one more than one move old).
    for (const b of begun) {
      const cursorAtStart = 100 + Math.floor((b.when - 2) / 0.016 + 1e-9);
      expect(b.offset * 30).toBeGreaterThanOrEqual(cursorAtStart - 1 - 1e-9);
      expect(b.offset * 30).toBeLessThanOrEqual(cursorAtStart + 1e-9);
    }
    // The last cursor is heard: the pending grain at the end is frame 139's.
    expect(pending!.offset * 30).toBeCloseTo(139, 9);
  });
});
