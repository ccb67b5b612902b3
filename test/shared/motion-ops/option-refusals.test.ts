// Refusals whose CLI message names an option (`use --clip …`, `--from must be …`) carry that option and a
// problem, so the Batch dialog can say them with its own control's label (shared/vmd/errors.ts optionRefusal):
// the option is one the operation's form has, and the problem has its line in both languages.
import { describe, expect, it } from 'vitest';
import { buildVmd, vpdToVmd, type CodecError } from '../../../shared/vmd';
import { buildFromPoses, poseAtFrame, shift, speed, trim } from '../../../shared/motion-ops';
import { OP_OPTION_SPECS } from '../../../shared/batch/op-specs';
import type { BatchOp } from '../../../shared/batch/types';
import { hasString, tDynamic } from '../../../shared/i18n/strings';
import { reduce, bake } from '../../../shared/fit/motion-fit';
import { physicsBake } from '../../../shared/physics/bake';
import { denseRefusal } from '../../../shared/edit-core/dense-limit';
import { readBvh } from '../../../shared/bvh/bvh-reader';
import { importBvh } from '../../../shared/bvh/import';
import { standardFigureModel } from '../../../shared/skeleton/standard-figure';

/** A センター key at frame 0 and one far past it (2,000,000): more frames than a fit samples. */
const farKey = buildVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: 'センター', frame: 10, position: [2, 0, 0], rotation: [0, 0, 0, 1] }, { name: 'センター', frame: 20, position: [0, 1, 0], rotation: [0, 0, 0, 1] }, { name: 'センター', frame: 2_000_000, position: [1, 0, 0], rotation: [0, 0, 0, 1] }] });
/** A BVH whose Frame Time is 0 (read only with --fps). */
const BVH = (ft: string) => `HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n  JOINT LeftUpLeg\n  {\n    OFFSET 1 0 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n      OFFSET 0 -1 0\n    }\n  }\n}\nMOTION\nFrames: 2\nFrame Time: ${ft}\n0 0 0 0 0 0 0 0 0\n0 1 0 0 0 10 0 0 0\n`;
/** The standard figure without its IK chains: no 足ＩＫ to plant the feet with. */
const noLegIk = () => {
  const m = standardFigureModel();
  return { ...m, bones: m.bones.map((b) => ({ ...b, ik: null })) };
};

const doc = buildVmd({ morphs: [{ name: 'あ', frame: 4, weight: 1 }, { name: 'あ', frame: 20, weight: 0 }] });
const LONG = 'とてもとても長いボーンの名前です';

const errorOf = (o: { ok: boolean; error?: CodecError }): CodecError => {
  expect(o.ok).toBe(false);
  return o.error!;
};

/** [the batch op whose form has the option (null: a command-line-only edit), the refusal]. */
const cases: [string, BatchOp | null, () => CodecError][] = [
  ['shift below 0', 'shift', () => errorOf(shift(doc, { by: -5 }))],
  ['shift by a fraction', 'shift', () => errorOf(shift(doc, { by: 1.5 }))],
  ['trim from below 0', 'trim', () => errorOf(trim(doc, { from: -1, to: 5 }))],
  ['trim to before from', 'trim', () => errorOf(trim(doc, { from: 10, to: 5 }))],
  ['speed by 0', 'speed', () => errorOf(speed(doc, { factor: 0 }))],
  ['pose at a negative frame', 'pose', () => errorOf(poseAtFrame(doc, -1))],
  ['a pose with a name too long (convert)', 'convert', () => errorOf(vpdToVmd({ model: 'm', bones: [{ name: LONG, position: [0, 0, 0], rotation: [0, 0, 0, 1] }], morphs: [], declaredBones: 1, encoding: 'shift_jis' }))],
  ['physics-bake --pos-tol 0', 'physics-bake', () => errorOf(physicsBake(null as never, {} as never, doc, { positionTolerance: 0 }))],
  ['physics-bake --from below 0', 'physics-bake', () => errorOf(physicsBake(null as never, {} as never, doc, { from: -2 }))],
  ['physics-bake --to before --from', 'physics-bake', () => errorOf(physicsBake(null as never, {} as never, doc, { from: 10, to: 5 }))],
  ['physics-bake over too many frames (E_SPAN)', 'physics-bake', () => denseRefusal('physics-bake', 0, 2_000_000, 10, undefined, true)!],
  ['reduce over too many frames (E_SPAN)', 'reduce', () => errorOf(reduce(farKey))],
  ['bake over too many frames (E_SPAN)', 'bake', () => errorOf(bake(farKey))],
  ['a BVH with Frame Time 0 and no --fps', 'import-bvh', () => errorOf(readBvh(new TextEncoder().encode(BVH('0'))))],
  ['foot IK asked of a model without leg IK', 'import-bvh', () => {
    const b = readBvh(new TextEncoder().encode(BVH('0.0333')));
    if (!b.ok) throw new Error(b.error.message);
    return errorOf(importBvh(b.value, noLegIk(), { footIk: true }));
  }],
  ['poses with a name too long (build)', null, () => errorOf(buildFromPoses([{ frame: 0, pose: { model: 'm', bones: [{ name: LONG, position: [0, 0, 0], rotation: [0, 0, 0, 1] }], morphs: [] } }]))],
];

describe('refusals that name an option', () => {
  it.each(cases)('%s: the option its message names, a problem with a line in English and Japanese', (_, op, refusal) => {
    const e = refusal();
    const named = [...e.message.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]);
    expect(named.length, e.message).toBeGreaterThan(0);
    expect(named).toContain(e.option);
    if (op) expect(OP_OPTION_SPECS[op].map((s) => s.name), op).toContain(e.option);
    expect(e.problem).toBeTruthy();
    expect(hasString(`opt.${e.problem}`), `opt.${e.problem}`).toBe(true);
    for (const locale of ['en', 'ja'] as const) {
      const line = tDynamic(`opt.${e.problem}`, locale, { ...e.params, option: 'LABEL', other: 'OTHER' });
      // Every value the line names is given.
      expect(line, `${locale}: ${line}`).not.toMatch(/\{\w+\}/);
      expect(line).toContain('LABEL');
    }
  });

  it('shift −5 says what it moves below 0 and keeps the CLI its --clip', () => {
    const e = errorOf(shift(doc, { by: -5 }));
    expect(e).toMatchObject({ code: 'E_EDIT', option: 'clip', problem: 'belowZero', params: { by: -5, frame: 4 } });
    expect(e.message).toBe('shifting by -5 pushes the key at frame 4 below 0 (use --clip to cut off what lands before frame 0)');
  });
});
