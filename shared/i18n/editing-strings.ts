/**
 * Strings of the editing tools added beside the editor's own table: mirror paste (反転貼り付け), the
 * many-key inspector, the notices corner and the file dialog's listing errors. Next to strings.ts like
 * the other areas; `en` defines the keys, `ja` must have the same ones.
 */
const en = {
  'mirror.menu': 'Mirror',
  'mirror.menuTitle': 'Mirror paste and mirror the pose (左 ↔ 右)',
  'mirror.paste': 'Mirror paste',
  'mirror.pasteTitle': 'Paste the copied keys at the current frame with 左 and 右 swapped and the pose mirrored (Ctrl+Shift+V)',
  'mirror.otherSide': 'Paste on the other side only',
  'mirror.otherSideTitle': 'Paste only the copied keys of left or right bones and morphs, mirrored onto the other side; centre bones are left alone (Ctrl+Shift+O)',
  'mirror.pose': 'Mirror the pose here',
  'mirror.poseTitle': 'Swap and mirror left and right at the current frame: the selected bones and their other sides, or every bone when no bone key is selected (Ctrl+Shift+M)',
  'inspector.mixed': 'The selected keys differ here',
  'inspector.entryHint': 'Type a value to set it on every selected key; +5 or -=5 adds to each key’s own value',
  'inspector.badEntry': 'Not a number: “{text}” (type 5 to set, +5 or -=5 to add)',
  'inspector.colorClamped': 'Light colour is 0–255 as in MMD: “{text}” became {value}',
  'notify.dismissAll': 'Dismiss all',
  'notify.more': '+{n} more',
  'notify.moreText': 'More',
  'notify.lessText': 'Less',
  'notify.errorCount': '{n} errors',
  'dialog.err.notFound': 'There is no folder {path}',
  'dialog.err.notFolder': '{path} is not a folder (a part of the path is a file)',
  'dialog.err.denied': 'You have no permission to open the folder {path}',
  'dialog.err.other': 'The folder {path} cannot be listed ({reason})',
  'err.E_IO_NOT_DIR': 'A path that should be a folder is a file',
  'err.E_IO_NAME_NOT_UTF8': 'The file’s name is not valid UTF-8 text, so it cannot be opened by its name; rename the file',
  'err.E_IO_REMOTE': 'The scene names a file on another computer or a device, which is not opened on a scene’s word; choose the file in a dialog if you trust it',
  'edit.progress': '{label}: {pct}%',
  'edit.progressTitle': 'A whole-motion edit is being applied in steps; nothing changes until it completes',
  'edit.cancel': 'Cancel (Esc)',
  'edit.cancelTitle': 'Stop this edit: the motion stays as it was (Esc)',
};

export type EditingStringKey = keyof typeof en;

const ja: Record<EditingStringKey, string> = {
  'mirror.menu': '反転',
  'mirror.menuTitle': '反転貼り付け・ポーズの左右反転（左 ↔ 右）',
  'mirror.paste': '反転貼り付け',
  'mirror.pasteTitle': 'コピーしたキーを左右（左・右）を入れ替え、ポーズを反転して現在フレームに貼り付け (Ctrl+Shift+V)',
  'mirror.otherSide': '反対側にだけ貼り付け',
  'mirror.otherSideTitle': 'コピーしたキーのうち左右のあるボーン・モーフだけを反転して反対側に貼り付け（中心のボーンはそのまま）(Ctrl+Shift+O)',
  'mirror.pose': 'このフレームのポーズを左右反転',
  'mirror.poseTitle': '現在フレームで左右を入れ替えて反転：選択したボーンとその反対側、ボーンのキーを選択していなければ全ボーン (Ctrl+Shift+M)',
  'inspector.mixed': '選択したキーで値が異なります',
  'inspector.entryHint': '値を入力すると選択したすべてのキーに設定します。+5 や -=5 は各キーの値に加えます',
  'inspector.badEntry': '数値ではありません:「{text}」（5 で設定、+5 や -=5 で加算）',
  'inspector.colorClamped': '照明の色は MMD と同じ 0〜255 です:「{text}」は {value} にしました',
  'notify.dismissAll': 'すべて閉じる',
  'notify.more': 'ほか {n} 件',
  'notify.moreText': '続きを表示',
  'notify.lessText': '折りたたむ',
  'notify.errorCount': 'エラー {n} 件',
  'dialog.err.notFound': 'フォルダ {path} はありません',
  'dialog.err.notFolder': '{path} はフォルダではありません（パスの途中がファイルです）',
  'dialog.err.denied': 'フォルダ {path} を開く権限がありません',
  'dialog.err.other': 'フォルダ {path} の一覧を取得できません（{reason}）',
  'err.E_IO_NOT_DIR': 'フォルダであるはずのパスがファイルです',
  'err.E_IO_NAME_NOT_UTF8': 'ファイル名が UTF-8 の文字列として正しくないため、名前で開けません。ファイル名を変更してください',
  'err.E_IO_REMOTE': 'シーンが別のコンピューター上のファイルかデバイスを指しています。シーンの指定だけでは開きません。信頼できる場合はダイアログでそのファイルを選んでください',
  'edit.progress': '{label}: {pct}%',
  'edit.progressTitle': 'モーション全体の編集を少しずつ適用しています。完了するまで何も変わりません',
  'edit.cancel': '中止 (Esc)',
  'edit.cancelTitle': 'この編集を中止します。モーションは元のままです (Esc)',
};

export const editingStrings: Record<'en' | 'ja', Record<EditingStringKey, string>> = { en, ja };
