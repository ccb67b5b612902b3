// The music row's waveform drawn into a recording 2D context: one device-pixel column per peak entry,
// scaled to the row's half height about its middle, NaN columns (no sound there) skipped, the playhead.
import { describe, expect, it } from 'vitest';
import { drawWaveform } from '../../../renderer/src/editor/waveform-draw';
import { Recording2D } from './recording-2d';

const WAVE = '#5fa8d3', HEAD = '#ffb23e', MID = '#2c3440';

describe('waveform drawing', () => {
  it('draws each column from its min to its max about the middle line', () => {
    // Height 42: middle 21, half-height 20. Column 0: −0.5..0.5 → y 11..31; column 1: no sound;
    // column 2: 0..1 → y 1..21; column 3: silence 0..0 → a 1 px line at 21.
    const columns = { min: Float32Array.from([-0.5, NaN, 0, 0]), max: Float32Array.from([0.5, NaN, 1, 0]) };
    const ctx = new Recording2D();
    drawWaveform(ctx, { width: 4, height: 42, dpr: 1, columns, headX: 2 });
    expect(ctx.rects(WAVE)).toEqual([[0, 11, 1, 20], [2, 1, 1, 20], [3, 21, 1, 1]]);
    expect(ctx.rects(MID)).toEqual([[0, 21, 4, 1]]);
    expect(ctx.rects(HEAD)).toEqual([[2, 0, 1, 42]]);
  });

  it('with no song draws the empty row; a playhead outside is not drawn; lines widen with the pixel ratio', () => {
    const ctx = new Recording2D();
    drawWaveform(ctx, { width: 100, height: 40, dpr: 2, columns: null, headX: 100 });
    expect(ctx.rects(WAVE)).toEqual([]);
    expect(ctx.rects(HEAD)).toEqual([]);
    expect(ctx.rects(MID)).toEqual([[0, 20, 100, 2]]);
    expect(ctx.rects('#1b1e24')).toEqual([[0, 0, 100, 40]]);
    const head = new Recording2D();
    drawWaveform(head, { width: 100, height: 40, dpr: 2, columns: null, headX: 0 });
    expect(head.rects(HEAD)).toEqual([[0, 0, 2, 40]]);
  });
});
