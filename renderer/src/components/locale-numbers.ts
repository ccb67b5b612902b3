/**
 * The UI's numbers in its locale, the same wherever a length is shown (the File panel, the Video dialog):
 * counts grouped (4,000,000,000 frames, not 4000000000) and seconds to two places, grouped too.
 */
import { computed } from 'vue';
import { useSettingsStore } from '../stores/settings';

export function useLocaleNumbers() {
  const settings = useSettingsStore();
  return {
    count: computed(() => new Intl.NumberFormat(settings.locale)),
    seconds: computed(() => new Intl.NumberFormat(settings.locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })),
  };
}
