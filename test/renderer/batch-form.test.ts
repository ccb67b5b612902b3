/**
 * The Batch dialog's option form: the one schema (shared/batch/op-specs.ts) still gives the CLI exactly
 * the options and usage text it had, the form's validation matches what prepareOp accepts, and the
 * dialog shows problems inline, keeps Start disabled while invalid, and starts the job with the options.
 * Also the file summary's badge for a VPD.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../helpers/corpus';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { prepareOp } from '../../electron/batch/ops';
import { formatEta, initialFormValues, progressFigures, validateOpForm, type OpFormValues } from '../../shared/batch/op-form';
import { cliArgNames, cliUsage } from '../../shared/batch/op-specs';
import { BATCH_OP_GROUPS, BATCH_OPS, type BatchJob, type BatchOp } from '../../shared/batch/types';
import { DEFAULT_SETTINGS, okValue, type VmdStudioApi } from '../../shared/ipc/contract';
import { buildVmd, writeVmd, writeVpd } from '../../shared/vmd';
import { setApi } from '../../renderer/src/api';
import { fakeBatchApi } from '../helpers/batch-api';
import BatchDialog from '../../renderer/src/components/BatchDialog.vue';
import FileSummary from '../../renderer/src/components/FileSummary.vue';
import { useBatchStore } from '../../renderer/src/stores/batch';
import { useWorkspaceStore } from '../../renderer/src/stores/workspace';
import { useSceneStore } from '../../renderer/src/stores/scene';
import { useSettingsStore } from '../../renderer/src/stores/settings';

const CORPUS = corpusDir;

/** The CLI's option table, written out by hand: the schema must give exactly these options. */
const CLI_BEFORE: Record<BatchOp, { values: string[]; flags: string[]; help: string }> = {
  // --model: names in Latin letters pair by the model's bones and morphs, as the editor's Mirror does.
  mirror: { values: ['model'], flags: ['no-light'], help: '[--no-light] [--model MODEL.pmx|.pmd]' },
  trim: { values: ['from', 'to'], flags: ['no-hold', 'keep-static'], help: '--from A [--to B] [--no-hold] [--keep-static]' },
  // --refit and its tolerances came with the fitter (shared/fit); without --refit, speed is as before.
  speed: { values: ['factor', 'pos-tol', 'rot-tol', 'morph-tol'], flags: ['refit'], help: '--factor K [--refit [--pos-tol U] [--rot-tol DEG] [--morph-tol W]]' },
  shift: { values: ['by'], flags: ['clip', 'no-hold'], help: '--by N [--clip [--no-hold]]' },
  preset: {
    values: ['curve', 'bones', 'channels', 'camera-channels', 'from', 'to'],
    flags: ['camera'],
    help: '--curve NAME|x1,y1,x2,y2 [--bones PATTERN] [--channels x,y,z,r] [--camera] [--camera-channels x,y,z,r,d,v] [--from A] [--to B]',
  },
  rename: { values: ['map'], flags: ['morphs'], help: '--map MAPPING.json|.csv [--morphs]' },
  pose: { values: ['frame'], flags: [], help: '[--frame F]' },
  convert: { values: ['frame'], flags: ['skip-long-names'], help: '[--frame F] [--skip-long-names]' },
  inspect: { values: [], flags: [], help: '' },
  reduce: { values: ['pos-tol', 'rot-tol', 'morph-tol', 'bones', 'from', 'to'], flags: [], help: '[--pos-tol U] [--rot-tol DEG] [--morph-tol W] [--bones PATTERNS] [--from A] [--to B]' },
  bake: { values: ['from', 'to'], flags: [], help: '[--from A] [--to B]' },
  // Physics bake (issue 26): one model for the folder.
  // --warmup and --no-resimulate as the one-file command takes them (their defaults: from frame 0, 'auto').
  'physics-bake': { values: ['model', 'from', 'to', 'warmup', 'pos-tol', 'rot-tol'], flags: ['raw', 'resimulate', 'no-resimulate'], help: '--model MODEL.pmx|.pmd [--from A] [--to B] [--warmup N|all] [--raw] [--resimulate | --no-resimulate] [--pos-tol U] [--rot-tol DEG]' },
  // IK bake (shared/bake/ik-bake.ts): one model for the folder, the one-file command's options.
  'ik-bake': { values: ['model', 'from', 'to', 'bones', 'rot-tol'], flags: ['raw'], help: '--model MODEL.pmx|.pmd [--from A] [--to B] [--bones IK,IK] [--raw] [--rot-tol DEG]' },
  // Retargeting (shared/retarget) reads its two models by path (no source: the standard MMD skeleton); --map is rename's map format.
  retarget: { values: ['from', 'to', 'map', 'pos-tol', 'rot-tol'], flags: ['no-scale', 'no-floor'], help: '[--from SOURCE.pmx] --to TARGET.pmx [--map MAPPING.json|.csv] [--no-scale] [--no-floor] [--pos-tol U] [--rot-tol DEG]' },
  // Captures (import-bvh): the single-file command's options, the model optional (the standard skeleton).
  'import-bvh': { values: ['model', 'map', 'scale', 'fps', 'pos-tol', 'rot-tol'], flags: ['no-foot-ik', 'origin', 'despike'], help: '[--model MODEL.pmx|.pmd] [--map MAP.csv|.json] [--scale S] [--fps N] [--no-foot-ik] [--origin] [--despike] [--pos-tol U] [--rot-tol DEG]' },
  // VRM Animations (import-vrma): import-bvh's but --fps (a .vrma keys seconds).
  'import-vrma': { values: ['model', 'map', 'scale', 'pos-tol', 'rot-tol'], flags: ['no-foot-ik', 'origin', 'despike'], help: '[--model MODEL.pmx|.pmd] [--map MAP.csv|.json] [--scale S] [--no-foot-ik] [--origin] [--despike] [--pos-tol U] [--rot-tol DEG]' },
  // The exports (export-bvh, export-vrma): the model optional; the expression map for VRMA.
  'export-bvh': { values: ['model'], flags: [], help: '[--model MODEL.pmx|.pmd]' },
  'export-vrma': { values: ['model', 'map'], flags: [], help: '[--model MODEL.pmx|.pmd] [--map MAP.json]' },
};

