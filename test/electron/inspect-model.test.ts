// `vmd-studio inspect MODEL`: the skinning line (vertices by deform type), against mmd-parser's own reading of
// the corpus model's vertex types and the hand-built fixture's one vertex of each kind.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { tinyPmx } from '../shared/pmx-fixtures';

const mk = useTempDirs();
const MMDParser = createRequire(import.meta.url)('mmd-parser') as { Parser: new () => { parsePmx(b: ArrayBuffer, ltr: boolean): { vertices: { type: number }[]; rigidBodies: { name: string; type: number; shapeType: number }[] } } };

const cli = (argv: string[], cwd: string) => runCliCaptured(argv, cwd);

describe('inspect a model: how its vertices are skinned', () => {
  it('the fixture: one vertex of each of BDEF1, BDEF2, BDEF4 and SDEF, in the line and in --json', async () => {
    const d = mk('inspect-skin');
    writeFileSync(path.join(d, 'tiny.pmx'), tinyPmx().build());
    const r = await cli(['inspect', 'tiny.pmx'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('\n  skinning BDEF1 1 · BDEF2 1 · BDEF4 1 · SDEF 1\n');
    const j = JSON.parse((await cli(['inspect', '--json', 'tiny.pmx'], d)).out);
    expect(j.skinning).toEqual({ bdef1: 1, bdef2: 1, bdef4: 1, sdef: 1, qdef: 0 });
  });

  it.skipIf(!corpusPresent)("Gene_light.pmx: the counts mmd-parser reads from the file's vertex types", async () => {
    const file = corpusPath('gene/Gene_light.pmx');
    const b = readFileSync(file);
    const want = [0, 0, 0, 0, 0];
    for (const v of new MMDParser.Parser().parsePmx(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), false).vertices) want[v.type]++;
    const names = ['BDEF1', 'BDEF2', 'BDEF4', 'SDEF', 'QDEF'];
    const r = await cli(['inspect', file], mk('inspect-gene'));
    expect(r.code, r.err).toBe(0);
    // inspect groups its counts by thousands (13552 → 13,552), as its warnings do.
    expect(r.out).toContain(`\n  skinning ${names.flatMap((n, i) => (want[i] ? [`${n} ${want[i].toLocaleString('en-US')}`] : [])).join(' · ')}\n`);
  });
});

describe('inspect a model: its rigid bodies by mode and shape', () => {
  it.skipIf(!corpusPresent)('Gene_light.pmx: each body named with its mode and shape as mmd-parser reads them, counts by mode; --json keeps the numbers beside modeName/shapeName', async () => {
    const file = corpusPath('gene/Gene_light.pmx');
    const b = readFileSync(file);
    const bodies = new MMDParser.Parser().parsePmx(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), false).rigidBodies;
    // Written here from the PMX specification (剛体の物理演算: 0 ボーン追従, 1 物理演算, 2 物理演算+ボーン位置合わせ; 形状: 0 球, 1 箱, 2 カプセル).
    const modes = ['follows bone', 'physics', 'physics + bone position'], shapes = ['sphere', 'box', 'capsule'];
    const d = mk('inspect-bodies');
    const r = await cli(['inspect', file], d);
    expect(r.code, r.err).toBe(0);
    const line = r.out.split('\n').find((l) => l.startsWith('  bodies  '))!;
    const count = (m: number) => bodies.filter((x) => x.type === m).length;
    const byMode = [0, 1, 2].filter((m) => count(m) > 0).map((m) => `${count(m)} ${modes[m]}`).join(' · ');
    expect(line).toBe(`  bodies  ${bodies.length} (${byMode}): ${bodies.map((x) => `${x.name}(${modes[x.type]}, ${shapes[x.shapeType]})`).join(' ')}`);
    expect(new Set(bodies.map((x) => x.type)).size).toBeGreaterThan(1);
    const j = JSON.parse((await cli(['inspect', '--json', file], d)).out);
    expect(j.rigidBodies.map((x: { name: string; mode: number; shape: number; modeName: string; shapeName: string }) => [x.name, x.mode, x.shape, x.modeName, x.shapeName])).toEqual(
      bodies.map((x) => [x.name, x.type, x.shapeType, modes[x.type], shapes[x.shapeType]]),
    );
  });

  it('the help names the modes in MMD\'s Japanese too', async () => {
    const r = await cli(['help', 'inspect'], mk('inspect-help'));
    const text = r.out + r.err;
    for (const w of ['follows bone', 'ボーン追従', 'physics (物理演算)', '物理+ボーン位置合わせ', 'capsule', 'modeName']) expect(text).toContain(w);
  });
});
