// Closing the desktop window (fixnotdone 3): main hands the close to the renderer when something is unsaved or a
// job runs (a render with nothing unsaved closed under it); never once the renderer said it may close, nor for a
// renderer that crashed.
import { describe, expect, it } from 'vitest';
import { closeAsksRenderer } from '../../electron/close-guard';

const saved = { path: '/m/a.vmd', name: 'a.vmd', dirty: false };

describe('closeAsksRenderer', () => {
  it('asks for unsaved changes, and for a running job with nothing unsaved', () => {
    const live = { forced: false, crashed: false };
    expect(closeAsksRenderer(saved, live)).toBe(false);
    expect(closeAsksRenderer({ ...saved, dirty: true }, live)).toBe(true);
    expect(closeAsksRenderer({ ...saved, busy: true }, live)).toBe(true);
    expect(closeAsksRenderer({ ...saved, dirty: true, busy: true }, live)).toBe(true);
    expect(closeAsksRenderer({ ...saved, busy: false }, live)).toBe(false);
  });

  it('never after the renderer closed the window itself, nor for a crashed renderer (it cannot answer)', () => {
    for (const state of [{ ...saved, busy: true }, { ...saved, dirty: true }]) {
      expect(closeAsksRenderer(state, { forced: true, crashed: false })).toBe(false);
      expect(closeAsksRenderer(state, { forced: false, crashed: true })).toBe(false);
    }
  });
});
