/**
 * Strings of the pose and face tools: what Export VPD at Frame… writes (the whole pose, the selected bones and
 * morphs, bones only, morphs only), Paste repeatedly… (blinks) and the face view. Next to strings.ts like the
 * other areas; `en` defines the keys, `ja` must have the same ones.
 */
const en = {
  'vpd.partsTitle': 'Export the pose at frame {frame} as VPD',
  'vpd.partsLead': 'What goes into the pose file:',
  'vpd.part.selected': 'Selected bones and morphs',
  'vpd.part.all': 'The whole pose',
  'vpd.part.bones': 'Bones only',
  'vpd.part.morphs': 'Morphs only (a face preset)',
  'vpd.partCount': '{bones} {bones|bone|bones}, {morphs} {morphs|morph|morphs}',
  'vpd.partSelectedHint': 'the rows of the selected keys and the bone picked in the bone list (as MMD’s ポーズデータ保存 saves the selected bones)',
  'vpd.partNoneSelected': 'nothing selected: select keys, or pick a bone in the bone list',
  'vpd.partEmpty': 'nothing to write',
  'vpd.next': 'Export…',
  'vpd.exported': 'Exported {name} ({bones} {bones|bone|bones}, {morphs} {morphs|morph|morphs})',
};

export type FaceStringKey = keyof typeof en;

const ja: Record<FaceStringKey, string> = {
  'vpd.partsTitle': 'フレーム {frame} のポーズをVPDに書き出し',
  'vpd.partsLead': 'ポーズファイルに入れるもの:',
  'vpd.part.selected': '選択中のボーンと表情',
  'vpd.part.all': 'ポーズ全体',
  'vpd.part.bones': 'ボーンのみ',
  'vpd.part.morphs': '表情のみ（表情プリセット）',
  'vpd.partCount': 'ボーン {bones} 個、表情 {morphs} 個',
  'vpd.partSelectedHint': '選択中のキーの行とボーン一覧で選んだボーン（MMD のポーズデータ保存が選択ボーンを保存するのと同じ）',
  'vpd.partNoneSelected': '何も選択されていません。キーを選ぶか、ボーン一覧でボーンを選んでください',
  'vpd.partEmpty': '書き出すものがありません',
  'vpd.next': '書き出し…',
  'vpd.exported': '{name} を書き出しました（ボーン {bones} 個、表情 {morphs} 個）',
};

export const faceStrings: Record<'en' | 'ja', Record<FaceStringKey, string>> = { en, ja };
