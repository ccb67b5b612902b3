// A motion or pose under the other's name (an upload named laugh.vpd holding a VMD motion, a .vmd holding a VPD
// pose), on real temp folders through the CLI: every command refuses it with the same words and exit status, a
// batch as that file's failed row, and no output's contents ever contradict its extension. A first run had
// `batch convert` write a VPD into laugh.vmd and `batch mirror` a VMD into laugh.vpd, files MMD and the app refuse.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

const VPD = 'Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n1;\r\n\r\nBone0{センター\r\n  0.0,1.0,0.0;\r\n  0.0,0.0,0.0,1.0;\r\n}\r\n';
const MOTION_AS_POSE = 'a VMD motion named .vpd: MMD and VMD Studio open a file by its extension and refuse this one; rename it laugh.vmd';
const POSE_AS_MOTION = 'a VPD pose named .vmd: MMD and VMD Studio open a file by its extension and refuse this one; rename it posed.vpd';

/** in/: a motion and a pose under their own names, and one of each under the other's. */
function uploads(): string {
  const d = mk('misnamed');
  mkdirSync(path.join(d, 'in'));
  const vmd = buildFixture({ bones: [{ name: 'センター', frame: 0 }, { name: 'センター', frame: 10, pos: [1, 0, 0] }] });
  writeFileSync(path.join(d, 'in', 'dance.vmd'), vmd);
  writeFileSync(path.join(d, 'in', 'laugh.vpd'), vmd);
  writeFileSync(path.join(d, 'in', 'pose.vpd'), VPD);
  writeFileSync(path.join(d, 'in', 'posed.vmd'), VPD);
  return d;
}

/** Every file under `dir` whose first bytes are not what its extension says. */
function contradicting(dir: string): string[] {
  const head = (f: string) => readFileSync(path.join(dir, f)).subarray(0, 30).toString('latin1');
  return readdirSync(dir).filter((f) => (f.endsWith('.vmd') && !head(f).startsWith('Vocaloid Motion Data')) || (f.endsWith('.vpd') && !head(f).startsWith('Vocaloid Pose Data file')));
}

type Row = { input: string; output: string | null; ok: boolean; error?: { code: string; message: string } };

describe('a motion or pose named as the other', () => {
  for (const op of ['convert', 'mirror'] as const) {
    it(`batch ${op}: that file is one failed row naming what it is and what to rename it; the others are written`, async () => {
      const d = uploads();
      const r = await cli(d, 'batch', op, 'in', '-o', 'out', '--json', '--quiet');
      expect(r.code).toBe(1);
      const rows = (JSON.parse(r.out) as { results: Row[] }).results;
      const byName = Object.fromEntries(rows.map((x) => [path.basename(x.input), x]));
      expect(byName['laugh.vpd']).toMatchObject({ ok: false, output: null, error: { code: 'E_VPD_MAGIC', message: MOTION_AS_POSE } });
      expect(byName['posed.vmd']).toMatchObject({ ok: false, output: null, error: { code: 'E_VMD_MAGIC', message: POSE_AS_MOTION } });
      expect(byName['dance.vmd'].ok).toBe(true);
      expect(byName['pose.vpd'].ok).toBe(true);
      expect(r.err).toContain(`vmd-studio: in/laugh.vpd: ${MOTION_AS_POSE}\n`);
      const written = readdirSync(path.join(d, 'out')).sort();
      expect(written).toEqual(op === 'convert' ? ['dance.vpd', 'pose.vmd'] : ['dance.vmd', 'pose.vpd']);
      expect(contradicting(path.join(d, 'out'))).toEqual([]);
    });
  }

  it('the one-file commands refuse it with the same words and exit status 1, writing nothing', async () => {
    const d = uploads();
    for (const [argv, message] of [
      [['convert', 'in/laugh.vpd', '-o', 'x.vmd'], MOTION_AS_POSE],
      [['convert', 'in/posed.vmd', '-o', 'x.vpd'], POSE_AS_MOTION],
      [['mirror', 'in/laugh.vpd', '-o', 'x.vpd'], MOTION_AS_POSE],
      [['mirror', 'in/posed.vmd', '-o', 'x.vmd'], POSE_AS_MOTION],
      [['speed', 'in/posed.vmd', '--factor', '2', '-o', 'x.vmd'], POSE_AS_MOTION],
      [['merge', 'in/dance.vmd', 'in/posed.vmd', '-o', 'x.vmd'], POSE_AS_MOTION],
      [['build', 'in/laugh.vpd@0', '-o', 'x.vmd'], MOTION_AS_POSE],
      [['sample', 'in/laugh.vpd', '--frame', '0'], MOTION_AS_POSE],
    ] as const) {
      const r = await cli(d, ...argv);
      const given = argv.find((x) => x.includes('laugh') || x.includes('posed'))!.replace(/@0$/, '');
      expect(r, argv.join(' ')).toEqual({ code: 1, out: '', err: `vmd-studio: ${given}: ${message}\n` });
    }
    expect(readdirSync(d).sort()).toEqual(['in']);
    // Renamed as told, each is taken.
    writeFileSync(path.join(d, 'laugh.vmd'), readFileSync(path.join(d, 'in', 'laugh.vpd')));
    expect((await cli(d, 'mirror', 'laugh.vmd', '-o', 'x.vmd')).code).toBe(0);
    expect(contradicting(d)).toEqual([]);
  });
});
