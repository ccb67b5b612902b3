/**
 * MMD's other files, handed to the app by someone coming from MMD, MikuMikuMoving or nanoem (new-user pass numigrate 3, 4):
 *  - a drop of a .pmm, .mvd, .nmm, .x, .fx or .emm said only "not a kind of file the app opens"; now each notice says
 *    what the file is and what to do instead (a VMD renamed .mvd opens, as the motion its bytes are);
 *  - Open… with such a path typed listed its folder without it and said nothing; now the dialog's line says what it is,
 *    and any other file it will not open is named with what it takes.
 * Screenshots: test-artifacts/mmd-family-*.png.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appForSuite, dismissNotices, dropFiles, fileDialogReady, notice } from './harness';
import { buildFixture } from '../helpers/vmd-fixtures';

const ascii = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const cat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
/** As their programs begin them: a PMM's and an MVD's header, a DirectX text file, MME's text; nanoem's protocol buffer. */
const FILES: Record<string, Uint8Array> = {
  'project.pmm': cat(ascii('Polygon Movie maker 0002'), new Uint8Array(6)),
  'motion.mvd': cat(ascii('Motion Vector Data file'), new Uint8Array(7), new Uint8Array([1, 0, 0, 0])),
  'project.nmm': new Uint8Array([0x0a, 0x05, 0x31, 0x2e, 0x30, 0x2e, 0x30]),
  'stage.x': ascii('xof 0302txt 0032\nHeader {\n 1;\n 0;\n 1;\n}\n'),
  'effect.fx': ascii('float4x4 WorldViewProjMatrix : WORLDVIEWPROJECTION;\n'),
  'effect.emm': ascii('[Info]\r\nVersion = 3\r\n'),
};
/** The first words each is called by (the whole lines: error-strings.ts, checked by the CLI test). */
const IS: Record<string, string> = {
  'project.pmm': 'a MikuMikuDance project (.pmm), not a motion; VMD Studio does not read it. In MMD, save each model’s motion and the camera as .vmd',
  'motion.mvd': 'a MikuMikuMoving motion (.mvd), not a VMD; VMD Studio does not read it. In MikuMikuMoving, export the motion as a .vmd',
  'project.nmm': 'a nanoem project, not a motion; VMD Studio does not read it. In nanoem, save each model’s motion and the camera as .vmd',
  'stage.x': 'an MMD accessory (DirectX .x), not a motion; VMD Studio shows models (.pmx, .pmd), not accessories.',
  'effect.fx': 'an MME effect, not a motion; VMD Studio does not run effects',
  'effect.emm': 'an MME effect, not a motion; VMD Studio does not run effects',
};

describe("MMD's other files (numigrate 3, 4)", () => {
  const s = appForSuite();

  it('a drop of each says what it is and what to do; a VMD renamed .mvd opens', async () => {
    const { page } = s.app;
    for (const [name, bytes] of Object.entries(FILES)) {
      await dropFiles(page, [{ name, bytes }]);
      expect(await notice(page, `${name}: `), name).toContain(`${name}: ${IS[name]}`);
      if (name === 'project.pmm') await s.app.screenshot('mmd-family-drop-pmm');
      await dismissNotices(page);
    }
    // A VMD under another name opens as the motion it is (an empty one: header, model name, no keys).
    await dropFiles(page, [{ name: 'dance.mvd', bytes: cat(ascii('Vocaloid Motion Data 0002'), new Uint8Array(5 + 20 + 8)) }]);
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('dance.mvd'));
    expect(s.app.errors).toEqual([]);
  });

  it('Open… with the path of one typed: the dialog says what it is; another file it will not open is named with what it takes', async () => {
    const { page } = s.app;
    for (const [name, bytes] of Object.entries(FILES)) writeFileSync(path.join(s.tmp.dir, name), bytes);
    writeFileSync(path.join(s.tmp.dir, 'notes.txt'), 'steps\n');
    await page.click('[data-testid="cmd-open"]');
    await fileDialogReady(page);
    for (const name of ['project.pmm', 'stage.x', 'effect.fx']) {
      await page.fill('[data-testid="file-dialog-path"]', path.join(s.tmp.dir, name));
      await page.press('[data-testid="file-dialog-path"]', 'Enter');
      await page.waitForSelector('[data-testid="file-dialog-error"]');
      expect(await page.textContent('[data-testid="file-dialog-error"]'), name).toContain(`${name}: ${IS[name]}`);
      if (name === 'project.pmm') await s.app.screenshot('mmd-family-open-pmm');
    }
    // Open (the dialog's button) with the path typed says the same: it did nothing either.
    await page.fill('[data-testid="file-dialog-path"]', path.join(s.tmp.dir, 'motion.mvd'));
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="file-dialog-error"]')?.textContent?.startsWith('motion.mvd: '));
    expect(await page.textContent('[data-testid="file-dialog-error"]')).toContain(`motion.mvd: ${IS['motion.mvd']}`);
    await page.fill('[data-testid="file-dialog-path"]', path.join(s.tmp.dir, 'notes.txt'));
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="file-dialog-error"]')?.textContent?.startsWith('notes.txt: '));
    expect(await page.textContent('[data-testid="file-dialog-error"]')).toBe(
      'notes.txt: this dialog does not open this kind of file; it takes .vmd, .vpd, .pmx, .pmd, .vmdscene, .bvh, .vrma, .wav, .mp3, .ogg, .oga, .opus, .flac, .m4a, .aac, .weba, .webm',
    );
    // The folder is listed (the typed path showed it, as before), the dialog still open.
    expect(await page.inputValue('[data-testid="file-dialog-path"]')).toBe(s.tmp.dir);
    await page.click('[data-testid="file-dialog-cancel"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    expect(s.app.errors).toEqual([]);
  });

  it('Open… of a real VMD renamed .mvd opens it, as a drop does (its first bytes, not its name); a real .mvd is still named', async () => {
    const { page } = s.app;
    await dismissNotices(page);
    // A VMD with one key of センター, written to disk under an MMM name.
    const vmd = buildFixture({ bones: [{ name: 'センター', frame: 7, pos: [0, 1, 0], rot: [0, 0, 0, 1] }] });
    writeFileSync(path.join(s.tmp.dir, 'renamed.mvd'), vmd);
    writeFileSync(path.join(s.tmp.dir, 'motion.mvd'), FILES['motion.mvd']);
    await page.click('[data-testid="cmd-open"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', path.join(s.tmp.dir, 'motion.mvd'));
    await page.press('[data-testid="file-dialog-path"]', 'Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid="file-dialog-error"]')?.textContent?.startsWith('motion.mvd: '));
    expect(await page.textContent('[data-testid="file-dialog-error"]')).toContain(`motion.mvd: ${IS['motion.mvd']}`);
    await page.fill('[data-testid="file-dialog-path"]', path.join(s.tmp.dir, 'renamed.mvd'));
    await page.press('[data-testid="file-dialog-path"]', 'Enter');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('renamed.mvd'));
    // Opened by its path, the file's own bytes (its one key), not an empty motion made from the name.
    const opened = await page.evaluate(() => window.__vmdEditor!.bytes());
    expect(Buffer.from(opened!, 'base64')).toEqual(Buffer.from(vmd));
    expect(await notice(page, 'Opened')).toContain('renamed.mvd');
    expect(s.app.errors).toEqual([]);
  });
});
