// The two bake dialogs' shared behaviour (components/bake-dialog.ts, BakeDialogHead.vue, BakeJobStatus.vue, BakeJobButtons.vue), as
// each dialog had it before they shared it: the progress row and Cancel while a bake runs; the focus given back to the
// field after a cancelled run and to Apply after a result; Enter applies (on the IK dialog's checkboxes it only
// ticks); Apply and Close reach the store; the dialog closes.
import { describe, expect, it, vi } from 'vitest';
import { nextTick, markRaw } from 'vue';
import { mount } from '@vue/test-utils';
import IkBakeDialog from '../../../renderer/src/components/IkBakeDialog.vue';
import PhysicsBakeDialog from '../../../renderer/src/components/PhysicsBakeDialog.vue';
import { useIkBakeStore } from '../../../renderer/src/stores/ik-bake';
import { useBakeStore } from '../../../renderer/src/stores/physics-bake';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { memoryScene, dance } from '../stores/scene-fixtures';

const settle = async () => { for (let i = 0; i < 5; i++) await nextTick(); };
const q = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const CHAINS = [{ ik: '左足ＩＫ', links: ['左ひざ', '左足'] }];

for (const kind of ['ik', 'physics'] as const) {
  describe(`the ${kind} bake dialog's job rows and keys`, () => {
    it('progress and Cancel while running; focus back to the field, then to Apply; Enter and Apply apply; Close closes', async () => {
      memoryScene([['/s/a.vmd', dance(10)]]);
      document.body.innerHTML = '';
      const p = usePreviewStore();
      p.setModel({ name: 'Miku', path: '/m/miku.pmd', format: 'pmd', bones: 0, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
      p.setOutline({ groups: [], morphs: [], physicsBones: [], ikBones: CHAINS.map((c) => c.ik), ikChains: CHAINS });
      await useSceneStore().openPath('/s/a.vmd');
      const bake = (kind === 'ik' ? useIkBakeStore() : useBakeStore()) as unknown as Record<string, unknown> & { show(): void; apply(): boolean; close(): void };
      const P = kind === 'ik' ? 'ik-bake' : 'bake';
      bake.show();
      const w = mount(kind === 'ik' ? IkBakeDialog : PhysicsBakeDialog, { attachTo: document.body });
      await settle();
      // The head (BakeDialogHead.vue): the model's file name, its path on hover, the motion; no "no model" line.
      expect(q(`${P}-model`)?.textContent).toBe('miku.pmd');
      expect(q(`${P}-model`)?.title).toBe('/m/miku.pmd');
      expect(q(`${P}-model`)?.parentElement?.textContent).toContain('a.vmd');
      expect(q(`${P}-no-model`)).toBeNull();
      const from = q(`${P}-from`) as HTMLInputElement;
      from.focus();
      bake.running = { done: 3, total: 10 };
      await settle();
      expect(q(`${P}-progress`)?.dataset.done).toBe('3');
      expect(q(`${P}-progress`)?.querySelector('progress')).toBeTruthy();
      expect(q(`${P}-cancel`)).toBeTruthy();
      expect(q(`${P}-close`)).toBeNull();
      expect((q(`${P}-apply`) as HTMLButtonElement).disabled).toBe(true);
      from.blur();
      bake.running = null;
      bake.cancelled = true;
      await settle();
      expect(document.activeElement).toBe(from);
      expect(q(`${P}-cancelled`)?.textContent).toMatch(/cancel/i);
      bake.cancelled = false;
      from.blur();
      bake.running = { done: 0, total: 0 };
      await settle();
      expect(q(`${P}-progress`)?.textContent).toContain('Starting');
      const cur = useHistoryStore().current()!;
      bake.result = markRaw({ input: cur.doc, output: cur.doc, report: { from: 0, to: 1, ikOff: [], bones: [], namesTooLong: [], ikNamesTooLong: [], rawKeys: 1, keptKeys: 1, replacedKeys: 0, edgeKeys: 0, maxPositionError: 0, maxRotationErrorDeg: 0, worst: null, physicsOffKeys: 0, resimulated: false, resimulatedAuto: false, maxPositionErrorSeen: 0, maxRotationErrorDegSeen: 0, worstSeen: null, simulatedFrom: 0, settleFrames: 0 }, seen: [], modelPath: '/m/miku.pmd', via: 'main' });
      bake.running = null;
      await settle();
      expect(document.activeElement).toBe(q(`${P}-apply`));
      const apply = vi.spyOn(bake, 'apply').mockImplementation(() => true);
      const raw = q(`${P}-raw`) as HTMLInputElement;
      raw.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      expect(apply).toHaveBeenCalledTimes(kind === 'ik' ? 0 : 1);
      from.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      expect(apply).toHaveBeenCalledTimes(kind === 'ik' ? 1 : 2);
      q(`${P}-apply`)!.click();
      expect(apply).toHaveBeenCalledTimes(kind === 'ik' ? 2 : 3);
      apply.mockRestore();
      const close = vi.spyOn(bake, 'close');
      q(`${P}-close`)!.click();
      expect(close).toHaveBeenCalledTimes(1);
      close.mockRestore();
      bake.close();
      await settle();
      expect(q(`${P}-dialog`)).toBeNull();
      w.unmount();
    });
  });
}
