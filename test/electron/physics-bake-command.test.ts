// `vmd-studio physics-bake` in-process: it writes OUT, reports what the file holds (re-read here), refuses an
// existing OUT without --overwrite and bad options with status 2, and writes the same bytes every run; as its own
// process, `--model M MOTION` (as retarget and import-bvh take their models) writes what `MODEL MOTION` does.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readVmd, buildTracks, blockFromRecords, emptyVmd, encodeBoneRecord, encodeLightRecord, encodeMorphRecord, writeVmd } from '../../shared/vmd';
import { readModel } from '../../shared/pmx';
import { loadBullet, physicsBake } from '../../shared/physics';
import { nodeBulletLoader } from '../../electron/physics/bullet-node';
import { buildBoneInterpolation, PHYSICS_OFF, physicsOff } from '../../shared/vmd/interpolation';
import { LINEAR_CURVE } from '../../shared/vmd/bezier';
import { physicsBakeLine } from '../../electron/cli/commands/physics-bake';
import { useTempDirs } from './batch-helpers';
import { runCliCaptured as run } from '../helpers/cli-in-process';
import { corpusPath, corpusPresent, repoRoot } from '../helpers/corpus';
import { ensureBuilt } from '../helpers/build';

const mk = useTempDirs();
const c = corpusPresent ? it : it.skip;

