/**
 * Strings of issue 30's panels and fixes: the curve pane naming the key it edits, the morph panel, the bone
 * list, staging, the layout (resizable panes, the full-window preview), next to strings.ts like the other
 * areas. `en` defines the keys; `ja` must have the same ones.
 */
import type { Locale } from './locale';

const en = {
  'curve.editsKey': 'Edits the curve of the key at {frame} (shapes {from} → {to})',
  'curve.editsKeyFirst': 'Edits the curve of the key at {frame} (the first key: it shapes nothing yet)',
  'side.file': 'File',
  'side.bones': 'Bones',
  'side.morphs': 'Morphs',
  'bones.search': 'Search bones',
  'bones.otherGroup': 'Other bones',
  'bones.none': 'No bone matches',
  'bones.title': 'Pick a bone as a click on its joint does: its row, its key at the current frame, the pose handle',
  'morphs.eyes': 'Eyes',
  'morphs.mouth': 'Mouth',
  'morphs.brows': 'Brows',
  'morphs.other': 'Other',
  'morphs.none': 'The shown model has no morphs (load a PMX or PMD model)',
  'morphs.noMotion': 'Open a motion, or make one with File → New Motion, to key morphs',
  'morphs.title': 'Sets {name} at frame {frame} and registers the key (one undo step)',
  'morphs.keyed': 'a key at this frame',
  'side.stage': 'Stage',
  'menu.newMotion': 'New',
  'menu.newMotionTitle': 'New Motion: an empty, unsaved motion for the shown model (its name in the file)',
  'stage.title': 'Where each actor stands in the scene (saved in the scene file; the motion is not changed)',
  'stage.turn': 'Turn °',
  'stage.none': 'No actors: open a motion or a scene',
  'stage.reset': 'Reset',
};

export type UxStringKey = keyof typeof en;

const ja: Record<UxStringKey, string> = {
  'curve.editsKey': 'フレーム {frame} のキーの補間曲線を編集します ({from} → {to} の区間)',
  'curve.editsKeyFirst': 'フレーム {frame} のキーの補間曲線を編集します (最初のキー: まだ区間がありません)',
  'side.file': 'ファイル',
  'side.bones': 'ボーン',
  'side.morphs': '表情',
  'bones.search': 'ボーンを検索',
  'bones.otherGroup': 'その他のボーン',
  'bones.none': '一致するボーンがありません',
  'bones.title': '関節をクリックしたときと同じようにボーンを選びます（行、現在フレームのキー、姿勢ハンドル）',
  'morphs.eyes': '目',
  'morphs.mouth': 'リップ',
  'morphs.brows': '眉',
  'morphs.other': 'その他',
  'morphs.none': '表示中のモデルには表情がありません（PMX か PMD のモデルを読み込んでください）',
  'morphs.noMotion': '表情のキーを打つにはモーションを開くか、ファイル → 新規モーションで作ってください',
  'morphs.title': 'フレーム {frame} の {name} を設定してキーを登録します（取り消しは 1 回）',
  'morphs.keyed': 'このフレームにキーがあります',
  'side.stage': '配置',
  'menu.newMotion': '新規',
  'menu.newMotionTitle': '新規モーション: 表示中のモデル用の空のモーション（未保存、ファイルにモデル名）',
  'stage.title': '各アクターがシーンのどこに立つか（シーンファイルに保存します。モーションは変わりません）',
  'stage.turn': '向き °',
  'stage.none': 'アクターがいません。モーションかシーンを開いてください',
  'stage.reset': '元に戻す',
};

export const uxStrings: Record<Locale, Record<UxStringKey, string>> = { en, ja };
