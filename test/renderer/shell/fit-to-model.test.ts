// "Fit to model…" for any motion on a model, and where the fitted motion is saved (a new user's pass).
// The panel was reachable only when the motion's header named another model than the actor's, so after Load
// onto an actor (the header rewritten), with a blank header, two models of one name, or after an Apply, it
// was not; now Whole Motion → Fit to model… opens it whatever the header says, and the header only decides
// whether it is suggested. And Save after an Apply wrote the fitted motion over the dance's file; now the
// first Save asks for a new file, STEM_<model>.vmd beside it, and later Saves go there; an Apply undone
// before saving leaves Save as it was.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { corpusPath, corpusPresent, repoRoot } from '../../helpers/corpus';
import { t } from '../../../shared/i18n/strings';
import { decodeName, writeVmd } from '../../../shared/vmd';
import { fittedFileName } from '../../../renderer/src/paths';
import { retargetOffer, retargetTarget } from '../../../renderer/src/shell/app-actions';
import { runCommand, saveCommand } from '../../../renderer/src/shell/commands';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { useRetargetStore } from '../../../renderer/src/stores/retarget';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { dance, memoryScene } from '../stores/scene-fixtures';

const MODEL = '/m/miku.pmd';
const MIKU_NAME = 'ローポリ初音さん';

