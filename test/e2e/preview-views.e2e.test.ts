/**
 * A way back to the front view (the new-user pass nubegin, finding 7: after turning the camera there was none):
 * ⟲ Front over the preview, ▾ for back / left / right / top and the start view, the keys 2 8 4 6 5 and 0 (MMD's
 * numpad), a double-click on empty space; F1 lists them. Each side keeps the orbit's target and distance; the
 * expected eyes are the target plus the distance along the side's axis (three.js: the model faces +z).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appForSuite } from './harness';

const cam = (page: Page) => page.evaluate(() => window.__vmdPreview!.cameraState()!);
/** The eye's offset from the orbit target, rounded to 1/1000. */
async function offset(page: Page): Promise<{ dir: number[]; d: number }> {
  const c = await cam(page);
  const v = c.position.map((p, i) => p - c.target[i]);
  const d = Math.hypot(...v);
  return { dir: v.map((x) => Math.round((x / d) * 1000) / 1000 + 0), d };
}

describe('preview: side views and the way back to the front', () => {
  const s = appForSuite({ viewport: { width: 1366, height: 768 } });

  it('keys, ⟲ Front, ▾ and a double-click on empty space turn the view; F1 lists them', async () => {
    const { page } = s.app;
    await page.waitForFunction(() => !!window.__vmdPreview?.cameraState());
    const canvas = (await page.locator('[data-testid="preview-pane"] canvas').first().boundingBox())!;
    // Turned away first: a drag across the view.
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height - 30);
    await page.mouse.down();
    await page.mouse.move(canvas.x + canvas.width / 2 + 150, canvas.y + canvas.height - 90, { steps: 6 });
    await page.mouse.up();
    const turned = await offset(page);
    expect(turned.dir).not.toEqual([0, 0, 1]);
    const target = (await cam(page)).target;

    // 4: from the left (the eye on −x), the target and the distance kept.
    await page.locator('body').press('4');
    await page.waitForFunction(() => window.__vmdPreview!.cameraState()!.position[0] < window.__vmdPreview!.cameraState()!.target[0] - 1);
    let o = await offset(page);
    expect(o.dir).toEqual([-1, 0, 0]);
    expect(o.d).toBeCloseTo(turned.d, 3);
    expect((await cam(page)).target).toEqual(target);
    await page.locator('body').press('8');
    expect((await offset(page)).dir).toEqual([0, 0, -1]);
    await page.locator('body').press('5');
    expect((await offset(page)).dir).toEqual([0, 1, 0]);

    // ⟲ Front: the eye in front (+z).
    expect(await page.getAttribute('[data-testid="preview-view-front"]', 'title')).toContain('key 2');
    await page.click('[data-testid="preview-view-front"]');
    o = await offset(page);
    expect(o.dir).toEqual([0, 0, 1]);
    expect(o.d).toBeCloseTo(turned.d, 3);

    // ▾ → Right: the eye on +x.
    await page.click('[data-testid="preview-view-more"]');
    expect(await page.textContent('[data-testid="preview-view-menu"]')).toBe('Back8Left4Right6Top5Start view0Frame all actorsA');
    await page.click('[data-testid="preview-view-right"]');
    expect((await offset(page)).dir).toEqual([1, 0, 0]);
    expect(await page.isVisible('[data-testid="preview-view-menu"]')).toBe(false);

    // A double-click on empty space (the top-left corner, over the floor's far side: no joint there): the start
    // view, eye (0, 16, 52) about (0, 10, 0).
    await page.mouse.dblclick(canvas.x + 20, canvas.y + 60);
    await page.waitForFunction(() => window.__vmdPreview!.cameraState()!.target[1] === 10);
    const start = await cam(page);
    expect(start.target.map((x) => Math.round(x * 1000) / 1000 + 0)).toEqual([0, 10, 0]);
    expect(start.position.map((x) => Math.round(x * 1000) / 1000 + 0)).toEqual([0, 16, 52]);

    // F1 lists the keys and the double-click.
    await page.keyboard.press('F1');
    const help = await page.textContent('[data-testid="shortcuts-dialog"]');
    expect(help).toContain('View from the front / back / left / right / top (MMD’s numpad 2 8 4 6 5, the number row too); 0: back to the start view');
    expect(help).toContain('Double-click empty space');
    expect(help).toContain('Back to the start view (from the front)');
    await page.keyboard.press('Escape');
    await s.app.screenshot('preview-views-menu');
  });
});
