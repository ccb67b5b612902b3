/**
 * The in-app question with a few answers (ConfirmDialog.vue shows it): closing the window asks it once, listing
 * the unsaved documents (Save All / Don't Save / Choose for Each… / Cancel; one alone: Save / Don't Save / Cancel), opening a lone file over a scene with unsaved documents
 * asks before dropping them. One question at a time: a newer one answers the older with Cancel.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { NoticeText } from './notify';
import type { UiStringKey } from '../../../shared/i18n/strings';

/**
 * 'apply', 'add', 'load', 'camera', 'show', 'copy': what a pose or motion opened over a scene does to it
 * (shell/pose-apply.ts; 'show', 'copy' and 'reload' for a motion whose file is open already); 'overwrite', 'saveAs',
 * 'makeFolder': a refused save (stores/save-refusal.ts); 'salvage': the keys a damaged VMD still holds (stores/salvage.ts);
 * 'each': the close question asked per document instead (shell/commands.ts askEachBeforeClose); 'recover': the recovery
 * question at start (shell/recovery.ts).
 */
export type ConfirmChoice = 'save' | 'discard' | 'cancel' | 'apply' | 'add' | 'load' | 'camera' | 'show' | 'copy' | 'reload' | 'overwrite' | 'saveAs' | 'makeFolder' | 'salvage' | 'each' | 'stop' | 'recover';

export interface ConfirmRequest {
  title: NoticeText;
  message: NoticeText;
  /** Lines listed under the message (the close question's unsaved documents, each with what it holds unsaved). */
  items?: readonly NoticeText[];
  /** In order; the first is the default (Enter). Escape and the backdrop answer 'cancel'. */
  buttons: readonly { choice: ConfirmChoice; label: UiStringKey; params?: Readonly<Record<string, string | number>> }[];
}

export const useConfirmStore = defineStore('confirm', () => {
  const current = shallowRef<(ConfirmRequest & { resolve: (c: ConfirmChoice) => void }) | null>(null);

  /** Shows the question; resolves with the answer. */
  function ask(req: ConfirmRequest): Promise<ConfirmChoice> {
    answer('cancel');
    return new Promise((resolve) => {
      current.value = { ...req, resolve };
    });
  }

  /** Answers the open question (nothing when none is open). */
  function answer(choice: ConfirmChoice) {
    const c = current.value;
    if (!c) return;
    current.value = null;
    c.resolve(choice);
  }

  return { current, ask, answer };
});
