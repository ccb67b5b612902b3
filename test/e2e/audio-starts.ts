/**
 * What the page asks the sound card to play: a wrapper on AudioBufferSourceNode.prototype.start records each
 * call (when, offset into the song, duration: a scrub grain has one, a playing pass none; the context's clock at
 * the call), so a test reads where the music was started without listening to it (music-scrub, music-timeline).
 */
import type { Page } from 'playwright-core';

export interface StartCall {
  when: number;
  offset: number;
  duration: number | null;
  now: number;
}

/** Installs the wrapper (once per page) and empties the record. */
export async function spyStarts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __starts?: unknown[] };
    w.__starts = [];
    const proto = AudioBufferSourceNode.prototype as unknown as { start: (...a: number[]) => void; __spied?: boolean };
    if (proto.__spied) return;
    const orig = proto.start;
    proto.start = function (this: AudioBufferSourceNode, ...a: number[]) {
      (window as unknown as { __starts: unknown[] }).__starts.push({ when: a[0] ?? 0, offset: a[1] ?? 0, duration: a[2] ?? null, now: this.context.currentTime });
      return orig.apply(this, a);
    };
    proto.__spied = true;
  });
}

export const starts = (page: Page): Promise<StartCall[]> => page.evaluate(() => (window as unknown as { __starts: StartCall[] }).__starts.slice());
export const clearStarts = (page: Page): Promise<void> => page.evaluate(() => void ((window as unknown as { __starts: unknown[] }).__starts.length = 0));
