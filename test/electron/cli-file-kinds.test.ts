// A file of another kind given to a command is named as what it is (a PMX model, a BVH capture, a VPD
// pose), with what the command takes and which command takes the file; a damaged .vmd stays a VMD problem,
// in a batch as in one-file commands (a first run: convert of a .pmx said "not a VPD file", batch convert
// of a cut .vmd "E_VPD_MAGIC").
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { ballsPmx } from '../helpers/pmx-balls';
import { useTempDirs } from './batch-helpers';
import { fileKindByContent } from '../../shared/ipc/file-kind';

const mk = useTempDirs();

const VPD = 'Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n1;\r\n\r\nBone0{センター\r\n  0.0,1.0,0.0;\r\n  0.0,0.0,0.0,1.0;\r\n}\r\n';
const BVH = 'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0\n';

/** A folder with a motion, a pose, a model (PMX and PMD), a capture and a .vmd cut inside its magic. */
function files(): string {
  const d = mk('kinds');
  const vmd = buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 10, pos: [1, 0, 0] }] });
  writeFileSync(path.join(d, 'dance.vmd'), vmd);
  writeFileSync(path.join(d, 'pose.vpd'), VPD);
  writeFileSync(path.join(d, 'model.pmx'), ballsPmx([{ centre: [0, 0, 0], radius: 1, diffuse: [1, 0, 0, 1], ambient: [0, 0, 0], flags: 0, toon: null }]));
  writeFileSync(path.join(d, 'model.pmd'), new Uint8Array([0x50, 0x6d, 0x64, 0, 0, 0x80, 0x3f]));
  writeFileSync(path.join(d, 'walk.bvh'), BVH);
  writeFileSync(path.join(d, 'bad.vmd'), vmd.subarray(0, 10));
  return d;
}

const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

