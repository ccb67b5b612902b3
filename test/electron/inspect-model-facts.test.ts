// `vmd-studio inspect MODEL`: what a model maker checks before publishing — format and exact version, text
// encoding, comment, morphs by kind, display frames, the textures the materials use that are not in the
// model's folder, a model named with the other format's extension; and `inspect MOTION --model MODEL` saying
// so when every bone and morph was found. Expected texts are worked out from the hand-built fixtures.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { tinyPmd, tinyPmx } from '../shared/pmx-fixtures';
import { buildVmd, encodeSjis, writeVmd } from '../../shared/vmd';
import { corpusPath, corpusPresent } from '../helpers/corpus';
import { encodePng } from '../helpers/png';

const mk = useTempDirs();
const cli = (argv: string[], cwd: string) => runCliCaptured(argv, cwd);

/** tinyPmx with its header's version float set to `v` (bytes 4–7). */
function pmxVersion(v: number, opts: { utf8?: boolean } = {}): Uint8Array {
  const b = tinyPmx(opts).build();
  new DataView(b.buffer, b.byteOffset).setFloat32(4, v, true);
  return b;
}

describe('inspect MODEL: format, version, encoding, comment, morph kinds, display frames', () => {
  it('tinyPmx (UTF-16): "PMX 2.0 (UTF-16)", both comments, its seven morphs one of each kind, no display frames', async () => {
    const d = mk('facts-pmx');
    writeFileSync(path.join(d, 'tiny.pmx'), pmxVersion(2.0));
    mkdirSync(path.join(d, 'tex'));
    writeFileSync(path.join(d, 'tex', 'skin.png'), new Uint8Array([1]));
    const r = await cli(['inspect', 'tiny.pmx'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('\n  PMX 2.0 (UTF-16)  model "テスト" (Test)\n  comment  コメント\n  comment (en)  comment\n');
    expect(r.out).toContain('\n  morphs  7 (1 vertex · 1 uv · 1 bone · 1 material · 1 group · 1 flip · 1 impulse): あ まとめ 骨 目UV 色 フリップ インパルス\n');
    expect(r.out).toContain('\n  display frames 0\n');
    const j = JSON.parse((await cli(['inspect', '--json', 'tiny.pmx'], d)).out);
    expect([j.formatText, j.encoding, j.comment, j.commentEn, j.displayFrameCount]).toEqual(['PMX 2.0', 'utf-16', 'コメント', 'comment', 0]);
    expect(j.morphKinds).toEqual({ vertex: 1, uv: 1, bone: 1, material: 1, group: 1, flip: 1, impulse: 1 });
  });

  it('a PMX 2.1 in UTF-8 says "PMX 2.1 (UTF-8)"', async () => {
    const d = mk('facts-pmx21');
    writeFileSync(path.join(d, 'tiny.pmx'), pmxVersion(2.1, { utf8: true }));
    const r = await cli(['inspect', 'tiny.pmx'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('\n  PMX 2.1 (UTF-8)  model "テスト" (Test)\n');
    expect(JSON.parse((await cli(['inspect', '--json', 'tiny.pmx'], d)).out).encoding).toBe('utf-8');
  });

  it('a PMD: "PMD 1.0 (Shift_JIS)", its comment, morphs without the hidden base', async () => {
    const d = mk('facts-pmd');
    writeFileSync(path.join(d, 'tiny.pmd'), tinyPmd().build());
    const r = await cli(['inspect', 'tiny.pmd'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('\n  PMD 1.0 (Shift_JIS)  model "センター"\n  comment  c\n');
    expect(r.out).toContain('\n  morphs  1 (1 vertex): あ\n');
  });
});

describe('inspect MODEL: textures the materials use that are missing', () => {
  it('tinyPmx without tex/skin.png names the file, its material 肌 and the folder looked in; --json lists it', async () => {
    const d = mk('facts-tex');
    writeFileSync(path.join(d, 'tiny.pmx'), tinyPmx().build());
    const r = await cli(['inspect', 'tiny.pmx'], d);
    expect(r.code, r.err).toBe(0);
    // Its folder tex/ is not there either: the line names that folder (what to add or rename).
    expect(r.out).toContain(`\n  texture missing: tex\\skin.png (肌), folder tex/ not found in ${d}\n`);
    const j = JSON.parse((await cli(['inspect', '--json', 'tiny.pmx'], d)).out);
    expect(j.missingTextures).toEqual([{ path: 'tex\\skin.png', materials: ['肌'], folder: path.join(d, 'tex'), missingFolder: 'tex/' }]);
  });

  it('found whatever the case of its folder and name (TEX/SKIN.PNG), as the app looks it up: nothing said', async () => {
    const d = mk('facts-tex-case');
    writeFileSync(path.join(d, 'tiny.pmx'), tinyPmx().build());
    mkdirSync(path.join(d, 'TEX'));
    writeFileSync(path.join(d, 'TEX', 'SKIN.PNG'), encodePng({ width: 1, height: 1, data: Uint8Array.of(255, 255, 255, 255) }));
    const r = await cli(['inspect', 'tiny.pmx'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('texture missing');
    expect(JSON.parse((await cli(['inspect', '--json', 'tiny.pmx'], d)).out).missingTextures).toEqual([]);
  });
});

describe('inspect MODEL: a model named with the other format\'s extension', () => {
  it('a PMX named .pmd is inspected as the PMX it is, with a note to rename it', async () => {
    const d = mk('facts-ext');
    writeFileSync(path.join(d, 'pmx_as.pmd'), tinyPmx().build());
    const r = await cli(['inspect', 'pmx_as.pmd'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('\n  PMX 2.0 (UTF-16)  model "テスト"');
    expect(r.out).toContain('\n    pmx_as.pmd is a PMX 2.0 model: MMD reads by extension; rename it .pmx\n');
    const j = JSON.parse((await cli(['inspect', '--json', 'pmx_as.pmd'], d)).out);
    expect(j.notes.map((n: { code: string }) => n.code)).toContain('W_MODEL_EXTENSION');
  });

  it('a PMD named .pmx: the same the other way round; a model under its own extension has no such note', async () => {
    const d = mk('facts-ext2');
    writeFileSync(path.join(d, 'pmd_as.pmx'), tinyPmd().build());
    writeFileSync(path.join(d, 'right.pmd'), tinyPmd().build());
    const r = await cli(['inspect', 'pmd_as.pmx'], d);
    expect(r.out).toContain('\n    pmd_as.pmx is a PMD 1.0 model: MMD reads by extension; rename it .pmd\n');
    expect((await cli(['inspect', 'right.pmd'], d)).out).not.toContain('MMD reads by extension');
  });
});

describe('inspect MOTION --model MODEL', () => {
  it('every bone and morph found: one line that says so', async () => {
    const d = mk('facts-fit');
    writeFileSync(path.join(d, 'tiny.pmx'), tinyPmx().build());
    const q = [0, 0, 0, 1];
    const doc = buildVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: q }, { name: '左足', frame: 0, position: [0, 0, 0], rotation: q }], morphs: [{ name: 'あ', frame: 0, weight: 1 }] });
    writeFileSync(path.join(d, 'm.vmd'), writeVmd(doc));
    const r = await cli(['inspect', 'm.vmd', '--model', 'tiny.pmx'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('m.vmd on tiny.pmx ("テスト")\n  bones 2 of 2 found, morphs 1 of 1 found\n');
  });

  // New-user pass (nuinterop 2): Gene's own 02_laugh.vmd keys browOuterUpRigh and mouthUpperUpLef, MMD's 15-byte cuts of
  // the model's browOuterUpRight and mouthUpperUpLeft (16 bytes each). MMD plays them; babylon-mmd and three.js match
  // names exactly and do not: inspect --model lists them.
  it.skipIf(!corpusPresent)('lists the names found only as MMD cuts them (MMD plays them, exact-name players do not)', async () => {
    const d = mk('facts-cut');
    const r = await cli(['inspect', corpusPath('gene/motion/02_laugh.vmd'), '--model', corpusPath('gene/Gene_light.pmx')], d);
    expect(r.code, r.err).toBe(0);
    const line = r.out.split('\n').find((l) => l.includes('cut to 15 bytes'));
    expect(line).toMatch(/^  \d+ names cut to 15 bytes \(MMD matches them; babylon-mmd and three\.js match names exactly and do not\): /);
    expect(line).toContain(' browOuterUpRigh (browOuterUpRight)');
    expect(line).toContain(' mouthUpperUpLef (mouthUpperUpLeft)');
    const j = await cli(['inspect', '--json', corpusPath('gene/motion/02_laugh.vmd'), '--model', corpusPath('gene/Gene_light.pmx')], d);
    const check = j.out.trim().split('\n').map((l) => JSON.parse(l)).find((l) => l.modelCheck);
    expect(check.cutMorphs).toEqual(
      expect.arrayContaining([
        { motion: 'browOuterUpRigh', model: 'browOuterUpRight', models: ['browOuterUpRight'] },
        { motion: 'mouthUpperUpLef', model: 'mouthUpperUpLeft', models: ['mouthUpperUpLeft'] },
      ]),
    );
    // numorph 2: brow_angry_geo_ is Gene's brow_angry_geo_L and brow_angry_geo_R (a VMD key cannot tell them apart):
    // both named, and said so on a line of its own.
    expect(check.cutMorphs).toEqual(expect.arrayContaining([{ motion: 'brow_angry_geo_', model: 'brow_angry_geo_L', models: ['brow_angry_geo_L', 'brow_angry_geo_R'] }]));
    expect(line).toContain(' brow_angry_geo_ (brow_angry_geo_L / brow_angry_geo_R)');
    const shared = r.out.split('\n').find((l) => l.includes('which a VMD cannot tell apart'));
    expect(shared).toMatch(/^  \d+ cut names stand for more than one name of the model, which a VMD cannot tell apart: .*brow_angry_geo_ = brow_angry_geo_L = brow_angry_geo_R/);
    // Every one of them is over 15 bytes in the model and the first 15 of it in the motion (checked here by bytes).
    for (const c of [...check.cutBones, ...check.cutMorphs]) {
      const full = encodeSjis(c.model);
      expect(full.length, c.model).toBeGreaterThan(15);
      expect(c.model.startsWith(c.motion), c.model).toBe(true);
    }
  });
});