describe('vmd-studio physics-bake', () => {
  c('bakes low-poly Miku × wavefile_v2 frames 0–60: the JSON report matches the file; byte-identical reruns; --overwrite', async () => {
    const dir = mk('physbake');
    const model = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), motion = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const r = await run(['physics-bake', model, motion, '-o', 'out.vmd', '--to', '60', '--json'], dir);
    expect(r.code, r.err).toBe(0);
    const rep = JSON.parse(r.out);
    expect(rep.bones).toHaveLength(25);
    expect(rep.rawKeys).toBe(25 * 61);
    const doc = readVmd(new Uint8Array(readFileSync(path.join(dir, 'out.vmd'))));
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    const t = buildTracks(doc.value).bones;
    let baked = 0;
    for (const name of rep.bones as string[]) {
      const i = t.index.get(name)!;
      for (let k = t.start[i]; k < t.start[i + 1]; k++) if (t.frames[k] <= 60) { baked++; expect(physicsOff(doc.value.bone.bytes, t.record[k] * 111 + 47)).toBe(true); }
    }
    expect(baked).toBe(rep.keptKeys);
    // An existing OUT is kept without --overwrite.
    const again = await run(['physics-bake', model, motion, '-o', 'out.vmd', '--to', '60'], dir);
    expect(again.code).toBe(1);
    const over = await run(['physics-bake', model, motion, '-o', 'out.vmd', '--to', '60', '--overwrite', '--quiet'], dir);
    expect(over.code).toBe(0);
    // The motion first and the model second, without --model: the same bake (before, "not a PMX or PMD model").
    const b2 = await run(['physics-bake', motion, model, '-o', 'out2.vmd', '--to', '60', '--quiet'], dir);
    expect(b2.code).toBe(0);
    expect(readFileSync(path.join(dir, 'out.vmd')).equals(readFileSync(path.join(dir, 'out2.vmd')))).toBe(true);
    // --raw: one key per frame.
    const raw = await run(['physics-bake', model, motion, '-o', 'raw.vmd', '--to', '60', '--raw', '--json'], dir);
    expect(JSON.parse(raw.out).keptKeys).toBe(25 * 61);
  });

  c('--from A > 0 simulates from frame 0 by default and says so; --warmup all is the default, --warmup 0 restarts at A, --warmup N from A−N; a bad --warmup is status 2', async () => {
    const dir = mk('physbake-warm');
    const model = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), motion = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const bake = (out: string, ...more: string[]) => run(['physics-bake', model, motion, '-o', out, '--from', '40', '--to', '60', ...more], dir);
    const def = await bake('def.vmd');
    expect(def.code, def.err).toBe(0);
    expect(def.out).toContain('; simulated from frame 0 (as the motion plays from the start), keys written from 40;');
    const all = await bake('all.vmd', '--warmup', 'all', '--json');
    expect(all.code, all.err).toBe(0);
    expect(JSON.parse(all.out)).toMatchObject({ from: 40, simulatedFrom: 0, settleFrames: 0 });
    expect(readFileSync(path.join(dir, 'all.vmd')).equals(readFileSync(path.join(dir, 'def.vmd')))).toBe(true);
    const zero = await bake('zero.vmd', '--warmup', '0');
    expect(zero.code, zero.err).toBe(0);
    expect(zero.out).toContain("; physics restarted at frame 40's pose and settled 60 frames (--warmup 0: the hair at 40 is not where playing puts it);");
    expect(readFileSync(path.join(dir, 'zero.vmd')).equals(readFileSync(path.join(dir, 'def.vmd')))).toBe(false);
    const ten = await bake('ten.vmd', '--warmup', '10', '--json');
    expect(JSON.parse(ten.out)).toMatchObject({ simulatedFrom: 30, settleFrames: 60 });
    for (const bad of ['-1', 'some', '1.5']) expect((await bake('bad.vmd', '--warmup', bad)).code, bad).toBe(2);
    expect(existsSync(path.join(dir, 'bad.vmd'))).toBe(false);
  });

  it('bad options are status 2; a model without physics is status 1 with E_PHYSICS', async () => {
    const dir = mk('physbake');
    expect((await run(['physics-bake', 'a.pmx'], dir)).code).toBe(2);
    expect((await run(['physics-bake', 'a.pmx', 'b.vmd'], dir)).code).toBe(2);
    expect((await run(['physics-bake', 'a.pmx', 'b.vmd', '-o', 'c.vmd', '--from', '5', '--to', '2'], dir)).code).toBe(2);
    expect((await run(['physics-bake', 'a.pmx', 'b.vmd', '-o', 'c.vmd', '--pos-tol', '0'], dir)).code).toBe(2);
    const missing = await run(['physics-bake', 'a.pmx', 'b.vmd', '-o', 'c.vmd'], dir);
    expect(missing.code).toBe(1);
    expect(existsSync(path.join(dir, 'c.vmd'))).toBe(false);
    void writeFileSync;
  });

  it('the report line counts bones in the singular for one, the plural otherwise (before: "62 bone(s)")', () => {
    const report = (bones: string[]) => ({ from: 0, to: 300, bones, namesTooLong: [], ikNamesTooLong: [], ikOff: [], rawKeys: 301 * bones.length, keptKeys: 10, replacedKeys: 0, physicsOffKeys: 0, resimulated: false, resimulatedAuto: false, edgeKeys: 0, maxPositionError: 0.01, maxRotationErrorDeg: 0.1, worst: null, maxPositionErrorSeen: 0, maxRotationErrorDegSeen: 0, worstSeen: null, simulatedFrom: 0, settleFrames: 0 });
    expect(physicsBakeLine(report(['a'])).startsWith('1 bone baked over frames 0–300, ')).toBe(true);
    expect(physicsBakeLine(report(['a', 'b'])).startsWith('2 bones baked over frames 0–300, ')).toBe(true);
    expect(physicsBakeLine(report([])).startsWith('0 bones baked over frames 0–300, ')).toBe(true);
  });

  it('the report line names the worst bone one can see first, an invisible weight bone’s figure in brackets (before: only the 錘)', () => {
    const base = { from: 0, to: 300, bones: ['前髪1_2', '後クローク1_2錘'], namesTooLong: [], ikNamesTooLong: [], ikOff: [], rawKeys: 602, keptKeys: 10, replacedKeys: 0, physicsOffKeys: 0, resimulated: false, resimulatedAuto: false, edgeKeys: 0, simulatedFrom: 0, settleFrames: 0 };
    const line = physicsBakeLine({ ...base, maxPositionError: 0.0081, maxRotationErrorDeg: 0.1, worst: { bone: '後クローク1_2錘', frame: 16 }, maxPositionErrorSeen: 0.0064, maxRotationErrorDegSeen: 0.099, worstSeen: { bone: '前髪1_2', frame: 40 } });
    expect(line.endsWith('(前髪1_2 at frame 40) [bones without vertices: 0.00810, 0.100° (後クローク1_2錘 at frame 16)]')).toBe(true);
    expect(line).toContain('max position error 0.00640, max rotation error 0.0990° (前髪1_2');
    const seen = physicsBakeLine({ ...base, maxPositionError: 0.0081, maxRotationErrorDeg: 0.1, worst: { bone: '前髪1_2', frame: 16 }, maxPositionErrorSeen: 0.0081, maxRotationErrorDegSeen: 0.1, worstSeen: { bone: '前髪1_2', frame: 16 } });
    expect(seen.endsWith('max position error 0.00810, max rotation error 0.100° (前髪1_2 at frame 16)')).toBe(true);
  });

  c('a physics bone whose name is over 15 bytes: named in the report line; status 0, or 3 with --strict (OUT written either way; in --help)', async () => {
    const dir = mk('physbake-long');
    // Gene_light with the bone 後クローク1_2錘 (15 bytes in Shift_JIS) renamed 後クローク１＿２錘 (18): the same
    // UTF-16 length, so the file's bytes are patched in place (the bone's name is its first occurrence).
    const pmx = readFileSync(corpusPath('gene/Gene_light.pmx'));
    const from = Buffer.from('後クローク1_2錘', 'utf16le'), to = Buffer.from('後クローク１＿２錘', 'utf16le');
    const at = pmx.indexOf(from);
    expect(at).toBeGreaterThan(0);
    to.copy(pmx, at);
    writeFileSync(path.join(dir, 'long.pmx'), pmx);
    const motion = corpusPath('gene/motion/02_laugh.vmd');
    const plain = await run(['physics-bake', motion, '--model', 'long.pmx', '-o', 'a.vmd', '--to', '10'], dir);
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out.trimEnd().endsWith('; NOT baked (name over 15 bytes, still simulated): 後クローク１＿２錘')).toBe(true);
    expect(plain.err).toContain('physics bone "後クローク１＿２錘" is not baked');
    const strict = await run(['physics-bake', motion, '--model', 'long.pmx', '-o', 'b.vmd', '--to', '10', '--strict'], dir);
    expect(strict.code).toBe(3);
    expect(readFileSync(path.join(dir, 'b.vmd')).equals(readFileSync(path.join(dir, 'a.vmd')))).toBe(true);
    // The unpatched model bakes every bone: --strict is status 0, and the line names nothing left out.
    const ok = await run(['physics-bake', motion, '--model', corpusPath('gene/Gene_light.pmx'), '-o', 'c.vmd', '--to', '10', '--strict'], dir);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).not.toContain('NOT baked');
    const help = await run(['physics-bake', '--help'], dir);
    expect(help.out).toContain('--strict');
    expect(help.out).toContain('3 with --strict');
  });

  c('a motion with a key at frame 4,000,000,000: status 1, E_SPAN named on the motion file, nothing written', async () => {
    const dir = mk('physbake-span');
    const bytes = readFileSync(corpusPath('gene/motion/02_laugh.vmd'));
    // The first bone record's frame (header 30 + model name 20 + count 4, then name 15).
    bytes.writeUInt32LE(4e9, 54 + 15);
    writeFileSync(path.join(dir, 'far.vmd'), bytes);
    const r = await run(['physics-bake', corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), 'far.vmd', '-o', 'out.vmd'], dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/far\.vmd: physics-bake: the motion runs from frame 0 to 4,000,000,000 /);
    expect(existsSync(path.join(dir, 'out.vmd'))).toBe(false);
  });
});

