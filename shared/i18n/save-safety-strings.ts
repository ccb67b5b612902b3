/**
 * Strings of a save that is refused to keep someone else's work (electron/services/file-io.ts): a file another
 * program changed since it was opened or last saved, a read-only file, a folder that cannot be written. Each
 * asks Save As… instead of only saying no. `en` defines the keys; `ja` has the same ones.
 */
import type { Locale } from './locale';

const en = {
  'err.E_IO_CHANGED': 'The file was changed on disk by another program',
  'save.changedTitle': 'File changed on disk',
  'save.changedAsk':
    '{name} was changed by another program since it was opened or last saved. Overwrite it with this version (the other version is kept as a .bak file beside it), save this version under another name, or cancel?',
  'save.overwrite': 'Overwrite',
  'save.saveAs': 'Save As…',
  'save.deniedTitle': 'Cannot save',
  'save.readOnlyAsk': '{name} is read-only, so it is not replaced. Use Save As… to save elsewhere.',
  'save.folderAsk': 'Cannot save {name}: the folder {folder} cannot be written. Use Save As… to save elsewhere.',
  'notify.savedOverChanged': 'Saved {name}; the version another program wrote is kept as {backup}',
  'save.folderMissingAsk': 'Cannot save {name}: its folder {folder} is not there any more (moved or deleted). Make the folder again and save there, or use Save As… to save elsewhere.',
  'save.makeFolder': 'Make the folder and save',
  // A motion saved as a pose (.vpd): an export of one frame, asked first (stores/save-refusal.ts askPoseLoss).
  'save.poseTitle': 'Save as a pose?',
  'save.poseAsk':
    'A pose (.vpd) holds one frame: {name} gets the pose at frame {frame}, the current frame (as Export VPD at Frame… takes it); {lost} {n|is|are} not saved. The motion itself stays unsaved: save it as a .vmd to keep them.',
  'save.poseLost.keys': '{n} {n|key at another frame|keys at other frames}',
  'save.poseLost.camera': '{n} camera {n|key|keys}',
  'save.poseLost.light': '{n} light {n|key|keys}',
  'save.poseLost.shadow': '{n} self-shadow {n|key|keys}',
  'save.poseLost.ik': '{n} IK/display {n|key|keys}',
  'save.poseLostJoin': ', ',
  'save.savePose': 'Save the pose',
  'notify.savedPose': 'Saved the pose at frame {frame} as {name}. The motion itself is not saved: save it as a .vmd to keep every key.',
};

export type SaveSafetyStringKey = keyof typeof en;

const ja: Record<SaveSafetyStringKey, string> = {
  'err.E_IO_CHANGED': 'ファイルがほかのプログラムによってディスク上で変更されています',
  'save.changedTitle': 'ディスク上のファイルが変更されています',
  'save.changedAsk':
    '{name} は、開いた後（または前回の保存後）にほかのプログラムによって変更されています。この内容で上書きしますか（ほかのプログラムの版は .bak ファイルとして横に残します）、別の名前で保存しますか、それともキャンセルしますか？',
  'save.overwrite': '上書き',
  'save.saveAs': '名前を付けて保存…',
  'save.deniedTitle': '保存できません',
  'save.readOnlyAsk': '{name} は読み取り専用のため、置き換えません。別の場所に保存するには「名前を付けて保存…」を使ってください。',
  'save.folderAsk': '{name} を保存できません: フォルダ {folder} に書き込めません。別の場所に保存するには「名前を付けて保存…」を使ってください。',
  'notify.savedOverChanged': '{name} を保存しました。ほかのプログラムが書いた版は {backup} に残しています',
  'save.folderMissingAsk': '{name} を保存できません: フォルダ {folder} がなくなっています（移動または削除されました）。フォルダを作り直してそこに保存するか、「名前を付けて保存…」で別の場所に保存してください。',
  'save.makeFolder': 'フォルダを作って保存',
  'save.poseTitle': 'ポーズとして保存しますか？',
  'save.poseAsk':
    'ポーズ（.vpd）は 1 フレーム分しか持てません。{name} には現在のフレーム {frame} のポーズを保存します（「現在フレームをVPDに書き出し…」と同じ）。{lost}は保存されません。モーション自体は未保存のままです。残すには .vmd として保存してください。',
  'save.poseLost.keys': 'ほかのフレームのキー {n} 個',
  'save.poseLost.camera': 'カメラのキー {n} 個',
  'save.poseLost.light': '照明のキー {n} 個',
  'save.poseLost.shadow': 'セルフ影のキー {n} 個',
  'save.poseLost.ik': 'IK/表示のキー {n} 個',
  'save.poseLostJoin': '、',
  'save.savePose': 'ポーズを保存',
  'notify.savedPose': 'フレーム {frame} のポーズを {name} に保存しました。モーション自体は保存されていません。すべてのキーを残すには .vmd として保存してください。',
};

export const saveSafetyStrings: Record<Locale, Record<SaveSafetyStringKey, string>> = { en, ja };
