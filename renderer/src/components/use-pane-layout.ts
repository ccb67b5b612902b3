/**
 * The window's pane layout for App.vue (issue 30): the body grid's columns from the layout store (the
 * borders dragged), the preview filling the window (the togglePreviewFull key action, the menu bar's
 * button; the same key goes back), and the widths restored once settings load.
 */
import { computed, onBeforeUnmount, watch } from 'vue';
import { useLayoutStore } from '../stores/layout';
import { useSettingsStore } from '../stores/settings';
import { bindKeyActions } from '../shell/keymap';

export function usePaneLayout() {
  const layout = useLayoutStore();
  const settings = useSettingsStore();
  const stopLoaded = watch(() => settings.loaded, (l) => l && layout.restore(), { immediate: true });
  const off = bindKeyActions({ togglePreviewFull: () => void layout.togglePreviewFull() });
  onBeforeUnmount(() => {
    stopLoaded();
    off();
  });
  // After the change the panes measure again (canvases size themselves to their boxes).
  watch(() => layout.previewFull, () => requestAnimationFrame(() => window.dispatchEvent(new Event('resize'))));
  return {
    style: computed(() => (layout.columns ? { gridTemplateColumns: layout.columns } : {})),
    full: computed(() => layout.previewFull),
  };
}
