// Change speed keeps a face's 1–3-frame spikes (new-user pass numorph 1): the report's blink3 motion
// (まばたき 0@0, 0@100, 1@101, 0@102, 0@300; あ 0@0, 0@150, 0.8@151, 0@152, 0@300) re-timed with and
// without --refit, every expected key worked out by hand in the comments, and a corpus face motion whose
// every peak survives. The played figures come from the player (sample.ts) and measureErrors.
import { describe, expect, it } from 'vitest';
import { blockFromRecords, buildTracks, emptyVmd, encodeMorphRecord, readVmd, sampleMorph, type VmdDocument } from '../../../shared/vmd';
import { speed } from '../../../shared/motion-ops';
import { measureErrors, speedRefit } from '../../../shared/fit';
import { prepareFitEdit } from '../../../shared/batch/fit-ops';

type Key = [frame: number, weight: number];

function faceDoc(tracks: Record<string, Key[]>): VmdDocument {
  const recs = Object.entries(tracks).flatMap(([name, keys]) => keys.map(([frame, weight]) => encodeMorphRecord({ name, frame, weight })));
  return { ...emptyVmd('model'), morph: blockFromRecords('morph', recs) };
}

const BLINK3 = faceDoc({
  まばたき: [[0, 0], [100, 0], [101, 1], [102, 0], [300, 0]],
  あ: [[0, 0], [150, 0], [151, 0.8], [152, 0], [300, 0]],
});

