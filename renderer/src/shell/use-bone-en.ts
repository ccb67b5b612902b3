/**
 * The English name shown beside a bone's Japanese name in the English UI: the shown model's own (PMX 英名, PMD's
 * English names; model-outline.ts boneNameEn), so someone who cannot read 左腕 sees arm_L in the bone list, the
 * timeline's track names, the preview's "Bone:" line and the Key panel. '' in the Japanese UI, for a bone the
 * model gives no English name, and on the built-in figure. The motion still keys the Japanese name (VMD's).
 */
import { boneNameEn } from '../model/model-outline';
import { usePreviewStore } from '../stores/preview';
import { useSettingsStore } from '../stores/settings';

export function useBoneEn(): (name: string) => string {
  const preview = usePreviewStore();
  const settings = useSettingsStore();
  return (name: string) => (settings.locale === 'ja' ? '' : boneNameEn(preview.modelOutline, name));
}

/** `name (English)` where there is an English name to show, for one-line texts (a tooltip, the preview's label). */
export function withEnglish(name: string, en: string): string {
  return en ? `${name} (${en})` : name;
}
