// One stray key far past the rest (frame 4,000,000,000, which a VMD can hold) made every operation that samples
// a motion frame by frame ask for terabytes and end in "internal error: Invalid typed array length" (reduce, speed
// --refit, bake, export-bvh/-vrma's take, retarget, physics-bake). Each now refuses with E_SPAN before
// allocating, naming the track where it can and the frames. The bounds themselves (shared/edit-core/dense-limit.ts)
// are checked at their edges.
import { describe, expect, it } from 'vitest';
import { denseRefusal, MAX_DENSE_FRAMES, MAX_DENSE_VALUES } from '../../shared/edit-core/dense-limit';
import { bake, reduce, speedRefit } from '../../shared/fit';
import { humanoidTake } from '../../shared/bvh/take';
import { retarget } from '../../shared/retarget';
import { physicsBake } from '../../shared/physics';
import { BONE, readVmd, type VmdDocument } from '../../shared/vmd';
import { corpusModel, corpusPresent, readCorpus } from '../helpers/corpus';
import { testBullet } from '../helpers/bullet';

describe('dense-sampling bounds', () => {
  it('refuse past 1,000,000 frames of a track, or 10,000,000 frames × tracks, and not at them', () => {
    expect(denseRefusal('x', 0, MAX_DENSE_FRAMES - 1, 1)).toBeNull();
    expect(denseRefusal('x', 5, MAX_DENSE_FRAMES + 5, 1)?.code).toBe('E_SPAN');
    expect(denseRefusal('x', 0, MAX_DENSE_VALUES / 20 - 1, 20)).toBeNull();
    expect(denseRefusal('x', 0, MAX_DENSE_VALUES / 20, 20)?.message).toBe(
      'x: the motion runs from frame 0 to 500,000: 500,001 frames × 20 tracks, more than the 10,000,000 it holds at once: a key far past the rest? Trim the motion, or give --from and --to where the command takes them',
    );
    expect(denseRefusal('reduce', 0, 4e9, 1, '左腕')?.message).toMatch(/^reduce: "左腕" runs from frame 0 to 4,000,000,000 \(4,000,000,001 frames\), more than the 1,000,000 it samples a track over/);
  });

  it.skipIf(!corpusPresent)('a key at frame 4,000,000,000: every frame-by-frame operation refuses with E_SPAN instead of failing to allocate', async () => {
    const src = readVmd(readCorpus('gene/motion/02_laugh.vmd'));
    if (!src.ok) throw new Error(src.error.message);
    // The last bone record moved to frame 4e9 (its name read here, for the message).
    const bytes = src.value.bone.bytes.slice();
    const last = (src.value.bone.count - 1) * BONE.SIZE;
    new DataView(bytes.buffer).setUint32(last + BONE.FRAME, 4e9, true);
    const doc: VmdDocument = { ...src.value, bone: { ...src.value.bone, bytes, view: new DataView(bytes.buffer) } };
    const name = new TextDecoder('shift_jis').decode(bytes.subarray(last, last + 15)).replace(/\0.*$/s, '');
    const refused = (r: { ok: boolean; error?: { code: string; message: string } }, message: RegExp) => {
      expect(r.ok).toBe(false);
      expect(r.error?.code).toBe('E_SPAN');
      expect(r.error?.message).toMatch(message);
    };
    refused(reduce(doc), new RegExp(`^reduce: "${name}" runs from frame \\d+ to 4,000,000,000 `));
    refused(speedRefit(doc, { factor: 2 }), new RegExp(`^speed: "${name}" runs from frame \\d+ to 2,000,000,000 `));
    refused(bake(doc), new RegExp(`^bake: "${name}" runs from frame \\d+ to 4,000,000,000 `));
    const miku = corpusModel('mmd-viewer-js/model/low_miku/miku.pmd'), gene = corpusModel('gene/Gene_light.pmx');
    refused(humanoidTake(doc, miku), /^playing the motion on the model: the motion runs from frame 0 to 4,000,000,000 /);
    refused(retarget(doc, gene, miku), /^retarget: the motion runs from frame 0 to 4,000,000,000 /);
    refused(physicsBake(await testBullet(), miku, doc), /^physics-bake: the motion runs from frame 0 to 4,000,000,000 /);
    // The file as it was: each of them works.
    expect(reduce(src.value).ok).toBe(true);
    expect(humanoidTake(src.value, miku).ok).toBe(true);
  }, 60_000);
});
