/**
 * Strings of Whole Motion → Bake IK to FK… (components/IkBakeDialog.vue, stores/ik-bake.ts), next to strings.ts
 * like the other areas. `en` defines the keys; `ja` must have the same ones. MMD users call it 「IKをFKに焼き込み」.
 */
import type { Locale } from './locale';

const en = {
  'ikBake.open': 'Bake IK to FK…',
  'ikBake.openTitle': 'Bake the pose the IK gives the active actor’s model under this motion into rotation keys of the chains’ bones, and switch that IK off over the range (one undo step)',
  'ikBake.offNoModel': 'Bake IK to FK is off: the active actor has no model file (open a .pmx or .pmd in the preview first)',
  'ikBake.offNone': 'Bake IK to FK is off: {model} has no IK bones, so there is no IK to bake',
  'ikBake.title': 'Bake IK to FK: {motion}',
  'ikBake.bones': 'IK bones',
  'ikBake.bonesHint': 'Ticked: the IK bones the motion has on somewhere in the range',
  'ikBake.all': 'All',
  'ikBake.legs': 'Legs only',
  'ikBake.legsTitle': 'Only the legs’ IK (足ＩＫ and つま先ＩＫ): knees, legs and ankles get keys, hair and other IK stay as they are',
  'ikBake.noneTicked': 'Tick at least one IK bone',
  'ikBake.explain': 'The bones each ticked IK turns (足ＩＫ → 足, ひざ; つま先ＩＫ → 足首) get rotation keys that put them where the IK puts them, and that IK is switched off over the range (表示・IK keys). Before and after the range the IK stays as the motion had it.',
  'ikBake.progress': 'Baking IK… {percent}%',
  'ikBake.cancelled': 'IK bake cancelled',
  'ikBake.cancelledLine': 'IK bake cancelled: the motion is as it was',
  'ikBake.droppedLine': 'The motion changed while baking, so the IK bake was thrown away: the motion is as it is now. Bake again',
  'ikBake.ikOff': 'IK off over frames {from}–{to}: {names}',
  'ikBake.keyed': 'Bones keyed: {names}',
  'ikBake.keys': 'Keys: {raw} at one per frame → {kept} kept ({percent}%), {replaced} replaced',
  'ikBake.error': 'Largest error, played with the IK off against the IK on: {pos} units, {rot}°{where}',
  'ikBake.tooLong': 'Names too long for a VMD (not baked): {names}',
  'ikBake.plotLink': 'Plot',
  'ikBake.plotLinkTitle': 'Which baked bone the plot shows (its rotation over the range)',
  'ikBake.plotCaption': '{bone} · {channel}: the IK’s pose frame by frame (grey) and the baked keys played (orange; ■ a key kept)',
  'ikBake.applied': 'IK baked to FK in {name}: {kept} keys for {bones} bones, {iks} off (Ctrl+Z undoes it)',
  'job.ikBake': 'IK is being baked',
};

const ja: Record<keyof typeof en, string> = {
  'ikBake.open': 'IKをFKに焼き込み…',
  'ikBake.openTitle': 'アクティブなアクターのモデルでこのモーションの IK が決める姿勢を、IK が動かすボーンの回転キーに焼き込み、範囲内でその IK を OFF にします（1回で元に戻せます）',
  'ikBake.offNoModel': 'IKをFKに焼き込みはできません: アクティブなアクターにモデルファイルがありません（先にプレビューで .pmx / .pmd を開いてください）',
  'ikBake.offNone': 'IKをFKに焼き込みはできません: {model} には IK ボーンがなく、焼き込む IK がありません',
  'ikBake.title': 'IKをFKに焼き込み: {motion}',
  'ikBake.bones': 'IK ボーン',
  'ikBake.bonesHint': 'チェック済み: 範囲内のどこかでモーションが ON にしている IK ボーン',
  'ikBake.all': 'すべて',
  'ikBake.legs': '足のみ',
  'ikBake.legsTitle': '足の IK（足ＩＫ とつま先ＩＫ）だけ: ひざ・足・足首にキーを打ち、髪などほかの IK はそのままにします',
  'ikBake.noneTicked': 'IK ボーンを1つ以上チェックしてください',
  'ikBake.explain': 'チェックした IK が動かすボーン（足ＩＫ → 足、ひざ。つま先ＩＫ → 足首）に、IK と同じ姿勢になる回転キーを打ち、範囲内でその IK を OFF にします（表示・IK キー）。範囲の前後では IK はモーションのままです。',
  'ikBake.progress': 'IK を焼き込み中… {percent}%',
  'ikBake.cancelled': 'IK の焼き込みをキャンセルしました',
  'ikBake.cancelledLine': 'IK の焼き込みをキャンセルしました。モーションは変更されていません',
  'ikBake.droppedLine': '焼き込み中にモーションが変更されたため、IK の焼き込み結果を破棄しました。モーションは現在のままです。もう一度焼き込んでください',
  'ikBake.ikOff': '{from}–{to} フレームで IK を OFF: {names}',
  'ikBake.keyed': 'キーを打ったボーン: {names}',
  'ikBake.keys': 'キー: 毎フレーム {raw} → {kept} を残す（{percent}%）、{replaced} を置き換え',
  'ikBake.error': '最大誤差（IK OFF で再生 対 IK ON）: {pos} 単位、{rot}°{where}',
  'ikBake.tooLong': 'VMD に入らない長さの名前（焼き込みなし）: {names}',
  'ikBake.plotLink': 'グラフ',
  'ikBake.plotLinkTitle': 'グラフに表示する焼き込みボーン（範囲内の回転）',
  'ikBake.plotCaption': '{bone}・{channel}：IK の姿勢（毎フレーム、灰色）と焼き込んだキーの再生（橙色、■ は残したキー）',
  'ikBake.applied': '{name} の IK を FK に焼き込みました: {bones} ボーンに {kept} キー、{iks} を OFF（Ctrl+Z で元に戻せます）',
  'job.ikBake': 'IK を焼き込み中です',
};

export const ikBakeStrings: Record<Locale, typeof en> = { en, ja };
