/**
 * What notices must not cover: an open panel's footer, where its buttons are (the retarget panel's Apply and
 * Cancel, the capture import's Import and Close). A panel hands its footer over with `useNoticeFloor(ref)`
 * while it is shown; the notification list (NotificationList.vue) stacks the notices above the highest
 * footer under their column.
 */
import { onBeforeUnmount, shallowRef, watch, type Ref } from 'vue';

const floors = shallowRef<readonly HTMLElement[]>([]);

/** The footers shown now (the list re-measures when this changes). */
export const noticeFloors: Readonly<Ref<readonly HTMLElement[]>> = floors;

/** Registers the element `el` holds (a `v-if` panel's footer: null while closed) for as long as it is there. */
export function useNoticeFloor(el: Readonly<Ref<HTMLElement | null>>): void {
  let held: HTMLElement | null = null;
  const hold = (next: HTMLElement | null) => {
    if (next === held) return;
    const rest = floors.value.filter((x) => x !== held);
    held = next;
    floors.value = next ? [...rest, next] : rest;
  };
  watch(el, hold, { immediate: true, flush: 'post' });
  onBeforeUnmount(() => hold(null));
}
