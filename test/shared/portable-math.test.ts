// shared/vmd/portable-math.ts: sin, cos and atan2 from + − × ÷ and sqrt only, so the player and the
// fitter give the same bits on every JavaScript engine (Math.sin/cos/atan2 differ in the last bit
// between V8 versions: Node and Chromium). Checked against Math to a few units in the last place, on
// IEEE 754's special values, and by running the fitter with the engine's approximated functions gone.
import { afterEach, describe, expect, it } from 'vitest';
import { atan2, cos, sin } from '../../shared/vmd/portable-math';
import { readVmd, writeVmd, type VmdDocument } from '../../shared/vmd';
import { bake, reduce, speedRefit } from '../../shared/fit';
import { corpusPresent, readCorpus } from '../helpers/corpus';
import { rng } from '../helpers/rng';

/** The distance from a to b in units of b's last place. */
function ulps(a: number, b: number): number {
  if (a === b) return 0;
  const m = Math.abs(b);
  const unit = m === 0 ? Number.MIN_VALUE : 2 ** (Math.floor(Math.log2(m)) - 52);
  return Math.abs(a - b) / unit;
}

describe('portable sin, cos and atan2', () => {
  it('agree with Math to within 2 units in the last place over the angles the format meets', () => {
    const r = rng(7);
    let worstSin = 0, worstCos = 0, worstAtan = 0;
    for (let i = 0; i < 200_000; i++) {
      // Small angles (slerp weights), whole turns, and a few far ones.
      const scale = i % 4 === 0 ? 1e-4 : i % 4 === 1 ? Math.PI : i % 4 === 2 ? 20 : 1e4;
      const x = (r() - 0.5) * 2 * scale;
      // Near a zero of sin or cos one ulp of the argument is many of the result: those are judged by
      // absolute error below.
      if (Math.abs(Math.sin(x)) > 1e-3) worstSin = Math.max(worstSin, ulps(sin(x), Math.sin(x)));
      if (Math.abs(Math.cos(x)) > 1e-3) worstCos = Math.max(worstCos, ulps(cos(x), Math.cos(x)));
      const y = (r() - 0.5) * (i % 3 === 0 ? 1e-6 : 10), z = (r() - 0.5) * (i % 5 === 0 ? 1e-6 : 10);
      worstAtan = Math.max(worstAtan, ulps(atan2(y, z), Math.atan2(y, z)));
    }
    expect(worstAtan).toBeLessThanOrEqual(2);
    expect(worstSin).toBeLessThanOrEqual(2);
    expect(worstCos).toBeLessThanOrEqual(2);
    expect(Math.abs(sin(Math.PI) - Math.sin(Math.PI))).toBeLessThan(1e-30);
    for (const x of [0.1, 0.5, 0.7853981633974483, 1, 2, 3, -2.5, 100, -1000]) {
      expect(ulps(sin(x), Math.sin(x))).toBeLessThanOrEqual(2);
      expect(ulps(cos(x), Math.cos(x))).toBeLessThanOrEqual(2);
    }
    const r2 = rng(9);
    let absSin = 0, absCos = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = (r2() - 0.5) * 40;
      absSin = Math.max(absSin, Math.abs(sin(x) - Math.sin(x)));
      absCos = Math.max(absCos, Math.abs(cos(x) - Math.cos(x)));
    }
    expect(absSin).toBeLessThanOrEqual(2.3e-16);
    expect(absCos).toBeLessThanOrEqual(2.3e-16);
  });

  it("keep IEEE 754's special values (signed zeros, infinities, NaN) as Math does", () => {
    const same = (a: number, b: number) => expect(Object.is(a, b) || Math.abs(a - b) <= 4.5e-16, `${a} vs ${b}`).toBe(true);
    const values = [0, -0, 1, -1, 3, -4, 1e-300, -1e-300, 1e300, -1e300, Infinity, -Infinity, NaN];
    for (const y of values) for (const x of values) same(atan2(y, x), Math.atan2(y, x));
    // The signed zeros exactly.
    expect(Object.is(atan2(0, 0), 0)).toBe(true);
    expect(Object.is(atan2(-0, 0), -0)).toBe(true);
    expect(atan2(0, -0)).toBe(Math.PI);
    expect(atan2(-0, -0)).toBe(-Math.PI);
    expect(Object.is(sin(-0), -0)).toBe(true);
    expect(cos(-0)).toBe(1);
    expect(sin(NaN)).toBeNaN();
    expect(cos(Infinity)).toBeNaN();
    expect(atan2(1, 0)).toBe(Math.PI / 2);
    expect(atan2(Infinity, -Infinity)).toBeCloseTo((3 * Math.PI) / 4, 15);
  });
});

describe.skipIf(!corpusPresent)('the fitter with the engine’s approximated functions gone', () => {
  const names = ['sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'sinh', 'cosh', 'tanh', 'exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'pow', 'cbrt', 'hypot'] as const;
  const saved = new Map<string, unknown>();
  afterEach(() => {
    for (const [n, f] of saved) (Math as unknown as Record<string, unknown>)[n] = f;
    saved.clear();
  });

  it('writes the same bytes for reduce, bake and speed --refit (no Math.sin, cos, atan2, hypot, pow, … is called)', () => {
    const r = readVmd(readCorpus('gene/motion/02_laugh.vmd'));
    if (!r.ok) throw new Error(r.error.message);
    const doc: VmdDocument = r.value;
    const run = () => {
      const out: Uint8Array[] = [];
      for (const e of [reduce(doc), speedRefit(doc, { factor: 1.5 }), speedRefit(doc, { factor: 0.7 }), bake(doc, { from: 0, to: 120 })]) {
        if (!e.ok) throw new Error(e.error.message);
        out.push(writeVmd(e.value.doc));
      }
      return out;
    };
    const withMath = run();
    for (const n of names) {
      saved.set(n, (Math as unknown as Record<string, unknown>)[n]);
      (Math as unknown as Record<string, unknown>)[n] = () => {
        throw new Error(`Math.${n} called`);
      };
    }
    const without = run();
    for (let i = 0; i < withMath.length; i++) expect(Buffer.from(without[i]).equals(Buffer.from(withMath[i]))).toBe(true);
  });
});
