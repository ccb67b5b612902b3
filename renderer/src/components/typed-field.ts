/**
 * `v-typed`: a text or number box bound with `:value` is left alone by its component's re-renders while
 * it has focus, so what the user selects and types stays until the edit is committed (on change: Enter
 * or leaving the box) or abandoned (Escape, which blurs). Once it loses focus, the next render shows the
 * bound value again.
 *
 * Vue writes a bound `value` into the element whenever the two differ, on every re-render of the
 * component. A box in a row that redraws (the waveform row after each draw, the frame box on every
 * played frame, a stage box while the preview moves) lost typed text, so Enter committed the old value;
 * and a write between selecting the box's text and typing dropped the selection, so the digits were
 * appended ("19" + "1234"). Putting the text back after the write cannot bring a number box's selection
 * back (it has no selection API), so the write must not happen: before the element's props are patched,
 * the new vnode's `value` is set to the text the box holds, and Vue, finding them equal, writes nothing.
 * (Vue reads the new props from this same vnode object after the directive's beforeUpdate hook.)
 */
import type { Directive } from 'vue';

export const vTyped: Directive<HTMLInputElement> = {
  beforeUpdate(el, _binding, vnode) {
    if (vnode.props && el.ownerDocument.activeElement === el) vnode.props.value = el.value;
  },
};
