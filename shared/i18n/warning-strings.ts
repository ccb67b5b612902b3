/**
 * The warnings the shared edits give (shared/edit-core/report.ts `warn`): by code, in both languages, so the
 * app's batch rows and Whole Motion notices, and the CLI's warning lines under --lang ja, say them in the user's
 * language (new-user pass nujp 1: a Japanese UI showed "⚠ 2 bone keys landed on a frame already taken…"). The
 * edits write the English message themselves (the CLI's --json and reports keep it); `en` here says the same
 * (test/shared/edit-core/warnings.test.ts checks each against the edit's message). `{kind}` is a block's word
 * (`note.kind.*`), filled in the reader's language by shared/i18n/warning-line.ts.
 */
const en = {
  'note.kind.bone': 'bone',
  'note.kind.morph': 'morph',
  'note.kind.camera': 'camera',
  'note.kind.light': 'light',
  'note.kind.shadow': 'shadow',
  'note.kind.ik': 'ik',
  'note.W_SPEED_COLLISIONS': '{n} {kind} {n|key|keys} landed on a frame already taken and {n|was|were} left out (the first in the file kept)',
  'note.W_SPEED_CAMERA_CUTS': '{n} camera {n|segment|segments} became one frame long and will play as {n|a camera cut|camera cuts}',
  'note.W_MERGE_DUPLICATES': '{n} {n|key|keys} repeated a (name, frame) already merged and {n|was|were} dropped (first file wins)',
  'note.W_RENAME_COLLISIONS': '{n} {kind} {n|key|keys} now {n|shares|share} a (name, frame) with an earlier key and {n|was|were} left out (the first in the file kept)',
  'note.W_POSE_CAMERA': 'camera keys are not part of a pose and were left out',
  'note.W_POSE_SECOND': 'a second pose at frame {frame} was left out (the first one given wins)',
  'note.W_TRIM_CAMERA_CUT': 'camera: the key at {frame} lands one frame after the cut and becomes a camera cut (whole frames still match)',
  'note.W_TRIM_HOLD_CUT': 'camera: the hold key at {frame} lands one frame after the previous key and becomes a camera cut (whole frames still match)',
  'note.W_PRESET_NO_MATCH': 'no key matched the selection',
  'note.W_FIT_CUTS_LOST': '{n} camera {n|cut|cuts} {n|was|were} lost',
  'note.W_FIT_CUTS_MERGED': '{n} camera {n|cut|cuts} fell inside one output frame of the next and merged with it',
  'note.W_FIT_STEPS_REPLACED': '{n} {kind} {n|key was|keys were} replaced by a later step that shows at the same output frame',
};

export type WarningStringKey = keyof typeof en;

const ja: Record<WarningStringKey, string> = {
  'note.kind.bone': 'ボーン',
  'note.kind.morph': '表情',
  'note.kind.camera': 'カメラ',
  'note.kind.light': '照明',
  'note.kind.shadow': 'セルフ影',
  'note.kind.ik': '表示・IK',
  'note.W_SPEED_COLLISIONS': '{kind}のキー {n} 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）',
  'note.W_SPEED_CAMERA_CUTS': 'カメラの区間 {n} 個が 1 フレームの長さになり、カメラの切り替え（カット）として再生されます',
  'note.W_MERGE_DUPLICATES': '結合済みのキーと（名前、フレーム）が重なったキー {n} 個を除外しました（先のファイルを優先）',
  'note.W_RENAME_COLLISIONS': '名前の変更で先のキーと（名前、フレーム）が重なった{kind}のキー {n} 個を除外しました（ファイル内で先のキーを使用）',
  'note.W_POSE_CAMERA': 'カメラのキーはポーズに含まれないため除外しました',
  'note.W_POSE_SECOND': 'フレーム {frame} の 2 つ目のポーズを除外しました（先に指定したものを使用）',
  'note.W_TRIM_CAMERA_CUT': 'カメラ：フレーム {frame} のキーが切り出し位置の 1 フレーム後になり、カメラの切り替え（カット）になります（整数フレームの映像は変わりません）',
  'note.W_TRIM_HOLD_CUT': 'カメラ：フレーム {frame} の保持キーが前のキーの 1 フレーム後になり、カメラの切り替え（カット）になります（整数フレームの映像は変わりません）',
  'note.W_PRESET_NO_MATCH': '選択に当てはまるキーがありませんでした',
  'note.W_FIT_CUTS_LOST': 'カメラの切り替え（カット）{n} 個が失われました',
  'note.W_FIT_CUTS_MERGED': 'カメラの切り替え（カット）{n} 個が、次のカットと同じ出力フレームに入ったため 1 つになりました',
  'note.W_FIT_STEPS_REPLACED': '{kind}のキー {n} 個は、同じ出力フレームに出る後のキーに置き換えました',
};

export const warningStrings: Record<'en' | 'ja', Record<WarningStringKey, string>> = { en, ja };
