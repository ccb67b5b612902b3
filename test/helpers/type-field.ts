/** Types `text` into the input `data-testid="id"` of a mounted component as a user's change does (value, change event), then lets the update settle. */
import type { VueWrapper } from '@vue/test-utils';

export async function typeField(w: VueWrapper, id: string, text: string): Promise<void> {
  const el = w.get(`[data-testid="${id}"]`);
  (el.element as HTMLInputElement).value = text;
  await el.trigger('change');
  await w.vm.$nextTick();
  await w.vm.$nextTick();
}
