/**
 * Where things are on the editor's canvases, for end-to-end tests: the canvases publish their view
 * (frame start, pixels per frame, the curve square's origin and size) in data attributes.
 */
import type { Page } from 'playwright-core';
import { openFileViaDialog } from './harness';

/** Client coordinates of a key in the timeline, from the canvas' published view and the track row. */
export async function keyPoint(page: Page, trackId: string, frame: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ({ trackId, frame }) => {
      const cv = document.querySelector('[data-testid="timeline-canvas"]') as HTMLCanvasElement;
      const row = document.querySelector(`[data-testid="${trackId}"]`) as HTMLElement;
      if (!row) throw new Error(`row ${trackId} not shown`);
      const rc = cv.getBoundingClientRect(), rr = row.getBoundingClientRect();
      const fs = Number(cv.dataset.frameStart), ppf = Number(cv.dataset.pxPerFrame);
      return { x: rc.left + (frame - fs) * ppf + 0.5, y: rr.top + rr.height / 2 };
    },
    { trackId, frame },
  );
}

/** Client coordinates of a 0..127 grid point in the curve editor's square. */
export async function curvePoint(page: Page, vx: number, vy: number): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ({ vx, vy }) => {
      const cv = document.querySelector('[data-testid="curve-canvas"]') as HTMLCanvasElement;
      const r = cv.getBoundingClientRect();
      const ox = Number(cv.dataset.ox), oy = Number(cv.dataset.oy), size = Number(cv.dataset.size);
      return { x: r.left + ox + (vx / 127) * size, y: r.top + oy - (vy / 127) * size };
    },
    { vx, vy },
  );
}

/** The x1, y1, x2, y2 fields of the curve editor, as numbers. */
export async function curveFields(page: Page): Promise<number[]> {
  const out: number[] = [];
  for (const f of ['x1', 'y1', 'x2', 'y2']) out.push(Number(await page.inputValue(`[data-testid="curve-${f}"]`)));
  return out;
}

/** Clicks the key of `trackId` at `frame` in the timeline, holding `modifiers`. */
export async function clickKey(page: Page, trackId: string, frame: number, modifiers: ('Shift' | 'Control')[] = []): Promise<void> {
  const p = await keyPoint(page, trackId, frame);
  for (const m of modifiers) await page.keyboard.down(m);
  await page.mouse.click(p.x, p.y);
  for (const m of modifiers) await page.keyboard.up(m);
}

/** Waits for `n` animation frames of the page (an on-demand render has happened after two). */
export async function animationFrames(page: Page, n = 2): Promise<void> {
  for (let i = 0; i < n; i++) await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
}

/** Moves the preview's scrub bar to `frame`, waits until the preview shows it and has drawn it. */
export async function seekPreview(page: Page, frame: number): Promise<void> {
  await page.locator('[data-testid="preview-scrub"]').fill(String(frame));
  await page.waitForFunction((f) => window.__vmdPreview?.frame() === f, frame);
  await animationFrames(page);
}

/** Types `frame` into the editor's frame field (Enter), leaves the field, and waits until the editor is there. */
export async function seekFrameField(page: Page, frame: number): Promise<void> {
  await page.fill('[data-testid="frame-input"]', String(frame));
  await page.press('[data-testid="frame-input"]', 'Enter');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.waitForFunction((f) => window.__vmdEditor!.frame().frame === f, frame);
}

/** The shown track rows, top to bottom: [test id, which document]. */
export async function listedRows(page: Page): Promise<[string, string][]> {
  return page.$$eval('[data-testid="track-list"] .row', (els) =>
    els
      .map((e) => ({ id: (e as HTMLElement).dataset.testid!, doc: (e as HTMLElement).dataset.doc!, top: e.getBoundingClientRect().top }))
      .sort((a, b) => a.top - b.top)
      .map((r) => [r.id, r.doc] as [string, string]),
  );
}

/**
 * Opens a file through the in-app dialog and waits until this open has installed its document (the
 * harness waits for the file name, which is already shown when the same file is opened again) and the
 * timeline has fitted it.
 */
export async function openFresh(page: Page, file: string): Promise<void> {
  const v = await page.evaluate(() => window.__vmdEditor?.version() ?? -1);
  await openFileViaDialog(page, file);
  await page.waitForFunction((v) => window.__vmdEditor!.version() > v && window.__vmdEditor!.history().undo === 0, v);
  await animationFrames(page, 2);
}

/** Bone key frames of the open document, sorted (the editor hook's bytes: header 50, count, 111-byte records). */
export async function boneFrames(page: Page): Promise<number[]> {
  const b64 = await page.evaluate(() => window.__vmdEditor!.bytes());
  const b = Buffer.from(b64!, 'base64');
  const n = b.readUInt32LE(50);
  return Array.from({ length: n }, (_, i) => b.readUInt32LE(54 + i * 111 + 15)).sort((p, q) => p - q);
}
