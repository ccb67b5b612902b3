/**
 * How to start a motion of one's own (new-user pass nuscratch, finding 3: with Gene loaded the File panel still said
 * "No file open. Open a .vmd or .vpd file…", nothing pointed to New, and Getting started covered only a dance opened).
 * With a model shown and no motion, the File panel offers New motion (Ctrl+N) and says in one line how to key a pose;
 * without a model it says what it said. Getting started has a "Make your own motion" list. en and ja, the words
 * written out here.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { nextTick } from 'vue';
import { setQuietApi } from '../../helpers/quiet-api';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { shellUi } from '../../../renderer/src/shell/commands';
import FileSummary from '../../../renderer/src/components/FileSummary.vue';
import GettingStartedDialog from '../../../renderer/src/shell/GettingStartedDialog.vue';

const GENE = { name: 'ジェネ / Gene', path: '/m/gene/Gene_light.pmx', format: 'pmx' as const, bones: 224, morphs: 184, vertices: 28646, rigidBodies: 0, notes: [] };

describe('starting a motion of your own', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setQuietApi();
  });

  it('the File panel with a model and no motion: New motion (Ctrl+N), which starts one, and how to key a pose', async () => {
    usePreviewStore().setModel(GENE);
    const w = mount(FileSummary);
    await nextTick();
    const p = w.get('[data-testid="summary-none-model"]');
    expect(p.text()).toMatch(/^No motion open for ジェネ \/ Gene: start a new one, or open a motion \(\.vmd\) to edit its keys and curves\./);
    expect(p.text()).toContain('To key a pose: pick a bone (Bones tab or its joint), turn it or type its values, Enter registers the key; then the next frame.');
    expect(w.get('[data-testid="summary-new-motion"]').text()).toBe('New motion (Ctrl+N)');
    await w.get('[data-testid="summary-new-motion"]').trigger('click');
    await new Promise((r) => setTimeout(r, 0));
    expect(useWorkspaceStore().isOpen).toBe(true);
    expect(useWorkspaceStore().fileName).toBe('New motion.vmd');
    w.unmount();
  });

  it('ja, and without a model the text it had', async () => {
    useSettingsStore().settings.locale = 'ja';
    const w = mount(FileSummary);
    await nextTick();
    expect(w.find('[data-testid="summary-new-motion"]').exists()).toBe(false);
    expect(w.text()).toContain('ファイルが開かれていません。');
    usePreviewStore().setModel(GENE);
    await nextTick();
    expect(w.get('[data-testid="summary-none-model"]').text()).toMatch(/^ジェネ \/ Gene のモーションは開かれていません。/);
    expect(w.get('[data-testid="summary-new-motion"]').text()).toBe('新規モーション (Ctrl+N)');
    w.unmount();
  });

  it('Getting started: a "Make your own motion" list — New, pick a bone, turn it or type, Enter, the next frame, save', async () => {
    shellUi.startOpen = true;
    const w = mount(GettingStartedDialog, { attachTo: document.body });
    await nextTick();
    const items = [...document.querySelectorAll('[data-testid="getting-started-own"] li')].map((e) => e.textContent ?? '');
    expect(items).toHaveLength(6);
    expect(items[0]).toMatch(/^Load your model \(Model…\), then New \(Ctrl\+N\)/);
    expect(items[1]).toMatch(/^Pick a bone: /);
    expect(items[3]).toMatch(/^Enter \(Register\) keys the bone’s pose at the frame/);
    expect(items[4]).toMatch(/^Go to the next frame/);
    expect(document.body.textContent).toContain('Make your own motion');
    w.unmount();
    shellUi.startOpen = false;
  });
});
