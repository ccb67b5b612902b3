/**
 * Mutated and truncated corpus files (and hand-built models) through the parsers: every one either parses or returns a typed
 * error; none throws. Damaged BVH captures through the import, and damaged rigid bodies and joints through Bullet: none
 * gives a NaN or an infinity. Deterministic (seeded, test/helpers/mutate.ts), so a failure reproduces. How long the slowest
 * damaged file takes is reported by `npm run bench` (test/bench/fuzz-bench.ts), not asserted here.
 */
import { describe, expect, it } from 'vitest';
import { buildTracks, inspectVmd, readVmd, readVpd, samplePose } from '../../shared/vmd';
import { corpusFiles, corpusPresent, readCorpus } from '../helpers/corpus';
import { inspectModel, readModel, readPmd } from '../../shared/pmx';
import { morphPmx, tinyPmd, tinyPmx } from './pmx-fixtures';
import { damageBvh, damageModel, damageVmd, damageVpd, rng } from '../helpers/mutate';
import { readBvh } from '../../shared/bvh/bvh-reader';
import { importBvh } from '../../shared/bvh/import';
import { Simulation } from '../../shared/physics';
import { testBullet } from '../helpers/bullet';

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
  const MODEL_CODES = new Set(['E_PMX_MAGIC', 'E_PMX_TRUNCATED', 'E_PMX_INDEX', 'E_PMX_DEFORM', 'E_PMX_MORPH', 'E_PMX_NUMBER']);
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

  it("survives 600 PMDs with damaged bone groups (表示枠): every listed bone is the model's, and each note on them has an offset in the file", () => {
    const rand = rng(515);
    const w = tinyPmd({ display: { groups: ['Legs', 'IK'], entries: [[1, 1], [2, 1], [3, 2], [0, 2]], en: ['legs', 'ik'] } });
    const src = w.build();
    const from = w.marks.tail, to = src.length;
    const notes = new Set<string>();
    for (let n = 0; n < 600; n++) {
      const b = src.slice();
      // 1–3 bytes of the groups, the display list or the English names: a random value, 0 or 0xff.
      for (let k = 1 + Math.floor(rand() * 3); k > 0; k--) b[from + Math.floor(rand() * (to - from))] = rand() < 0.5 ? Math.floor(rand() * 256) : rand() < 0.5 ? 0 : 0xff;
      const r = readPmd(n % 5 === 0 ? b.subarray(0, from + Math.floor(rand() * (to - from))) : b);
      expect(r.ok, `damaged groups ${n}`).toBe(true); // damage after the morphs never refuses the model
      if (!r.ok) continue;
      for (const f of r.value.displayFrames ?? []) for (const i of f.bones) expect(i >= 0 && i < r.value.bones.length, `frame ${f.name} bone ${i}`).toBe(true);
      for (const d of r.diagnostics) {
        notes.add(d.code);
        expect(d.offset, d.code).toBeGreaterThanOrEqual(from);
        expect(d.offset!, d.code).toBeLessThanOrEqual(b.length);
      }
    }
    expect(notes).toEqual(new Set(['W_PMD_TAIL', 'W_PMD_DISPLAY']));
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

describe.skipIf(!corpusPresent)('fuzz: captures and physics', () => {
  /** The low-poly Miku: its humanoid bones take a capture, its hair and skirt are rigid bodies. */
  const MIKU = 'mmd-viewer-js/model/low_miku/miku.pmd';
  const finite = (a: ArrayLike<number>) => Array.prototype.every.call(a, (v: number) => Number.isFinite(v));

  it('survives 1,500 damaged BVH captures: a typed error naming the line, or a VMD on the model whose every key is finite', () => {
    // CMU 131_01 cut to 24 frames (the frames are not the point; an import of each is).
    const lines = new TextDecoder().decode(readCorpus('bvh11/resources/131_01.bvh')).split('\n');
    const at = lines.findIndex((l) => l.startsWith('MOTION'));
    const src = [...lines.slice(0, at), 'MOTION', 'Frames: 24', lines[at + 2], ...lines.slice(at + 3, at + 27)].join('\n');
    const model = readModel(readCorpus(MIKU));
    if (!model.ok) throw new Error(model.error.message);
    const rand = rng(2026);
    let imported = 0;
    const codes = new Set<string>();
    for (let n = 0; n < 1500; n++) {
      const r = readBvh(damageBvh(src, n, rand));
      if (!r.ok) {
        expect(r.error.code).toMatch(/^E_BVH_/);
        expect(r.error.line).toBeGreaterThan(0);
        codes.add(r.error.code);
        continue;
      }
      const im = importBvh(r.value, model.value);
      if (!im.ok) {
        codes.add(im.error.code);
        continue;
      }
      const t = buildTracks(im.value.doc).bones;
      expect(finite(t.position) && finite(t.rotation), `damaged capture ${n}`).toBe(true);
      imported++;
    }
    expect(imported).toBeGreaterThan(150);
    expect(codes.has('E_BVH_NUMBER')).toBe(true);
  });

  it('survives 150 models with damaged rigid bodies and joints: refused with E_PMX_PHYSICS, or 60 frames of physics with every bone finite', async () => {
    const src = readCorpus(MIKU);
    const m0 = readModel(src);
    if (!m0.ok) throw new Error(m0.error.message);
    const dance = readVmd(readCorpus('gene/motion/02_laugh.vmd'));
    if (!dance.ok) throw new Error(dance.error.message);
    const bullet = await testBullet();
    const rand = rng(31);
    const specials = [NaN, Infinity, -Infinity, 1e10, 1e20, -1e7, 0, -1];
    let refused = 0, simulated = 0;
    for (let n = 0; n < 150; n++) {
      const b = src.slice();
      const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
      // 1–3 numbers of the 83-byte body records (14 floats from byte 26) or 124-byte joint records (24 from 28):
      // a special value, or random bits.
      for (let k = 1 + Math.floor(rand() * 3); k > 0; k--) {
        const o = rand() < 0.6
          ? m0.value.rigidBodies[Math.floor(rand() * m0.value.rigidBodies.length)].offset + 26 + 4 * Math.floor(rand() * 14)
          : m0.value.joints[Math.floor(rand() * m0.value.joints.length)].offset + 28 + 4 * Math.floor(rand() * 24);
        if (rand() < 0.5) dv.setFloat32(o, specials[Math.floor(rand() * specials.length)], true);
        else dv.setUint32(o, Math.floor(rand() * 2 ** 32), true);
      }
      const m = readModel(b);
      if (!m.ok) throw new Error(m.error.message);
      if (m.value.physicsError) {
        expect(m.value.physicsError.code).toBe('E_PMX_PHYSICS');
        refused++;
        continue;
      }
      const sim = new Simulation(bullet, m.value, dance.value);
      sim.seek(0);
      for (let f = 0; f < 60; f++) sim.advance();
      const ok = finite(sim.pose.worldPosition) && finite(sim.pose.worldRotation);
      sim.dispose();
      expect(ok, `damaged model ${n}`).toBe(true);
      simulated++;
    }
    expect(refused).toBeGreaterThan(30);
    expect(simulated).toBeGreaterThan(30);
  }, 120_000);
});
