/**
 * Strings of autosave and recovery (renderer/src/stores/autosave.ts, shell/recovery.ts): the question at start when
 * VMD Studio closed without saving, and the Autosave setting. `en` defines the keys; `ja` has the same ones.
 */
import type { Locale } from './locale';

const en = {
  'recovery.title': 'VMD Studio closed without saving {n} {n|document|documents}',
  'recovery.titleScene': 'VMD Studio closed without saving a scene and {n} {n|document|documents}',
  'recovery.titleSceneOnly': 'VMD Studio closed without saving a scene',
  'recovery.messageScene': 'Copies of the scene and of its unsaved documents were kept. Recover opens the scene as it was: its actors on their models with their motions (the edited ones unsaved), the camera, the music and its offset. Save writes a document to its file only after checking that the file was not changed since (else it asks); a document without a file asks for a name. Save also writes the scene.',
  'recovery.itemScene': 'Scene {name} — {where} — kept {time} — {actors} {actors|actor|actors} with their models, motions, camera, music and offset',
  'recovery.recoveredScene': 'Recovered the scene {scene} and {n} {n|document|documents}: {names}. Save to keep them.',
  'recovery.message': 'Copies of these unsaved documents were kept. Recover opens each as an unsaved document: Save writes it to its file only after checking that the file was not changed since (else it asks), and a document without a file asks for a name.',
  'recovery.item': '{name} — {where} — kept {time} — {keys} {keys|key|keys}',
  'recovery.itemActor': '{name} ({actor}) — {where} — kept {time} — {keys} {keys|key|keys}',
  'recovery.untitled': 'never saved',
  'recovery.recover': 'Recover',
  'recovery.discard': 'Discard…',
  'recovery.later': 'Later',
  'recovery.discardTitle': 'Discard the recovered documents?',
  'recovery.discardAsk': 'The kept copies of {n} {n|document|documents} are deleted. This cannot be undone.',
  'recovery.discardYes': 'Discard',
  'recovery.recovered': 'Recovered {n} {n|document|documents}: {names}. Save to keep them.',
  'recovery.readFailed': 'Could not recover {name}: {reason}',
  'recovery.ignored': 'A recovery copy was ignored: {line}',
  'recovery.keepFailed': 'Autosave could not keep a copy of {name}: {reason}',
  'recovery.setting': 'Autosave',
  'recovery.settingOff': 'Off',
  'recovery.settingEvery': 'Every {n} s',
  'recovery.settingEveryMin': 'Every {m} min',
  /** A value set by hand in settings.json, not one of the menu's choices: shown as it is, and said so. */
  'recovery.settingHandSet': '{every} (settings.json)',
  'recovery.settingTitle': 'Keep copies of unsaved documents, and of an unsaved scene’s layout (actors, models, camera, music, offset), in the app’s settings folder, at most this often, a few seconds after the last edit',
};

export type RecoveryStringKey = keyof typeof en;

const ja: Record<RecoveryStringKey, string> = {
  'recovery.title': 'VMD Studio は {n} 個のドキュメントを保存せずに終了しました',
  'recovery.titleScene': 'VMD Studio はシーンと {n} 個のドキュメントを保存せずに終了しました',
  'recovery.titleSceneOnly': 'VMD Studio はシーンを保存せずに終了しました',
  'recovery.messageScene': 'シーンとその未保存のドキュメントのコピーが残っています。「復元」するとシーンを元のとおりに開きます。アクターはそれぞれのモデルとモーションで（編集したものは未保存として）、カメラ、音楽とそのオフセットも戻ります。ドキュメントを保存するときは、ファイルがその後変更されていないことを確かめてから書き込みます（変更されていれば確認します）。ファイルのないドキュメントは名前を尋ねます。保存するとシーンも書き込みます。',
  'recovery.itemScene': 'シーン {name} — {where} — {time} に保持 — アクター {actors} 人とそのモデル、モーション、カメラ、音楽、オフセット',
  'recovery.recoveredScene': 'シーン {scene} と {n} 個のドキュメントを復元しました: {names}。残すには保存してください。',
  'recovery.message': '未保存のドキュメントのコピーが残っています。「復元」すると未保存のドキュメントとして開きます。保存するときは、ファイルがその後変更されていないことを確かめてから書き込みます（変更されていれば確認します）。ファイルのないドキュメントは名前を尋ねます。',
  'recovery.item': '{name} — {where} — {time} に保持 — キー {keys} 個',
  'recovery.itemActor': '{name}（{actor}）— {where} — {time} に保持 — キー {keys} 個',
  'recovery.untitled': '未保存',
  'recovery.recover': '復元',
  'recovery.discard': '破棄…',
  'recovery.later': 'あとで',
  'recovery.discardTitle': '復元できるドキュメントを破棄しますか？',
  'recovery.discardAsk': '{n} 個のドキュメントのコピーを削除します。元に戻せません。',
  'recovery.discardYes': '破棄',
  'recovery.recovered': '{n} 個のドキュメントを復元しました: {names}。残すには保存してください。',
  'recovery.readFailed': '{name} を復元できません: {reason}',
  'recovery.ignored': '復元用のコピーを無視しました: {line}',
  'recovery.keepFailed': '自動保存で {name} のコピーを残せません: {reason}',
  'recovery.setting': '自動保存',
  'recovery.settingOff': 'オフ',
  'recovery.settingEvery': '{n} 秒ごと',
  'recovery.settingEveryMin': '{m} 分ごと',
  'recovery.settingHandSet': '{every}（settings.json の値）',
  'recovery.settingTitle': '未保存のドキュメントと、未保存のシーンの構成（アクター、モデル、カメラ、音楽、オフセット）のコピーをアプリの設定フォルダに残します（最後の編集の数秒後、最短でこの間隔ごと）',
};

export const recoveryStrings: Record<Locale, Record<RecoveryStringKey, string>> = { en, ja };
