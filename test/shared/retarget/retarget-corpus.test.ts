/**
 * Retargeting real models and a real dance: wavefile_v2 (made for a Miku) on the low-poly Miku, onto
 * Gene_light.pmx and back. World transforms are computed with the shared skeleton evaluator from each
 * model's rest pose and the motion as played, never with the retargeter's numbers.
 */
import { describe, expect, it } from 'vitest';
import { compareMotionToModel, readModel, type ModelData } from '../../../shared/pmx';
import { retarget, type RetargetResult } from '../../../shared/retarget';
import { buildSkeleton, MotionPoser, Pose } from '../../../shared/skeleton';
import { standardFigureModel } from '../../../shared/skeleton/standard-figure';
import { blockFromRecords, buildTracks, encodeBoneRecord, readVmd, withBlocks, writeVmd, recordBytes, type VmdDocument } from '../../../shared/vmd';
import { qmul } from '../../helpers/quat';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

const load = (rel: string): ModelData => {
  const r = readModel(readCorpus(rel));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const readMotion = (rel: string): VmdDocument => {
  const r = readVmd(readCorpus(rel));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const reread = (d: VmdDocument): VmdDocument => {
  const r = readVmd(writeVmd(d));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const ok = (r: RetargetResult) => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
/** Hip height: the mean rest height of the two leg bones (MMD stands a model on y = 0). */
const legLength = (m: ModelData) => (m.bones.find((b) => b.name === '左足')!.position[1] + m.bones.find((b) => b.name === '右足')!.position[1]) / 2;

/** Plays a motion on a model; `at(f)` poses it (IK on as the motion says, or off) and returns the pose. */
function player(m: ModelData, doc: VmdDocument, ik = true) {
  const sk = buildSkeleton(m.bones);
  const poser = new MotionPoser(sk, doc, buildTracks(doc));
  const pose = new Pose(sk);
  return {
    sk,
    at(f: number): Pose {
      if (ik) poser.poseAt(pose, f);
      else {
        poser.apply(pose, f);
        pose.evaluate('all', () => false);
      }
      return pose;
    },
    index: (name: string) => {
      const i = sk.byKey.get(name);
      if (i === undefined) throw new Error(`no bone ${name}`);
      return i;
    },
  };
}

/** Angle between two orientations (quaternions of any length), degrees. */
const angleDeg = (a: ArrayLike<number>, ai: number, b: number[]) => {
  const na = Math.hypot(a[ai], a[ai + 1], a[ai + 2], a[ai + 3]), nb = Math.hypot(b[0], b[1], b[2], b[3]);
  const d = Math.abs(a[ai] * b[0] + a[ai + 1] * b[1] + a[ai + 2] * b[2] + a[ai + 3] * b[3]) / (na * nb);
  return (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI;
};

describe.skipIf(!corpusPresent)('wavefile_v2: low-poly Miku → Gene_light → low-poly Miku', () => {
  const miku = load('mmd-viewer-js/model/low_miku/miku.pmd');
  const gene = load('gene/Gene_light.pmx');
  const dance = readMotion('mmd-viewer-js/vmd/wavefile_v2.vmd');
  const there = ok(retarget(dance, miku, gene));
  const onGene = reread(there.doc);
  const back = ok(retarget(onGene, gene, miku));
  const onMiku = reread(back.doc);
  const last = buildTracks(dance).lastFrame;

  it('a warning names the first 12 tracks left out and counts the rest (Gene_light → Miku leaves out 183 bones); the details list them all', () => {
    const r = ok(retarget(readMotion('gene/motion/02_laugh.vmd'), gene, miku));
    const n = r.details.unmatched.length;
    expect(n).toBeGreaterThan(100);
    const w = r.report.warnings.find((x) => x.startsWith(`${n} bone tracks the target model lacks were left out: `))!;
    const named = w.slice(w.indexOf(': ') + 2).split(', ');
    expect(named).toHaveLength(12);
    expect(named.slice(0, 11)).toEqual(r.details.unmatched.slice(0, 11).map((u) => `${u.bone} (${u.keys})`));
    expect(named[11]).toBe(`${r.details.unmatched[11].bone} (${r.details.unmatched[11].keys}) and ${n - 12} more (the report's details list them all)`);
  });

  it('an exact name wins over an alias: 02_laugh keys 左つま先EX/右つま先EX, which Gene has, and keeps them byte for byte from the low-poly Miku and the standard skeleton', () => {
    // Gene_light has 左つま先EX/右つま先EX (English name "L toe"/"R toe", as the low-poly Miku's 左つま先) and no
    // 左つま先 (read with a separate PMX reader); 02_laugh has one key of each EX bone and none of つま先.
    const laugh = readMotion('gene/motion/02_laugh.vmd');
    const t0 = buildTracks(laugh).bones;
    for (const from of [miku, standardFigureModel()]) {
      const r = ok(retarget(laugh, from, gene));
      const out = reread(r.doc);
      const t1 = buildTracks(out).bones;
      for (const n of ['左つま先EX', '右つま先EX']) {
        const a = t0.index.get(n)!, b = t1.index.get(n);
        expect(b, `${n} from ${from.name}`).toBeDefined();
        expect(t1.start[b! + 1] - t1.start[b!]).toBe(1);
        expect(Array.from(recordBytes(out.bone, t1.record[t1.start[b!]]))).toEqual(Array.from(recordBytes(laugh.bone, t0.record[t0.start[a]])));
        expect(r.details.unmatched.map((u) => u.bone)).not.toContain(n);
      }
      expect(r.report.warnings.join('\n')).not.toContain('つま先EX');
    }
  });

  it('an alias is used where the target lacks the name, and said: the low-poly Miku’s 左つま先/右つま先 (263 keys each) play on Gene’s 左つま先EX/右つま先EX', () => {
    expect(there.details.renamed).toEqual([
      { bone: '左つま先', as: '左つま先EX', keys: 263 },
      { bone: '右つま先', as: '右つま先EX', keys: 263 },
    ]);
    expect(there.report.extra.tracksRenamed).toBe(2);
  });

  it('questions a source that is not the model the motion was made on: wavefile_v2’s header says 初音ミク, the source is the low-poly Miku (× 1.87); 02_laugh’s header already names Gene', () => {
    // Header names read with a separate VMD reader: wavefile_v2 初音ミク, 02_laugh and stand ジェネ / Gene.
    expect(there.details.sourceCheck).toEqual({ kind: 'source-name', header: '初音ミク' });
    expect(there.report.warnings).toContain('× 1.87: the motion\'s header says 初音ミク, the source is ローポリ初音さん: is this the model the motion was made on?');
    const laugh = readMotion('gene/motion/02_laugh.vmd');
    for (const from of [miku, standardFigureModel()]) {
      const r = ok(retarget(laugh, from, gene, { floor: false }));
      expect(r.details.sourceCheck).toEqual({ kind: 'header-is-target', header: 'ジェネ / Gene' });
      expect(r.report.warnings.some((w) => w.includes('the motion\'s header already names the target model, ジェネ / Gene: is it made for it already?'))).toBe(true);
    }
    // The model it was made for: nothing to question (a ratio of 0.533 is Gene's to the chibi Miku's).
    const stand = ok(retarget(readMotion('gene/motion/stand.vmd'), gene, miku, { floor: false }));
    expect(stand.details.sourceCheck).toBeNull();
    expect(stand.report.warnings.join('\n')).not.toContain('made on');
    // The standard skeleton stands for any standard model: a standard Miku's dance from it is not questioned.
    expect(ok(retarget(readMotion('gene/motion/stand.vmd'), standardFigureModel(), miku, { floor: false })).details.sourceCheck).toBeNull();
  });

  it('wrists, head and the leg-IK goals, over each model’s leg length, come back within 2% at every frame', () => {
    const names = ['左手首', '右手首', '頭', '左足ＩＫ', '右足ＩＫ', '左つま先ＩＫ', '右つま先ＩＫ', '左足首', '右足首'];
    // The fit's geometry alone: the feet-on-the-floor correction moves the leg IK goals on purpose (each way), and is
    // tested on its own (retarget-floor.test.ts).
    const plainBack = reread(ok(retarget(reread(ok(retarget(dance, miku, gene, { floor: false })).doc), gene, miku, { floor: false })).doc);
    const a = player(miku, dance), b = player(miku, plainBack);
    const leg = legLength(miku);
    const worst = names.map(() => 0);
    for (let f = 0; f <= last; f++) {
      const pa = a.at(f).worldPosition.slice(), pb = b.at(f).worldPosition;
      names.forEach((n, k) => {
        const i = a.index(n);
        const d = Math.hypot(pa[3 * i] - pb[3 * i], pa[3 * i + 1] - pb[3 * i + 1], pa[3 * i + 2] - pb[3 * i + 2]) / leg;
        worst[k] = Math.max(worst[k], d);
      });
    }
    names.forEach((n, k) => expect(worst[k], n).toBeLessThan(0.02));
    // Not a copy: the round trip went through another skeleton and was re-fitted twice.
    expect(Math.max(...worst)).toBeGreaterThan(1e-6);
  });

  it('on Gene, センター and the leg-IK goals move from rest by the source’s movement times the leg-length ratio (within 2% of the leg)', () => {
    const a = player(miku, dance), g = player(gene, onGene);
    const ls = legLength(miku), lt = legLength(gene);
    expect(there.details.legRatio).toBeCloseTo(lt / ls, 9);
    for (let f = 0; f <= last; f++) {
      const pa = a.at(f).worldPosition.slice(), pg = g.at(f).worldPosition;
      for (const n of ['センター', '左足ＩＫ', '右足ＩＫ']) {
        const i = a.index(n), j = g.index(n);
        for (let c = 0; c < 3; c++) {
          const ds = (pa[3 * i + c] - miku.bones[i].position[c]) / ls, dt = (pg[3 * j + c] - gene.bones[j].position[c]) / lt;
          expect(Math.abs(ds - dt), `${n} axis ${c} frame ${f}`).toBeLessThan(0.02);
        }
      }
    }
  });

  it('keeps untouched tracks byte for byte: fingers (which the low-poly Miku lacks) go to Gene as they are', () => {
    const t0 = buildTracks(dance).bones, t1 = buildTracks(onGene).bones;
    // 左手先/右手先: one identity key each, below the turned arms (computed bones), kept as it is, not re-fitted into
    // two keys of float noise.
    for (const n of ['左親指１', '右小指３', '首', '頭', '左肩', '左手先', '右手先']) {
      const a = t0.index.get(n)!, b = t1.index.get(n)!;
      expect(t1.start[b + 1] - t1.start[b], n).toBe(t0.start[a + 1] - t0.start[a]);
      for (let k = 0; k < t0.start[a + 1] - t0.start[a]; k++) {
        expect(Array.from(recordBytes(onGene.bone, t1.record[t1.start[b] + k])), n).toEqual(Array.from(recordBytes(dance.bone, t0.record[t0.start[a] + k])));
      }
    }
    expect(there.details.refitted.map((r) => r.bone)).not.toContain('左手先');
    // What the target lacks is reported with its keys (hair, skirt, necktie bones of the low-poly Miku).
    expect(there.details.unmatched.find((u) => u.bone === 'ﾈｸﾀｲ４')?.keys).toBe(263);
  });

  it('every fold keeps the world rotation of the target’s bones (Gene with 上半身2, グルーブ, 腕捩, 手捩 keyed → Miku)', () => {
    // Give the Gene motion real motion on its semi-standard bones, which the low-poly Miku lacks.
    const axis = (a: number[], b: number[]) => {
      const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const l = Math.hypot(d[0], d[1], d[2]);
      return d.map((x) => x / l);
    };
    const pos = (n: string) => gene.bones.find((b) => b.name === n)!.position as number[];
    const aa = (ax: number[], deg: number) => {
      const h = (deg * Math.PI) / 360;
      return [ax[0] * Math.sin(h), ax[1] * Math.sin(h), ax[2] * Math.sin(h), Math.cos(h)];
    };
    const extra: Uint8Array[] = [];
    for (let f = 0; f <= last; f += 20) {
      const s = Math.sin(f / 37), c = Math.cos(f / 23);
      extra.push(encodeBoneRecord({ name: '上半身2', frame: f, position: [0, 0, 0], rotation: aa(axis([0, 0, 0], [1, 0.2 * c, 0.3]), 25 * s) }));
      extra.push(encodeBoneRecord({ name: 'グルーブ', frame: f, position: [0, 0.8 * c, 0], rotation: aa([0, 1, 0], 15 * c) }));
      extra.push(encodeBoneRecord({ name: '左腕捩', frame: f, position: [0, 0, 0], rotation: aa(axis(pos('左腕'), pos('左ひじ')), 60 * s) }));
      extra.push(encodeBoneRecord({ name: '右手捩', frame: f, position: [0, 0, 0], rotation: aa(axis(pos('右ひじ'), pos('右手首')), -50 * c) }));
    }
    const recs: Uint8Array[] = [];
    for (let i = 0; i < onGene.bone.count; i++) recs.push(recordBytes(onGene.bone, i));
    const richer = reread(withBlocks(onGene, { bone: blockFromRecords('bone', [...recs, ...extra]) }));
    const r = ok(retarget(richer, gene, miku));
    const folded = new Map(r.details.folded.map((x) => [x.bone, x.into]));
    expect(folded.get('上半身2')).toContain('上半身');
    expect(folded.get('グルーブ')).toContain('センター');
    expect(folded.get('左腕捩')).toEqual(['左腕']);
    expect(folded.get('右手捩')).toEqual(['右ひじ']);
    const out = reread(r.doc);
    // The fitter's own promise, measured by the retargeter against the pose it computed frame by frame.
    expect(r.details.maxRotationErrorDeg).toBeLessThanOrEqual(0.1 + 1e-6);
    expect(r.details.maxPositionError).toBeLessThanOrEqual(0.01 + 1e-6);

    // The arm compensation, from the two rest poses: the target's arm turned onto the source's.
    const dir = (m: ModelData, a: string, b: string) => axis(m.bones.find((x) => x.name === a)!.position as number[], m.bones.find((x) => x.name === b)!.position as number[]);
    const between = (u: number[], v: number[]) => {
      const w = 1 + u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
      const q = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0], w];
      const l = Math.hypot(...q);
      return q.map((x) => x / l);
    };
    const C = { 左: between(dir(miku, '左腕', '左ひじ'), dir(gene, '左腕', '左ひじ')), 右: between(dir(miku, '右腕', '右ひじ'), dir(gene, '右腕', '右ひじ')) };
    // Target bone → the source bone whose world rotation it shows (the deepest bone folded into it).
    const pairs: [string, string, number[] | null][] = [
      ['センター', 'グルーブ', null], ['上半身', '上半身2', null], ['首', '首', null], ['頭', '頭', null], ['下半身', '下半身', null],
      ['左肩', '左肩', null], ['左腕', '左腕捩', C.左], ['左ひじ', '左ひじ', C.左], ['左手首', '左手首', C.左],
      ['右肩', '右肩', null], ['右腕', '右腕', C.右], ['右ひじ', '右手捩', C.右], ['右手首', '右手首', C.右],
    ];
    const refitted = new Set(r.details.refitted.map((x) => x.bone));
    const s = player(gene, richer, false), t = player(miku, out, false);
    // The fitter keeps each re-fitted track within 0.1°: a bone's world rotation within 0.1° per re-fitted bone above and at it.
    const bound = (name: string) => {
      let n = 0;
      for (let i = t.index(name); i >= 0; i = t.sk.parent[i]) if (refitted.has(miku.bones[i].name)) n++;
      return 0.1 * n + 1e-4;
    };
    const worst = pairs.map(() => 0);
    for (let f = 0; f <= last; f++) {
      const ps = s.at(f), pt = t.at(f);
      pairs.forEach(([tn, sn, c], k) => {
        const i = s.index(sn), j = t.index(tn);
        const want = c ? qmul(Array.from(ps.worldRotation.subarray(4 * i, 4 * i + 4)), c) : Array.from(ps.worldRotation.subarray(4 * i, 4 * i + 4));
        worst[k] = Math.max(worst[k], angleDeg(pt.worldRotation, 4 * j, want));
      });
    }
    pairs.forEach(([tn], k) => expect(worst[k], `${tn}: ${worst[k].toFixed(4)}° (bound ${bound(tn).toFixed(2)}°)`).toBeLessThan(bound(tn)));
  });
});

describe.skipIf(!corpusPresent)('onto the same model', () => {
  it('changes nothing: every bone record of a Gene motion, and every morph record of a morph Gene has, comes back byte for byte', () => {
    const gene = load('gene/Gene_light.pmx');
    const motion = readMotion('gene/motion/33_angry.vmd');
    const r = ok(retarget(motion, gene, gene));
    expect(r.details.refitted).toEqual([]);
    expect(r.details.unmatched).toEqual([]);
    const records = (d: VmdDocument, kind: 'bone' | 'morph') => {
      const out: string[] = [];
      for (let i = 0; i < d[kind].count; i++) out.push(Buffer.from(recordBytes(d[kind], i)).toString('hex'));
      return out.sort();
    };
    // Records the player never plays (a repeated name and frame) are left out: the rest come back as they were.
    const tracks = buildTracks(motion);
    for (const kind of ['bone', 'morph'] as const) {
      const dup = (kind === 'bone' ? tracks.bones : tracks.morphs).duplicates;
      // Morphs the model lacks are left out, and reported with their keys.
      const lacking = kind === 'morph' ? r.details.unmatchedMorphs.reduce((n, u) => n + u.keys, 0) : 0;
      expect(r.doc[kind].count, kind).toBe(motion[kind].count - dup - lacking);
      const all = new Set(records(motion, kind));
      for (const x of records(r.doc, kind)) expect(all.has(x)).toBe(true);
    }
    expect(r.doc.bone.count).toBeGreaterThan(700);
  });

  it('keeps the tracks whose names a VMD holds cut to 15 bytes (Gene\'s browOuterUpRight as browOuterUpRigh, 前クローク2_1xca as 前クローク2_1xc), as MMD plays them', () => {
    const gene = load('gene/Gene_light.pmx');
    const model = { bones: gene.bones.map((b) => b.name), morphs: gene.morphs.map((m) => m.name) };
    for (const file of ['02_laugh', '08_surprise', '16_thinking', '26_mortifying', '33_angry', 'stand', '00_normal']) {
      const motion = readMotion(`gene/motion/${file}.vmd`);
      const r = ok(retarget(motion, gene, gene));
      const a = buildTracks(motion), b = buildTracks(r.doc);
      // What inspect --model finds missing (00_normal keys 64 morphs of a fuller Gene), and nothing else, is left out.
      const lacks = compareMotionToModel({ bones: a.bones.names, morphs: a.morphs.names }, model);
      expect(r.details.unmatchedMorphs.map((u) => u.morph), file).toEqual(lacks.missingMorphs);
      expect(r.details.unmatched, file).toEqual([]);
      // Every other track comes back under its own name, with every key the player plays.
      expect([...b.morphs.names].sort(), file).toEqual(a.morphs.names.filter((n) => !lacks.missingMorphs.includes(n)).sort());
      expect([...b.bones.names].sort(), file).toEqual([...a.bones.names].sort());
      const lackingKeys = r.details.unmatchedMorphs.reduce((n, u) => n + u.keys, 0);
      expect(r.doc.morph.count, file).toBe(motion.morph.count - a.morphs.duplicates - lackingKeys);
    }
    // 02_laugh keys 178 morphs; 27 of their names are cut (Gene's ARKit-style names run past 15 bytes).
    const laugh = buildTracks(ok(retarget(readMotion('gene/motion/02_laugh.vmd'), gene, gene)).doc);
    expect(laugh.morphs.names).toHaveLength(178);
    expect(laugh.morphs.names).toContain('browOuterUpRigh');
    expect(laugh.morphs.names).toContain('mouthUpperUpLef');
    expect(laugh.bones.names).toContain('前クローク2_1xc');
  });

  it('a map\'s morph names, spelled in full, match a motion\'s cut names too', () => {
    const gene = load('gene/Gene_light.pmx');
    const motion = readMotion('gene/motion/02_laugh.vmd');
    const before = buildTracks(motion).morphs;
    const k = before.index.get('browOuterUpRigh')!;
    // Its one key (frame and weight, after the 15-byte name), which the map sends to browDownLeft.
    const tail = (d: VmdDocument, i: number) => Buffer.from(recordBytes(d.morph, i).subarray(15)).toString('hex');
    expect(before.start[k + 1] - before.start[k]).toBe(1);
    const key = tail(motion, before.record[before.start[k]]);
    const r = ok(retarget(motion, gene, gene, { mapping: { bones: new Map(), morphs: new Map([['browOuterUpRight', 'browDownLeft']]) } }));
    expect(r.details.unmatchedMorphs).toEqual([]);
    const after = buildTracks(r.doc).morphs;
    expect(after.index.has('browOuterUpRigh')).toBe(false);
    const j = after.index.get('browDownLeft')!;
    const keys: string[] = [];
    for (let i = after.start[j]; i < after.start[j + 1]; i++) keys.push(tail(r.doc, after.record[i]));
    expect(keys).toContain(key);
  });
});