const form = (op: BatchOp, v: OpFormValues) => validateOpForm(op, { ...initialFormValues(op), ...v });

describe('batch option schema', () => {
  it('gives the CLI the same option names and usage text as before', () => {
    for (const op of Object.keys(CLI_BEFORE) as BatchOp[]) {
      expect(cliArgNames(op), op).toEqual({ values: CLI_BEFORE[op].values, flags: CLI_BEFORE[op].flags });
      expect(cliUsage(op), op).toBe(CLI_BEFORE[op].help);
    }
  });

  it('the groups of the dialog hold every operation once, in the order of the CLI', () => {
    expect(BATCH_OP_GROUPS.flatMap((g) => g.ops)).toEqual([...BATCH_OPS]);
    expect(Object.keys(CLI_BEFORE).sort()).toEqual([...BATCH_OPS].sort());
  });
});

describe('batch form validation', () => {
  it('trim: from is required, whole and ≥ 0; to must not be before from', () => {
    expect(form('trim', {}).errors).toEqual({ from: { key: 'batch.err.required' } });
    expect(form('trim', { from: -1 }).errors.from).toEqual({ key: 'batch.err.min', params: { min: 0 } });
    expect(form('trim', { from: '2.5' }).errors.from?.key).toBe('batch.err.integer');
    expect(form('trim', { from: 'abc' }).errors.from?.key).toBe('batch.err.number');
    expect(form('trim', { from: 'Infinity' }).errors.from?.key).toBe('batch.err.number');
    expect(form('trim', { from: 40, to: 10 }).errors).toEqual({ to: { key: 'batch.err.notBefore', other: 'from' } });
    // Checkboxes say "hold the pose" (checked = no --no-hold); unchecking adds the flag.
    expect(form('trim', { from: '10', to: 40 })).toEqual({ options: { from: 10, to: 40 }, errors: {} });
    expect(form('trim', { from: 10, 'no-hold': false, 'keep-static': true }).options).toEqual({ from: 10, 'no-hold': true, 'keep-static': true });
  });

  it('speed: factor must be a number greater than 0', () => {
    expect(form('speed', {}).errors.factor?.key).toBe('batch.err.required');
    expect(form('speed', { factor: 0 }).errors.factor?.key).toBe('batch.err.positive');
    expect(form('speed', { factor: -2 }).errors.factor?.key).toBe('batch.err.positive');
    expect(form('speed', { factor: '0.5' })).toEqual({ options: { factor: 0.5 }, errors: {} });
  });

  it('physics-bake: the warm-up a whole number ≥ 0 (empty: from frame 0), --resimulate or --no-resimulate, not both (neither: auto)', () => {
    const model = { model: '/m/gene.pmx' };
    expect(form('physics-bake', model)).toEqual({ options: { model: '/m/gene.pmx', 'pos-tol': 0.01, 'rot-tol': 0.1 }, errors: {} });
    expect(form('physics-bake', { ...model, from: 100, warmup: '30', 'no-resimulate': true }).options).toMatchObject({ from: 100, warmup: 30, 'no-resimulate': true });
    expect(form('physics-bake', { ...model, warmup: '-1' }).errors.warmup).toEqual({ key: 'batch.err.min', params: { min: 0 } });
    expect(form('physics-bake', { ...model, warmup: '2.5' }).errors.warmup?.key).toBe('batch.err.integer');
    expect(form('physics-bake', { ...model, resimulate: true, 'no-resimulate': true }).errors).toEqual({ 'no-resimulate': { key: 'batch.err.notWith', other: 'resimulate' } });
  });

  it('shift: no-hold only counts with clip', () => {
    expect(form('shift', { by: -30, 'no-hold': false }).options).toEqual({ by: -30 });
    expect(form('shift', { by: -30, clip: true, 'no-hold': false }).options).toEqual({ by: -30, clip: true, 'no-hold': true });
  });

  it('preset: curve presets and custom numbers, channel subsets, camera channels only with camera', () => {
    expect(form('preset', {}).errors.curve?.key).toBe('batch.err.required');
    expect(form('preset', { curve: 'ease-in' })).toEqual({ options: { curve: 'ease-in' }, errors: {} });
    expect(form('preset', { curve: 'custom', 'curve.custom': ' 20, 0 ,107,127' }).options.curve).toBe('20,0,107,127');
    expect(form('preset', { curve: 'custom', 'curve.custom': '200,0,0,0' }).errors.curve?.key).toBe('batch.err.curve');
    expect(form('preset', { curve: 'custom', 'curve.custom': 'linear' }).errors.curve?.key).toBe('batch.err.curve');
    expect(form('preset', { curve: 'linear', channels: ['r', 'x'] }).options.channels).toBe('x,r');
    expect(form('preset', { curve: 'linear', channels: [] }).errors.channels?.key).toBe('batch.err.channels');
    expect(form('preset', { curve: 'linear', 'camera-channels': ['d'] }).options).toEqual({ curve: 'linear' });
    expect(form('preset', { curve: 'linear', camera: true, 'camera-channels': ['d', 'v'] }).options).toEqual({
      curve: 'linear',
      camera: true,
      'camera-channels': 'd,v',
    });
    expect(form('preset', { curve: 'linear', camera: true, 'camera-channels': [] }).errors['camera-channels']?.key).toBe('batch.err.channels');
  });

  it('mirror and rename', () => {
    expect(form('mirror', {})).toEqual({ options: {}, errors: {} });
    expect(form('mirror', { 'no-light': false }).options).toEqual({ 'no-light': true });
    expect(form('rename', { map: '  ' }).errors.map?.key).toBe('batch.err.required');
    expect(form('rename', { map: '/m/map.csv', morphs: true }).options).toEqual({ map: '/m/map.csv', morphs: true });
  });

  it('every form the validation passes is accepted by prepareOp, and rejected values are rejected there too', () => {
    const good: [BatchOp, OpFormValues][] = [
      ['mirror', { 'no-light': false }],
      ['trim', { from: 0, to: 0, 'no-hold': false }],
      ['speed', { factor: 0.25 }],
      ['shift', { by: -5, clip: true }],
      ['preset', { curve: 'custom', 'curve.custom': '0,0,127,127', bones: '左*', channels: ['y'], camera: true, 'camera-channels': ['v'], from: 1.5, to: 9 }],
      ['preset', { curve: 'mmd-default' }],
      ['pose', { frame: 12.5 }],
      ['convert', { frame: '', 'skip-long-names': true }],
      ['inspect', {}],
    ];
    for (const [op, v] of good) {
      const r = form(op, v);
      expect(r.errors, op).toEqual({});
      expect(prepareOp(op, r.options).ok, op).toBe(true);
    }
    const bad: [BatchOp, BatchJob['options']][] = [
      ['trim', { from: -1 }],
      ['trim', { from: 40, to: 10 }],
      ['speed', { factor: 0 }],
      ['shift', { by: 1.5 }],
      ['preset', { curve: '200,0,0,0' }],
    ];
    for (const [op, o] of bad) expect(prepareOp(op, o), `${op} ${JSON.stringify(o)}`).toMatchObject({ ok: false, error: { code: 'E_ARGUMENT' } });
    expect(Object.keys(form('trim', { from: -1 }).errors)).toEqual(['from']);
    expect(Object.keys(form('trim', { from: 40, to: 10 }).errors)).toEqual(['to']);
    expect(Object.keys(form('speed', { factor: 0 }).errors)).toEqual(['factor']);
    expect(Object.keys(form('shift', { by: 1.5 }).errors)).toEqual(['by']);
    expect(Object.keys(form('preset', { curve: 'custom', 'curve.custom': '200,0,0,0' }).errors)).toEqual(['curve']);
  });

  it('progress figures: MB/s and time left from bytes and elapsed time', () => {
    expect(progressFigures({ bytesDone: 0, bytesTotal: 100, elapsedMs: 10 })).toEqual({ mbPerSecond: null, etaSeconds: null });
    // 2 MiB in 1 s with 6 MiB to go: 2 MB/s, 3 s left.
    const f = progressFigures({ bytesDone: 2 * 1048576, bytesTotal: 8 * 1048576, elapsedMs: 1000 });
    expect(f.mbPerSecond).toBeCloseTo(2, 10);
    expect(f.etaSeconds).toBeCloseTo(3, 10);
    expect(formatEta(42.4)).toBe('42 s');
    expect(formatEta(185)).toBe('3 min 05 s');
    expect(formatEta(3720)).toBe('1 h 02 min');
    // Japanese: the units in Japanese too (it said "残り約 18 s").
    expect(formatEta(18, 'ja')).toBe('18 秒');
    expect(formatEta(185, 'ja')).toBe('3 分 05 秒');
    expect(formatEta(3720, 'ja')).toBe('1 時間 02 分');
  });
});

