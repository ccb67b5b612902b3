/**
 * Motion capture in the editor, end to end in Chromium (browser mode: the conversions run in the server's
 * worker thread, as in main under Electron). On the corpus's low-poly Miku (miku.pmd):
 * - Open… takes CMU's 131_01.bvh (120 fps walk): the import dialog shows the joint map (the CMU 3ds Max
 *   table chosen by itself), the report, and the preview plays the result on the model before anything is
 *   added (two frames' pictures differ; the model's left thigh turns between them). Screenshots:
 *   test-artifacts/mocap-*.png.
 * - With options changed (rotation tolerance 0.8°, foot IK off) and one map row edited (LeftCollar → none),
 *   Import gives a new, unsaved document whose bytes equal what the command line's import-bvh writes with
 *   the same options and a map file of that row (the CLI run here is the independent path).
 * - File → Export → VRM Animation writes a .vrma that @pixiv/three-vrm-animation reads (humanoid tracks,
 *   the motion's duration) and that equals export-vrma's output for the same motion and model; opened again it
 *   imports as import-vrma writes it; exporting over it asks first.
 * - Cancel stops a conversion in flight and keeps the last result; the dialog in Japanese (screenshot).
 * - A BVH with a frame line one value short, dropped on the window, is refused in the dialog with the file's
 *   name and the line.
 * The tests run in order on the app the first one opens (run the file, not one test of it).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMAnimationLoaderPlugin, type VRMAnimation } from '@pixiv/three-vrm-animation';
import { ARTIFACTS, appForSuite, clickWhileThere, corpusPath, fileDialogReady, openThroughDialog, saveThroughDialog } from './harness';
import { animationFrames } from './editor-page';
import { ROOT } from '../helpers/build';
import { encodePng } from '../helpers/png';
import { buildTracks, readVmd } from '../../shared/vmd';

const MIKU = corpusPath('mmd-viewer-js/model/low_miku/miku.pmd');
const WALK = corpusPath('bvh11/resources/131_01.bvh');
const LONG = 300_000;
/** Keys the first conversion of 131_01 kept (the default options): the result a cancelled conversion leaves. */
let walkKept = -1;

/** The command line, bundled (dist/cli, built with the app by the harness), in its own process. */
async function cli(argv: string[], cwd: string) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/cli.mjs'), ...argv], { cwd, encoding: 'utf8', timeout: LONG });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const editorBytes = async (page: Page) => new Uint8Array(Buffer.from((await page.evaluate(() => window.__vmdEditor!.bytes()))!, 'base64'));

/** Waits until the dialog holds a result made from what it shows, no conversion running. */
async function ready(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="mocap-dialog"][data-ready="true"]', { timeout: LONG });
}

/** The preview's picture at a frame chosen with the dialog's slider. */
async function pictureAt(page: Page, frame: number) {
  await page.locator('[data-testid="mocap-scrub"]').fill(String(frame));
  await page.waitForFunction((f) => window.__vmdPreview?.frame() === f, frame);
  await animationFrames(page, 3);
  const raw = await page.evaluate(() => window.__vmdPreview!.frameImage());
  return { width: raw.width, height: raw.height, data: new Uint8Array(Buffer.from(raw.rgba, 'base64')) };
}

