/**
 * UI strings in Japanese and English, one flat object per locale so that several people can append
 * keys without conflicts. Keys are dotted by area (`menu.open`, `summary.kind`). `en` defines the key
 * set; `ja` must have the same keys (a type error otherwise). `{name}` placeholders are filled by `t`.
 */
import { editorStrings } from './editor-strings';
import { editingStrings } from './editing-strings';
import { previewStrings } from './preview-strings';
import { batchStrings } from './batch-strings';
import { shortcutStrings } from './shortcut-strings';
import { timelineStrings } from './timeline-strings';
import type { Locale } from './locale';

export type { Locale } from './locale';
import { sceneStrings } from './scene-strings';
import { cameraStrings } from './camera-strings';
import { sceneDocsStrings } from './scene-docs-strings';
import { sceneSaveStrings } from './scene-save-strings';
import { saveSafetyStrings } from './save-safety-strings';
import { recoveryStrings } from './recovery-strings';
import { errorStrings } from './error-strings';
import { uxStrings } from './ux-strings';
import { bvhStrings } from './bvh-strings';
import { retargetStrings } from './retarget-strings';
import { videoStrings } from './video-strings';
import { physicsBakeStrings } from './physics-bake-strings';
import { ikBakeStrings } from './ik-bake-strings';
import { mergeStrings } from './merge-strings';
import { mocapStrings } from './mocap-strings';
import { faceStrings } from './face-strings';
import { modelStrings } from './model-strings';
import { helpStrings } from './help-strings';
import { warningStrings } from './warning-strings';
import type { ErrorCode } from '../vmd/errors';

