/**
 * The production renderer (dist/renderer, what Electron and the browser mode ship) holds no test hook and
 * no measurement probe (the last commit's time, the music load's timings: the e2e hooks measure those
 * themselves); the e2e build (dist/renderer-e2e, its entry renderer/src/e2e/main.ts) does. The second half shows that the names
 * looked for are the ones the hooks really leave in a minified bundle, so the first half can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, RENDERER_DIR, RENDERER_E2E_DIR } from '../helpers/build';

/**
 * Window globals, query names of the hooks and the probes' fields (property names survive minification;
 * function names do not).
 */
const HOOK_NAMES = ['__vmdEditor', '__vmdPreview', '__vmdMusic', '__vmdFit', 'timePose', 'pixelAt', 'liveMemory', 'resetPerf', 'lastCommitMs', 'pyramidMs', 'decodeStart'];

/** Every script and page of a build, concatenated. */
function bundleText(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|mjs|html)$/.test(e.name)) out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out.join('\n');
}

const found = (text: string) => HOOK_NAMES.filter((n) => text.includes(n));

describe('test hooks are built only into the e2e build', () => {
  beforeAll(() => ensureBuilt(['renderer', 'renderer-e2e']), 240_000);

  it('the production bundle holds none of them', () => {
    const text = bundleText(RENDERER_DIR);
    expect(text.length).toBeGreaterThan(100_000);
    expect(found(text)).toEqual([]);
  });

  it('the e2e build holds every one of them', () => {
    expect(found(bundleText(RENDERER_E2E_DIR))).toEqual(HOOK_NAMES);
  });
});