describe('vmd-studio physics-bake of a motion that moves none of the model\'s bones', () => {
  // A camera motion used to bake the model standing at rest into a camera file (25 hair bones, IK keys), "ok".
  c('a camera or light VMD is refused (nothing written), in one-file runs and in the batch; a morph-only motion and one for another skeleton are baked with a warning', async () => {
    const dir = mk('physbake-still');
    const modelFile = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), camera = corpusPath('threejs/vmds/wavefile_camera.vmd');
    // A motion for a BVH-named skeleton: two tracks, neither a bone of the low-poly Miku.
    const other = { ...emptyVmd(), bone: blockFromRecords('bone', [encodeBoneRecord({ name: 'Hips', frame: 0, position: [0, 1, 0], rotation: [0, 0, 0, 1] }), encodeBoneRecord({ name: 'LeftArm', frame: 10, position: [0, 0, 0], rotation: [0, 0, 0.3826834, 0.9238795] })]) };
    writeFileSync(path.join(dir, 'other.vmd'), writeVmd(other));
    // A light motion (three keys) and a morph-only motion (a blink).
    const light = { ...emptyVmd(), light: blockFromRecords('light', [0, 10, 20].map((frame) => encodeLightRecord({ frame, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] }))) };
    writeFileSync(path.join(dir, 'light.vmd'), writeVmd(light));
    const morph = { ...emptyVmd(), morph: blockFromRecords('morph', [encodeMorphRecord({ name: 'まばたき', frame: 0, weight: 0 }), encodeMorphRecord({ name: 'まばたき', frame: 5, weight: 1 })]) };
    writeFileSync(path.join(dir, 'morph.vmd'), writeVmd(morph));
    const model = readModel(new Uint8Array(readFileSync(modelFile)));
    if (!model.ok) throw new Error(model.error.message);
    const bullet = await loadBullet(nodeBulletLoader);
    const expected = (motion: string) => {
      const d = readVmd(new Uint8Array(readFileSync(motion)));
      if (!d.ok) throw new Error(d.error.message);
      const b = physicsBake(bullet, model.value, d.value, { to: 20 });
      if (!b.ok) throw new Error(b.error.message);
      return Buffer.from(writeVmd(b.value.doc));
    };
    const cameraKeys = readVmd(new Uint8Array(readFileSync(camera)));
    if (!cameraKeys.ok) throw new Error(cameraKeys.error.message);
    const nCamera = cameraKeys.value.camera.count;
    expect(nCamera).toBeGreaterThan(10);
    const cam = await run(['physics-bake', modelFile, camera, '-o', 'cam.vmd', '--to', '20'], dir);
    expect(cam.code).toBe(1);
    expect(cam.err).toContain(`wavefile_camera.vmd: a camera motion (${nCamera} camera keys, no bone keys): physics-bake works on a model's motion`);
    expect(cam.out).toBe('');
    expect(existsSync(path.join(dir, 'cam.vmd'))).toBe(false);
    const lit = await run(['physics-bake', 'light.vmd', '--model', modelFile, '-o', 'lit.vmd', '--json'], dir);
    expect(lit.code).toBe(1);
    expect(lit.err).toContain("a light motion (3 light keys, no bone keys): physics-bake works on a model's motion");
    expect(existsSync(path.join(dir, 'lit.vmd'))).toBe(false);
    // A morph-only motion: written (the model at rest, its morphs kept), with the warning as before.
    const mor = await run(['physics-bake', 'morph.vmd', '--model', modelFile, '-o', 'mor.vmd', '--to', '20', '--json'], dir);
    expect(mor.code, mor.err).toBe(0);
    expect(JSON.parse(mor.out).warnings).toEqual(['the motion has no bone keys (only morph keys): the bake is of the model standing at rest']);
    expect(readFileSync(path.join(dir, 'mor.vmd')).equals(expected(path.join(dir, 'morph.vmd')))).toBe(true);
    const oth = await run(['physics-bake', 'other.vmd', '--model', modelFile, '-o', 'oth.vmd', '--to', '20', '--quiet'], dir);
    expect(oth.code, oth.err).toBe(0);
    expect(oth.err).toBe('vmd-studio: warning: other.vmd: the model has none of the motion\'s 2 bone tracks ("Hips" "LeftArm"): the bake is of the model standing at rest\n');
    expect(readFileSync(path.join(dir, 'oth.vmd')).equals(expected(path.join(dir, 'other.vmd')))).toBe(true);
    // A motion of the model's bones: no warning.
    const dance = await run(['physics-bake', modelFile, corpusPath('gene/motion/02_laugh.vmd'), '-o', 'laugh.vmd', '--to', '5', '--quiet'], dir);
    expect([dance.code, dance.err]).toEqual([0, '']);
    // The batch fails the camera and the light files with the reason, and bakes the morph-only one with its warning.
    mkdirSync(path.join(dir, 'in'));
    writeFileSync(path.join(dir, 'in', 'cam.vmd'), readFileSync(camera));
    writeFileSync(path.join(dir, 'in', 'light.vmd'), readFileSync(path.join(dir, 'light.vmd')));
    writeFileSync(path.join(dir, 'in', 'morph.vmd'), readFileSync(path.join(dir, 'morph.vmd')));
    const b = await run(['batch', 'physics-bake', 'in', '-o', 'out', '--model', modelFile, '--to', '20', '--jobs', '1', '--quiet', '--report', 'report.json'], dir);
    expect(b.code).toBe(1);
    expect(existsSync(path.join(dir, 'out', 'cam.vmd'))).toBe(false);
    expect(existsSync(path.join(dir, 'out', 'light.vmd'))).toBe(false);
    expect(readFileSync(path.join(dir, 'out', 'morph.vmd')).equals(readFileSync(path.join(dir, 'mor.vmd')))).toBe(true);
    const rep = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
    const byName = (n: string) => rep.results.find((r: { input: string }) => path.basename(r.input) === n);
    expect(byName('cam.vmd')).toMatchObject({ ok: false, error: { code: 'E_CAMERA_MOTION', message: `a camera motion (${nCamera} camera keys, no bone keys): physics-bake works on a model's motion` } });
    expect(byName('light.vmd')).toMatchObject({ ok: false, error: { code: 'E_CAMERA_MOTION', message: "a light motion (3 light keys, no bone keys): physics-bake works on a model's motion" } });
    expect(byName('morph.vmd')).toMatchObject({ ok: true, report: { warnings: ['the motion has no bone keys (only morph keys): the bake is of the model standing at rest'] } });
  }, 120_000);
});