const en = {
  'app.title': 'VMD Studio',
  'menu.file': 'File',
  'menu.edit': 'Edit',
  'menu.view': 'View',
  'menu.help': 'Help',
  'menu.open': 'Open…',
  'menu.openRecent': 'Open Recent',
  'menu.clearRecent': 'Clear Recent',
  'menu.clearRecentAsk': 'Remove {n} {n|file|files} from the Open Recent list? The files themselves stay where they are.',
  'menu.clearRecentYes': 'Clear the list',
  'menu.noRecent': 'No recent files',
  'menu.recentGone': '{name} was not found in {folder} (moved, renamed or deleted) — removed from the recent list',
  'menu.save': 'Save',
  'menu.saveAs': 'Save As…',
  'menu.closeScene': 'Close Scene',
  'menu.close': 'Close',
  'menu.exportVpd': 'Export VPD at Frame…',
  'menu.exportMotion': 'Export',
  'menu.exportVrma': 'VRM Animation (.vrma)…',
  'menu.exportBvh': 'BVH…',
  'menu.batch': 'Batch…',
  'menu.render': 'Render',
  'menu.renderVideo': 'Video…',
  'menu.quit': 'Quit',
  'menu.undo': 'Undo',
  'menu.redo': 'Redo',
  'menu.copyCurve': 'Copy Curve',
  'menu.pasteCurve': 'Paste Curve',
  'menu.about': 'About VMD Studio',
  'menu.shortcuts': 'Keyboard Shortcuts',
  'menu.wholeMotion': 'Whole Motion…',
  'menu.importMouthTimings': 'Import Mouth Timings…',
  'menu.wholeMotionTitle': 'Mirror, trim, change the speed, shift or set the curves of the whole motion (one undo step)',
  'menu.language': 'Language',
  'menu.reload': 'Reload',
  'menu.devtools': 'Developer Tools',
  'menu.fullscreen': 'Full Screen',
  'dialog.openTitle': 'Open a motion, pose, model, scene, capture or song',
  'dialog.saveTitle': 'Save as',
  'dialog.saveActorTitle': 'Save {actor}’s motion',
  'dialog.saveCopyTitle': 'Save {actor}’s motion (a copy of {file})',
  'dialog.folderTitle': 'Choose a folder',
  'dialog.exportVpdTitle': 'Export the pose at frame {frame} as VPD',
  'dialog.path': 'Path',
  'dialog.up': 'Up',
  'dialog.home': 'Home',
  'dialog.go': 'Go',
  'dialog.open': 'Open',
  'dialog.save': 'Save',
  'dialog.choose': 'Choose this folder',
  'dialog.cancel': 'Cancel',
  'dialog.empty': 'No matching files here',
  'dialog.showHidden': 'Show hidden files',
  'dialog.showHiddenTitle': 'List files and folders whose names start with a dot (remembered)',
  'dialog.entries': 'Folders and files',
  'dialog.fileName': 'File name',
  'dialog.overwrite': '{name} exists. Replace it?',
  'dialog.windowsChars': 'Windows cannot hold {chars} in a file name: a friend on Windows could not unzip {name}. Save again to keep the name, or change it',
  'dialog.windowsReserved': 'Windows keeps {reserved} as a device name: a friend on Windows could not unzip {name}. Save again to keep the name, or change it',
  'dialog.replace': 'Replace',
  'dialog.motionFiles': 'Motion and pose files (.vmd, .vpd)',
  'dialog.modelFiles': 'Model files (.pmx, .pmd)',
  'dialog.allFiles': 'All files',
  'dialog.close': 'Close',
  'close.unsaved': '{name} has unsaved changes.',
  'close.save': 'Save',
  'close.discard': "Don't Save",
  'close.cancel': 'Cancel',
  'summary.title': 'File',
  'summary.none': 'No file open. Open a .vmd or .vpd file, or drop one on the window.',
  'summary.kind': 'Kind',
  'summary.kind.motion': 'Motion',
  'summary.kind.morph': 'Morph (facial)',
  'summary.kind.camera': 'Camera',
  'summary.kind.light': 'Light',
  'summary.kind.unknown': 'Unknown',
  'summary.model': 'Model',
  'summary.length': 'Length',
  'summary.frames': '{n} frames',
  'summary.framesOne': '{n} frame',
  'summary.seconds': '{s} s',
  'summary.keys': 'Keys',
  'summary.block.bone': 'Bone',
  'summary.block.morph': 'Morph',
  'summary.block.camera': 'Camera',
  'summary.block.light': 'Light',
  'summary.block.shadow': 'Self-shadow',
  'summary.block.ik': 'Display · IK',
  'summary.absent': 'absent',
  'summary.bones': 'Bones',
  'summary.morphs': 'Morphs',
  'summary.cameraCuts': 'Camera cuts',
  'summary.header': 'Header',
  'err.E_VMD_MAGIC': 'Not a VMD file',
  'err.E_VMD_TRUNCATED': 'The file is cut short or damaged: it ends too early',
  'err.E_VMD_COUNT': 'The file is cut short or damaged: a key count does not fit its size',
  'err.E_VPD_MAGIC': 'Not a VPD pose file',
  'err.E_VPD_SYNTAX': 'The VPD text is not well formed',
  'err.E_PMX_MAGIC': 'Not a PMX or PMD model',
  'err.E_PMX_TRUNCATED': 'The model file is cut short or damaged',
  'err.E_NAME_TOO_LONG': 'A name is longer than the format holds (15 bytes in Shift_JIS)',
  'err.E_JSON_SYNTAX': 'The JSON is not well formed',
  'err.E_JSON_SCHEMA': 'The VMD JSON has a wrong or missing field',
  'err.E_IO_NOT_FOUND': 'File not found',
  'err.E_IO_DENIED': 'No permission to read or write the file',
  'err.E_IO_EXISTS': 'A file with that name already exists',
  'err.E_IO': 'Reading or writing the file failed',
  'err.E_UNSUPPORTED': 'This kind of file is not supported here',
  'err.E_BUSY': 'Another job is running',
  'err.E_CANCELLED': 'Cancelled',
  'err.E_ARGUMENT': 'Invalid request',
  'err.E_EDIT': 'The edit could not be made',
  'err.E_INTERNAL': 'Internal error',
  'err.atByte': 'at byte {n}',
  'summary.warnings': 'Notes',
  'note.W_VMD_TRAILING': '{n} {n|byte|bytes} after the last block {n|is|are} kept as {n|it is|they are}',
  'note.W_VMD_SHORT_TAIL': '{n} {n|byte|bytes} after the last block {n|is|are} kept as {n|it is|they are}',
  'note.W_VPD_UTF8': 'Read as UTF-8 text; MMD reads VPD as Shift_JIS: Export VPD writes Shift_JIS',
  'note.W_VPD_COUNT': 'The header declares {declared} {declared|bone|bones} but the file has {n}; the bones in the file are used',
  'note.W_NAME_SKIPPED': '{kind} "{name}" left out: longer than 15 bytes in Shift_JIS',
  'note.W_MODEL_NAME_LONG': 'The model’s name “{name}” is {bytes} bytes in Shift_JIS, more than the {limit} a VMD’s header holds: written as “{written}”, cut as MMD cuts it',
  'note.W_MODEL_NAME_SJIS': 'The model’s name “{name}” has characters Shift_JIS lacks: written as “{written}”',
  'note.N_BONE_DUPLICATES': '{n} bone {n|key repeats|keys repeat} a (bone, frame) pair; the first in the file is used',
  'note.N_MORPH_DUPLICATES': '{n} morph {n|key repeats|keys repeat} a (morph, frame) pair; the first in the file is used',
  'note.N_NON_UNIT': '{n} bone {n|key has|keys have} a rotation quaternion whose length is not 1 (kept as stored)',
  'note.N_LEG_IK_OFF_FROM': 'leg IK off from frame {from} (FK legs): {names}',
  'note.N_LEG_IK_OFF': 'leg IK off at frames {frames} (FK legs): {names}',
  'note.N_IK_OFF_FROM': 'IK off from frame {from}: {names}',
  'note.N_IK_OFF': 'IK off at frames {frames}: {names}',
  'note.N_HIDDEN_FROM': 'model hidden from frame {from} (display off)',
  'note.N_HIDDEN': 'model hidden at frames {frames} (display off)',
  'note.W_PMX_VERSION': 'PMX version {version}; read as 2.x',
  'note.W_PMX_FACES': 'The face index count {n} is not a multiple of 3',
  'note.W_PMX_MATERIAL_FACES': 'The materials draw {used} face indices, the model has {n}',
  'note.W_PMX_MORPH': 'Morph {morph}, offset {k}: unknown material operation {op}; ignored',
  'note.W_MODEL_BONE_PARENT': 'Bone {i} "{name}" has parent {parent}, which is not a bone of the model; treated as a root',
  'note.W_MODEL_IK_RANGE': 'Bone {i} "{name}" has an IK chain naming bones the model lacks; its IK is left out',
  'note.W_MODEL_BONE_CYCLE': 'Bone {i} "{name}" is in a loop of parents; made a root',
  'note.W_PMD_IK_OWNER': 'IK {i} belongs to bone {bone}, but the model has {n} bones; left out',
  'note.W_PMD_TAIL': 'The optional data after the morphs (bone groups, English names, toon textures) is unreadable and ignored: {why}',
  'note.W_PMD_DISPLAY': '{n} entries of the bone groups name a bone or group the model lacks (the first: bone {bone} in group {group}; the model has {bones} bones, {groups} groups); left out of the bone list',
  'note.W_MODEL_EXTENSION': '{file} is a {format} model: MMD reads by extension; rename it {ext}',
  'summary.fromVpd': 'Pose file (VPD), shown as keys at frame 0',
  'status.ready': 'Ready',
  'status.noFile': 'No file',
  'status.unsaved': 'Unsaved changes',
  // Not 'Saved': a file only opened was not saved (it has nothing to save).
  'status.saved': 'No unsaved changes',
  'status.othersUnsaved': 'Unsaved changes in {names}',
  'status.unsavedHereAnd': 'Unsaved changes here and in {names}',
  // The motion is saved and only the song beside it is not (a lone motion with music: an untitled scene). Said so,
  // or a beginner who just saved the dance reads "Unsaved changes" as a failed save.
  'status.songUnsaved': 'Song and offset not saved: Save Scene As… keeps model, dance and song together',
  'status.songUnsavedTitle': '{file} is saved. The song and its offset are kept only in a scene file (.vmdscene), which names the model, the dance and the song (as MMD’s project file); Save (Ctrl+S) saves it too',
  'status.offsetUnsaved': 'Music offset not saved: Save Scene As… keeps it with the dance',
  'status.offsetUnsavedTitle': '{file} is saved. The music offset, kept after its song was removed for the song picked next, is kept only in a scene file (.vmdscene); Save (Ctrl+S) saves it too',
  'status.notOnDisk': 'Not saved to a file yet',
  'status.missing': '{file} is missing: Open… it where it is now and Load onto the actor',
  'status.frame': 'Frame {frame} / {last}',
  'status.browserMode': 'Browser mode',
  'status.electronMode': 'Desktop',
  'notify.opened': 'Opened {name}',
  'notify.openedKeepsCamera': 'Opened {name}. The preview keeps the camera loaded with Camera…: {camera} (× beside it takes it away)',
  'notify.saved': 'Saved {name}',
  'notify.savedBackup': 'Saved {name} (previous version kept as {backup})',
  'notify.savedNoBackup': 'Saved {name}; no backup of the previous version was written: {reason}',
  'notify.exported': 'Exported {name}',
  'notify.dismiss': 'Dismiss',
  'notify.details': 'Details',
  'notify.detailsTitle': 'Show or hide the technical detail (the error code and the reader\'s own message, for a bug report)',
  'notify.nothingToSave': 'Nothing to save: no file is open',
  'notify.nothingToMerge': 'Merge with…: open a motion first; the files you choose are merged into it',
  'notify.notOpenable': '{name}: not a kind of file the app opens. Open… and a drop take motions and poses ({motion}), models ({model}), scenes ({scene}), captures ({capture}) and songs ({music}, loaded as ♪ Music… does)',
  'notify.fileIs': '{name}: {what}',
  'dialog.err.notTaken': '{name}: this dialog does not open this kind of file; it takes {exts}',
  'notify.sceneDroppedNoFolder': '{name}: a scene names its motions, models and song relative to its own folder, and a dropped file comes without its folder (the browser gives no path), so they cannot be found. Open the scene with Open… or Scene → Open Scene…',
  'drop.hint': 'Drop a motion or pose ({motion}) or a scene ({scene}) to open it, a model ({model}) to show it in the preview, a capture ({capture}) to import it, a song ({music}) as the music',
  'drop.leftOut': '{n} dropped {n|file was|files were} not opened',
  'drop.opened': 'Opened {list}',
  'drop.sum.model': '{name} as the model',
  'drop.sum.motionOn': '{name} on {model}',
  'drop.sum.camera': '{name} as the camera',
  'drop.sum.pose': '{name} as a pose on it',
  'drop.sum.music': '{name} as music',
  'drop.sum.merge': '{name} to merge in (Merge with…)',
  'drop.left.model': '{name}: one model loads per drop ({first} did)',
  'drop.left.document': '{name}: one motion, scene or capture opens per drop ({first} did); only more model motions (.vmd) are offered for Merge with…',
  'drop.left.music': '{name}: one song loads per drop ({first} did)',
  'drop.left.notMerged': '{name}: not offered for merging, as {first} did not open',
  'drop.left.camera': '{name}: one camera per drop ({first} became the camera)',
  'drop.left.cameraNotAdded': '{name}: not made the camera, as {first} did not open',
  'drop.left.pose': '{name}: one pose per drop ({first} was asked about)',
  'drop.left.poseNotApplied': '{name}: not put onto an actor, as {first} did not open',
  'batch.title': 'Batch',
  'batch.operation': 'Operation',
  'batch.group.edit': 'Edit motions',
  'batch.group.capture': 'Motion capture and VRM Animation',
  'batch.group.files': 'Poses and summaries',
  'batch.input': 'Input folder',
  'batch.output': 'Output folder',
  'batch.browse': 'Browse…',
  'batch.recursive': 'Include sub-folders',
  'batch.overwrite': 'Overwrite existing outputs',
  'batch.dryRun': 'Dry run',
  'batch.start': 'Start',
  'batch.cancel': 'Cancel job',
  'batch.close': 'Close',
  'batch.progress': '{done} / {total} files',
  'batch.done': 'Done: {ok} ok, {failed} failed, {skipped} skipped',
  'batch.doneDry': 'Dry run, nothing written: {would} would be written, {failed} failed, {skipped} would be skipped (output exists)',
  'batch.notTaken': '{n} .vpd pose {n|file|files} in the folder {n|was|were} not processed: this operation works on VMD motions (“Convert VMD ⇄ VPD” turns poses into motions)',
  'batch.notTakenCapture': '{n} .vmd/.vpd {n|file|files} in the folder {n|was|were} not processed: this operation takes {ext} files',
  // "Include sub-folders" off: the files of sub-folders the run would have taken (the engine's inSubfolders).
  'batch.inSubfolders': '{n} {n|file|files} in sub-folders {n|was|were} not included: turn on “Include sub-folders” to take them',
  'batch.skippedExisting': 'Outputs kept because they already exist: {n}. Tick “{overwrite}” to replace them',
  'batch.cancelled': 'Cancelled',
  'about.title': 'About VMD Studio',
  'about.version': 'Version {version}',
  'about.mode': 'Mode',
  'about.platform': 'Platform',
  'editor.placeholder': 'Editor',
};

