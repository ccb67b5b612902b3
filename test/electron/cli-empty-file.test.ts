// A 0-byte input, for every command that reads a VMD, VPD, PMX/PMD or capture file: the same E_FILE_EMPTY
// "the file is empty (0 bytes)" the app gives (services/file-io.ts), from the CLI's one reading path
// (fs/files.ts readInputBytes), not the parser's "not a VMD file" for no bytes. Seen in a walkthrough:
// `vmd-studio inspect empty.vmd` said "not a VMD file".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { buildFixture } from '../helpers/vmd-fixtures';
import { ensureBuilt } from '../helpers/build';

let tmp: string;
async function cli(...argv: string[]) {
  const { code, out, err } = await runCliCaptured(argv, tmp);
  return { code, text: out + err, out };
}

beforeAll(async () => {
  // The batch runs its files in the bundled worker (dist/cli/batch-worker.mjs): current with the sources.
  await ensureBuilt(['node']);
  tmp = mkdtempSync(path.join(tmpdir(), 'vmd-cli-empty-'));
  for (const name of ['empty.vmd', 'empty.vpd', 'empty.pmx', 'empty.pmd', 'empty.bvh', 'empty.json', 'noext']) writeFileSync(path.join(tmp, name), '');
  writeFileSync(path.join(tmp, 'good.vmd'), buildFixture({}));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a 0-byte input file in the CLI', () => {
  it('inspect (text and --json) says E_FILE_EMPTY for an empty VMD, VPD, JSON and extensionless file', async () => {
    const t = await cli('inspect', 'empty.vmd');
    expect(t.code).toBe(1);
    expect(t.text).toContain('E_FILE_EMPTY: the file is empty (0 bytes)');
    expect(t.text).not.toMatch(/not a V[MP]D/i);
    const j = await cli('inspect', '--json', 'empty.vmd', 'empty.vpd', 'empty.json', 'noext', 'good.vmd');
    expect(j.code).toBe(1);
    const lines = j.out.trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; error?: { code: string; message: string } });
    expect(lines.map((l) => l.error?.code ?? 'ok')).toEqual(['E_FILE_EMPTY', 'E_FILE_EMPTY', 'E_FILE_EMPTY', 'E_FILE_EMPTY', 'ok']);
    expect(lines[0].error!.message).toBe('the file is empty (0 bytes)');
  });

  // Each command, its empty input first where it reads several; what it prints names the code and the line.
  const cases: [string, string[]][] = [
    ['inspect a model', ['inspect', 'empty.pmx']],
    ['sample', ['sample', 'empty.vmd', '--frame', '0']],
    ['convert VPD → VMD', ['convert', 'empty.vpd', '-o', 'out1.vmd']],
    ['convert VMD → JSON', ['convert', 'empty.vmd', '-o', 'out2.json']],
    ['mirror', ['mirror', 'empty.vmd', '-o', 'out3.vmd']],
    ['merge', ['merge', 'empty.vmd', 'good.vmd', '-o', 'out4.vmd']],
    ['build', ['build', 'empty.vpd@0', '-o', 'out5.vmd']],
    ['retarget (motion)', ['retarget', 'empty.vmd', '--from', 'empty.pmx', '--to', 'empty.pmd', '-o', 'out6.vmd']],
    ['physics-bake (model)', ['physics-bake', 'empty.pmx', 'good.vmd', '-o', 'out7.vmd']],
    ['physics-bake (motion)', ['physics-bake', 'empty.pmx', 'empty.vmd', '-o', 'out8.vmd']],
    ['import-bvh', ['import-bvh', 'empty.bvh', '--model', 'empty.pmx', '-o', 'out9.vmd']],
    ['export-bvh', ['export-bvh', 'empty.vmd', '--model', 'empty.pmx', '-o', 'out10.bvh']],
    ['export-vrma', ['export-vrma', 'empty.vmd', '--model', 'empty.pmx', '-o', 'out11.vrma']],
  ];
  it('batch: the empty file is reported E_FILE_EMPTY, the good one still written', async () => {
    const dir = path.join(tmp, 'folder');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'empty.vmd'), '');
    writeFileSync(path.join(dir, 'good.vmd'), buildFixture({}));
    const r = await cli('batch', 'mirror', 'folder', '-o', 'mirrored', '--report', 'report.json', '--quiet');
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(path.join(tmp, 'report.json'), 'utf8')) as unknown;
    const flat = JSON.stringify(report);
    expect(flat).toContain('E_FILE_EMPTY');
    expect(flat).not.toMatch(/not a VMD/);
    expect(existsSync(path.join(tmp, 'mirrored', 'good.vmd'))).toBe(true);
  });

  for (const [what, argv] of cases) {
    it(`${what}: E_FILE_EMPTY, exit 1`, async () => {
      const r = await cli(...argv);
      expect(r.text, r.text).toMatch(/E_FILE_EMPTY|the file is empty \(0 bytes\)/);
      expect(r.text).not.toMatch(/not a V[MP]D|E_VMD_|E_VPD_|E_PMX_|E_BVH/i);
      expect(r.code).toBe(1);
    });
  }
});