/** A scene: one actor on MODEL dancing /s/dance.vmd (its header names `header`), the preview showing MODEL. */
async function actorOnModel(header: string) {
  const sceneJson = JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: MODEL, motion: 'dance.vmd' }], activeActor: 0 });
  const mem = memoryScene([
    ['/s/dance.vmd', dance(10, header)],
    ['/s/one.vmdscene', new TextEncoder().encode(sceneJson)],
    [MODEL, new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/model/low_miku/miku.pmd')))],
  ]);
  expect(await useSceneStore().openPath('/s/one.vmdscene')).toBe(true);
  usePreviewStore().setModel({ name: MIKU_NAME, path: MODEL, format: 'pmd', bones: 0, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
  return mem;
}

/** Answers the in-app save dialog (browser mode) with `name` in the folder it proposes; returns what it proposed. */
async function answerSaveDialog(name?: string): Promise<{ directory: string; fileName: string; title: string }> {
  await vi_waitFor(() => !!fileDialogState.request);
  const req = fileDialogState.request!;
  expect(req, 'a save dialog').toBeTruthy();
  const asked = { directory: req.directory ?? '', fileName: req.fileName ?? '', title: req.title };
  fileDialogState.resolve!({ path: `${asked.directory}/${name ?? asked.fileName}`, overwrite: false });
  fileDialogState.request = null;
  fileDialogState.resolve = null;
  return asked;
}

/** Fits the shown actor's motion from the standard skeleton and applies it (the panel's store, opened as the suggestion opens it). */
async function fitWithStandardSkeleton() {
  const rt = useRetargetStore();
  expect(await rt.start(useSceneStore().shownActorId!, MODEL, MIKU_NAME)).toBe(true);
  await vi_waitFor(() => rt.state === 'choose');
  expect(await rt.chooseStandardSource()).toBe(true);
  expect(await rt.apply()).toBe(true);
}

/** Waits for a state (vitest's vi.waitFor, its limit far above what a loaded machine needs: no wall-clock verdict). */
async function vi_waitFor(ok: () => boolean) {
  await vi.waitFor(() => expect(ok()).toBe(true), { timeout: 30_000, interval: 5 });
}

describe.skipIf(!corpusPresent)('Fit to model… whatever the motion’s header names', () => {
  for (const [what, header] of [
    ['a blank header', ''],
    ['the actor’s own model (after Load onto it)', MIKU_NAME],
  ] as const) {
    it(`${what}: not suggested, but Whole Motion → Fit to model… opens the panel for the actor’s model`, async () => {
      await actorOnModel(header);
      expect(retargetOffer()).toBeNull();
      expect(retargetTarget()?.modelPath).toBe(MODEL);
      await runCommand('fitToModel');
      const rt = useRetargetStore();
      expect(rt.open).toBe(true);
      expect(rt.targetPath).toBe(MODEL);
      expect(rt.targetName).toBe(MIKU_NAME);
    });
  }

  it('another model named: suggested as before; after Apply (the header now names the model) the command still opens the panel', async () => {
    await actorOnModel('初音ミク');
    expect(retargetOffer()?.motionName).toBe('初音ミク');
    await fitWithStandardSkeleton();
    expect(decodeName(useWorkspaceStore().doc!.modelName)).toBe(MIKU_NAME);
    expect(retargetOffer()).toBeNull();
    await runCommand('fitToModel');
    expect(useRetargetStore().open).toBe(true);
  });

  it('Save after Apply asks for STEM_<model>.vmd beside the dance and keeps the dance’s file; later Saves go to the new file', async () => {
    const { files, original } = await actorOnModel('初音ミク');
    await fitWithStandardSkeleton();
    const fitted = writeVmd(useWorkspaceStore().doc!);
    const saving = saveCommand();
    const asked = await answerSaveDialog();
    expect(await saving).toBe(true);
    expect(asked).toMatchObject({ directory: '/s', fileName: `dance_${MIKU_NAME}.vmd` });
    expect(Buffer.from(files.get('/s/dance.vmd')!).equals(Buffer.from(original.get('/s/dance.vmd')!))).toBe(true);
    expect(Buffer.from(files.get(`/s/dance_${MIKU_NAME}.vmd`)!).equals(Buffer.from(fitted))).toBe(true);
    expect(useWorkspaceStore().path).toBe(`/s/dance_${MIKU_NAME}.vmd`);
    expect(new TextDecoder().decode(files.get('/s/one.vmdscene'))).toContain(`dance_${MIKU_NAME}.vmd`);
    // The scene now names the fitted file (Save All wrote it too), and a later edit saves there without asking.
    useHistoryStore().undo();
    expect(await saveCommand()).toBe(true);
    expect(fileDialogState.request).toBeNull();
    expect(Buffer.from(files.get('/s/dance.vmd')!).equals(Buffer.from(original.get('/s/dance.vmd')!))).toBe(true);
    expect(Buffer.from(files.get(`/s/dance_${MIKU_NAME}.vmd`)!).equals(Buffer.from(original.get('/s/dance.vmd')!))).toBe(true);
    // Redone: saved to the new file too, unasked.
    useHistoryStore().redo();
    expect(await saveCommand()).toBe(true);
    expect(fileDialogState.request).toBeNull();
    expect(Buffer.from(files.get(`/s/dance_${MIKU_NAME}.vmd`)!).equals(Buffer.from(fitted))).toBe(true);
    expect(Buffer.from(files.get('/s/dance.vmd')!).equals(Buffer.from(original.get('/s/dance.vmd')!))).toBe(true);
  });

  it('Apply undone before saving: Save writes the dance’s own file, without asking', async () => {
    const { files } = await actorOnModel('初音ミク');
    await fitWithStandardSkeleton();
    useHistoryStore().undo();
    // An edit after the undo, so there is something to save.
    const ws = useWorkspaceStore();
    const before = writeVmd(ws.doc!);
    ws.markUnsaved(ws.activeId!);
    expect(await saveCommand()).toBe(true);
    expect(fileDialogState.request).toBeNull();
    expect(Buffer.from(files.get('/s/dance.vmd')!).equals(Buffer.from(before))).toBe(true);
    expect([...files.keys()].filter((k) => k.includes(MIKU_NAME))).toEqual([]);
  });
});

describe('the fitted file’s name', () => {
  it('the model’s name made safe for a file name', () => {
    expect(fittedFileName('dance.vmd', 'Gene')).toBe('dance_Gene.vmd');
    expect(fittedFileName('wave.v2.vmd', 'A/B: "C"?')).toBe('wave.v2_A_B_C.vmd');
    // No spaces left in the name (vmd_sizing's names have none): Gene's model name.
    expect(fittedFileName('wavefile_v2.vmd', 'ジェネ / Gene')).toBe('wavefile_v2_ジェネ_Gene.vmd');
    expect(fittedFileName('x.vmd', 'Tda式 初音ミク')).toBe('x_Tda式_初音ミク.vmd');
    expect(fittedFileName('x.vmd', ' .Miku. ')).toBe('x_Miku.vmd');
    expect(fittedFileName('x.vmd', '///')).toBe('x_fitted.vmd');
  });
});

describe('the README’s In the app part', () => {
  it('names the app’s retarget flow in the UI’s own words: the command, the suggestion, the ghost, Apply and the new file', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const inApp = readme.slice(readme.indexOf('## In the app'), readme.indexOf('## The command line'));
    expect(inApp).toContain(`Whole Motion → **${t('retarget.command', 'en')}**`);
    expect(inApp).toContain(`**${t('retarget.offer', 'en')}**`);
    expect(inApp).toContain(`**${t('retarget.useStandard', 'en')}**`);
    expect(inApp).toMatch(/ghost/);
    expect(inApp).toContain('`dance_<model>.vmd`');
  });
});