export type StringKey = keyof typeof en;

const ja: Record<StringKey, string> = {
  'app.title': 'VMD Studio',
  'menu.file': 'ファイル',
  'menu.edit': '編集',
  'menu.view': '表示',
  'menu.help': 'ヘルプ',
  'menu.open': '開く…',
  'menu.openRecent': '最近使ったファイル',
  'menu.clearRecent': '履歴を消去',
  'menu.clearRecentAsk': '「最近使ったファイル」の一覧から {n} 件を消去しますか？ ファイル自体はそのまま残ります。',
  'menu.clearRecentYes': '一覧を消去',
  'menu.noRecent': '最近使ったファイルはありません',
  'menu.recentGone': '{name} が {folder} に見つかりません（移動・名前の変更・削除）。最近使ったファイルの一覧から外しました',
  'menu.save': '上書き保存',
  'menu.saveAs': '名前を付けて保存…',
  'menu.closeScene': 'シーンを閉じる',
  'menu.close': '閉じる',
  'menu.exportVpd': '現在フレームをVPDに書き出し…',
  'menu.exportMotion': '書き出し',
  'menu.exportVrma': 'VRM アニメーション (.vrma)…',
  'menu.exportBvh': 'BVH…',
  'menu.batch': '一括処理…',
  'menu.render': 'レンダリング',
  'menu.renderVideo': '動画…',
  'menu.quit': '終了',
  'menu.undo': '元に戻す',
  'menu.redo': 'やり直し',
  'menu.copyCurve': '補間曲線をコピー',
  'menu.pasteCurve': '補間曲線を貼り付け',
  'menu.about': 'VMD Studio について',
  'menu.shortcuts': 'キーボードショートカット',
  'menu.wholeMotion': 'モーション全体…',
  'menu.importMouthTimings': '口パクのタイミングを読み込む…',
  'menu.wholeMotionTitle': 'モーション全体の左右反転・切り出し・速度変更・時間移動・補間曲線の設定（1回で元に戻せます）',
  'menu.language': '言語',
  'menu.reload': '再読み込み',
  'menu.devtools': '開発者ツール',
  'menu.fullscreen': '全画面表示',
  'dialog.openTitle': 'モーション・ポーズ・モデル・シーン・キャプチャ・曲を開く',
  'dialog.saveTitle': '名前を付けて保存',
  'dialog.saveActorTitle': '{actor} のモーションを保存',
  'dialog.saveCopyTitle': '{actor} のモーションを保存（{file} のコピー）',
  'dialog.folderTitle': 'フォルダを選択',
  'dialog.exportVpdTitle': 'フレーム {frame} のポーズをVPDに書き出し',
  'dialog.path': 'パス',
  'dialog.up': '上へ',
  'dialog.home': 'ホーム',
  'dialog.go': '移動',
  'dialog.open': '開く',
  'dialog.save': '保存',
  'dialog.choose': 'このフォルダを選択',
  'dialog.cancel': 'キャンセル',
  'dialog.empty': '該当するファイルはありません',
  'dialog.showHidden': '隠しファイルを表示',
  'dialog.showHiddenTitle': '名前がドットで始まるファイルとフォルダも表示します（設定に保存されます）',
  'dialog.entries': 'フォルダとファイル',
  'dialog.fileName': 'ファイル名',
  'dialog.overwrite': '{name} は既にあります。置き換えますか？',
  'dialog.windowsChars': 'Windows ではファイル名に {chars} を使えません。Windows の人は {name} を展開できません。この名前のままなら、もう一度保存を押してください（名前を変えることもできます）',
  'dialog.windowsReserved': '{reserved} は Windows が装置名に使う名前です。Windows の人は {name} を展開できません。この名前のままなら、もう一度保存を押してください（名前を変えることもできます）',
  'dialog.replace': '置き換える',
  'dialog.motionFiles': 'モーション・ポーズファイル (.vmd, .vpd)',
  'dialog.modelFiles': 'モデルファイル (.pmx, .pmd)',
  'dialog.allFiles': 'すべてのファイル',
  'dialog.close': '閉じる',
  'close.unsaved': '{name} に未保存の変更があります。',
  'close.save': '保存',
  'close.discard': '保存しない',
  'close.cancel': 'キャンセル',
  'summary.title': 'ファイル',
  'summary.none': 'ファイルが開かれていません。.vmd か .vpd を開くか、ウィンドウにドロップしてください。',
  'summary.kind': '種類',
  'summary.kind.motion': 'モーション',
  'summary.kind.morph': '表情モーション',
  'summary.kind.camera': 'カメラ',
  'summary.kind.light': '照明',
  'summary.kind.unknown': '不明',
  'summary.model': 'モデル',
  'summary.length': '長さ',
  'summary.frames': '{n} フレーム',
  'summary.framesOne': '{n} フレーム',
  'summary.seconds': '{s} 秒',
  'summary.keys': 'キー数',
  'summary.block.bone': 'ボーン',
  'summary.block.morph': '表情',
  'summary.block.camera': 'カメラ',
  'summary.block.light': '照明',
  'summary.block.shadow': 'セルフ影',
  'summary.block.ik': '表示・IK',
  'summary.absent': 'なし',
  'summary.bones': 'ボーン数',
  'summary.morphs': '表情数',
  'summary.cameraCuts': 'カメラのカット',
  'summary.header': 'ヘッダ',
  'err.E_VMD_MAGIC': 'VMD ファイルではありません',
  'err.E_VMD_TRUNCATED': 'ファイルが途中で切れているか壊れています（途中で終わっています）',
  'err.E_VMD_COUNT': 'ファイルが途中で切れているか壊れています（キーの数がファイルの大きさと合いません）',
  'err.E_VPD_MAGIC': 'VPD ポーズファイルではありません',
  'err.E_VPD_SYNTAX': 'VPD の書式が正しくありません',
  'err.E_PMX_MAGIC': 'PMX / PMD モデルではありません',
  'err.E_PMX_TRUNCATED': 'モデルファイルが途中で切れているか壊れています',
  'err.E_NAME_TOO_LONG': '名前が VMD に入る長さ（Shift_JIS で 15 バイト）を超えています',
  'err.E_JSON_SYNTAX': 'JSON の書式が正しくありません',
  'err.E_JSON_SCHEMA': 'VMD JSON の項目が正しくありません',
  'err.E_IO_NOT_FOUND': 'ファイルが見つかりません',
  'err.E_IO_DENIED': 'ファイルを読み書きする権限がありません',
  'err.E_IO_EXISTS': '同じ名前のファイルがすでにあります',
  'err.E_IO': 'ファイルの読み書きに失敗しました',
  'err.E_UNSUPPORTED': 'この種類のファイルには対応していません',
  'err.E_BUSY': '別の処理を実行中です',
  'err.E_CANCELLED': '取り消しました',
  'err.E_ARGUMENT': '要求の内容が正しくありません',
  'err.E_EDIT': '編集できませんでした',
  'err.E_INTERNAL': '内部エラー',
  'err.atByte': '{n} バイト目',
  'summary.warnings': '注意',
  'note.W_VMD_TRAILING': '最後のブロックの後ろの {n} バイトはそのまま保持します',
  'note.W_VMD_SHORT_TAIL': '最後のブロックの後ろの {n} バイトはそのまま保持します',
  'note.W_VPD_UTF8': 'UTF-8 のテキストとして読みました。MMD は VPD を Shift_JIS として読みます（VPD 書き出しは Shift_JIS で書きます）',
  'note.W_VPD_COUNT': 'ヘッダーのボーン数は {declared} ですが、ファイルには {n} 個あります（ファイル内のボーンを使います）',
  'note.W_NAME_SKIPPED': '{kind}「{name}」は Shift_JIS で 15 バイトを超えるため省きました',
  'note.W_MODEL_NAME_LONG': 'モデル名「{name}」は Shift_JIS で {bytes} バイトあり、VMD のヘッダーに入る {limit} バイトを超えるため、MMD と同じく「{written}」に切って書き込みます',
  'note.W_MODEL_NAME_SJIS': 'モデル名「{name}」には Shift_JIS にない文字があるため「{written}」として書き込みます',
  'note.N_BONE_DUPLICATES': '{n} 個のボーンキーが同じボーン・フレームに重複しています（ファイル内で最初のものを使います）',
  'note.N_MORPH_DUPLICATES': '{n} 個の表情キーが同じ表情・フレームに重複しています（ファイル内で最初のものを使います）',
  'note.N_NON_UNIT': '{n} 個のボーンキーの回転クォータニオンの長さが 1 ではありません（そのまま保持）',
  'note.N_LEG_IK_OFF_FROM': 'フレーム {from} から足 IK がオフです（足は FK）: {names}',
  'note.N_LEG_IK_OFF': 'フレーム {frames} で足 IK がオフです（足は FK）: {names}',
  'note.N_IK_OFF_FROM': 'フレーム {from} から IK がオフです: {names}',
  'note.N_IK_OFF': 'フレーム {frames} で IK がオフです: {names}',
  'note.N_HIDDEN_FROM': 'フレーム {from} からモデルが非表示です（表示オフ）',
  'note.N_HIDDEN': 'フレーム {frames} でモデルが非表示です（表示オフ）',
  'note.W_PMX_VERSION': 'PMX バージョン {version} を 2.x として読みました',
  'note.W_PMX_FACES': '面の頂点インデックス数 {n} が 3 の倍数ではありません',
  'note.W_PMX_MATERIAL_FACES': '材質が描く面の頂点インデックスは {used} 個、モデルには {n} 個あります',
  'note.W_PMX_MORPH': 'モーフ {morph} のオフセット {k}: 不明な材質演算 {op} は無視しました',
  'note.W_MODEL_BONE_PARENT': 'ボーン {i}「{name}」の親 {parent} はモデルにないボーンのため、ルートとして扱います',
  'note.W_MODEL_IK_RANGE': 'ボーン {i}「{name}」の IK がモデルにないボーンを指すため、IK を省きました',
  'note.W_MODEL_BONE_CYCLE': 'ボーン {i}「{name}」は親がループしているため、ルートにしました',
  'note.W_PMD_IK_OWNER': 'IK {i} の持ち主のボーン {bone} がありません（ボーンは {n} 個）。省きました',
  'note.W_PMD_TAIL': '表情の後ろの追加データ（表示枠・英語名・トゥーン）を読めないため無視しました: {why}',
  'note.W_PMD_DISPLAY': 'ボーンの表示枠の {n} 項目が、モデルにないボーンか枠を指しています（最初: 枠 {group} のボーン {bone}。モデルのボーンは {bones} 個、枠は {groups} 個）。ボーン一覧から省きました',
  'note.W_MODEL_EXTENSION': '{file} は {format} のモデルです。MMD は拡張子で読み方を決めるため、{ext} に名前を変えてください',
  'summary.fromVpd': 'ポーズファイル (VPD)。フレーム0のキーとして表示',
  'status.ready': '準備完了',
  'status.noFile': 'ファイルなし',
  'status.unsaved': '未保存の変更あり',
  'status.saved': '未保存の変更なし',
  'status.othersUnsaved': '未保存の変更あり: {names}',
  'status.unsavedHereAnd': '未保存の変更あり: この文書と {names}',
  'status.songUnsaved': '曲とオフセットは未保存：「シーンを保存…」でモデル・ダンス・曲をまとめて保存できます',
  'status.songUnsavedTitle': '{file} は保存済みです。曲とそのオフセットはシーンファイル (.vmdscene) にだけ保存され、シーンファイルがモデル・ダンス・曲をまとめて指します（MMD のプロジェクトファイルと同じ）。上書き保存 (Ctrl+S) でも保存されます',
  'status.offsetUnsaved': '音楽のオフセットは未保存：「シーンを保存…」でダンスと一緒に保存できます',
  'status.offsetUnsavedTitle': '{file} は保存済みです。曲を外した後も次に選ぶ曲のために残っている音楽のオフセットは、シーンファイル (.vmdscene) にだけ保存されます。上書き保存 (Ctrl+S) でも保存されます',
  'status.notOnDisk': 'まだファイルに保存されていません',
  'status.missing': '{file} が見つかりません: 今ある場所から「開く…」で開き、アクターに読み込んでください',
  'status.frame': 'フレーム {frame} / {last}',
  'status.browserMode': 'ブラウザモード',
  'status.electronMode': 'デスクトップ',
  'notify.opened': '{name} を開きました',
  'notify.openedKeepsCamera': '{name} を開きました。プレビューは「カメラ…」で読み込んだ {camera} のままです（横の × で外せます）',
  'notify.saved': '{name} を保存しました',
  'notify.savedBackup': '{name} を保存しました（元のファイルは {backup} に保存）',
  'notify.savedNoBackup': '{name} を保存しました。元のファイルのバックアップは作りませんでした: {reason}',
  'notify.exported': '{name} を書き出しました',
  'notify.dismiss': '閉じる',
  'notify.details': '詳細',
  'notify.detailsTitle': '技術的な詳細（エラーコードと読み込み処理の英語のメッセージ。不具合の報告用）を表示 / 非表示',
  'notify.nothingToSave': '保存するファイルがありません',
  'notify.nothingToMerge': '結合…: 先にモーションを開いてください。選んだファイルはそのモーションに結合されます',
  'notify.notOpenable': '{name}: このアプリで開ける種類のファイルではありません。開く… とドロップで使えるのはモーション・ポーズ（{motion}）、モデル（{model}）、シーン（{scene}）、キャプチャ（{capture}）、曲（{music}、♪ 音楽… と同じく読み込み）です',
  'notify.fileIs': '{name}: {what}',
  'dialog.err.notTaken': '{name}: このダイアログでは開けない種類のファイルです（開けるのは {exts}）',
  'notify.sceneDroppedNoFolder': '{name}: シーンはモーション・モデル・曲を自分のフォルダからの相対パスで指しますが、ドロップされたファイルにはフォルダがありません（ブラウザはパスを渡しません）。そのため見つけられません。開く… か シーン → シーンを開く… で開いてください',
  'drop.hint': 'モーション・ポーズ ({motion}) やシーン ({scene}) は開く、モデル ({model}) はプレビューに表示、キャプチャ ({capture}) は取り込み、曲 ({music}) は音楽として読み込み',
  'drop.leftOut': 'ドロップした {n} 個のファイルを開きませんでした',
  'drop.opened': '開きました: {list}',
  'drop.sum.model': '{name}（モデル）',
  'drop.sum.motionOn': '{name}（{model} に）',
  'drop.sum.camera': '{name}（カメラ）',
  'drop.sum.pose': '{name}（ポーズ）',
  'drop.sum.music': '{name}（音楽）',
  'drop.sum.merge': '{name}（結合… で重ねる）',
  'drop.left.model': '{name}: 1回のドロップで読み込むモデルは1つです（{first} を読み込みました）',
  'drop.left.document': '{name}: 1回のドロップで開くモーション・シーン・キャプチャは1つです（{first} を開きました）。結合… に回せるのは続くモーション (.vmd) だけです',
  'drop.left.music': '{name}: 1回のドロップで読み込む曲は1つです（{first} を読み込みました）',
  'drop.left.notMerged': '{name}: {first} が開かれなかったため、結合に回していません',
  'drop.left.camera': '{name}: 1回のドロップで読み込むカメラは1つです（{first} をカメラにしました）',
  'drop.left.cameraNotAdded': '{name}: {first} が開かれなかったため、カメラにしていません',
  'drop.left.pose': '{name}: 1回のドロップで使うポーズは1つです（{first} について確認しました）',
  'drop.left.poseNotApplied': '{name}: {first} が開かれなかったため、アクターに適用していません',
  'batch.title': '一括処理',
  'batch.operation': '処理',
  'batch.group.edit': 'モーションの編集',
  'batch.group.capture': 'モーションキャプチャと VRM アニメーション',
  'batch.group.files': 'ポーズと概要',
  'batch.input': '入力フォルダ',
  'batch.output': '出力フォルダ',
  'batch.browse': '参照…',
  'batch.recursive': 'サブフォルダも含める',
  'batch.overwrite': '既存の出力を上書き',
  'batch.dryRun': '試行のみ（書き込まない）',
  'batch.start': '開始',
  'batch.cancel': '中止',
  'batch.close': '閉じる',
  'batch.progress': '{done} / {total} ファイル',
  'batch.done': '完了: 成功 {ok}、失敗 {failed}、スキップ {skipped}',
  'batch.doneDry': '試行のみ（何も書き込んでいません）: 書き込み予定 {would}、失敗 {failed}、スキップ予定（出力あり）{skipped}',
  'batch.notTaken': 'フォルダ内の .vpd ポーズファイル {n} 件は処理されませんでした。この操作は VMD モーションが対象です（「VMD ⇄ VPD 変換」でポーズをモーションにできます）',
  'batch.notTakenCapture': 'フォルダ内の .vmd / .vpd ファイル {n} 件は処理されませんでした。この操作は {ext} ファイルが対象です',
  'batch.inSubfolders': 'サブフォルダ内のファイル {n} 件は含まれていません。含めるには「サブフォルダも含める」をオンにしてください',
  'batch.skippedExisting': '{n} 件は出力が既にあるため残しました。置き換えるには「{overwrite}」をオンにしてください',
  'batch.cancelled': '中止しました',
  'about.title': 'VMD Studio について',
  'about.version': 'バージョン {version}',
  'about.mode': 'モード',
  'about.platform': 'OS',
  'editor.placeholder': 'エディタ',
};


