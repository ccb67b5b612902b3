/**
 * The Chromium the harness drives (harness.ts chromiumBinary): the system one when installed, else the
 * one inside @sparticuz/chromium (forced with VMD_E2E_CHROMIUM=bundled). Whichever it is must give the
 * page WebGL 2 on SwiftShader, which every preview test relies on; the packaged one reports the version
 * its npm package is named after.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumBinary, launchChromium, ROOT } from './harness';

describe('the e2e Chromium', () => {
  it('launches headless with WebGL 2 through SwiftShader', async () => {
    const which = await chromiumBinary();
    if (process.env.VMD_E2E_CHROMIUM === 'bundled') expect(which.kind).toBe('bundled');
    const browser = await launchChromium();
    try {
      if (which.kind === 'bundled') {
        const pkg = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@sparticuz/chromium/package.json'), 'utf8')) as { version: string };
        expect(browser.version().split('.')[0]).toBe(pkg.version.split('.')[0]);
      }
      const page = await browser.newPage();
      const gl = await page.evaluate(() => {
        const c = document.createElement('canvas').getContext('webgl2');
        if (!c) return null;
        const ext = c.getExtension('WEBGL_debug_renderer_info');
        return String(c.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : c.RENDERER));
      });
      expect(gl).toMatch(/SwiftShader/);
      console.log(`${which.kind} Chromium ${browser.version()} (${which.path}): ${gl}`);
    } finally {
      await browser.close();
    }
  });
});
