// export-bvh without --model plays the motion on the standard skeleton (shared/skeleton/standard-figure.ts),
// whose bones have no tails. A foot's End Site is its tip as the import aligns the foot (retarget.ts
// modelTip): the one child of 足首, つま先. Expected offsets are computed here from the figure's bone
// positions, BVH being right-handed (MMD's Z mirrored); the End Sites are read from the written text.
import { describe, expect, it } from 'vitest';
import { exportBvh } from '../../../shared/bvh/export';
import { standardFigureModel } from '../../../shared/skeleton/standard-figure';
import { buildVmd } from '../../../shared/vmd';

/** The End Site OFFSET directly inside `JOINT name`'s block (null: the joint has none of its own). */
function endSiteOf(text: string, name: string): number[] | null {
  const lines = text.split('\n').map((l) => l.trim());
  let i = lines.findIndex((l) => l === `JOINT ${name}` || l === `ROOT ${name}`);
  expect(i, name).toBeGreaterThanOrEqual(0);
  // Depth 1 is the joint's own block; an End Site there (not in a child joint) is the joint's.
  let depth = 0;
  for (i++; i < lines.length; i++) {
    const l = lines[i];
    if (l === '{') depth++;
    else if (l === '}') {
      if (--depth === 0) return null;
    } else if (depth === 1 && l === 'End Site') {
      const off = /^OFFSET (\S+) (\S+) (\S+)$/.exec(lines[i + 2]);
      expect(off, `${name}'s End Site`).not.toBeNull();
      return off!.slice(1).map(Number);
    }
  }
  return null;
}

describe('export-bvh on the standard skeleton (no --model)', () => {
  const model = standardFigureModel();
  const doc = buildVmd({ bones: [{ name: '左足', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { name: '左足', frame: 2, position: [0, 0, 0], rotation: [0.2, 0, 0, Math.sqrt(1 - 0.04)] }] });
  const out = exportBvh(doc, model);
  if (!out.ok) throw new Error(out.error.message);
  const text = out.value.text;
  const at = (n: string) => model.bones.find((b) => b.name === n)!.position;

  for (const [part, L] of [['leftFoot', '左'], ['rightFoot', '右']] as const) {
    it(`${part} ends in an End Site at つま先 (the foot's one child), as the import takes the foot's tip`, () => {
      // The figure has no toe part (足先EX): the foot is the chain's end.
      expect(out.value.report.joints).not.toContain(part.replace('Foot', 'Toes'));
      const ankle = at(`${L}足首`), toe = at(`${L}つま先`);
      const want = [toe[0] - ankle[0], toe[1] - ankle[1], -(toe[2] - ankle[2])];
      const got = endSiteOf(text, part);
      expect(got, `${part} has an End Site`).not.toBeNull();
      got!.forEach((x, c) => expect(x).toBeCloseTo(want[c], 5));
    });
  }
});
