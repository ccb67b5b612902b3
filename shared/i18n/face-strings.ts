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
  // Short on the editor's toolbar (at 1366×768 a longer label cut the selection count); the title says the rest.
  'paste.repeat': '×N…',
  'paste.repeatButtonTitle': 'Paste repeatedly…: the copied keys N times every K frames from the current frame, one undo step (a blink every 3 s)',
  'paste.repeatTitle': 'Paste repeatedly from frame {frame}',
  'paste.times': 'Number of pastes',
  'paste.every': 'Every',
  'paste.everyUnit': 'frames (30 = 1 s)',
  'paste.beatLabel': 'Beats',
  'paste.beat': '1 beat = {frames} frames at {bpm} BPM',
  'paste.beatNear': '1 beat ≈ {frames} frames at {bpm} BPM ({exact})',
  'paste.bar': '1 bar = {frames}',
  'paste.bars': '{n} bars = {frames}',
  'paste.beatTitle': 'Every {frames} frames: the music’s beat grid (Beats or BPM… in the music row)',
  'paste.plan': '{n} {n|paste|pastes}, {keys} {keys|key|keys}, frames {first}–{last}',
  'paste.repeatHint': 'The copied keys are pasted with their earliest at the current frame, then every K frames; a key landing where its row has a key replaces it, as Paste does. One undo step.',
  'paste.go': 'Paste',
  'paste.nothingCopied': 'Nothing copied: select keys (a blink’s morph keys) and copy them (Ctrl+C) first',
  'paste.refusal.times': 'The number of pastes must be a whole number of at least 1 (not “{times}”)',
  'paste.refusal.every': 'Every {every} frames is shorter than the copied keys ({span} frames): each paste would land on the one before',
  'paste.refusal.tooFar': 'The last paste would end at frame {last}, past {max}',
  'edit.label.pasteRepeat': 'paste repeatedly',
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
  'paste.repeat': '連続…',
  'paste.repeatButtonTitle': '連続貼り付け: コピーしたキーを現在フレームから K フレームごとに N 回貼り付けます（取り消しは 1 回。3 秒ごとのまばたきなど）',
  'paste.repeatTitle': 'フレーム {frame} から連続貼り付け',
  'paste.times': '貼り付ける回数',
  'paste.every': '間隔',
  'paste.everyUnit': 'フレームごと（30 = 1 秒）',
  'paste.beatLabel': '拍',
  'paste.beat': '1 拍 = {frames} フレーム（{bpm} BPM）',
  'paste.beatNear': '1 拍 ≈ {frames} フレーム（{bpm} BPM、{exact}）',
  'paste.bar': '1 小節 = {frames}',
  'paste.bars': '{n} 小節 = {frames}',
  'paste.beatTitle': '{frames} フレームごと: 音楽のビート（音楽の行の ビート か BPM…）',
  'paste.plan': '{n} 回貼り付け、キー {keys} 個、フレーム {first}–{last}',
  'paste.repeatHint': 'コピーしたキーの先頭を現在フレームに置き、K フレームごとに貼り付けます。キーのあるフレームに重なったキーは、貼り付けと同じく置き換えます。取り消しは 1 回です。',
  'paste.go': '貼り付け',
  'paste.nothingCopied': 'コピーしたキーがありません。先にキー（まばたきの表情キーなど）を選んでコピー (Ctrl+C) してください',
  'paste.refusal.times': '貼り付ける回数は 1 以上の整数にしてください（「{times}」ではなく）',
  'paste.refusal.every': '間隔 {every} フレームはコピーしたキーの長さ（{span} フレーム）より短く、前の貼り付けに重なります',
  'paste.refusal.tooFar': '最後の貼り付けがフレーム {last} で終わり、上限 {max} を超えます',
  'edit.label.pasteRepeat': '連続貼り付け',
};

export const faceStrings: Record<'en' | 'ja', Record<FaceStringKey, string>> = { en, ja };
