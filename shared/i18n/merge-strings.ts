/**
 * Strings of Whole Motion → Merge with… (components/MergeDialog.vue, stores/merge.ts), next to strings.ts like
 * the other areas. `en` defines the keys; `ja` must have the same ones. 結合 is MMD users' word for merging.
 */
import type { Locale } from './locale';

const en = {
  'merge.open': 'Merge with…',
  'merge.openTitle': 'Merge other motion files into this motion, after its last frame or on the same timeline (one undo step; as vmd-studio merge)',
  'merge.op': 'Merge',
  'merge.title': 'Merge with: {name}',
  'merge.files': 'Motions to merge',
  'merge.none': 'No motion chosen yet: Add motion… picks one (again for more)',
  'merge.add': 'Add motion…',
  'merge.pickTitle': 'Choose a motion to merge into {name}',
  'merge.remove': 'Remove',
  'merge.append': 'Append after the last frame, with a gap of',
  'merge.gapFrames': 'frames',
  'merge.overlay': 'Overlay on the same timeline (a facial motion, a camera or light file)',
  'merge.badGap': 'The gap is a whole number of frames, 0 or more',
  'merge.firstWins': 'A bone, morph, camera, light or self-shadow key at a frame the open motion (or a file above) already keys is dropped: the first file wins, as vmd-studio merge',
  'merge.apply': 'Apply',
  'merge.applying': 'Merging…',
  'merge.cancel': 'Cancel',
  'merge.notVmd': '{name} is a pose (.vpd): merge takes motions (.vmd); convert it first',
  'merge.applied': 'Merged {files} into {name} (Ctrl+Z undoes it)',
  'merge.added': 'keys added: {n}',
  'merge.collisions': '{n} {n|key|keys} at a (name, frame) already keyed {n|was|were} dropped (first file wins)',
  'merge.cameraIntoModel': '{file} is a camera motion: its {n} camera {n|key was|keys were} added to a model motion (MMD plays them only when the file is loaded onto the camera)',
  'merge.unchanged': 'Merge: nothing was added to {name}',
  'merge.changedWhileReading': 'Merge: the motion changed while the files were read, so nothing was merged. Apply again',
};

const ja: Record<keyof typeof en, string> = {
  'merge.open': '結合…',
  'merge.openTitle': 'ほかのモーションファイルをこのモーションに結合します。最後のフレームの後ろに、または同じタイムライン上に（1回で元に戻せます。vmd-studio merge と同じ結果）',
  'merge.op': '結合',
  'merge.title': '結合: {name}',
  'merge.files': '結合するモーション',
  'merge.none': 'モーションがまだありません。「モーションを追加…」で選んでください（続けて追加できます）',
  'merge.add': 'モーションを追加…',
  'merge.pickTitle': '{name} に結合するモーションを選択',
  'merge.remove': '削除',
  'merge.append': '最後のフレームの後ろに続ける。間隔',
  'merge.gapFrames': 'フレーム',
  'merge.overlay': '同じタイムラインに重ねる（表情モーション、カメラ・照明のファイル）',
  'merge.badGap': '間隔は 0 以上の整数（フレーム数）です',
  'merge.firstWins': '開いているモーション（または上のファイル）がすでにキーを持つフレームのボーン・表情・カメラ・照明・セルフ影のキーは捨てられます。先のファイルが優先です（vmd-studio merge と同じ）',
  'merge.apply': '適用',
  'merge.applying': '結合中…',
  'merge.cancel': 'キャンセル',
  'merge.notVmd': '{name} はポーズ (.vpd) です。結合できるのはモーション (.vmd) です。先に変換してください',
  'merge.applied': '{name} に {files} を結合しました（Ctrl+Z で元に戻せます）',
  'merge.added': '追加したキー: {n}',
  'merge.collisions': '同じ（名前、フレーム）のキー {n} 個を捨てました（先のファイルが優先）',
  'merge.cameraIntoModel': '{file} はカメラモーションです。そのカメラキー {n} 個をモデルのモーションに追加しました（MMD ではファイルをカメラに読み込んだときだけ再生されます）',
  'merge.unchanged': '結合: {name} に追加されたキーはありません',
  'merge.changedWhileReading': '結合: ファイルを読む間にモーションが変わったため、何も結合していません。もう一度「適用」してください',
};

export const mergeStrings: Record<Locale, typeof en> = { en, ja };
