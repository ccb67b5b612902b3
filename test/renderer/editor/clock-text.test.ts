// The playhead's time beside the frame field and the ruler's seconds (nusync 7): frames at 30 fps as m:ss.xx,
// worked by hand (frame 45 = 1.5 s; 30 × 60 = 1800 frames a minute).
import { describe, expect, it } from 'vitest';
import { clockText, rulerClockText } from '../../../renderer/src/editor/clock-text';

describe('clock text', () => {
  it('m:ss.xx, hundredths rounded; hours from an hour on', () => {
    expect(clockText(0)).toBe('0:00.00');
    expect(clockText(45)).toBe('0:01.50');
    expect(clockText(1)).toBe('0:00.03'); // 0.0333 s
    expect(clockText(59)).toBe('0:01.97'); // 1.9667 s
    expect(clockText(1260)).toBe('0:42.00'); // the chorus at 0:42
    expect(clockText(1799)).toBe('0:59.97');
    expect(clockText(1800)).toBe('1:00.00');
    expect(clockText(18_000 + 45)).toBe('10:01.50');
    expect(clockText(108_000)).toBe('1:00:00.00');
    expect(clockText(999_999)).toBe('9:15:33.30'); // 33,333.3 s
  });
  it('the ruler: m:ss of whole seconds', () => {
    expect(rulerClockText(300)).toBe('0:10');
    expect(rulerClockText(1800)).toBe('1:00');
    expect(rulerClockText(108_000 + 150)).toBe('1:00:05');
  });
});
