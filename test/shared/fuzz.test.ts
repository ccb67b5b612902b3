/**
 * Mutated and truncated corpus files (and hand-built models) through the parsers: every one either parses or returns a typed
 * error; none throws, and none takes over 100 ms. Deterministic (seeded), so a failure reproduces.
 */
import { describe, expect, it } from 'vitest';
import { buildTracks, inspectVmd, readVmd, readVpd, samplePose } from '../../shared/vmd';
import { corpusFiles, corpusPresent, readCorpus } from '../helpers/corpus';
import { inspectModel, readModel } from '../../shared/pmx';
import { morphPmx, tinyPmd, tinyPmx } from './pmx-fixtures';

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

describe('fuzz: models', () => {
  const MODEL_CODES = new Set(['E_PMX_MAGIC', 'E_PMX_TRUNCATED']);
  /** Parses or returns a typed error with an offset inside the file; never throws. Returns whether it parsed. */
  function check(b: Uint8Array): boolean {
    const r = readModel(b);
    if (r.ok) {
      // What the CLI's `inspect MODEL` prints comes from the same bytes.
      expect(inspectModel(b).ok).toBe(true);
      return true;
    }
    expect(MODEL_CODES.has(r.error.code), r.error.code).toBe(true);
    expect(r.error.offset).toBeGreaterThanOrEqual(0);
    expect(r.error.offset!).toBeLessThanOrEqual(b.length);
    return false;
  }

  it('survives 2,000 mutated or truncated hand-built PMX/PMD files (every morph kind, index sizes 1/2/4)', () => {
    const rand = rng(4242);
    const sources = [tinyPmx().build(), tinyPmx({ utf8: true, boneIndexSize: 4, vertexIndexSize: 2, materialIndexSize: 2 }).build(), morphPmx().build(), tinyPmd().build()];
    let parsed = 0, rejected = 0, slowest = 0;
    for (let n = 0; n < 2000; n++) {
      const src = sources[n % sources.length];
      let b: Uint8Array = src.slice();
      const mode = n % 3;
      if (mode === 0) b = b.subarray(0, Math.floor(rand() * b.length));
      else {
        const flips = 1 + Math.floor(rand() * 6);
        // mode 2: 0xff bytes, which turn counts and lengths huge or negative.
        for (let i = 0; i < flips; i++) b[Math.floor(rand() * b.length)] = mode === 2 ? 0xff : Math.floor(rand() * 256);
      }
      const t0 = performance.now();
      if (check(b)) parsed++;
      else rejected++;
      slowest = Math.max(slowest, performance.now() - t0);
    }
    expect(parsed + rejected).toBe(2000);
    expect(rejected).toBeGreaterThan(400);
    expect(parsed).toBeGreaterThan(100);
    expect(slowest).toBeLessThan(100);
  });

  it.skipIf(!corpusPresent)('survives 60 mutated or truncated corpus models', () => {
    const rand = rng(99);
    const models = [...corpusFiles('.pmx'), ...corpusFiles('.pmd')];
    expect(models.length).toBeGreaterThan(2);
    for (let n = 0; n < 60; n++) {
      const src = readCorpus(models[n % models.length]);
      let b: Uint8Array = src.slice();
      if (n % 2 === 0) b = b.subarray(0, Math.floor(rand() * b.length));
      else for (let i = 0; i < 4; i++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256);
      check(b);
    }
  });
});