describe('vmd-studio physics-bake over keys that switch physics off (物理OFF keyed by hand, or a previous bake)', () => {
  c('plays them as keys by default with a warning naming --resimulate; --resimulate (in --help, and in the batch) simulates over them', async () => {
    const dir = mk('physbake-off');
    const modelFile = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
    const off = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE], PHYSICS_OFF);
    const on = buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE]);
    // The hair's tip held by hand over 5..10 (physics off), given back to physics at 11; the centre sways.
    const recs = [
      encodeBoneRecord({ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }),
      encodeBoneRecord({ name: 'センター', frame: 20, position: [3, 0, 0], rotation: [0, 0, 0, 1] }),
      encodeBoneRecord({ name: '右髪６', frame: 5, position: [0, 0, 0], rotation: [0, 0, 0.3826834, 0.9238795], interpolation: off }),
      encodeBoneRecord({ name: '右髪６', frame: 10, position: [0, 0, 0], rotation: [0, 0, 0.3826834, 0.9238795], interpolation: off }),
      encodeBoneRecord({ name: '右髪６', frame: 11, position: [0, 0, 0], rotation: [0, 0, 0, 1], interpolation: on }),
    ];
    writeFileSync(path.join(dir, 'held.vmd'), writeVmd({ ...emptyVmd(), bone: blockFromRecords('bone', recs) }));
    const said = '2 keys of the baked bones in the range switch physics off (keyed by hand, or a previous bake): they were played as keys; --resimulate simulates over them';
    const warning = `vmd-studio: warning: held.vmd: ${said}\n`;
    const plain = await run(['physics-bake', 'held.vmd', '--model', modelFile, '-o', 'plain.vmd', '--to', '20'], dir);
    expect(plain.code, plain.err).toBe(0);
    expect(plain.err).toBe(warning);
    expect(plain.out).not.toContain('simulated again');
    const json = await run(['physics-bake', 'held.vmd', '--model', modelFile, '-o', 'plain.vmd', '--to', '20', '--json', '--overwrite'], dir);
    expect(JSON.parse(json.out)).toMatchObject({ physicsOffKeys: 2, resimulated: false, warnings: [said] });
    const again = await run(['physics-bake', 'held.vmd', '--model', modelFile, '-o', 'again.vmd', '--to', '20', '--resimulate'], dir);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toBe('');
    expect(again.out).toContain('(2 of them baked before: the range was simulated again)');
    // The two differ: the held keys were played as keys in one and simulated over in the other.
    expect(readFileSync(path.join(dir, 'plain.vmd')).equals(readFileSync(path.join(dir, 'again.vmd')))).toBe(false);
    const help = await run(['physics-bake', '--help'], dir);
    expect(help.out.replace(/\s+/g, ' ')).toContain("--resimulate simulate the baked bones over A..B even where the motion's keys switch their physics off (a previous bake; without it such keys are played as keys, as MMD does, unless they are a previous bake of these bones) --no-resimulate play such keys as keys, a previous bake too");
    // The batch: the same warning without the flag, none and the same bytes with it.
    mkdirSync(path.join(dir, 'in'));
    writeFileSync(path.join(dir, 'in', 'held.vmd'), readFileSync(path.join(dir, 'held.vmd')));
    const b1 = await run(['batch', 'physics-bake', 'in', '-o', 'out1', '--model', modelFile, '--to', '20', '--jobs', '1', '--quiet', '--report', 'r1.json'], dir);
    expect(b1.code, b1.err).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'r1.json'), 'utf8')).results[0].report.warnings).toEqual([said]);
    const b2 = await run(['batch', 'physics-bake', 'in', '-o', 'out2', '--model', modelFile, '--to', '20', '--resimulate', '--jobs', '1', '--quiet', '--report', 'r2.json'], dir);
    expect(b2.code, b2.err).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'r2.json'), 'utf8')).results[0].report.warnings).toEqual([]);
    expect(readFileSync(path.join(dir, 'out2', 'held.vmd')).equals(readFileSync(path.join(dir, 'again.vmd')))).toBe(true);
    expect(readFileSync(path.join(dir, 'out1', 'held.vmd')).equals(readFileSync(path.join(dir, 'plain.vmd')))).toBe(true);
  }, 120_000);
});