function keysOf(d: VmdDocument, name: string): Key[] {
  const m = buildTracks(d).morphs;
  const t = m.index.get(name)!;
  return Array.from({ length: m.start[t + 1] - m.start[t] }, (_, i) => [m.frames[m.start[t] + i], m.weight[m.start[t] + i]] as Key);
}

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Frames exact, weights within `tol` (the fit may move a key's value within the morph tolerance). */
function expectKeys(got: Key[], want: Key[], tol = 0): void {
  expect(got.map((k) => k[0])).toEqual(want.map((k) => k[0]));
  got.forEach((k, i) => expect(Math.abs(k[1] - Math.fround(want[i][1])), `key at ${k[0]}`).toBeLessThanOrEqual(tol + 1e-7));
}

describe('speed without --refit: a morph spike keeps its peak and the keys around it', () => {
  // frame' = round(frame / K), half away from zero. Of keys landing on one frame, the local extreme stays;
  // the key just before / after it goes to the frame before / after when nothing lands there.
  const cases: [number, Key[], Key[]][] = [
    // ×2: 100→50, 101→50.5→51, 102→51 (taken by the peak: moved to 52), 300→150. あ: 150→75, 151→75.5→76, 152→76 (→77).
    [2, [[0, 0], [50, 0], [51, 1], [52, 0], [150, 0]], [[0, 0], [75, 0], [76, 0.8], [77, 0], [150, 0]]],
    // ×1.5: 100→66.7→67 and 101→67.3→67: the peak stays at 67, 0@100 goes to 66; 102→68, 300→200.
    // あ: 150→100, 151→100.7→101, 152→101.3→101 (moved to 102).
    [1.5, [[0, 0], [66, 0], [67, 1], [68, 0], [200, 0]], [[0, 0], [100, 0], [101, 0.8], [102, 0], [200, 0]]],
    // ×1.25: 80, 80.8→81, 81.6→82, 240: no collision. あ: 120, 120.8→121, 121.6→122, 240.
    [1.25, [[0, 0], [80, 0], [81, 1], [82, 0], [240, 0]], [[0, 0], [120, 0], [121, 0.8], [122, 0], [240, 0]]],
    // ×0.8 (slower): 125, 126.25→126, 127.5→128, 375. あ: 187.5→188, 188.75→189, 190, 375.
    [0.8, [[0, 0], [125, 0], [126, 1], [128, 0], [375, 0]], [[0, 0], [188, 0], [189, 0.8], [190, 0], [375, 0]]],
  ];
  for (const [factor, blink, a] of cases) {
    it(`×${factor}`, () => {
      const r = must(speed(BLINK3, { factor }));
      expectKeys(keysOf(r.doc, 'まばたき'), blink);
      expectKeys(keysOf(r.doc, 'あ'), a);
      expect(r.report.byKind.morph.collisions).toBe(0);
    });
  }

  it('×2: at frame 100 the eyes are open and the mouth shut, as the original plays at 200 (the old result: まばたき 0.505, あ 0.541)', () => {
    const d = must(speed(BLINK3, { factor: 2 })).doc;
    const m = buildTracks(d).morphs;
    expect(sampleMorph(m, m.index.get('まばたき')!, 100)).toBe(0);
    expect(sampleMorph(m, m.index.get('あ')!, 100)).toBe(0);
    const r = must(speed(BLINK3, { factor: 2 })).report;
    expect(r.warningCodes?.map((w) => [w.code, w.params])).toEqual([['W_SPEED_MORPH_MOVED', { n: 2, name: 'まばたき', frame: 102, at: 52 }]]);
  });

  it('names the morph and the frame of a key it has to leave out', () => {
    // ×3: 0→0, 1→0.33→0, 2→0.67→1, 3→1, 30→10. Frame 0: 0@0 and 1@1 (an extreme) → 1@1 stays at 0 and 0@0
    // has no frame before 0: left out. Frame 1: 0.2@2 (an extreme: below 1 and 0.6) and 0.6@3 → 0.2 stays,
    // 0.6@3 goes to 2.
    const d = faceDoc({ ウィンク: [[0, 0], [1, 1], [2, 0.2], [3, 0.6], [30, 0]] });
    const r = must(speed(d, { factor: 3 }));
    expectKeys(keysOf(r.doc, 'ウィンク'), [[0, 1], [1, 0.2], [2, 0.6], [10, 0]]);
    expect(r.report.byKind.morph.collisions).toBe(1);
    expect(r.report.warnings[0]).toBe('morph “ウィンク”: 1 key landed on a frame already taken and was left out (first: frame 0 → 0, which keeps the key from frame 1)');
  });
});

describe('speed --refit: a morph peak between output frames is keyed at the nearest one and measured', () => {
  // Output frame g plays the input at g·K; a peak at 101/K between frames is keyed at the nearest frame
  // (half away). The keys around it are where the input's line bends, as the fit needs them.
  const cases: [number, Key[], Key[]][] = [
    // ×2: peak 50.5 → 51; 50 and 52 play input 100 and 104 (0). あ: 75.5 → 76.
    [2, [[0, 0], [50, 0], [51, 1], [52, 0], [150, 0]], [[0, 0], [75, 0], [76, 0.8], [77, 0], [150, 0]]],
    // ×1.5: peak 67.33 → 67 (66: input 99, 68: input 102, both 0). あ: 100.67 → 101 (100: 150, 102: 153).
    [1.5, [[0, 0], [66, 0], [67, 1], [68, 0], [200, 0]], [[0, 0], [100, 0], [101, 0.8], [102, 0], [200, 0]]],
    // ×1.25: 80.8 → 81 (80: input 100, 82: input 102.5). あ: 120.8 → 121.
    [1.25, [[0, 0], [80, 0], [81, 1], [82, 0], [240, 0]], [[0, 0], [120, 0], [121, 0.8], [122, 0], [240, 0]]],
    // ×0.8: 126.25 → 126; 127 plays input 101.6 = 0.4 (a line 1@126 → 0@128 would play 0.5 there), 128: 102.4 = 0.
    // あ: 188.75 → 189; 188 plays input 150.4 = 0.32 (a line 0@187 → 0.8@189 would play 0.4), 190: 152 = 0.
    [0.8, [[0, 0], [125, 0], [126, 1], [127, 0.4], [128, 0], [375, 0]], [[0, 0], [187, 0], [188, 0.32], [189, 0.8], [190, 0], [375, 0]]],
  ];
  for (const [factor, blink, a] of cases) {
    it(`×${factor}`, () => {
      const r = must(speedRefit(BLINK3, { factor }));
      expectKeys(keysOf(r.doc, 'まばたき'), blink, 0.005);
      expectKeys(keysOf(r.doc, 'あ'), a, 0.005);
      // Each peak keeps its height (at most the tolerance off).
      expect(Math.max(...keysOf(r.doc, 'まばたき').map((k) => k[1]))).toBeGreaterThanOrEqual(1 - 0.005);
      expect(Math.max(...keysOf(r.doc, 'あ').map((k) => k[1]))).toBeGreaterThanOrEqual(0.8 - 0.005);
    });
  }

  it('the reported error (what the app and the CLI print) sees a peak that is lost, and is within tolerance when kept', () => {
    const refit = must(prepareFitEdit('speed', { factor: 2 })(BLINK3));
    expect(refit.report.extra.maxMorphError).toBeLessThanOrEqual(0.005);
    expect(refit.report.extra.morphKeysAfter).toBe(10);
    // What the old refit wrote at ×2: one 0 key per track. The blink's 1 (at 50.5) is lost: a whole 1.
    const flat = faceDoc({ まばたき: [[0, 0]], あ: [[0, 0]] });
    expect(measureErrors(BLINK3, flat, { factor: 2, halfFrames: false }).morph).toBe(1);
    // At ×0.8 the old refit keyed 0.8 at 126 (input 100.8) and 0.4 at 127: the 1 at 126.25 is 0.2 short.
    const old = faceDoc({ まばたき: [[0, 0], [125, 0], [126, 0.8], [127, 0.4], [128, 0], [375, 0]], あ: [[0, 0], [187, 0], [188, 0.32], [189, 0.8], [190, 0], [375, 0]] });
    expect(measureErrors(BLINK3, old, { factor: 0.8, halfFrames: false }).morph).toBeCloseTo(0.2, 6);
  });
});

describe('a corpus face motion keeps every peak', () => {
  const dir = process.env.VMD_CORPUS;
  const path = dir ? `${dir}/gene/motion/02_laugh.vmd` : '';
  it.skipIf(!dir)('gene/motion/02_laugh.vmd at ×2 and ×1.5, with and without --refit: each strict local extreme of a morph track shows within one output frame of where it plays', async () => {
    const { readFileSync } = await import('node:fs');
    const input = must(readVmd(readFileSync(path)));
    const m = buildTracks(input).morphs;
    let peaks = 0;
    for (const factor of [2, 1.5]) {
      for (const refit of [false, true]) {
        const out = refit ? must(speedRefit(input, { factor })).doc : must(speed(input, { factor })).doc;
        const om = buildTracks(out).morphs;
        for (let t = 0; t < m.names.length; t++) {
          const a = m.start[t], e = m.start[t + 1];
          const ot = om.index.get(m.names[t])!;
          // Extremes written out here: a key above (below) the nearest key of another value on each side.
          for (let i = a; i < e; i++) {
            let p = i - 1, n = i + 1;
            while (p >= a && m.weight[p] === m.weight[i]) p--;
            while (n < e && m.weight[n] === m.weight[i]) n++;
            if (p < a || n >= e || (m.weight[i] - m.weight[p]) * (m.weight[i] - m.weight[n]) <= 0) continue;
            peaks++;
            const at = m.frames[i] / factor;
            const near = [Math.floor(at) - 1, Math.floor(at), Math.ceil(at), Math.ceil(at) + 1].filter((g) => g >= 0 && Math.abs(g - at) <= 1 + 1e-9);
            const best = Math.min(...near.map((g) => Math.abs(sampleMorph(om, ot, g) - m.weight[i])));
            expect(best, `${m.names[t]} ${m.weight[i]}@${m.frames[i]} ×${factor}${refit ? ' refit' : ''}`).toBeLessThanOrEqual(refit ? 0.005 + 1e-6 : 0);
          }
        }
      }
    }
    expect(peaks).toBeGreaterThan(0);
  });
});