/** A bridge that answers what the dialog and stores ask and records startBatch's job. */
const fakeApi = fakeBatchApi;

describe('BatchDialog form', () => {
  let fake: ReturnType<typeof fakeApi>;
  beforeEach(() => {
    setActivePinia(createPinia());
    fake = fakeApi();
    setApi(fake.api);
  });

  async function openDialog(op: BatchOp) {
    const batch = useBatchStore();
    batch.open = true;
    batch.op = op;
    const w = mount(BatchDialog);
    await nextTick();
    return { w, batch };
  }
  const startDisabled = (w: ReturnType<typeof mount>) => (w.get('[data-testid="batch-start"]').element as HTMLButtonElement).disabled;

  it('shows trim problems inline, keeps Start disabled until valid, then starts with the form options', async () => {
    const { w, batch } = await openDialog('trim');
    expect(w.find('[data-testid="batch-opt-from"]').attributes('type')).toBe('number');
    expect(w.find('[data-testid="batch-opt-no-hold"]').attributes('type')).toBe('checkbox');
    expect(startDisabled(w)).toBe(true);
    expect(w.get('[data-testid="batch-hint"]').text()).toBe('Choose the input and output folders');
    await w.get('[data-testid="batch-input"]').setValue('/in');
    await w.get('[data-testid="batch-output"]').setValue('/out');
    // From is still empty: Start stays off and the hint says why.
    expect(startDisabled(w)).toBe(true);
    expect(w.get('[data-testid="batch-hint"]').text()).toBe('Fix the highlighted options to start');

    await w.get('[data-testid="batch-opt-from"]').setValue('-3');
    expect(w.get('[data-testid="batch-error-from"]').text()).toBe('Must be at least 0');
    await w.get('[data-testid="batch-opt-from"]').setValue('40');
    await w.get('[data-testid="batch-opt-to"]').setValue('10');
    expect(w.find('[data-testid="batch-error-from"]').exists()).toBe(false);
    expect(w.get('[data-testid="batch-error-to"]').text()).toBe('Must not be before From frame');
    expect(startDisabled(w)).toBe(true);

    await w.get('[data-testid="batch-opt-from"]').setValue('10');
    await w.get('[data-testid="batch-opt-to"]').setValue('40');
    await w.get('[data-testid="batch-opt-no-hold"]').setValue(false);
    expect(w.find('[data-testid="batch-error-to"]').exists()).toBe(false);
    expect(startDisabled(w)).toBe(false);
    await w.get('[data-testid="batch-start"]').trigger('click');
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.jobs).toEqual([
      { op: 'trim', inputDir: '/in', outputDir: '/out', options: { from: 10, to: 40, 'no-hold': true }, recursive: true, overwrite: false, dryRun: false },
    ]);
    expect(batch.jobId).toBe('job-1');
  });

  it('physics-bake shows the warm-up and both resimulate boxes; ticking one unticks the other', async () => {
    const { w, batch } = await openDialog('physics-bake');
    expect(w.find('[data-testid="batch-opt-warmup"]').attributes('type')).toBe('number');
    expect(w.find('[data-testid="batch-opt-warmup"]').attributes('placeholder')).toBe('empty = from frame 0');
    const on = w.get('[data-testid="batch-opt-resimulate"]'), off = w.get('[data-testid="batch-opt-no-resimulate"]');
    expect([(on.element as HTMLInputElement).checked, (off.element as HTMLInputElement).checked]).toEqual([false, false]);
    await on.setValue(true);
    await off.setValue(true);
    expect(batch.forms['physics-bake']).toMatchObject({ resimulate: false, 'no-resimulate': true });
    await on.setValue(true);
    expect(batch.forms['physics-bake']).toMatchObject({ resimulate: true, 'no-resimulate': false });
    w.unmount();
  });

  it('mirror on a folder takes a model (names in Latin letters pair by it); on the open motion, the actor\'s model is used and no field is shown', async () => {
    const { w, batch } = await openDialog('mirror');
    expect(w.find('[data-testid="batch-opt-model"]').exists()).toBe(true);
    expect(w.get('[data-testid="batch-hint-model"]').text()).toContain('pair by its bones and morphs');
    batch.target = 'document';
    await nextTick();
    expect(w.find('[data-testid="batch-opt-model"]').exists()).toBe(false);
    expect(w.find('[data-testid="batch-opt-no-light"]').exists()).toBe(true);
    w.unmount();
  });

  it('the dialog\'s accessible name is its title as shown: Batch on a folder, "Edit the whole motion: …" on the open motion', async () => {
    const { w, batch } = await openDialog('mirror');
    /** The name a screen reader gives the dialog: the text of what aria-labelledby points at, else aria-label. */
    const accessibleName = () => {
      const d = w.get('[role="dialog"]').element;
      const by = d.getAttribute('aria-labelledby');
      return by ? by.split(/\s+/).map((id) => d.querySelector(`#${id}`)?.textContent?.trim() ?? '').join(' ') : d.getAttribute('aria-label');
    };
    expect(accessibleName()).toBe('Batch');
    useSceneStore().openBytes('dance.vmd', writeVmd(buildVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] })), null);
    batch.target = 'document';
    await nextTick();
    expect(accessibleName()).toBe('Edit the whole motion: dance.vmd');
    await useSettingsStore().update({ locale: 'ja' });
    await nextTick();
    expect(accessibleName()).toBe('モーション全体の編集: dance.vmd');
    w.unmount();
  });

  it('a file field says under it what the file is and what empty means, whole; its placeholder is the file\'s extensions', async () => {
    const { w } = await openDialog('import-vrma');
    const hint = w.get('[data-testid="batch-hint-map"]');
    // The VRMA's humanoid bones need no map: the file names them; only the expression table takes rows.
    expect(hint.text()).toBe('JSON: "morphs" (expression → morph, "-" leaves one out) over the built-in table');
    expect(hint.isVisible()).toBe(true);
    // The extensions only: "MAP.csv|.json" was the command line's English form, shown in the Japanese form too.
    expect(w.get('[data-testid="batch-opt-map"]').attributes('placeholder')).toBe('.csv / .json');
    expect(w.get('[data-testid="batch-hint-model"]').text()).toBe('.pmx/.pmd; empty: the standard MMD bones');
    // Number fields keep their default as the placeholder.
    expect(w.get('[data-testid="batch-opt-pos-tol"]').attributes('placeholder')).toBe('0.02'); // a capture's default
    await useSettingsStore().update({ locale: 'ja' });
    await nextTick();
    expect(w.get('[data-testid="batch-hint-model"]').text()).toBe('.pmx/.pmd。空欄: MMD 標準ボーン');
  });

  it('preset: curve select with custom numbers, channel checkboxes, camera channels gated by the camera flag; Japanese labels', async () => {
    const { w, batch } = await openDialog('preset');
    batch.inputDir = '/in';
    batch.outputDir = '/out';
    await nextTick();
    const options = w.findAll('[data-testid="batch-opt-curve"] option').map((o) => o.attributes('value'));
    expect(options).toEqual(['', 'linear', 'ease-in', 'ease-out', 'ease-in-out', 'mmd-default', 'custom']);
    await w.get('[data-testid="batch-opt-curve"]').setValue('custom');
    await w.get('[data-testid="batch-opt-curve-custom"]').setValue('20,0,300,127');
    expect(w.get('[data-testid="batch-error-curve"]').text()).toContain('0–127');
    expect(startDisabled(w)).toBe(true);
    await w.get('[data-testid="batch-opt-curve-custom"]').setValue('20,0,107,127');
    expect(startDisabled(w)).toBe(false);

    expect(w.findAll('[data-testid="batch-opt-channels"] input').length).toBe(4);
    const camD = w.get('[data-testid="batch-opt-camera-channels-d"]');
    expect((camD.element as HTMLInputElement).disabled).toBe(true);
    await w.get('[data-testid="batch-opt-camera"]').setValue(true);
    expect((camD.element as HTMLInputElement).disabled).toBe(false);
    for (const c of ['x', 'y', 'z', 'r', 'v']) await w.get(`[data-testid="batch-opt-camera-channels-${c}"]`).setValue(false);
    await w.get('[data-testid="batch-opt-channels-z"]').setValue(false);
    expect(batch.check).toEqual({ options: { curve: '20,0,107,127', channels: 'x,y,r', camera: true, 'camera-channels': 'd' }, errors: {} });
    await camD.setValue(false);
    expect(w.get('[data-testid="batch-error-camera-channels"]').text()).toBe('Choose at least one channel');

    await useSettingsStore().update({ locale: 'ja' });
    await nextTick();
    expect(w.get('[data-testid="batch-error-camera-channels"]').text()).toBe('チャンネルを1つ以上選んでください');
    expect(w.text()).toContain('補間曲線');
    expect(w.text()).toContain('視野角');
  });

  it('while running: files done/total, MB/s, time left, current file and a Cancel button that cancels the job', async () => {
    const { w, batch } = await openDialog('mirror');
    batch.jobId = 'job-9';
    // Until the engine has counted the files (a model to read first, a big tree): no "0 / 0 files".
    await nextTick();
    expect(w.get('[data-testid="batch-count"]').text()).toBe('Finding files…');
    batch.progress = { jobId: 'job-9', done: 3, total: 12, failed: 0, currentFile: '/in/sub/dance.vmd', bytesDone: 3 * 1048576, bytesTotal: 12 * 1048576, elapsedMs: 2000 };
    await nextTick();
    expect(w.get('[data-testid="batch-count"]').text()).toBe('3 / 12 files');
    expect(w.get('[data-testid="batch-rate"]').text()).toBe('1.5 MB/s');
    expect(w.get('[data-testid="batch-eta"]').text()).toBe('about 6 s left');
    expect(w.get('[data-testid="batch-current"]').text()).toBe('Now: dance.vmd');
    expect((w.get('progress').element as HTMLProgressElement).value).toBeCloseTo(0.25, 5);
    expect(startDisabled(w)).toBe(true);
    const calls: unknown[] = [];
    setApi({ ...fake.api, cancelBatch: async (id: string) => (calls.push(id), okValue(undefined)) } as unknown as VmdStudioApi);
    await w.get('[data-testid="batch-cancel"]').trigger('click');
    expect(calls).toEqual(['job-9']);
  });

  it('after a run: one list of the files, each once by its path under the input folder, failures first', async () => {
    const { w, batch } = await openDialog('mirror');
    batch.inputDir = '/in';
    batch.jobId = 'j';
    batch.summary = {
      jobId: 'j',
      total: 3,
      ok: 2,
      failed: 1,
      skipped: 0,
      cancelled: false,
      ms: 5,
      results: [
        { input: '/in/a.vmd', output: '/out/a.vmd', ok: true, value: {}, ms: 1 },
        { input: '/in/sub/bad.vmd', output: null, ok: false, error: { code: 'E_VMD_TRUNCATED', message: 'bone block ends early', file: '/in/sub/bad.vmd' }, ms: 1 },
        { input: '/in/b.vmd', output: '/out/b.vmd', ok: true, value: {}, ms: 1 },
      ],
    };
    await nextTick();
    // Each file once: no second "Failed files" table under the list.
    const rows = w.findAll('[data-testid="batch-result"]');
    expect(rows.map((r) => r.get('[data-testid="batch-result-file"]').text())).toEqual(['sub/bad.vmd', 'a.vmd', 'b.vmd']);
    expect(w.text().match(/bad\.vmd/g)).toHaveLength(1);
    expect(rows[0].attributes('data-code')).toBe('E_VMD_TRUNCATED');
    // A damaged file's line leads with a plain sentence; the code and the reader's own line are the tooltip.
    expect(rows[0].get('[data-testid="batch-result-error"]').text()).toBe('The file is cut short or damaged: it ends too early');
    expect(rows[0].attributes('title')).toContain('E_VMD_TRUNCATED: bone block ends early');
    expect(w.get('[data-testid="batch-summary"]').text()).toBe('Done: 2 ok, 1 failed, 0 skipped');
  });

  it('a run without “Include sub-folders” says how many files of sub-folders it left out (en, ja); none left out, nothing said', async () => {
    const { w, batch } = await openDialog('mirror');
    batch.recursive = false;
    batch.jobId = 'j';
    batch.summary = { jobId: 'j', total: 1, ok: 1, failed: 0, skipped: 0, cancelled: false, ms: 5, results: [{ input: '/in/a.vmd', output: '/out/a.vmd', ok: true, value: {}, ms: 1 }], inSubfolders: 4 };
    await nextTick();
    const line = () => w.find('[data-testid="batch-in-subfolders"]');
    expect(line().text()).toBe('4 files in sub-folders were not included: turn on “Include sub-folders” to take them');
    useSettingsStore().setLocale('ja');
    await nextTick();
    expect(line().text()).toBe('サブフォルダ内のファイル 4 件は含まれていません。含めるには「サブフォルダも含める」をオンにしてください');
    useSettingsStore().setLocale('en');
    batch.summary = { ...batch.summary, inSubfolders: undefined };
    await nextTick();
    expect(line().exists()).toBe(false);
  });
});

