// A camera or light motion (no bone keys: shared/vmd/inspect.ts stageMotionKind) is refused by the operations
// that play a motion on a model and write a pose: convert to VPD and the batch's pose and convert (before:
// "bones 0, morphs 0", a 0-bone VPD counted ok). Retarget passes such a motion through: its camera and light
// keys are copied as they are (a camera that goes with a dance stays with it), nothing of the model is added.
// (physics-bake, export-bvh and export-vrma: physics-bake-command and mocap-cli.)
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { blockFromRecords, emptyVmd, encodeLightRecord, encodeMorphRecord, readVmd, readVpd, writeVmd } from '../../shared/vmd';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);
const CAMERA = 'threejs/vmds/wavefile_camera.vmd';
const MIKU = 'mmd-viewer-js/model/low_miku/miku.pmd';

function cameraCount(): number {
  const d = readVmd(new Uint8Array(readFileSync(corpusPath(CAMERA))));
  if (!d.ok) throw new Error(d.error.message);
  return d.value.camera.count;
}

describe.skipIf(!corpusPresent)('a camera or light motion is not written as a pose', () => {
  it('convert CAMERA.vmd -o OUT.vpd is refused, nothing written; a light motion too; a morph-only motion still converts', async () => {
    const dir = mk('cam-convert');
    const n = cameraCount();
    const r = await cli(dir, 'convert', corpusPath(CAMERA), '-o', 'cam.vpd', '--frame', '10');
    expect(r.code).toBe(1);
    expect(r.err).toContain(`a camera motion (${n} camera keys, no bone keys): convert to VPD works on a model's motion`);
    expect(r.out).toBe('');
    expect(existsSync(path.join(dir, 'cam.vpd'))).toBe(false);
    const light = { ...emptyVmd(), light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] })]) };
    writeFileSync(path.join(dir, 'light.vmd'), writeVmd(light));
    const l = await cli(dir, 'convert', 'light.vmd', '-o', 'light.vpd');
    expect(l.code).toBe(1);
    expect(l.err).toContain("a light motion (1 light key, no bone keys): convert to VPD works on a model's motion");
    expect(existsSync(path.join(dir, 'light.vpd'))).toBe(false);
    // To JSON or VMD a camera motion converts as before.
    const j = await cli(dir, 'convert', corpusPath(CAMERA), '-o', 'cam.json', '--quiet');
    expect([j.code, j.err]).toEqual([0, '']);
    // A morph-only motion: its morphs at the frame.
    const morph = { ...emptyVmd(), morph: blockFromRecords('morph', [encodeMorphRecord({ name: 'まばたき', frame: 0, weight: 1 })]) };
    writeFileSync(path.join(dir, 'morph.vmd'), writeVmd(morph));
    const m = await cli(dir, 'convert', 'morph.vmd', '-o', 'morph.vpd', '--quiet');
    expect(m.code, m.err).toBe(0);
    const p = readVpd(new Uint8Array(readFileSync(path.join(dir, 'morph.vpd'))));
    expect(p.ok && p.value.morphs.map((x) => [x.name, x.weight])).toEqual([['まばたき', 1]]);
  });

  it('batch pose and batch convert fail a camera motion with the reason, and write the others', async () => {
    const dir = mk('cam-batch');
    const n = cameraCount();
    mkdirSync(path.join(dir, 'in'));
    writeFileSync(path.join(dir, 'in', 'cam.vmd'), readFileSync(corpusPath(CAMERA)));
    writeFileSync(path.join(dir, 'in', 'laugh.vmd'), readFileSync(corpusPath('gene/motion/02_laugh.vmd')));
    for (const [op, words] of [['pose', 'pose'], ['convert', 'convert to VPD']] as const) {
      const b = await cli(dir, 'batch', op, 'in', '-o', `out-${op}`, '--jobs', '1', '--quiet', '--report', `${op}.json`);
      expect(b.code).toBe(1);
      expect(existsSync(path.join(dir, `out-${op}`, 'cam.vpd'))).toBe(false);
      expect(existsSync(path.join(dir, `out-${op}`, 'laugh.vpd'))).toBe(true);
      const rep = JSON.parse(readFileSync(path.join(dir, `${op}.json`), 'utf8'));
      const cam = rep.results.find((x: { input: string }) => path.basename(x.input) === 'cam.vmd');
      expect(cam).toMatchObject({ ok: false, error: { code: 'E_CAMERA_MOTION', message: `a camera motion (${n} camera keys, no bone keys): ${words} works on a model's motion` } });
    }
  });

  it('retarget passes a camera motion through: its camera keys byte for byte, no bone, IK or morph keys added', async () => {
    const dir = mk('cam-retarget');
    const r = await cli(dir, 'retarget', corpusPath(CAMERA), '--to', corpusPath(MIKU), '-o', 'cam.vmd', '--quiet');
    expect(r.code, r.err).toBe(0);
    // Said, so that it does not read as fitted (a run of a folder of dances and their cameras keeps them together).
    expect(r.err).toContain(`vmd-studio: warning: ${corpusPath(CAMERA)}: a camera motion (${cameraCount()} camera keys, no bone keys): copied unchanged (retarget fits a model's motion; a camera motion is not fitted to the target model's size)`);
    const a = readVmd(new Uint8Array(readFileSync(corpusPath(CAMERA)))), b = readVmd(new Uint8Array(readFileSync(path.join(dir, 'cam.vmd'))));
    if (!a.ok || !b.ok) throw new Error('unreadable');
    const bytes = (d: typeof a.value, k: 'camera' | 'light') => Buffer.from(d[k].view.buffer, d[k].view.byteOffset, d[k].view.byteLength);
    expect(bytes(b.value, 'camera').equals(bytes(a.value, 'camera'))).toBe(true);
    expect(b.value.camera.count).toBe(a.value.camera.count);
    // The header too: MMD knows a camera motion by its name (カメラ・照明), which a retarget must not replace.
    expect(readFileSync(path.join(dir, 'cam.vmd')).equals(readFileSync(corpusPath(CAMERA)))).toBe(true);
    expect([b.value.bone.count, b.value.morph.count, b.value.ik.count]).toEqual([0, 0, 0]);
  });
});
