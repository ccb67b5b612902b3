/**
 * The window's pane layout for App.vue (issue 30): the body grid's columns from the layout store (the
 * borders dragged, fitted to the body's width, measured here as the window changes), the preview filling the
 * window (the togglePreviewFull key action, the menu bar's button; the same key goes back), and the sizes
 * restored once settings load.
 */
import { computed, onBeforeUnmount, onMounted, watch, type Ref } from 'vue';
import { useLayoutStore } from '../stores/layout';
import { useSettingsStore } from '../stores/settings';
import { bindKeyActions } from '../shell/keymap';

export function usePaneLayout(body: Ref<HTMLElement | null>) {
  const layout = useLayoutStore();
  const settings = useSettingsStore();
  const stopLoaded = watch(() => settings.loaded, (l) => l && layout.restore(), { immediate: true });
  const off = bindKeyActions({ togglePreviewFull: () => void layout.togglePreviewFull() });
  let ro: ResizeObserver | null = null;
  const measure = () => {
    if (body.value) layout.avail = body.value.clientWidth;
  };
  onMounted(() => {
    measure();
    if (typeof ResizeObserver !== 'undefined' && body.value) {
      ro = new ResizeObserver(measure);
      ro.observe(body.value);
    }
  });
  onBeforeUnmount(() => {
    stopLoaded();
    off();
    ro?.disconnect();
  });
  // After the change the panes measure again (canvases size themselves to their boxes).
  watch(() => layout.previewFull, () => requestAnimationFrame(() => window.dispatchEvent(new Event('resize'))));
  return {
    style: computed(() => (layout.columns ? { gridTemplateColumns: layout.columns } : {})),
    full: computed(() => layout.previewFull),
  };
}
