/**
 * Mutated and truncated corpus files through the parser: every one either parses or returns a typed
 * error; none throws, and none takes over 100 ms. Deterministic (seeded), so a failure reproduces.
 */
import { describe, expect, it } from 'vitest';
import { buildTracks, inspectVmd, readVmd, readVpd, samplePose } from '../../shared/vmd';
import { corpusFiles, corpusPresent, readCorpus } from '../helpers/corpus';

function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

const CODES = new Set(['E_VMD_MAGIC', 'E_VMD_TRUNCATED', 'E_VMD_COUNT', 'E_VPD_MAGIC', 'E_VPD_SYNTAX']);

describe.skipIf(!corpusPresent)('fuzz', () => {
  const vmds = corpusFiles('.vmd').filter((f) => !f.includes('wavefile_v2')); // keep the run short; size is not the point
  const vpds = corpusFiles('.vpd');

  it('survives 3,000 mutated or truncated VMDs', () => {
    const rand = rng(12345);
    let parsed = 0, rejected = 0, slowest = 0;
    for (let n = 0; n < 3000; n++) {
      const src = readCorpus(vmds[n % vmds.length]);
      let b: Uint8Array = src.slice();
      const mode = n % 4;
      if (mode === 0) b = b.subarray(0, Math.floor(rand() * b.length));
      else {
        const flips = 1 + Math.floor(rand() * 8);
        for (let i = 0; i < flips; i++) {
          // Bias mutations towards the first block counts, where they hurt most.
          const p = mode === 1 ? 50 + Math.floor(rand() * 8) : Math.floor(rand() * b.length);
          b[p] = mode === 3 ? 0xff : Math.floor(rand() * 256);
        }
      }
      const t0 = performance.now();
      const r = readVmd(b);
      if (r.ok) {
        const tracks = buildTracks(r.value);
        inspectVmd(r.value, tracks);
        samplePose(tracks, tracks.lastFrame / 2);
        parsed++;
      } else {
        expect(CODES.has(r.error.code)).toBe(true);
        expect(typeof r.error.message).toBe('string');
        expect(r.error.offset).toBeGreaterThanOrEqual(0);
        rejected++;
      }
      slowest = Math.max(slowest, performance.now() - t0);
    }
    expect(parsed + rejected).toBe(3000);
    expect(rejected).toBeGreaterThan(300);
    expect(slowest).toBeLessThan(100);
  });

  it('survives 1,000 mutated or truncated VPDs', () => {
    const rand = rng(777);
    let slowest = 0;
    for (let n = 0; n < 1000; n++) {
      const b = readCorpus(vpds[n % vpds.length]).slice(0);
      let c: Uint8Array = b;
      if (n % 2) c = b.subarray(0, Math.floor(rand() * b.length));
      else for (let i = 0; i < 6; i++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
      const t0 = performance.now();
      const r = readVpd(c);
      if (!r.ok) expect(CODES.has(r.error.code)).toBe(true);
      slowest = Math.max(slowest, performance.now() - t0);
    }
    expect(slowest).toBeLessThan(100);
  });
});