describe('vmd-studio physics-bake over its own earlier bake (the app\'s default: simulated again)', () => {
  c('by default a previous bake of the same bones is simulated again, as --resimulate writes it; --no-resimulate plays it as keys', async () => {
    const dir = mk('physbake-rebake');
    const modelFile = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
    const motion = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const first = await run(['physics-bake', motion, '--model', modelFile, '-o', 'baked.vmd', '--to', '20', '--quiet'], dir);
    expect(first.code, first.err).toBe(0);
    const auto = await run(['physics-bake', 'baked.vmd', '--model', modelFile, '-o', 'auto.vmd', '--to', '20', '--json'], dir);
    expect(auto.code, auto.err).toBe(0);
    expect(JSON.parse(auto.out)).toMatchObject({ resimulated: true, resimulatedAuto: true });
    const forced = await run(['physics-bake', 'baked.vmd', '--model', modelFile, '-o', 'forced.vmd', '--to', '20', '--resimulate', '--quiet'], dir);
    expect(forced.code, forced.err).toBe(0);
    expect(readFileSync(path.join(dir, 'auto.vmd')).equals(readFileSync(path.join(dir, 'forced.vmd')))).toBe(true);
    const kept = await run(['physics-bake', 'baked.vmd', '--model', modelFile, '-o', 'kept.vmd', '--to', '20', '--no-resimulate', '--json'], dir);
    expect(kept.code, kept.err).toBe(0);
    expect(JSON.parse(kept.out)).toMatchObject({ resimulated: false, resimulatedAuto: false });
    const both = await run(['physics-bake', 'baked.vmd', '--model', modelFile, '-o', 'x.vmd', '--resimulate', '--no-resimulate'], dir);
    expect(both.code).toBe(2);
    expect(both.err).toContain('give --resimulate or --no-resimulate, not both');
  }, 120_000);
});

