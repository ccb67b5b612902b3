/**
 * Enter in a panel's number field (the Key panel's, the curve pane's x1…y2) commits what was typed and
 * gives the keyboard back to the timeline, as MMD does: type a value, Enter, then step on with [ ], the
 * arrows or Enter to register. Escape puts the shown value back and leaves too. The field loses focus, so
 * the app's keys (keymap.ts runs no editor key while a text field has focus) reach the editor again.
 *
 * The commit is made here, once: the change event the blur itself fires is ignored (a typed +5 is added
 * once, not twice), and Enter on a field nobody changed commits nothing (a light colour shown as 154 is
 * not rewritten as 154 / 255). An IME's Enter that confirms a composition stays the IME's.
 */
export interface FieldLeave {
  onFocus(e: FocusEvent): void;
  onChange(e: Event): void;
  onKeydown(e: KeyboardEvent): void;
}

/** `left`: after Enter or Escape has taken the focus away (the curve pane gives the keys context back there). */
export function fieldLeave(commit: (el: HTMLInputElement) => void, restore: (el: HTMLInputElement) => string, left?: () => void): FieldLeave {
  let leaving = false;
  /** The text when the field took focus (or when it last committed). */
  let before: string | null = null;
  const run = (el: HTMLInputElement) => {
    before = el.value;
    commit(el);
  };
  return {
    onFocus(e) {
      before = (e.target as HTMLInputElement).value;
    },
    onChange(e) {
      if (!leaving) run(e.target as HTMLInputElement);
    },
    onKeydown(e) {
      if ((e.key !== 'Enter' && e.key !== 'Escape') || e.isComposing) return;
      const el = e.target as HTMLInputElement;
      e.preventDefault();
      if (e.key === 'Escape') {
        // Only the field's: no dialog to close, no selection to drop.
        e.stopPropagation();
        el.value = restore(el);
      } else if (before === null || el.value !== before) run(el);
      leaving = true;
      try {
        el.blur();
      } finally {
        leaving = false;
        before = null;
      }
      left?.();
    },
  };
}
