/**
 * Tracks compared part by part: names and maps as values, typed arrays byte for byte (bit for bit: a
 * flipped sign bit shows, where toEqual walks each element and takes seconds per motion at 60,000 keys).
 */
import { expect } from 'vitest';
import type { MotionTracks } from '../../shared/vmd';

export function expectSameTracks(a: MotionTracks, b: MotionTracks): void {
  expect(a.lastFrame).toBe(b.lastFrame);
  for (const part of ['bones', 'morphs', 'camera', 'light', 'shadow', 'ik'] as const) {
    const x = a[part] as unknown as Record<string, unknown>, y = b[part] as unknown as Record<string, unknown>;
    expect(Object.keys(x).sort()).toEqual(Object.keys(y).sort());
    for (const k of Object.keys(x)) {
      const u = x[k], v = y[k];
      if (ArrayBuffer.isView(u) && ArrayBuffer.isView(v)) {
        expect(Buffer.compare(Buffer.from(u.buffer, u.byteOffset, u.byteLength), Buffer.from(v.buffer, v.byteOffset, v.byteLength)), `${part}.${k}`).toBe(0);
      } else expect(u, `${part}.${k}`).toEqual(v);
    }
  }
}
