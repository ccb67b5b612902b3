/**
 * Strings the 3D preview added after the shared table (strings.ts) was settled, kept in their own file so
 * the preview can grow without editing the shared table. `en` defines the keys; `ja` must have the same.
 */
const en = {
  'preview.reducedResolution': 'Playing at {pct}% resolution to keep up (full resolution when paused)',
  'preview.hiddenByMotion': 'Hidden by the motion here (a display-off key in its IK/visibility block)',
  'preview.pickedBone': 'Bone: {name}',
  'preview.pickedUntracked': '(no keys in this motion)',
  'preview.pickHint': 'Click a joint to select its bone, Esc to clear',
  'preview.outline': 'Outline',
  'preview.droppedNoFolder': 'dropped without its folder (the browser gives no path): open the model with Model… to load its textures',
  'preview.outlineTitle': "MMD's edge lines around the model. Off by default without a GPU: software rendering would draw the model twice per frame.",
};

export type PreviewStringKey = keyof typeof en;

const ja: Record<PreviewStringKey, string> = {
  'preview.reducedResolution': '再生が間に合うよう解像度 {pct}% で描画中（一時停止で元に戻ります）',
  'preview.hiddenByMotion': 'このフレームではモーションが非表示にしています（表示・IK キーの表示 OFF）',
  'preview.pickedBone': 'ボーン: {name}',
  'preview.pickedUntracked': '（このモーションにキーなし）',
  'preview.pickHint': '関節をクリックでボーンを選択、Esc で解除',
  'preview.outline': '輪郭線',
  'preview.droppedNoFolder': 'ブラウザからのドロップではフォルダが分からないため読めません。「モデル…」から開くとテクスチャも読み込みます',
  'preview.outlineTitle': 'MMD のエッジ（輪郭線）。GPU がない環境ではモデルを 2 回描くことになるため、既定でオフです。',
};

export const previewStrings: Record<'en' | 'ja', Record<PreviewStringKey, string>> = { en, ja };
