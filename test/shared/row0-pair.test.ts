// Bytes 2–3 of the bone interpolation block after curve edits on a file MMD wrote (wavefile_v2.vmd, where
// every physics-on key repeats x1 of Z and rotation there, as MMD writes row 0): preset, reduce, speed
// with refit and trim must leave no key whose pair disagrees with its curve (players that read row 0,
// three.js's MMDLoader among them, would play the old curve), and no key's physics state may change.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../helpers/corpus';
import { BONE, readVmd, physicsOff } from '../../shared/vmd';
import { preset, trim } from '../../shared/motion-ops';
import { reduce, speedRefit } from '../../shared/fit';
import type { VmdDocument } from '../../shared/vmd/vmd-document';

const WAVE = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');

function ipOf(d: VmdDocument, i: number): Uint8Array {
  const o = i * BONE.SIZE + BONE.INTERPOLATION;
  return d.bone.bytes.subarray(o, o + BONE.INTERPOLATION_LENGTH);
}
/** Keys whose bytes 2–3 are neither 99/15 nor x1 of Z and rotation (bytes 17, 18). */
function stale(d: VmdDocument): number {
  let n = 0;
  for (let i = 0; i < d.bone.count; i++) {
    const ip = ipOf(d, i);
    if (!physicsOff(ip) && (ip[2] !== ip[17] || ip[3] !== ip[18])) n++;
  }
  return n;
}
const offCount = (d: VmdDocument) => {
  let n = 0;
  for (let i = 0; i < d.bone.count; i++) if (physicsOff(ipOf(d, i))) n++;
  return n;
};

describe('bytes 2–3 follow curve edits on an MMD-written file', () => {
  const r = readVmd(new Uint8Array(readFileSync(WAVE)));
  if (!r.ok) throw new Error(r.error.message);
  const doc = r.value;
  const must = (x: { ok: boolean; doc?: VmdDocument; value?: { doc: VmdDocument }; error?: { message: string } }): VmdDocument => {
    const out = (x as { doc?: VmdDocument }).doc ?? (x as { value?: { doc: VmdDocument } }).value?.doc;
    if (!out) throw new Error(JSON.stringify(x).slice(0, 200));
    return out;
  };

  it('the input itself: every physics-on key repeats its x1 values there', () => {
    expect(stale(doc)).toBe(0);
  });

  it('preset, reduce, speed ×1.5 with refit and trim leave none stale; preset keeps each key’s physics state', () => {
    const p = must(preset(doc, { curve: [64, 0, 64, 127], bones: '左腕,右腕,*ひじ', channels: [2, 3] }) as never);
    expect(p.bone.count).toBe(doc.bone.count);
    expect(stale(p)).toBe(0);
    for (let i = 0; i < doc.bone.count; i++) expect(physicsOff(ipOf(p, i))).toBe(physicsOff(ipOf(doc, i)));
    // The edit did change curves there (else this proves nothing).
    let changed = 0;
    for (let i = 0; i < doc.bone.count; i++) if (ipOf(p, i)[18] !== ipOf(doc, i)[18]) changed++;
    expect(changed).toBeGreaterThan(100);
    for (const out of [must(reduce(doc) as never), must(speedRefit(doc, { factor: 1.5 }) as never), must(trim(doc, { from: 303, to: 1207 }) as never)]) {
      expect(stale(out)).toBe(0);
      expect(offCount(out)).toBe(0);
    }
  });
});