describe('FileSummary badge', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setApi(fakeApi().api);
  });

  it('says Pose (ポーズ) for a VPD and Motion for a VMD', async () => {
    const doc = useWorkspaceStore();
    const vpd = writeVpd({ model: 'm.osm', bones: [{ name: 'センター', position: [0, 1, 0], rotation: [0, 0, 0, 1] }], morphs: [] });
    expect(useSceneStore().openBytes('p.vpd', vpd)).toBe(true);
    const w = mount(FileSummary);
    await nextTick();
    expect(w.get('[data-testid="summary-kind"]').text()).toBe('Pose');
    expect(w.get('[data-testid="summary-kind"]').attributes('data-kind')).toBe('pose');
    await useSettingsStore().update({ locale: 'ja' });
    await nextTick();
    expect(w.get('[data-testid="summary-kind"]').text()).toBe('ポーズ');
    expect(useSceneStore().openBytes('stand.vmd', new Uint8Array(readFileSync(path.join(CORPUS, 'gene/motion/stand.vmd'))))).toBe(true);
    await nextTick();
    expect(w.get('[data-testid="summary-kind"]').text()).toBe('モーション');
  });
});

describe('option errors in the app', () => {
  it('are phrased by the form label and the problem in each language, not with the CLI dashes', async () => {
    const { optionErrorText } = await import('../../renderer/src/stores/batch');
    const { renderText, describeError } = await import('../../renderer/src/stores/notify');
    const p = prepareOp('trim', { from: 40, to: 10 });
    if (p.ok) throw new Error('accepted');
    const text = optionErrorText('trim', p.error);
    expect(renderText(text, 'en')).toBe('To frame: must not be before From frame (40)');
    expect(renderText(text, 'ja')).toBe('終了フレーム：開始フレーム（40）より前にはできません');
    const shown = describeError({ ...p.error, message: text }, 'ja');
    expect(shown.message).toBe('終了フレーム：開始フレーム（40）より前にはできません');
    expect(shown.detail).toBe('E_ARGUMENT');
    // The CLI keeps its own wording on the value.
    expect(p.error.message).toBe('--to (10) must not be before --from (40)');
  });
  it('phrase what a parser refused in an option (curve, channels, name map) in the app\'s words', async () => {
    const { optionErrorText } = await import('../../renderer/src/stores/batch');
    const { renderText } = await import('../../renderer/src/stores/notify');
    const curve = prepareOp('preset', { curve: '0,0,300,1' });
    if (curve.ok) throw new Error('accepted');
    expect(renderText(optionErrorText('preset', curve.error), 'en')).toBe('Curve: the four numbers must be 0 to 127, not “0,0,300,1”');
    expect(renderText(optionErrorText('preset', curve.error), 'ja')).toBe('補間曲線：4 つの数は 0〜127 にしてください（「0,0,300,1」）');
    const ch = prepareOp('preset', { curve: 'linear', channels: 'q' });
    if (ch.ok) throw new Error('accepted');
    expect(renderText(optionErrorText('preset', ch.error), 'en')).toBe('Bone channels: there is no channel “q” (channels: x, y, z, r)');
    const map = prepareOp('rename', { map: 'm.csv', mapText: 'a,b\nc\n' });
    if (map.ok) throw new Error('accepted');
    expect(renderText(optionErrorText('rename', map.error), 'en')).toBe('Mapping file: line 2 of the name map must have two columns, old and new');
    expect(renderText(optionErrorText('rename', map.error), 'ja')).toBe('対応表ファイル：名前の対応表の 2 行目は old と new の 2 列にしてください');
    expect(map.error.message).toBe('mapping line 2: expected two columns old,new, got 1 column');
  });
});
