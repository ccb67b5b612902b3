// A mapping file that does not parse is a bad argument naming the file as typed, on real temp folders through
// the CLI: rename, retarget and their batches, and the captures' --map (rename said "mapping line 1: …", no file).
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

describe('mapping-file errors name the file', () => {
  it('rename, retarget, batch rename and import-bvh: "FILE line N: …" (exit 2), the file as typed', async () => {
    const d = mk('map-names');
    mkdirSync(path.join(d, 'maps'));
    mkdirSync(path.join(d, 'in'));
    const vmd = buildFixture({ bones: [{ name: 'センター', frame: 0 }] });
    writeFileSync(path.join(d, 'dance.vmd'), vmd);
    writeFileSync(path.join(d, 'in', 'dance.vmd'), vmd);
    writeFileSync(path.join(d, 'maps', 'bad.csv'), '# old,new\na,b,c,d\n');
    writeFileSync(path.join(d, 'maps', 'マップ 1.json'), '{"bones": [["a"]]}');
    const columns = 'maps/bad.csv line 2: expected two columns old,new, got 4 columns';
    const entry = 'maps/マップ 1.json: bones: entry 1 must be ["old", "new"]';
    for (const [argv, message] of [
      [['rename', 'dance.vmd', '--map', 'maps/bad.csv', '-o', 'x.vmd'], `vmd-studio rename: ${columns}`],
      [['rename', 'dance.vmd', '--map', 'maps/マップ 1.json', '-o', 'x.vmd'], `vmd-studio rename: ${entry}`],
      [['retarget', 'dance.vmd', '--to', 'model.pmx', '--map', 'maps/bad.csv', '-o', 'x.vmd'], `vmd-studio retarget: ${columns}`],
      [['batch', 'rename', 'in', '-o', 'out', '--map', 'maps/bad.csv'], `vmd-studio batch: ${columns}`],
      [['import-bvh', 'walk.bvh', '-o', 'x.vmd', '--map', 'maps/bad.csv'], `vmd-studio import-bvh: maps/bad.csv line 2: expected two columns old,new, got 4 columns`],
    ] as const) {
      const r = await cli(d, ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.split('\n')[0], argv.join(' ')).toBe(message);
    }
  });
});
