// New-user pass (numigrate 4): `vmd-studio inspect` of MMD's project said "not a VMD motion or a VPD pose: it starts
// with neither …", and of an MME effect or an accessory in text "plain text, not a motion: a motion is a .vmd file
// saved by MMD" (the user knew it was an effect). Each now says what it is and what to do instead, with the exit code
// of any other wrong kind (1), in English or (--lang ja) Japanese; a VMD renamed .mvd is inspected as the VMD it is.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const cli = (argv: string[], cwd: string) => runCliCaptured(argv, cwd);
const ascii = (s: string) => Buffer.from(s, 'latin1');

/** The files a switcher has, as their programs begin them (a PMM's and an MVD's header, a DirectX text file, MME's text). */
const FILES: Record<string, Buffer> = {
  'project.pmm': Buffer.concat([ascii('Polygon Movie maker 0002'), Buffer.alloc(6), ascii('miku')]),
  'motion.mvd': Buffer.concat([ascii('Motion Vector Data file'), Buffer.alloc(7), Buffer.from([1, 0, 0, 0])]),
  'project.nmm': Buffer.from([0x0a, 0x05, 0x31, 0x2e, 0x30, 0x2e, 0x30]),
  'stage.x': ascii('xof 0302txt 0032\nHeader {\n 1;\n 0;\n 1;\n}\n'),
  'effect.fx': ascii('float4x4 WorldViewProjMatrix : WORLDVIEWPROJECTION;\n'),
  'effect.emm': ascii('[Info]\r\nVersion = 3\r\n'),
};
const SAYS: Record<string, string> = {
  'project.pmm': 'a MikuMikuDance project (.pmm), not a motion; VMD Studio does not read it. In MMD, save each model’s motion and the camera as .vmd (File → Save motion data, with that model or the camera chosen), then open them here and keep them together with Save Scene As… (Scene ▾)',
  'motion.mvd': 'a MikuMikuMoving motion (.mvd), not a VMD; VMD Studio does not read it. In MikuMikuMoving, export the motion as a .vmd, then open that',
  'project.nmm': 'a nanoem project, not a motion; VMD Studio does not read it. In nanoem, save each model’s motion and the camera as .vmd, then open them here and keep them together with Save Scene As… (Scene ▾)',
  'stage.x': 'an MMD accessory (DirectX .x), not a motion; VMD Studio shows models (.pmx, .pmd), not accessories. To see it here, convert it to a .pmx (PMX Editor reads .x files) and show that with Model…',
  'effect.fx': 'an MME effect, not a motion; VMD Studio does not run effects: its preview and videos draw with their own toon shading and self-shadow',
  'effect.emm': 'an MME effect, not a motion; VMD Studio does not run effects: its preview and videos draw with their own toon shading and self-shadow',
};

describe("inspect: MMD's other files", () => {
  it('each says what it is and what to do instead, exit code 1', async () => {
    const d = mk('inspect-mmd');
    for (const [name, bytes] of Object.entries(FILES)) {
      writeFileSync(path.join(d, name), bytes);
      const r = await cli(['inspect', name], d);
      expect(r.code, name).toBe(1);
      expect(r.out, name).toBe(`${name}\n  ERROR E_VMD_MAGIC: ${SAYS[name]}\n\n`);
    }
  });

  it('by its first bytes whatever its name: a project named .vmd is a project; a VMD named .mvd is inspected as a VMD', async () => {
    const d = mk('inspect-mmd-renamed');
    writeFileSync(path.join(d, 'dance.vmd'), FILES['project.pmm']);
    const p = await cli(['inspect', 'dance.vmd'], d);
    expect(p.code).toBe(1);
    expect(p.out).toBe(`dance.vmd\n  ERROR E_VMD_MAGIC: ${SAYS['project.pmm']}\n\n`);
    // An empty VMD: header, model name, no bone or morph keys.
    writeFileSync(path.join(d, 'dance.mvd'), Buffer.concat([ascii('Vocaloid Motion Data 0002'), Buffer.alloc(5 + 20 + 8)]));
    const v = await cli(['inspect', '--json', 'dance.mvd'], d);
    expect(v.code, v.err + v.out).toBe(0);
    expect(JSON.parse(v.out).ok).toBe(true);
  });

  it('--lang ja: in Japanese', async () => {
    const d = mk('inspect-mmd-ja');
    writeFileSync(path.join(d, 'project.pmm'), FILES['project.pmm']);
    const r = await cli(['inspect', 'project.pmm', '--lang', 'ja'], d);
    expect(r.code).toBe(1);
    expect(r.out).toContain('MikuMikuDance のプロジェクト（.pmm）で、モーションではありません。');
    expect(r.out).toContain('「シーン ▾」の「シーンを保存…」でまとめてください');
  });
});