describe('a file of another kind is named as what it is', () => {
  it('the sniffing knows each kind by its first bytes', () => {
    const d = files();
    const kinds = ['dance.vmd', 'pose.vpd', 'model.pmx', 'model.pmd', 'walk.bvh', 'bad.vmd'].map((f) => fileKindByContent(new Uint8Array(readFileSync(path.join(d, f)))));
    expect(kinds).toEqual(['vmd', 'vpd', 'pmx', 'pmd', 'bvh', null]);
  });

  it('convert and sample of a model say it is a PMX/PMD model and what they take', async () => {
    const d = files();
    const c = await cli(d, 'convert', 'model.pmx', '-o', 'x.json');
    expect(c.code).toBe(1);
    // In the app's words (nubegin 2: the app and the command line say the same), for every command that takes a motion.
    expect(c.err).toBe('vmd-studio: model.pmx: a model (PMX), not a motion: open it with Model…\n');
    const s = await cli(d, 'sample', 'model.pmd', '--frame', '0');
    expect(s.code).toBe(1);
    expect(s.err).toBe('vmd-studio: model.pmd: a model (PMD), not a motion: open it with Model…\n');
  });

  it('a cut .vmd is a VMD problem in batch convert and batch inspect, as in inspect', async () => {
    const d = files();
    const one = await cli(d, 'inspect', 'bad.vmd');
    expect(one.out).toContain('E_VMD_MAGIC: not a VMD file');
    mkdirSync(path.join(d, 'only'));
    writeFileSync(path.join(d, 'only', 'bad.vmd'), readFileSync(path.join(d, 'bad.vmd')));
    for (const op of ['convert', 'inspect']) {
      const b = await cli(d, 'batch', op, 'only', '-o', `out-${op}`);
      expect(b.code, b.err).toBe(1);
      expect(b.out).toContain('only/bad.vmd: E_VMD_MAGIC not a VMD file: it does not start with "Vocaloid Motion Data"');
      expect(b.out + b.err).not.toContain('VPD');
    }
  });

  it('merge of a pose gives the same advice as trim of one; a model or capture to an edit is said as such', async () => {
    const d = files();
    const advice = 'a VPD pose, not a VMD motion: {op} works on VMD motions; convert the pose first: vmd-studio convert pose.vpd -o pose.vmd';
    const m = await cli(d, 'merge', 'dance.vmd', 'pose.vpd', '-o', 'm.vmd');
    // An input of the wrong kind: exit status 1, the file named (by name as by content).
    expect(m.code).toBe(1);
    expect(m.err.split('\n')[0]).toBe(`vmd-studio: pose.vpd: ${advice.replace('{op}', 'merge')}`);
    // (mirror takes a pose: cli-pose-files.)
    const r = await cli(d, 'trim', 'pose.vpd', '-o', 'm.vmd', '--from', '0');
    expect(r.code).toBe(1);
    expect(r.err.split('\n')[0]).toBe(`vmd-studio: pose.vpd: ${advice.replace('{op}', 'trim')}`);
    // A pose under a motion's name, read: said by its content, and renaming it is what to do (cli-misnamed).
    writeFileSync(path.join(d, 'posed.vmd'), VPD);
    const c = await cli(d, 'merge', 'dance.vmd', 'posed.vmd', '-o', 'm.vmd');
    expect(c.err).toBe('vmd-studio: posed.vmd: a VPD pose named .vmd: MMD and VMD Studio open a file by its extension and refuse this one; rename it posed.vpd\n');
    const x = await cli(d, 'mirror', 'model.pmx', '-o', 'm.vmd');
    expect(x.err).toBe('vmd-studio: model.pmx: a model (PMX), not a motion: open it with Model…\n');
    const b = await cli(d, 'mirror', 'walk.bvh', '-o', 'm.vmd');
    expect(b.err).toBe('vmd-studio: walk.bvh: a BVH capture, not a VMD motion: convert it with vmd-studio import-bvh\n');
  });

  it('import-vrma of a BVH points to import-bvh; import-bvh of a VMD to export-bvh', async () => {
    const d = files();
    const v = await cli(d, 'import-vrma', 'walk.bvh', '-o', 'w.vmd');
    expect(v.code).toBe(1);
    expect(v.err).toBe('vmd-studio: walk.bvh: a BVH capture, not a VRM Animation: convert it with vmd-studio import-bvh\n');
    const b = await cli(d, 'import-bvh', 'dance.vmd', '-o', 'w.vmd');
    expect(b.err).toBe('vmd-studio: dance.vmd: a VMD motion, not a BVH capture: vmd-studio export-bvh writes one from a VMD motion\n');
    const e = await cli(d, 'export-bvh', 'model.pmx', '-o', 'e.bvh');
    expect(e.err).toBe('vmd-studio: model.pmx: a model (PMX), not a motion: open it with Model…; export-bvh takes a model with --model\n');
  });

  it('build takes VPD poses: a motion given to it is named as one, and every path as it was typed', async () => {
    const d = files();
    mkdirSync(path.join(d, 'in'));
    writeFileSync(path.join(d, 'in', 'dance.vmd'), readFileSync(path.join(d, 'dance.vmd')));
    const b = await cli(d, 'build', 'in/dance.vmd@0', '-o', 'out.vmd');
    expect(b.code).toBe(1);
    expect(b.err).toBe('vmd-studio: in/dance.vmd: a VMD motion, not a VPD pose: build works on VPD poses (.vpd)\n');
    expect((await cli(d, 'build', 'in/none.vpd@0', '-o', 'out.vmd')).err).toBe('vmd-studio: in/none.vpd: no such file or folder\n');
    // A batch's input folder that is not there, or is a file: named as typed, once.
    expect((await cli(d, 'batch', 'mirror', 'nothere', '-o', 'out')).err).toBe('vmd-studio batch: nothere: input folder not found\n');
    expect((await cli(d, 'batch', 'mirror', 'in/dance.vmd', '-o', 'out')).err).toBe('vmd-studio batch: in/dance.vmd: not a folder\n');
  });

  it('a model option and physics-bake read the model one way: a motion, a folder, an empty or missing file said once, in a batch as in one-file commands', async () => {
    const d = files();
    mkdirSync(path.join(d, 'in'));
    writeFileSync(path.join(d, 'in', 'dance.vmd'), readFileSync(path.join(d, 'dance.vmd')));
    writeFileSync(path.join(d, 'empty.pmx'), '');
    mkdirSync(path.join(d, 'folder.pmx'));
        // Two motions: the first named, with what physics-bake takes.
    const motions = await cli(d, 'physics-bake', 'dance.vmd', 'in/dance.vmd', '-o', 'b.vmd');
    expect(motions.code).toBe(1);
    expect(motions.err).toBe('vmd-studio: dance.vmd: a VMD motion, not a PMX or PMD model: physics-bake takes a model and a motion: vmd-studio physics-bake MODEL.pmx MOTION.vmd -o OUT.vmd\n');
    const option = await cli(d, 'physics-bake', 'model.pmx', '--model', 'dance.vmd', '-o', 'b.vmd');
    expect(option.err).toBe('vmd-studio: dance.vmd: a VMD motion, not a PMX or PMD model: --model takes a model (.pmx, .pmd)\n');
    const cases: [string, string][] = [
      ['dance.vmd', 'a VMD motion, not a PMX or PMD model: --to takes a model (.pmx, .pmd)'],
      ['walk.bvh', 'a BVH capture, not a PMX or PMD model: --to takes a model (.pmx, .pmd)'],
      ['empty.pmx', 'the file is empty (0 bytes)'],
      ['folder.pmx', 'is a folder, not a file'],
      ['none.pmx', 'no such file or folder'],
    ];
    for (const [model, said] of cases) {
      const one = await cli(d, 'retarget', 'dance.vmd', '--to', model, '-o', 'r.vmd');
      expect(one.err, model).toBe(`vmd-studio: ${model}: ${said}\n`);
      // The batch names the model as it resolved it (from the folder it was started in).
      const batch = await cli(d, 'batch', 'retarget', 'in', '--to', model, '-o', 'out-r');
      expect(batch.code, model).toBe(2);
      expect(batch.err.split('\n')[0], model).toBe(`vmd-studio batch: --to: ${path.join(d, model)}: ${said}`);
      // physics-bake's --model in a batch: the same reading (it had its own, which printed Node's raw ENOENT text).
      const bake = await cli(d, 'batch', 'physics-bake', 'in', '--model', model, '-o', 'out-p');
      expect(bake.err.split('\n')[0], model).toBe(`vmd-studio batch: --model: ${path.join(d, model)}: ${said.replace('--to', '--model')}`);
    }
  });
});
