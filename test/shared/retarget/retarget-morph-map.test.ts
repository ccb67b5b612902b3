/**
 * Morph tracks through a retarget's map, as vmd_sizing's morph maps use them: several tracks onto one morph
 * (合算: their weights added frame by frame, never two keys at one frame), one track onto several morphs
 * (分散), a ratio per row, and a CSV map whose rows are morphs. Expected weights are worked out here from the
 * keys written in the test (linear between keys, as MMD plays morphs), never taken from the retarget.
 */
import { describe, expect, it } from 'vitest';
import type { ModelData } from '../../../shared/pmx/model-types';
import { parseMapping } from '../../../shared/motion-ops/rename';
import { retarget } from '../../../shared/retarget';
import { bareModel } from '../../helpers/bare-model';
import { buildTracks, buildVmd, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';

/** The bare model (test/helpers/bare-model.ts), morphs first, bones センター and 頭 unless given. */
const model = (name: string, morphs: string[], bones: string[] = ['センター', '頭']): ModelData => bareModel(name, bones, morphs);
const reread = (d: VmdDocument) => {
  const r = readVmd(writeVmd(d));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const map = (text: string, fmt?: 'json' | 'csv') => {
  const m = parseMapping(text, fmt);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};
/** A weight as the player reads it between two keys (linear), from the keys as written here. */
function lerp(keys: [number, number][], f: number): number {
  if (f <= keys[0][0]) return keys[0][1];
  for (let i = 1; i < keys.length; i++) if (f <= keys[i][0]) return keys[i - 1][1] + ((keys[i][1] - keys[i - 1][1]) * (f - keys[i - 1][0])) / (keys[i][0] - keys[i - 1][0]);
  return keys[keys.length - 1][1];
}
/** The output's keys of one morph: [frame, weight] in file order. */
const keysOf = (d: VmdDocument, name: string): [number, number][] => {
  const m = buildTracks(d).morphs, k = m.index.get(name);
  if (k === undefined) return [];
  const out: [number, number][] = [];
  for (let i = m.start[k]; i < m.start[k + 1]; i++) out.push([m.frames[i], m.weight[i]]);
  return out;
};

const WINK: [number, number][] = [[0, 0], [10, 1], [20, 0]];
const WINK_R: [number, number][] = [[5, 0.5], [15, 0]];
const LAUGH: [number, number][] = [[0, 0], [12, 0.25]];
const AH: [number, number][] = [[0, 1], [15, 0.25]];
const source = model('源', ['ウィンク', 'ウィンク右', '笑い', 'あ', 'まばたき']);
const target = model('先', ['笑い', 'にこり', 'まばたき', 'じと目', 'あ']);
const motion = reread(
  buildVmd({
    bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }],
    morphs: [
      ...WINK.map(([frame, weight]) => ({ name: 'ウィンク', frame, weight })),
      ...WINK_R.map(([frame, weight]) => ({ name: 'ウィンク右', frame, weight })),
      ...LAUGH.map(([frame, weight]) => ({ name: '笑い', frame, weight })),
      ...AH.map(([frame, weight]) => ({ name: 'あ', frame, weight })),
      ...AH.map(([frame, weight]) => ({ name: 'まばたき', frame, weight })),
    ],
  }),
);
const run = (m: ReturnType<typeof map>) => {
  const r = retarget(motion, source, target, { mapping: m });
  if (!r.ok) throw new Error(r.error.message);
  return { r: r.value, out: reread(r.value.doc) };
};

