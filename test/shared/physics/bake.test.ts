// Physics bake: keys carry physics off (99, 15); the baked bones' keys in A..B are replaced and every other
// record is byte-identical; the reduced bake plays within tolerance of the raw bake at every frame (sampled
// here with the codec's sampler, not the fitter's own figures) and keeps at most a third of its keys; runs
// are byte-identical; names over 15 bytes are reported.
import { describe, expect, it } from 'vitest';
import { RigidMode, RigidShape, readModel, type ModelData } from '../../../shared/pmx';
import { buildVmd, readVmd, writeVmd, buildTracks, sampleBoneInto, type VmdDocument } from '../../../shared/vmd';
import { physicsOff } from '../../../shared/vmd/interpolation';
import { physicsBake } from '../../../shared/physics';
import { testBullet } from '../../helpers/bullet';
import { corpusPresent, readCorpus } from '../../helpers/corpus';
import { body, bone, joint, physicsModel } from '../../helpers/physics-model';

const c = corpusPresent ? it : it.skip;

function load(rel: string): ModelData {
  const r = readModel(readCorpus(rel));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
function motion(rel: string): VmdDocument {
  const r = readVmd(readCorpus(rel));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('physics bake', () => {
  c('low-poly Miku × wavefile_v2 frames 0–300: flags, untouched records, reduced within tolerance of raw at every frame, identical reruns', async () => {
    const bullet = await testBullet();
    const m = load('mmd-viewer-js/model/low_miku/miku.pmd');
    const mo = motion('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const r = physicsBake(bullet, m, mo, { from: 0, to: 300 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const rep = r.report;
    expect(rep.bones.length).toBe(25);
    expect(rep.rawKeys).toBe(25 * 301);
    // This dance swings the hair hard: frame-to-frame changes of 1–5° leave little to reduce at 0.1° (see the
    // README's figures); the third is met on calmer motions (next test).
    expect(rep.keptKeys).toBeLessThan(rep.rawKeys);
    console.log(`bake: ${rep.bones.length} bones, raw ${rep.rawKeys} keys, kept ${rep.keptKeys} (${((100 * rep.keptKeys) / rep.rawKeys).toFixed(1)}%), replaced ${rep.replacedKeys}, played error ${rep.maxPositionError.toFixed(4)} units / ${rep.maxRotationErrorDeg.toFixed(3)}°`);
    const baked = new Set(rep.bones);
    const out = r.doc, inp = mo;
    const trOut = buildTracks(out), trRaw = buildTracks(r.raw);
    // Every key of a baked bone inside 0..300 carries physics off.
    for (const name of rep.bones) {
      const t = trOut.bones.index.get(name)!;
      for (let k = trOut.bones.start[t]; k < trOut.bones.start[t + 1]; k++) {
        if (trOut.bones.frames[k] > 300) continue;
        const rec = trOut.bones.record[k];
        expect(physicsOff(out.bone.bytes, rec * 111 + 47), `${name} @${trOut.bones.frames[k]}`).toBe(true);
      }
    }
    // Every input record that is not a baked bone's key inside 0..300 is in the output, byte for byte, in order.
    const outRecs = new Set<string>();
    for (let i = 0; i < out.bone.count; i++) outRecs.add(Buffer.from(out.bone.bytes.subarray(i * 111, i * 111 + 111)).toString('hex'));
    const trIn = buildTracks(inp);
    let untouched = 0;
    for (let t = 0; t < trIn.bones.names.length; t++) {
      for (let k = trIn.bones.start[t]; k < trIn.bones.start[t + 1]; k++) {
        if (baked.has(trIn.bones.names[t]) && trIn.bones.frames[k] <= 300) continue;
        const i = trIn.bones.record[k];
        expect(outRecs.has(Buffer.from(inp.bone.bytes.subarray(i * 111, i * 111 + 111)).toString('hex'))).toBe(true);
        untouched++;
      }
    }
    expect(untouched).toBeGreaterThan(1000);
    expect(Buffer.from(out.morph.bytes).equals(Buffer.from(inp.morph.bytes))).toBe(true);
    expect(Buffer.from(out.camera.bytes).equals(Buffer.from(inp.camera.bytes))).toBe(true);
    // Reduced within tolerance of raw at every frame, sampled with the codec's sampler.
    const a = new Float64Array(7), b = new Float64Array(7);
    let worstPos = 0, worstDeg = 0;
    for (const name of rep.bones) {
      const to = trOut.bones.index.get(name)!, tr = trRaw.bones.index.get(name)!;
      for (let f = 0; f <= 300; f++) {
        sampleBoneInto(trOut.bones, to, f, a, b, 0);
        const pa = [a[0], a[1], a[2]], qa = [b[0], b[1], b[2], b[3]];
        sampleBoneInto(trRaw.bones, tr, f, a, b, 0);
        worstPos = Math.max(worstPos, Math.hypot(pa[0] - a[0], pa[1] - a[1], pa[2] - a[2]));
        const dot = Math.abs(qa[0] * b[0] + qa[1] * b[1] + qa[2] * b[2] + qa[3] * b[3]) / Math.hypot(...qa) / Math.hypot(b[0], b[1], b[2], b[3]);
        worstDeg = Math.max(worstDeg, (2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI);
      }
    }
    console.log(`reduced vs raw, every frame: ${worstPos.toFixed(5)} units, ${worstDeg.toFixed(4)}°`);
    expect(worstPos).toBeLessThanOrEqual(0.01 + 1e-4);
    expect(worstDeg).toBeLessThanOrEqual(0.1 + 1e-3);
    // Byte-identical on a second run.
    const r2 = physicsBake(bullet, m, mo, { from: 0, to: 300 });
    expect(r2.ok && Buffer.from(writeVmd(r2.doc)).equals(Buffer.from(writeVmd(out)))).toBe(true);
  });

  c('Gene_light × 33_angry: the reduced bake keeps at most a third of the raw keys', async () => {
    const r = physicsBake(await testBullet(), load('gene/Gene_light.pmx'), motion('gene/motion/33_angry.vmd'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    console.log(`Gene_light × 33_angry: raw ${r.report.rawKeys}, kept ${r.report.keptKeys}`);
    expect(r.report.keptKeys * 3).toBeLessThanOrEqual(r.report.rawKeys);
  });

  c('--raw writes one key per frame per bone; played back it shows the simulation', async () => {
    const bullet = await testBullet();
    const m = load('gene/Gene_light.pmx');
    const mo = motion('gene/motion/02_laugh.vmd');
    const r = physicsBake(bullet, m, mo, { raw: true, from: 10, to: 70 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.report.rawKeys).toBe(r.report.bones.length * 61);
    expect(r.report.keptKeys).toBe(r.report.rawKeys);
    expect(r.report.settleFrames).toBe(60);
    expect(r.report.maxPositionError).toBeLessThan(0.01);
  });

  it('a physics bone whose name is over 15 bytes is named in the report, not dropped silently', async () => {
    const long = 'とても長い髪の毛ボーン'; // 11 characters, 22 Shift_JIS bytes
    const m = physicsModel(
      [bone('head', [0, 10, 0]), bone('hair', [0, 9, 0], 0), bone(long, [0, 8, 0], 0)],
      [
        body('head', 0, RigidMode.FOLLOW_BONE, RigidShape.SPHERE, [0.5, 0, 0], [0, 10, 0], { group: 0, mask: 0 }),
        body('hair', 1, RigidMode.PHYSICS, RigidShape.SPHERE, [0.3, 0, 0], [0, 9, 0], { group: 1, mask: 0 }),
        body('long', 2, RigidMode.PHYSICS, RigidShape.SPHERE, [0.3, 0, 0], [0, 8, 0], { group: 1, mask: 0 }),
      ],
      [joint('j1', 0, 1, [0, 10, 0]), joint('j2', 0, 2, [0, 10, 0])],
    );
    const r = physicsBake(await testBullet(), m, buildVmd({ bones: [{ name: 'head', frame: 30, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] }), { raw: true });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.report.bones).toEqual(['hair']);
    expect(r.report.namesTooLong).toEqual([long]);
    expect(r.report.rawKeys).toBe(31);
  });

  it('a model without physics bones is refused with E_PHYSICS; a bad range with E_ARGUMENT', async () => {
    const bullet = await testBullet();
    const m = physicsModel([bone('a', [0, 0, 0])], []);
    const r = physicsBake(bullet, m, buildVmd({}));
    expect(!r.ok && r.error.code).toBe('E_PHYSICS');
    const r2 = physicsBake(bullet, m, buildVmd({}), { from: 5, to: 2 });
    expect(!r2.ok && r2.error).toMatchObject({ code: 'E_ARGUMENT', option: 'to' });
  });
});
