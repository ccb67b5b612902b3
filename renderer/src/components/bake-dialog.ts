/**
 * What the Bake physics… and Bake IK to FK… dialogs (PhysicsBakeDialog.vue, IkBakeDialog.vue) do alike around their
 * stores' jobs (stores/bake-job.ts): a waiting result dropped when the motion changes under it (an undo, another
 * document); the focus after a run (the fieldset is disabled while the bake runs, which takes the focus from the
 * field Enter was pressed in: it falls to <body>, where the dialog's Enter no longer reaches onKey; the result gives
 * it to Apply, so the second Enter applies as the hint says; a failed or cancelled bake gives it back to where it
 * was); Enter bakes, then applies; Esc and the backdrop cancel a running bake (the dialog stays), else close it.
 */
import { nextTick, ref, watch, type Ref } from 'vue';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { useHistoryStore } from '../stores/history';

/** The part of a bake store the dialog drives. */
export interface BakeDialogStore {
  readonly open: boolean;
  readonly running: { done: number; total: number } | null;
  readonly result: { input: VmdDocument } | null;
  drop(): void;
  bake(): Promise<boolean>;
  apply(): boolean;
  cancel(): void;
  close(): void;
}

/**
 * The dialog's behaviour; `canBake` says whether Bake may run, `enterOnControls` whether Enter on a checkbox or a
 * button bakes too (false: it does what it does there).
 */
export function useBakeDialog(bake: BakeDialogStore, canBake: Ref<boolean>, enterOnControls: boolean) {
  const hist = useHistoryStore();
  watch(() => hist.current()?.doc, (d) => {
    if (bake.result && d !== bake.result.input) bake.drop();
  });

  /** The dialog's BakeJobButtons, which focus Apply. */
  const buttons = ref<{ focusApply(): void } | null>(null);
  let focusedBefore: HTMLElement | null = null;
  watch(() => !!bake.running, (run, was) => {
    if (run) {
      focusedBefore = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      return;
    }
    if (!was) return;
    void nextTick(() => {
      if (!bake.open) return;
      if (bake.result) buttons.value?.focusApply();
      else if (!document.activeElement || document.activeElement === document.body) focusedBefore?.focus();
      focusedBefore = null;
    });
  });

  function onKey(e: KeyboardEvent) {
    if (e.key !== 'Enter' || e.defaultPrevented) return;
    if (!enterOnControls && (e.target instanceof HTMLButtonElement || (e.target instanceof HTMLInputElement && e.target.type === 'checkbox'))) return;
    e.preventDefault();
    if (bake.result) bake.apply();
    else if (canBake.value) void bake.bake();
  }

  function escape() {
    if (bake.running) bake.cancel();
    else bake.close();
  }

  return { buttons, onKey, escape };
}

/** A figure as the dialogs show it: two significant digits, 0 as 0. */
export const bakeFigure = (x: number) => (x === 0 ? '0' : x.toPrecision(2));