export const strings: Record<Locale, Record<StringKey, string>> = { en, ja };

/** Every table merged per locale: each area keeps its own file, and all share `t`. */
const allEn = { ...en, ...editorStrings.en, ...editingStrings.en, ...previewStrings.en, ...batchStrings.en, ...shortcutStrings.en, ...timelineStrings.en, ...sceneStrings.en, ...cameraStrings.en, ...sceneDocsStrings.en, ...sceneSaveStrings.en, ...saveSafetyStrings.en, ...recoveryStrings.en, ...errorStrings.en, ...uxStrings.en, ...bvhStrings.en, ...videoStrings.en, ...retargetStrings.en, ...physicsBakeStrings.en, ...ikBakeStrings.en, ...mergeStrings.en, ...mocapStrings.en, ...faceStrings.en, ...modelStrings.en, ...helpStrings.en, ...warningStrings.en };
const allJa = { ...ja, ...editorStrings.ja, ...editingStrings.ja, ...previewStrings.ja, ...batchStrings.ja, ...shortcutStrings.ja, ...timelineStrings.ja, ...sceneStrings.ja, ...cameraStrings.ja, ...sceneDocsStrings.ja, ...sceneSaveStrings.ja, ...saveSafetyStrings.ja, ...recoveryStrings.ja, ...errorStrings.ja, ...uxStrings.ja, ...bvhStrings.ja, ...videoStrings.ja, ...retargetStrings.ja, ...physicsBakeStrings.ja, ...ikBakeStrings.ja, ...mergeStrings.ja, ...mocapStrings.ja, ...faceStrings.ja, ...modelStrings.ja, ...helpStrings.ja, ...warningStrings.ja };