describe('vmd-studio physics-bake --model (as retarget and import-bvh name their models), run as its own process', () => {
  c('--model M MOTION writes the same bytes as the positional MODEL MOTION; the help shows --model; misuse is status 2', async () => {
    await ensureBuilt(['node']);
    const dir = mk('physbake-model');
    const model = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'), motion = corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd');
    const bin = path.join(repoRoot, 'electron/cli/vmd-studio.mjs');
    const cli = (...argv: string[]) => spawnSync(process.execPath, [bin, ...argv], { cwd: dir, encoding: 'utf8' });
    const named = cli('physics-bake', '--model', model, motion, '-o', 'named.vmd', '--to', '10', '--quiet');
    expect(named.status, named.stderr).toBe(0);
    const after = cli('physics-bake', motion, '--model', model, '-o', 'after.vmd', '--to', '10', '--quiet');
    expect(after.status, after.stderr).toBe(0);
    const positional = cli('physics-bake', model, motion, '-o', 'positional.vmd', '--to', '10', '--quiet');
    expect(positional.status, positional.stderr).toBe(0);
    const bytes = (f: string) => readFileSync(path.join(dir, f));
    expect(bytes('named.vmd').equals(bytes('positional.vmd'))).toBe(true);
    expect(bytes('after.vmd').equals(bytes('positional.vmd'))).toBe(true);
    const doc = readVmd(new Uint8Array(bytes('named.vmd')));
    expect(doc.ok && doc.value.bone.count).toBeGreaterThan(0);

    const help = cli('physics-bake', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('physics-bake MOTION.vmd --model MODEL.pmx|.pmd -o OUT.vmd');
    // --model with two positionals, or with none: which is the model is unclear, or the motion is missing.
    const both = cli('physics-bake', '--model', model, model, motion, '-o', 'x.vmd');
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('with --model MODEL, give one motion');
    expect(cli('physics-bake', '--model', model, '-o', 'x.vmd').status).toBe(2);
    expect(existsSync(path.join(dir, 'x.vmd'))).toBe(false);
    // A missing model named by --model is named as typed.
    const gone = cli('physics-bake', '--model', 'gone.pmx', motion, '-o', 'x.vmd');
    expect(gone.status).toBe(1);
    expect(gone.stderr).toMatch(/^vmd-studio: .*gone\.pmx/);
  }, 120_000);
});

