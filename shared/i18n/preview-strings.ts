/**
 * Strings the 3D preview added after the shared table (strings.ts) was settled, kept in their own file so
 * the preview can grow without editing the shared table. `en` defines the keys; `ja` must have the same.
 */
const en = {
  'preview.reducedResolution': 'Playing at {pct}% resolution to keep up (full resolution when paused)',
  'preview.hiddenByMotion': 'Hidden by the motion here (a display-off key in its IK/visibility block)',
};

export type PreviewStringKey = keyof typeof en;

const ja: Record<PreviewStringKey, string> = {
  'preview.reducedResolution': '再生が間に合うよう解像度 {pct}% で描画中（一時停止で元に戻ります）',
  'preview.hiddenByMotion': 'このフレームではモーションが非表示にしています（表示・IK キーの表示 OFF）',
};

export const previewStrings: Record<'en' | 'ja', Record<PreviewStringKey, string>> = { en, ja };
