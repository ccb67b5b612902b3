/**
 * Mutated and truncated corpus files (and hand-built models) through the parsers: every one either parses or returns a typed
 * error; none throws. Deterministic (seeded, test/helpers/mutate.ts), so a failure reproduces. How long the slowest
 * damaged file takes is reported by `npm run bench` (test/bench/fuzz-bench.ts), not asserted here.
 */
import { describe, expect, it } from 'vitest';
import { buildTracks, inspectVmd, readVmd, readVpd, samplePose } from '../../shared/vmd';
import { corpusFiles, corpusPresent, readCorpus } from '../helpers/corpus';
import { inspectModel, readModel } from '../../shared/pmx';
import { morphPmx, tinyPmd, tinyPmx } from './pmx-fixtures';
import { damageModel, damageVmd, damageVpd, rng } from '../helpers/mutate';

const CODES = new Set(['E_VMD_MAGIC', 'E_VMD_TRUNCATED', 'E_VMD_COUNT', 'E_VPD_MAGIC', 'E_VPD_SYNTAX']);

describe.skipIf(!corpusPresent)('fuzz', () => {
  const vmds = corpusFiles('.vmd').filter((f) => !f.includes('wavefile_v2')); // keep the run short; size is not the point
  const vpds = corpusFiles('.vpd');

  it('survives 3,000 mutated or truncated VMDs', () => {
    const rand = rng(12345);
    let parsed = 0, rejected = 0;
    for (let n = 0; n < 3000; n++) {
      const b = damageVmd(readCorpus(vmds[n % vmds.length]), n, rand);
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
    }
    expect(parsed + rejected).toBe(3000);
    expect(rejected).toBeGreaterThan(300);
  });

  it('survives 1,000 mutated or truncated VPDs', () => {
    const rand = rng(777);
    for (let n = 0; n < 1000; n++) {
      const r = readVpd(damageVpd(readCorpus(vpds[n % vpds.length]), n, rand));
      if (!r.ok) expect(CODES.has(r.error.code)).toBe(true);
    }
  });
});

describe('fuzz: models', () => {
  const MODEL_CODES = new Set(['E_PMX_MAGIC', 'E_PMX_TRUNCATED', 'E_PMX_INDEX', 'E_PMX_DEFORM', 'E_PMX_MORPH']);
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
    let parsed = 0, rejected = 0;
    for (let n = 0; n < 2000; n++) {
      if (check(damageModel(sources[n % sources.length], n, rand))) parsed++;
      else rejected++;
    }
    expect(parsed + rejected).toBe(2000);
    expect(rejected).toBeGreaterThan(400);
    expect(parsed).toBeGreaterThan(100);
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
