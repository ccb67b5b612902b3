/**
 * Where Save As of a never-saved motion starts (new-user pass nuscratch, finding 4: Model… → …/gene/Gene_light.pmx,
 * New, Save As… started in /root). A document with no path has no folder: the dialog starts in the last folder used
 * (settings.lastDirectory), and a caller's '' is no folder either (it was passed on as the folder to start in). That
 * Model… sets the last folder is checked end to end (e2e scratch-motion).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { fileDialogState, pickPath } from '../../../renderer/src/shell/file-dialog';
import { saveAsWithDialog } from '../../../renderer/src/shell/commands';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { setQuietApi } from '../../helpers/quiet-api';

setQuietApi();

describe('the folder a save dialog starts in', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    useSettingsStore().settings.lastDirectory = '/work/models/gene';
  });

  it("'' as the folder: the last folder used", () => {
    void pickPath({ mode: 'save', title: 'Save', filter: 'motion', directory: '', fileName: 'a.vmd' });
    expect(fileDialogState.request?.directory).toBe('/work/models/gene');
    fileDialogState.resolve?.(null);
  });

  it('Save As of a new motion: the last folder used, its name proposed', async () => {
    useSceneStore().newMotion('New motion.vmd', 'Gene');
    const done = saveAsWithDialog();
    for (let i = 0; i < 10 && !fileDialogState.request; i++) await Promise.resolve();
    expect(fileDialogState.request?.directory).toBe('/work/models/gene');
    expect(fileDialogState.request?.fileName).toBe('New motion.vmd');
    fileDialogState.resolve?.(null);
    expect(await done).toBe(false);
  });
});