describe('several morph tracks onto one morph (合算)', () => {
  const { r, out } = run(map('{"morphs":{"ウィンク":"笑い","ウィンク右":"笑い"}}'));
  const got = keysOf(out, '笑い');

  it('one key per frame at the union of the key frames, each the sum of the tracks there, clamped to [0, 1]', () => {
    const frames = [...new Set([...WINK, ...WINK_R, ...LAUGH].map((k) => k[0]))].sort((a, b) => a - b);
    expect(got.map((k) => k[0])).toEqual(frames);
    for (const [f, w] of got) {
      const want = Math.min(1, Math.max(0, lerp(WINK, f) + lerp(WINK_R, f) + lerp(LAUGH, f)));
      expect(w, `frame ${f}`).toBeCloseTo(want, 6);
    }
    // Between keys the player's linear reading of the written keys gives the sum too (from 15 to 20 nothing clamps).
    for (const f of [16, 17, 18, 19]) expect(lerp(got, f), `frame ${f}`).toBeCloseTo(lerp(WINK, f) + lerp(WINK_R, f) + lerp(LAUGH, f), 6);
  });

  it('warns naming the merged tracks, and of the clamp where the sum passed 1', () => {
    const w = r.report.warnings.join('\n');
    expect(w).toMatch(/morph tracks ウィンク, ウィンク右, 笑い land on one morph 笑い: their weights were added frame by frame \(\d+ keys\)/);
    // At frame 10: 1 (ウィンク) + 0.25 (ウィンク右 halfway down) + 10/12·0.25 (笑い) > 1.
    expect(w).toMatch(/morph 笑い: \d+ keys? of the added weights fell outside 0 to 1 and (was|were) clamped/);
    expect(r.details.combinedMorphs).toEqual([expect.objectContaining({ morph: '笑い', from: [{ morph: 'ウィンク', ratio: 1 }, { morph: 'ウィンク右', ratio: 1 }, { morph: '笑い', ratio: 1 }] })]);
  });

  it('a CSV map of the same rows does the same (its rows are morphs: the target has 笑い as a morph and no such bone)', () => {
    const csv = run(map('old,new\nウィンク,笑い\nウィンク右,笑い\n', 'csv'));
    expect(keysOf(csv.out, '笑い')).toEqual(got);
    expect(csv.r.details.unusedMapRows).toEqual([]);
  });
});

describe('one morph track onto several, with ratios (分散)', () => {
  it('JSON: "まばたき": ["まばたき", ["じと目", 0.8]] copies まばたき and writes じと目 at 0.8 of it', () => {
    const { r, out } = run(map('{"morphs":{"まばたき":["まばたき",["じと目",0.8]]}}'));
    expect(keysOf(out, 'まばたき')).toEqual(AH.map(([f, w]) => [f, Math.fround(w)]));
    const j = keysOf(out, 'じと目');
    expect(j.map((k) => k[0])).toEqual(AH.map((k) => k[0]));
    j.forEach(([f, w]) => expect(w).toBeCloseTo(0.8 * lerp(AH, f), 6));
    expect(r.details.unmatchedMorphs.map((u) => u.morph)).not.toContain('まばたき');
  });

  it('CSV: repeated rows あ,笑い / あ,にこり and a ratio column (vmd_sizing\'s A-2 and C-1 maps), the rows read as morphs', () => {
    const { r, out } = run(map('old,new,ratio\nあ,にこり\nあ,あ,1\nまばたき,じと目,0.8\n', 'csv'));
    expect(keysOf(out, 'にこり')).toEqual(AH.map(([f, w]) => [f, Math.fround(w)]));
    expect(keysOf(out, 'あ')).toEqual(AH.map(([f, w]) => [f, Math.fround(w)]));
    keysOf(out, 'じと目').forEach(([f, w]) => expect(w).toBeCloseTo(0.8 * lerp(AH, f), 6));
    // No row is taken for a bone ("the target model has no bone にこり" before).
    expect(r.details.unusedMapRows).toEqual([]);
    expect(r.report.warnings.join('\n')).not.toMatch(/no bone/);
  });

  it('a CSV row onto a bone stays a bone row', () => {
    const { r } = run(map('センター,頭\n', 'csv'));
    expect(r.details.copied.find((c) => c.bone === 'センター')?.as).toBe('頭');
  });
});

describe('reading vmd_sizing-style maps', () => {
  it('a third CSV column is a ratio; a header old,new,ratio is skipped; JSON takes lists of targets', () => {
    expect(map('old,new,ratio\nまばたき,じと目,0.8\n', 'csv').looseRows).toEqual([{ from: 'まばたき', to: 'じと目', ratio: 0.8 }]);
    expect(map('{"morphs":[["a","b",0.5],["a","c"]]}').morphRows).toEqual([{ from: 'a', to: 'b', ratio: 0.5 }, { from: 'a', to: 'c', ratio: 1 }]);
    // Existing maps keep their meaning: a plain CSV's rows are bones, a later row of a name winning.
    expect([...map('a,b\na,c\n', 'csv').bones]).toEqual([['a', 'c']]);
    expect(parseMapping('{"bones":{"a":["b","c"]}}').ok).toBe(false);
  });
});