/** Every string key of every table: what `t` accepts, so a misspelled key fails to compile. */
export type UiStringKey = keyof typeof allEn;

// Every error code has its line in both languages (a compile error otherwise).
const errorLines: Record<Locale, Record<`err.${ErrorCode}`, string>> = { en: allEn, ja: allJa };
void errorLines;

const lookup: Record<Locale, Record<string, string>> = { en: allEn, ja: allJa };

/**
 * The string for `key` in `locale`, with `{name}` placeholders replaced from `params`.
 * Falls back to English, then to the key itself, so a missing translation shows something readable.
 */
export function t(key: UiStringKey, locale: Locale, params?: Record<string, string | number>): string {
  return tDynamic(key, locale, params);
}

/**
 * `t` for a key built at run time (`err.${code}`, a key read from data): not checked by the compiler,
 * so it falls back to English, then to the key itself. `hasString` says whether such a key exists.
 */
export function tDynamic(key: string, locale: Locale, params?: Record<string, string | number>): string {
  const s = lookup[locale][key] ?? lookup.en[key] ?? key;
  if (!params) return s;
  const grouped = !UNGROUPED.has(key);
  return s
    .replace(PLURAL, (m, name: string, one: string, many: string) => (name in params ? (isOne(params[name]) ? one : many) : m))
    .replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? (grouped ? shown(name, params[name]) : String(params[name])) : m));
}