describe('motion capture: BVH and VRM Animation in the editor', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 1000 } });

  it('opens a CMU BVH: the map table, the report, the result playing on the model in the preview', async () => {
    const { page } = s.app;
    await page.click('[data-testid="preview-open-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', MIKU);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('ローポリ初音さん'), null, { timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 60_000 });

    const t0 = Date.now();
    await openThroughDialog(page, ['cmd-open'], WALK);
    await page.waitForSelector('[data-testid="mocap-dialog"]');
    expect(await page.textContent('[data-testid="mocap-model"]')).toBe('miku.pmd');
    await ready(page);
    console.log(`[perf] 131_01.bvh opened to a converted preview through the dialog: ${Date.now() - t0} ms`);

    // The map table: every joint of the file's tree (31, End Sites aside), the CMU 3ds Max table's parts.
    const rows = await page.$$eval('[data-testid="mocap-map"] tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-joint'), tr.getAttribute('data-part')]));
    expect(rows).toHaveLength(31);
    const part = Object.fromEntries(rows);
    expect(part).toMatchObject({ Hips: 'hips', LeftHip: 'leftUpperLeg', LeftKnee: 'leftLowerLeg', RightShoulder: 'rightUpperArm', LeftCollar: 'leftShoulder', lhand: '' });
    expect(await page.textContent('[data-testid="mocap-report-map"]')).toContain('cmu-max');
    expect(await page.textContent('[data-testid="mocap-report-frames"]')).toContain('994 frames at 120 fps');
    const keys = (await page.textContent('[data-testid="mocap-report-keys"]'))!;
    const [raw, kept] = /Keys: ([\d,]+) → ([\d,]+)/.exec(keys)!.slice(1).map((s) => Number(s.replace(/,/g, '')));
    console.log(`[mocap] ${keys}; ${await page.textContent('[data-testid="mocap-report-feet"]')}`);
    expect(raw).toBe(22862);
    walkKept = kept;
    expect(kept).toBeLessThan(raw / 10);
    expect(await page.textContent('[data-testid="mocap-report-feet"]')).toMatch(/Foot IK: \d+ foot contacts/);
    // The scale auto picked (leg lengths: import-bvh says "scale 0.334" for this pair) in the report and in the
    // field's placeholder, and the error at every capture frame with where it is largest (the field was
    // "auto (leg length)" and only the output frames' error was shown).
    expect(await page.textContent('[data-testid="mocap-report-scale"]')).toBe('Scale: auto → 0.334');
    expect(await page.getAttribute('[data-testid="mocap-scale"]', 'placeholder')).toBe('auto → 0.334');
    expect(await page.textContent('[data-testid="mocap-report-error-all"]')).toMatch(/^At every capture frame: 0\.\d{3} \/ \d+\.\d\d°, largest at \S+, frame \d+(\.\d+)?$/);
    // The low-poly Miku has no thumb: the capture's thumb flips drive nothing, nothing listed.
    expect(await page.isVisible('[data-testid="mocap-report-spikes"]')).toBe(false);
    // Nothing is in the workspace yet.
    expect(await page.evaluate(() => window.__vmdEditor!.bytes())).toBeNull();

    // The preview plays the result: the picture and the left thigh differ between frames 0 and 120.
    const a = await pictureAt(page, 0);
    const thigh0 = await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左足'));
    const b = await pictureAt(page, 120);
    const thigh120 = await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左足'));
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(path.join(ARTIFACTS, 'mocap-preview-0.png'), encodePng(a));
    writeFileSync(path.join(ARTIFACTS, 'mocap-preview-120.png'), encodePng(b));
    await s.app.screenshot('mocap-dialog');
    // The dialog in Japanese too.
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-dialog"] header')?.textContent?.includes('モーションキャプチャの読み込み'));
    expect(await page.textContent('[data-testid="mocap-report-keys"]')).toContain('キー: 22,862 → ');
    expect(await page.textContent('[data-testid="mocap-report-scale"]')).toBe('スケール: 自動 → 0.334');
    expect(await page.textContent('[data-testid="mocap-report-error-all"]')).toMatch(/^キャプチャの全フレームで .*（最大は \S+、フレーム [\d.]+）$/);
    await s.app.screenshot('mocap-dialog-ja');
    await page.selectOption('[data-testid="locale"]', 'en');
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    let changed = 0;
    for (let i = 0; i < a.data.length; i += 4) if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 30) changed++;
    const share = changed / (a.width * a.height);
    console.log(`[mocap] preview frames 0 and 120: ${(100 * share).toFixed(2)}% of pixels differ`);
    expect(share).toBeGreaterThan(0.002);
    const dot = Math.abs(thigh0!.reduce((acc, x, i) => acc + x * thigh120![i], 0));
    expect(2 * Math.acos(Math.min(1, dot)) * (180 / Math.PI)).toBeGreaterThan(5);
  }, LONG);

  it('imports with options and an edited map row: a new unsaved document, the bytes import-bvh writes', async () => {
    const { page } = s.app;
    // A conversion can be cancelled: the last result stays, nothing is reported as an error.
    await page.fill('[data-testid="mocap-pos-tol"]', '0.05');
    await page.press('[data-testid="mocap-pos-tol"]', 'Tab');
    await page.click('[data-testid="mocap-convert"]');
    await page.waitForSelector('[data-testid="mocap-cancel"]');
    expect(await page.textContent('[data-testid="mocap-progress-text"]')).toMatch(/Converting on the model|Fitting keys: track/);
    expect(await clickWhileThere(page, '[data-testid="mocap-dialog"][data-busy="true"]', '[data-testid="mocap-cancel"]')).toBe(true);
    await page.waitForSelector('[data-testid="mocap-dialog"][data-busy="false"]');
    expect(await page.isVisible('[data-testid="mocap-error"]')).toBe(false);
    expect(await page.textContent('[data-testid="mocap-report-keys"]')).toContain(`22,862 → ${walkKept.toLocaleString('en-US')}`);
    await page.fill('[data-testid="mocap-pos-tol"]', '');
    await page.press('[data-testid="mocap-pos-tol"]', 'Tab');
    await page.fill('[data-testid="mocap-rot-tol"]', '0.8');
    await page.press('[data-testid="mocap-rot-tol"]', 'Tab');
    await page.selectOption('[data-testid="mocap-foot-ik"]', 'off');
    await page.selectOption('[data-testid="mocap-map"] tr[data-joint="LeftCollar"] select', '');
    expect(await page.isEnabled('[data-testid="mocap-convert"]')).toBe(true);
    await page.click('[data-testid="mocap-convert"]');
    // The fit's progress reaches the dialog (main's mocapProgress events): tracks done of total.
    await page.waitForFunction(() => /Fitting keys: track \d+ \/ \d+/.test(document.querySelector('[data-testid="mocap-progress-text"]')?.textContent ?? ''), null, { timeout: LONG });
    await ready(page);
    expect(await page.getAttribute('[data-testid="mocap-map"] tr[data-joint="LeftCollar"]', 'data-part')).toBe('');
    expect(await page.textContent('[data-testid="mocap-report-feet"]')).toContain('No foot IK');
    await page.click('[data-testid="mocap-import"]');
    await page.waitForSelector('[data-testid="mocap-dialog"]', { state: 'detached', timeout: LONG });
    await page.waitForFunction(() => window.__vmdEditor!.bytes() !== null);
    expect(await page.textContent('[data-testid="summary-name"]')).toContain('131_01.vmd');

    const dir = s.tmp.dir;
    writeFileSync(path.join(dir, 'map.csv'), 'LeftCollar,-\n');
    const c = await cli(['import-bvh', WALK, '--model', MIKU, '-o', 'cli.vmd', '--rot-tol', '0.8', '--no-foot-ik', '--map', 'map.csv', '--origin'], dir);
    expect(c.code, c.err).toBe(0);
    const mine = await editorBytes(page);
    const theirs = readFileSync(path.join(dir, 'cli.vmd'));
    expect(mine.byteLength).toBe(theirs.byteLength);
    expect(Buffer.from(mine).equals(theirs)).toBe(true);
    // Unsaved: the document has no file yet, and the window says so.
    await s.app.screenshot('mocap-imported');
    expect(await page.textContent('[data-testid="summary-name"]')).toContain('●');
  }, LONG);

  it('exports the motion as VRM Animation: three-vrm-animation reads it; it equals export-vrma\'s', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    await saveThroughDialog(page, ['cmd-export', 'cmd-export-vrma'], dir, 'walk');
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('walk.vrma'), null, { timeout: LONG });
    const bytes = readFileSync(path.join(dir, 'walk.vrma'));
    writeFileSync(path.join(dir, 'doc.vmd'), await editorBytes(page));
    const c = await cli(['export-vrma', 'doc.vmd', '--model', MIKU, '-o', 'cli.vrma'], dir);
    expect(c.code, c.err).toBe(0);
    expect(bytes.equals(readFileSync(path.join(dir, 'cli.vrma')))).toBe(true);
    const loader = new GLTFLoader();
    loader.register((p) => new VRMAnimationLoaderPlugin(p));
    const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
    const anim = (gltf.userData.vrmAnimations as VRMAnimation[])[0];
    // As long as the document: its last key's frame at 30 fps (read from the editor's bytes by the VMD reader).
    const doc = readVmd(await editorBytes(page));
    if (!doc.ok) throw new Error(doc.error.message);
    const last = buildTracks(doc.value).lastFrame;
    expect(last).toBeGreaterThanOrEqual(248);
    expect(anim.duration).toBeCloseTo(last / 30, 3);
    expect([...anim.humanoidTracks.rotation.keys()]).toEqual(expect.arrayContaining(['hips', 'spine', 'leftUpperArm', 'leftLowerArm', 'leftUpperLeg', 'leftLowerLeg', 'rightUpperLeg']));
    expect(anim.humanoidTracks.translation.has('hips')).toBe(true);
    // The .vrma opens in the editor as an import too: its humanoid table, and Import gives what import-vrma writes.
    await openThroughDialog(page, ['cmd-open'], path.join(dir, 'walk.vrma'));
    await ready(page);
    const vrows = Object.fromEntries(await page.$$eval('[data-testid="mocap-map"] tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-joint'), tr.getAttribute('data-part')])));
    expect(vrows).toMatchObject({ hips: 'hips', leftUpperArm: 'leftUpperArm', rightLowerLeg: 'rightLowerLeg' });
    await page.click('[data-testid="mocap-import"]');
    await page.waitForSelector('[data-testid="mocap-dialog"]', { state: 'detached', timeout: LONG });
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('walk.vmd'));
    const iv = await cli(['import-vrma', 'walk.vrma', '--model', MIKU, '-o', 'walk-cli.vmd', '--origin'], dir);
    expect(iv.code, iv.err).toBe(0);
    expect(Buffer.from(await editorBytes(page)).equals(readFileSync(path.join(dir, 'walk-cli.vmd')))).toBe(true);

    // A second export to the same name asks before replacing: the dialog's Replace question, then written
    // (now the active document is the one just imported from the .vrma).
    writeFileSync(path.join(dir, 'doc2.vmd'), await editorBytes(page));
    const c2 = await cli(['export-vrma', 'doc2.vmd', '--model', MIKU, '-o', 'cli2.vrma'], dir);
    expect(c2.code, c2.err).toBe(0);
    const expected2 = readFileSync(path.join(dir, 'cli2.vrma'));
    writeFileSync(path.join(dir, 'walk.vrma'), 'not yet replaced');
    await page.click('[data-testid="cmd-export"]');
    await page.click('[data-testid="cmd-export-vrma"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', dir);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"][data-loading="false"][data-loaded="true"]');
    await page.fill('[data-testid="file-dialog-name"]', 'walk.vrma');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog-confirm"]');
    expect(readFileSync(path.join(dir, 'walk.vrma'), 'utf8')).toBe('not yet replaced');
    await page.click('[data-testid="file-dialog-accept"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await expect.poll(() => readFileSync(path.join(dir, 'walk.vrma')).equals(expected2), { timeout: 120_000 }).toBe(true);
  }, LONG);

  it('refuses a bad BVH in the dialog, naming the file and the line', async () => {
    const { page } = s.app;
    const lines = readFileSync(WALK, 'latin1').split('\n');
    const motionAt = lines.findIndex((l) => l.startsWith('MOTION'));
    const bad = motionAt + 3 + 4;
    lines[bad] = lines[bad].trim().split(/\s+/).slice(0, -1).join(' ');
    // Dropped on the window (a browser gives the bytes and the name, no path).
    const b64 = Buffer.from(lines.join('\n'), 'latin1').toString('base64');
    await page.evaluate(([data, name]) => {
      const u = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([u], name));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [b64, 'bad walk.bvh']);
    await page.waitForSelector('[data-testid="mocap-error"]', { timeout: LONG });
    const text = (await page.textContent('[data-testid="mocap-error"]'))!;
    await s.app.screenshot('mocap-bad-bvh');
    console.log(`[mocap] bad BVH: ${text}`);
    expect(text).toContain('bad walk.bvh');
    expect(text).toContain(`line ${bad + 1}`);
    expect(text).toContain('E_BVH_CHANNELS');
    // Nothing to import from a file that did not convert.
    expect(await page.isDisabled('[data-testid="mocap-import"]')).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="mocap-dialog"]', { state: 'detached' });
    expect(s.app.errors).toEqual([]);
  }, LONG);
});