describe('vmd-studio batch physics-bake', () => {
  c('bakes a folder of motions onto one model through the batch engine (workers), byte-identical to the one-file command', async () => {
    const dir = mk('physbatch');
    const model = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
    const inDir = path.join(dir, 'in');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(inDir);
    writeFileSync(path.join(inDir, 'a.vmd'), readFileSync(corpusPath('gene/motion/02_laugh.vmd')));
    writeFileSync(path.join(inDir, 'b.vmd'), readFileSync(corpusPath('gene/motion/33_angry.vmd')));
    const r = await run(['batch', 'physics-bake', 'in', '-o', 'out', '--model', model, '--to', '40', '--jobs', '2'], dir);
    expect(r.code, r.err).toBe(0);
    for (const f of ['a.vmd', 'b.vmd']) {
      const one = await run(['physics-bake', model, path.join('in', f), '-o', `one-${f}`, '--to', '40', '--quiet'], dir);
      expect(one.code, one.err).toBe(0);
      expect(readFileSync(path.join(dir, 'out', f)).equals(readFileSync(path.join(dir, `one-${f}`)))).toBe(true);
    }
    const bad = await run(['batch', 'physics-bake', 'in', '-o', 'out2', '--model', 'nope.txt'], dir);
    expect(bad.code).toBe(2);
  });

  // The batch played a previous bake as keys (its --resimulate a plain flag, off) and took no --warmup, where the
  // one-file command and Bake physics… simulate a previous bake again ('auto') and warm up from frame 0.
  c('takes --warmup and --resimulate / --no-resimulate with the one-file defaults: each file the one-file command\'s bytes, a previous bake included', async () => {
    const dir = mk('physbatch-defaults');
    const model = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
    mkdirSync(path.join(dir, 'in'));
    writeFileSync(path.join(dir, 'in', 'dance.vmd'), readFileSync(corpusPath('mmd-viewer-js/vmd/wavefile_v2.vmd')));
    // b.vmd: the dance baked once over 0–30 (keys with physics off on every baked bone), baked again below.
    const first = await run(['physics-bake', path.join('in', 'dance.vmd'), '--model', model, '-o', path.join('in', 'baked.vmd'), '--to', '30', '--quiet'], dir);
    expect(first.code, first.err).toBe(0);
    const bytes = (f: string) => readFileSync(path.join(dir, f));
    const check = async (name: string, args: string[]) => {
      const b = await run(['batch', 'physics-bake', 'in', '-o', name, '--model', model, ...args, '--jobs', '2', '--quiet'], dir);
      expect(b.code, b.err).toBe(0);
      for (const f of ['dance.vmd', 'baked.vmd']) {
        const one = await run(['physics-bake', path.join('in', f), '--model', model, '-o', `${name}-${f}`, ...args, '--quiet'], dir);
        expect(one.code, one.err).toBe(0);
        expect(bytes(path.join(name, f)).equals(bytes(`${name}-${f}`)), `${name}: ${f}`).toBe(true);
      }
    };
    await check('def', ['--to', '30']);
    // The default re-simulated the earlier bake: not what --no-resimulate writes (keys played as keys).
    await check('keys', ['--to', '30', '--no-resimulate']);
    expect(bytes(path.join('def', 'baked.vmd')).equals(bytes(path.join('keys', 'baked.vmd')))).toBe(false);
    await check('warm', ['--from', '20', '--to', '30', '--warmup', '5']);
    expect(bytes(path.join('warm', 'dance.vmd')).equals(bytes('def-dance.vmd'))).toBe(false);
    const both = await run(['batch', 'physics-bake', 'in', '-o', 'x', '--model', model, '--resimulate', '--no-resimulate'], dir);
    expect(both.code).toBe(2);
    expect(both.err).toContain('give --resimulate or --no-resimulate, not both');
    for (const bad of ['-1', 'some', '1.5']) expect((await run(['batch', 'physics-bake', 'in', '-o', 'x', '--model', model, '--warmup', bad], dir)).code, bad).toBe(2);
    expect(existsSync(path.join(dir, 'x'))).toBe(false);
  }, 300_000);
});
