/**
 * `v-typed`: a text or number box bound with `:value` keeps what the user is typing when its component
 * re-renders before the edit is committed (on change: Enter or leaving the box).
 *
 * Vue writes a bound `value` back into the element whenever the two differ, on every re-render of the
 * component, so a box in a row that redraws (the waveform row after each draw, the frame box on every
 * played frame, a stage box while the preview moves) lost typed text, and Enter then committed the old
 * value. With this directive, while the box has focus and has been typed into since it last committed, the
 * typed text is put back after each patch. Leaving the box (Escape blurs it) or committing ends that.
 */
import type { Directive } from 'vue';

const typing = new WeakSet<HTMLInputElement>();
const held = new WeakMap<HTMLInputElement, string>();

function settle(this: HTMLInputElement) {
  typing.delete(this);
}
function typed(this: HTMLInputElement) {
  typing.add(this);
}

export const vTyped: Directive<HTMLInputElement> = {
  mounted(el) {
    el.addEventListener('input', typed);
    el.addEventListener('change', settle);
    el.addEventListener('blur', settle);
  },
  beforeUpdate(el) {
    if (typing.has(el) && el.ownerDocument.activeElement === el) held.set(el, el.value);
  },
  updated(el) {
    const v = held.get(el);
    if (v === undefined) return;
    held.delete(el);
    if (el.value !== v) el.value = v;
  },
  beforeUnmount(el) {
    el.removeEventListener('input', typed);
    el.removeEventListener('change', settle);
    el.removeEventListener('blur', settle);
  },
};