/** A VMD's morph keys read here from its bytes (header 30, model name 20, bone block, then 23-byte morph records). */
function morphKeys(bytes: Uint8Array): { name: string; frame: number; weight: number }[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 50;
  o += 4 + v.getUint32(o, true) * 111;
  const n = v.getUint32(o, true);
  o += 4;
  const sjis = new TextDecoder('shift_jis');
  const out: { name: string; frame: number; weight: number }[] = [];
  for (let i = 0; i < n; i++, o += 23) {
    const raw = bytes.subarray(o, o + 15);
    const end = raw.indexOf(0);
    out.push({ name: sjis.decode(end < 0 ? raw : raw.subarray(0, end)), frame: v.getUint32(o + 15, true), weight: v.getFloat32(o + 19, true) });
  }
  return out;
}

describe('motion capture: the expression table, another model in the dialog, BVH out', () => {
  const s = appForSuite({ viewport: { width: 1600, height: 1000 } });
  const GENE = corpusPath('gene/Gene_light.pmx');
  const LAUGH = corpusPath('gene/motion/02_laugh.vmd');

  it('converts onto a model chosen in the dialog, shown in the preview; an edited expression row sends its keys to the chosen morph', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    // A real VRM Animation with expression tracks: Gene's laugh (あ/い/う/え/お, まばたき, 笑い… keyed) exported by the CLI.
    const ex = await cli(['export-vrma', LAUGH, '--model', GENE, '-o', 'laugh.vrma', '--json'], dir);
    expect(ex.code, ex.err).toBe(0);
    const exported = JSON.parse(ex.out) as { expressions: { expression: string; morph: string }[] };
    expect(exported.expressions).toEqual(expect.arrayContaining([{ expression: 'aa', morph: 'あ' }, { expression: 'blink', morph: 'まばたき' }]));

    // The preview shows the low-poly Miku; the capture opens onto it.
    await page.click('[data-testid="preview-open-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', MIKU);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => window.__vmdPreview?.info().model?.includes('ローポリ初音さん'), null, { timeout: 60_000 });
    await openThroughDialog(page, ['cmd-open'], path.join(dir, 'laugh.vrma'));
    await page.waitForSelector('[data-testid="mocap-dialog"]');
    await ready(page);
    expect(await page.textContent('[data-testid="mocap-model"]')).toBe('miku.pmd');
    const onMiku = await pictureAt(page, 60);

    // Another model chosen in the dialog: the preview shows it, playing the result.
    await page.click('[data-testid="mocap-choose-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', GENE);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForSelector('[data-testid="file-dialog"]', { state: 'detached' });
    await page.waitForFunction(() => window.__vmdPreview?.info().model?.includes('ジェネ'), null, { timeout: 120_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="preview-pane"]')?.textContent?.includes('Loading model'), null, { timeout: 120_000 });
    await ready(page);
    expect(await page.textContent('[data-testid="mocap-model"]')).toBe('Gene_light.pmx');
    expect(await page.textContent('[data-testid="preview-model-name"]')).toContain('ジェネ');
    const onGene = await pictureAt(page, 60);
    const elbow60 = await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左ひじ'));
    await pictureAt(page, 0);
    const elbow0 = await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左ひじ'));
    let changed = 0;
    for (let i = 0; i < onMiku.data.length; i += 4) if (Math.abs(onMiku.data[i] - onGene.data[i]) + Math.abs(onMiku.data[i + 1] - onGene.data[i + 1]) + Math.abs(onMiku.data[i + 2] - onGene.data[i + 2]) > 30) changed++;
    console.log(`[mocap] preview at frame 60, Miku then Gene: ${((100 * changed) / (onMiku.width * onMiku.height)).toFixed(2)}% of pixels differ`);
    expect(changed / (onMiku.width * onMiku.height)).toBeGreaterThan(0.01);
    writeFileSync(path.join(ARTIFACTS, 'mocap-preview-gene-60.png'), encodePng(onGene));
    // The motion plays on Gene: the left forearm turns between frames 0 and 60 (the laugh's elbows bend ~70°).
    const dot = Math.abs(elbow0!.reduce((acc, x, i) => acc + x * elbow60![i], 0));
    const turn = 2 * Math.acos(Math.min(1, dot)) * (180 / Math.PI);
    console.log(`[mocap] Gene's left forearm, frames 0 → 60 in the preview: ${turn.toFixed(1)}°`);
    expect(turn).toBeGreaterThan(10);

    // The expression table: the file's expressions with the built-in morphs, the model's morphs offered.
    const table = async () => Object.fromEntries(await page.$$eval('[data-testid="mocap-expr"] tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-expression'), tr.getAttribute('data-morph')])));
    expect(await table()).toMatchObject({ aa: 'あ', ih: 'い', ou: 'う', ee: 'え', oh: 'お', blink: 'まばたき', happy: '笑い' });
    const offered = await page.$$eval('#mocap-model-morphs option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toContain('ワ');
    const before = (await page.textContent('[data-testid="mocap-report-keys"]'))!;
    // happy (the laugh's one expression that moves: 笑い 0 → 1 → 0.4 → 0) → ワ, typed and committed with
    // Enter (the dialog converts again).
    const happy = page.locator('[data-testid="mocap-expr"] tr[data-expression="happy"] input');
    await happy.fill('ワ');
    await happy.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-expr"] tr[data-expression="happy"]')?.getAttribute('data-morph') === 'ワ');
    await ready(page);
    expect(await page.getAttribute('[data-testid="mocap-expr"] tr[data-expression="happy"]', 'class')).toContain('edited');
    console.log(`[mocap] laugh.vrma on Gene: ${before}; after happy → ワ: ${await page.textContent('[data-testid="mocap-report-keys"]')}`);
    await page.locator('[data-testid="mocap-expr"]').scrollIntoViewIfNeeded();
    await s.app.screenshot('mocap-expressions');
    await page.selectOption('[data-testid="locale"]', 'ja');
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-expr-section"]')?.textContent?.includes('表情 → モーフ'));
    await s.app.screenshot('mocap-expressions-ja');
    await page.selectOption('[data-testid="locale"]', 'en');

    // Save map: the table as the CLI's --map reads it.
    await saveThroughDialog(page, ['mocap-save-map'], dir, 'laugh-map.json');
    await expect.poll(() => readFileSync(path.join(dir, 'laugh-map.json'), 'utf8').length > 0, { timeout: 30_000 }).toBe(true);
    const saved = JSON.parse(readFileSync(path.join(dir, 'laugh-map.json'), 'utf8')) as { morphs: Record<string, string> };
    expect(saved.morphs).toMatchObject({ happy: 'ワ', aa: 'あ', blink: 'まばたき' });

    // Import (Ctrl+Enter): the document's bytes are import-vrma's with that map file, run as its own process.
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-testid="mocap-dialog"]', { state: 'detached', timeout: LONG });
    await page.waitForFunction(() => document.querySelector('[data-testid="summary-name"]')?.textContent?.includes('laugh.vmd'));
    // The new motion is on the chosen model, which the preview keeps.
    expect(await page.evaluate(() => window.__vmdPreview!.info().model)).toContain('ジェネ');
    const mine = await editorBytes(page);
    const c = await cli(['import-vrma', 'laugh.vrma', '--model', GENE, '-o', 'laugh-cli.vmd', '--map', 'laugh-map.json', '--origin'], dir);
    expect(c.code, c.err).toBe(0);
    expect(Buffer.from(mine).equals(readFileSync(path.join(dir, 'laugh-cli.vmd')))).toBe(true);
    // Read here from the bytes: happy's keys are ワ's now, the keys import-vrma gives 笑い with the built-in table.
    const plain = await cli(['import-vrma', 'laugh.vrma', '--model', GENE, '-o', 'laugh-plain.vmd'], dir);
    expect(plain.code, plain.err).toBe(0);
    const ours = morphKeys(mine), theirs = morphKeys(readFileSync(path.join(dir, 'laugh-plain.vmd')));
    const of = (keys: typeof ours, n: string) => keys.filter((k) => k.name === n).map((k) => [k.frame, k.weight]).sort((x, y) => x[0] - y[0]);
    expect(of(theirs, '笑い').some(([, w]) => w > 0.5)).toBe(true);
    expect(of(theirs, 'ワ')).toEqual([]);
    expect(of(ours, '笑い')).toEqual([]);
    expect(of(ours, 'ワ')).toEqual(of(theirs, '笑い'));
    expect(of(ours, 'あ')).toEqual(of(theirs, 'あ'));
    console.log(`[mocap] laugh.vmd: ${of(ours, 'ワ').length} keys on ワ, weights ${of(ours, 'ワ').map(([, w]) => w.toFixed(2)).join(' ')} (import-vrma's 笑い keys with the built-in table)`);
  }, LONG);

  it('exports BVH from File → Export: the bytes export-bvh writes, a BVH of the model\'s joints and every frame', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    await saveThroughDialog(page, ['cmd-export', 'cmd-export-bvh'], dir, 'laugh-out');
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('laugh-out.bvh'), null, { timeout: LONG });
    const bytes = readFileSync(path.join(dir, 'laugh-out.bvh'));
    const doc = await editorBytes(page);
    writeFileSync(path.join(dir, 'doc-bvh.vmd'), doc);
    const GENE_ = GENE;
    const c = await cli(['export-bvh', 'doc-bvh.vmd', '--model', GENE_, '-o', 'cli.bvh', '--json'], dir);
    expect(c.code, c.err).toBe(0);
    expect(bytes.equals(readFileSync(path.join(dir, 'cli.bvh')))).toBe(true);
    const rep = JSON.parse(c.out) as { frames: number; joints: string[] };
    // Parsed here: the hierarchy's joints and channels, the frame count, and one line of values per frame.
    const text = bytes.toString('utf8');
    const [head, motion] = text.split(/^MOTION\s*$/m);
    expect(head.trimStart().startsWith('HIERARCHY')).toBe(true);
    const joints = [...head.matchAll(/^\s*(ROOT|JOINT)\s+(\S+)/gm)].map((m) => m[2]);
    const channels = [...head.matchAll(/^\s*CHANNELS\s+(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
    expect(joints.length).toBe(rep.joints.length);
    expect(joints).toEqual(expect.arrayContaining(['hips', 'spine', 'head', 'leftUpperArm', 'leftLowerArm', 'rightUpperLeg', 'rightLowerLeg']));
    expect([...head.matchAll(/\{/g)].length).toBe([...head.matchAll(/\}/g)].length);
    const frames = Number(/^Frames:\s*(\d+)/m.exec(motion)![1]);
    expect(Number(/^Frame Time:\s*([\d.]+)/m.exec(motion)![1])).toBeCloseTo(1 / 30, 6);
    const lines = motion.split(/\r?\n/).filter((l) => l.trim() !== '' && !/^(Frames|Frame Time):/.test(l));
    expect(lines.length).toBe(frames);
    for (const l of lines) expect(l.trim().split(/\s+/).map(Number).filter(Number.isFinite).length).toBe(channels);
    // Every frame of the motion: frame 0 to its last key (read from the document's bytes by the VMD reader).
    const d = readVmd(doc);
    if (!d.ok) throw new Error(d.error.message);
    expect(frames).toBe(buildTracks(d.value).lastFrame + 1);
    expect(frames).toBe(rep.frames);
    console.log(`[mocap] BVH export from the editor: ${joints.length} joints, ${channels} channels, ${frames} frames, ${bytes.length} bytes = export-bvh's`);
    expect(s.app.errors).toEqual([]);
  }, LONG);

  it('with no model shown, a BVH goes onto the standard MMD skeleton at once: the figure plays it, Import and Export give import-bvh\'s and export-bvh\'s bytes without --model', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    await page.click('[data-testid="preview-use-figure"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('Default figure'));
    await openThroughDialog(page, ['cmd-open'], WALK);
    await page.waitForSelector('[data-testid="mocap-dialog"]');
    // Converted without a model being asked for: the standard skeleton, said so.
    await ready(page);
    const model = page.locator('[data-testid="mocap-model"]');
    expect(await model.getAttribute('data-standard')).toBe('true');
    expect(await model.textContent()).toBe('Standard MMD skeleton (the built-in figure)');
    expect(await page.isVisible('[data-testid="mocap-use-standard"]')).toBe(false);
    expect(await page.isEnabled('[data-testid="mocap-import"]')).toBe(true);
    // What the capture has and the skeleton does not is said of the skeleton (import-bvh --json: unboundParts).
    expect(await page.textContent('[data-testid="mocap-report-lacks"]')).toBe('The standard skeleton lacks: upperChest, leftToes, rightToes');
    // The figure walks: its left thigh turns between frames 0 and 120.
    await pictureAt(page, 0);
    const thigh0 = await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左足'));
    await pictureAt(page, 120);
    const thigh120 = await page.evaluate(() => window.__vmdPreview!.boneWorldQuaternion('左足'));
    const dot = Math.abs(thigh0!.reduce((acc, x, i) => acc + x * thigh120![i], 0));
    expect(2 * Math.acos(Math.min(1, dot)) * (180 / Math.PI)).toBeGreaterThan(5);
    // The skeleton has thumbs: the capture's RThumb flips (capture frames 237–242, 751–756, 809–814; import-bvh
    // --json lists the same) are listed with their bone, output frames and degrees.
    expect(await page.textContent('[data-testid="mocap-report-spikes"]')).toContain('Capture glitches kept as one-frame turns (3): look there, or tick Remove glitches');
    expect(await page.$$eval('[data-testid="mocap-report-spike"]', (d) => d.map((x) => x.textContent))).toEqual(['右親指１: frames 59.25–60.5, 179°', '右親指１: frames 187.75–189, 180°', '右親指１: frames 202.25–203.5, 180°']);
    await s.app.screenshot('mocap-standard-skeleton');
    // Remove glitches: converted again, the three said replaced.
    await page.check('[data-testid="mocap-despike"]');
    await page.click('[data-testid="mocap-convert"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-report-spikes"]')?.textContent?.includes('replaced'), null, { timeout: LONG });
    await ready(page);
    expect(await page.textContent('[data-testid="mocap-report-spikes"]')).toContain('Capture glitches replaced by the interpolation of the frames either side (3)');
    await s.app.screenshot('mocap-despiked');
    // Un-ticked, the glitches are kept again: no Convert of its own here (a conversion of the whole walk fewer),
    // the model chosen next converts with the box as it is now, and the skeleton's conversion after it says so.
    await page.uncheck('[data-testid="mocap-despike"]');
    // A model chosen in the dialog, then the standard skeleton again (its button is back).
    await page.click('[data-testid="mocap-choose-model"]');
    await fileDialogReady(page);
    await page.fill('[data-testid="file-dialog-path"]', MIKU);
    await page.click('[data-testid="file-dialog-go"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-model"]')?.textContent === 'miku.pmd');
    await ready(page);
    expect(await page.textContent('[data-testid="mocap-report-lacks"]')).toMatch(/^The model lacks: /);
    await page.click('[data-testid="mocap-use-standard"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-model"]')?.getAttribute('data-standard') === 'true');
    await ready(page);
    await page.waitForFunction(() => document.querySelector('[data-testid="mocap-report-spikes"]')?.textContent?.includes('kept'), null, { timeout: LONG });
    expect(await page.textContent('[data-testid="mocap-report-spikes"]')).toContain('Capture glitches kept as one-frame turns (3): look there, or tick Remove glitches');
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-model-name"]')?.textContent?.includes('Default figure'));
    await page.click('[data-testid="mocap-import"]');
    await page.waitForSelector('[data-testid="mocap-dialog"]', { state: 'detached', timeout: LONG });
    const ours = await editorBytes(page);
    const c = await cli(['import-bvh', WALK, '-o', 'walk-standard.vmd', '--origin'], dir);
    expect(c.code, c.err).toBe(0);
    expect(Buffer.from(ours).equals(readFileSync(path.join(dir, 'walk-standard.vmd')))).toBe(true);
    // The new actor is the figure: no model file.
    expect(await page.textContent('[data-testid="preview-model-name"]')).toContain('Default figure');
    console.log(`[mocap] 131_01.bvh on the standard skeleton: ${ours.length} bytes = import-bvh's without --model (--origin, as the dialog's default)`);
    // Exported with the figure shown: played on the standard skeleton, as export-bvh without --model.
    await saveThroughDialog(page, ['cmd-export', 'cmd-export-bvh'], dir, 'walk-standard-out');
    await page.waitForFunction(() => document.querySelector('[data-testid="notifications"]')?.textContent?.includes('walk-standard-out.bvh'), null, { timeout: LONG });
    writeFileSync(path.join(dir, 'walk-doc.vmd'), ours);
    const x = await cli(['export-bvh', 'walk-doc.vmd', '-o', 'walk-cli.bvh'], dir);
    expect(x.code, x.err).toBe(0);
    expect(readFileSync(path.join(dir, 'walk-standard-out.bvh')).equals(readFileSync(path.join(dir, 'walk-cli.bvh')))).toBe(true);
    expect(s.app.errors).toEqual([]);
  }, LONG);

  it('Batch → Import VRM Animation: a folder of .vrma → VMDs, each the bytes import-vrma writes; the folder\'s motions are said not taken', async () => {
    const { page } = s.app;
    const dir = s.tmp.dir;
    const input = path.join(dir, 'vrma-in'), output = path.join(dir, 'vrma-out');
    mkdirSync(input);
    const made = await cli(['export-vrma', corpusPath('gene/motion/02_laugh.vmd'), '-o', path.join(input, 'laugh.vrma')], dir);
    expect(made.code, made.err).toBe(0);
    writeFileSync(path.join(input, 'laugh.vmd'), readFileSync(corpusPath('gene/motion/02_laugh.vmd')));
    await page.click('[data-testid="cmd-batch"]');
    await page.click('[data-testid="batch-target-folder"]');
    // The operations are grouped; the capture ones together.
    expect(await page.$$eval('[data-testid="batch-op"] optgroup', (gs) => gs.map((g) => (g as HTMLOptGroupElement).label))).toEqual(['Edit motions', 'Motion capture and VRM Animation', 'Poses and summaries']);
    expect(await page.$$eval('[data-testid="batch-op"] optgroup[data-group="capture"] option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['import-bvh', 'import-vrma', 'export-bvh', 'export-vrma']);
    await page.selectOption('[data-testid="batch-op"]', 'import-vrma');
    await page.fill('[data-testid="batch-input"]', input);
    await page.fill('[data-testid="batch-output"]', output);
    await page.fill('[data-testid="batch-opt-model"]', MIKU);
    await s.app.screenshot('batch-import-vrma-form');
    await page.click('[data-testid="batch-start"]');
    await page.waitForSelector('[data-testid="batch-summary"]', { timeout: LONG });
    // The import's own warning (the low-poly Miku lacks some of the expressions' morphs, as import-vrma says on
    // standard error) is the file's row's and the summary's.
    expect(await page.textContent('[data-testid="batch-summary"]')).toBe('Done with warnings: 1 ok (1 with warnings), 0 failed, 0 skipped');
    expect(await page.textContent('[data-testid="batch-result"]')).toContain('expressions whose morph the model lacks');
    expect(await page.textContent('[data-testid="batch-not-taken"]')).toBe('1 .vmd/.vpd file in the folder was not processed: this operation takes .vrma files');
    await s.app.screenshot('batch-import-vrma-done');
    const c = await cli(['import-vrma', path.join(input, 'laugh.vrma'), '--model', MIKU, '-o', 'vrma-batch-cli.vmd'], dir);
    expect(c.code, c.err).toBe(0);
    expect(readFileSync(path.join(output, 'laugh.vmd')).equals(readFileSync(path.join(dir, 'vrma-batch-cli.vmd')))).toBe(true);
    await page.click('[data-testid="batch-close"]');
    expect(s.app.errors).toEqual([]);
  }, LONG);
});