/**
 * The parameters that are counts a person reads ("657032 selected", "keys 658556 → 32999"): a whole number of
 * them is grouped by thousands in both languages ("657,032", as the summary panel and MMD's Japanese texts write
 * counts). Frame numbers ({frame}, {from}, {to}, {first}, {last}…), ids and values are not among them: MMD writes
 * frame 1200 ungrouped, and so does every field a frame is typed into.
 */
const COUNT_PARAMS = new Set(['n', 'm', 'count', 'declared', 'keys', 'kept', 'raw', 'before', 'after', 'added', 'dropped', 'collisions', 'replaced', 'skipped', 'changed', 'bones', 'morphs', 'vertices', 'cuts']);
/** Strings whose {n} is not a count: a byte offset, a line number (as a hex viewer and an editor show them). */
const UNGROUPED = new Set(['err.atByte', 'err.atLine']);
const shown = (name: string, v: string | number): string => (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) >= 1000 && COUNT_PARAMS.has(name) ? v.toLocaleString('en-US') : String(v));

/**
 * `{n|file|files}`: the word for the count `n` (the count itself is `{n}`), so that English says "1 file" and
 * "2 files" from one string; Japanese has no plural and does not use it. A count may come formatted ("1,234").
 */
const PLURAL = /\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g;
const isOne = (v: string | number) => String(v) === '1';

/** Whether `key` names a string in some table. */
export function hasString(key: string): key is UiStringKey {
  return Object.prototype.hasOwnProperty.call(lookup.en, key);
}

/** 'ja' for Japanese system languages (ja, ja-JP), else 'en'. */
export function localeFromLanguage(lang: string | null | undefined): Locale {
  return lang && /^ja\b/i.test(lang) ? 'ja' : 'en';
}
