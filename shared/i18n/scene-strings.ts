/**
 * Strings of the scene (scene file, music, waveform), next to strings.ts like the other areas. `en`
 * defines the keys; `ja` must have the same ones. `t` in strings.ts reads this table too.
 */
import type { Locale } from './locale';

const en = {
  'err.E_SCENE_JSON': 'The scene file is not valid JSON',
  'err.E_SCENE_FORMAT': 'Not a VMD Studio scene file',
  'err.E_SCENE_VERSION': 'The scene file was written by a newer VMD Studio',
  'err.E_SCENE_SCHEMA': 'The scene file has a wrong or missing field',
  'err.E_AUDIO_DECODE': 'This audio format cannot be played here',
  'scene.missingFile': 'Not found: {name} ({role}); the rest of the scene opened',
  'audio.decodeFailed': 'Cannot decode {name}: {format} is not supported by this platform’s audio',
  'audio.loaded': 'Music: {name} ({seconds} s)',
  'audio.waveform': 'Music waveform',
  'dialog.sceneFiles': 'Scene files (.vmdscene)',
  'dialog.audioFiles': 'Audio files (WAV, MP3, OGG, FLAC, M4A/AAC)',
  'scene.menu': 'Scene',
  'scene.menuTitle': 'Scene files (.vmdscene): the motion, its model and the music together',
  'scene.open': 'Open Scene…',
  'scene.saveAs': 'Save Scene As…',
  'scene.openTitle': 'Open scene',
  'scene.saveTitle': 'Save scene',
  'music.add': '♪ Music…',
  'music.addTitle': 'Load a song (WAV, MP3, OGG, FLAC, M4A/AAC) to play with the motion and show as a waveform',
  'music.pickTitle': 'Open music',
  'music.offset': 'Offset',
  'music.offsetTitle': 'Frames of the song before frame 0 (negative: the song starts later); drag the waveform to change it',
  'music.mute': 'Mute',
  'music.unmute': 'Unmute',
  'music.volume': 'Volume',
  'music.remove': 'Remove the music',
  'music.beats': 'Beats',
  'music.beatsTitle': 'Beat markers: find the song’s tempo and show a line on each beat; key drags in the timeline snap to a beat within a few pixels',
  'music.beatsDetecting': 'Finding the beat…',
  'music.beatsFound': 'Beats: {bpm} BPM, first beat at {first} s',
  'music.beatsNone': 'No steady beat found in {name}',
};

export type SceneStringKey = keyof typeof en;

const ja: Record<SceneStringKey, string> = {
  'err.E_SCENE_JSON': 'シーンファイルが正しい JSON ではありません',
  'err.E_SCENE_FORMAT': 'VMD Studio のシーンファイルではありません',
  'err.E_SCENE_VERSION': 'シーンファイルは新しい版の VMD Studio で保存されています',
  'err.E_SCENE_SCHEMA': 'シーンファイルの項目が正しくないか足りません',
  'err.E_AUDIO_DECODE': 'この音声形式はここでは再生できません',
  'scene.missingFile': '見つかりません: {name}（{role}）。シーンの残りは開きました',
  'audio.decodeFailed': '{name} をデコードできません: {format} はこの環境の音声機能で扱えません',
  'audio.loaded': '音楽: {name}（{seconds} 秒）',
  'audio.waveform': '音楽の波形',
  'dialog.sceneFiles': 'シーンファイル（.vmdscene）',
  'dialog.audioFiles': '音声ファイル（WAV・MP3・OGG・FLAC・M4A/AAC）',
  'scene.menu': 'シーン',
  'scene.menuTitle': 'シーンファイル（.vmdscene）: モーション・モデル・音楽をまとめて扱います',
  'scene.open': 'シーンを開く…',
  'scene.saveAs': 'シーンを保存…',
  'scene.openTitle': 'シーンを開く',
  'scene.saveTitle': 'シーンを保存',
  'music.add': '♪ 音楽…',
  'music.addTitle': '曲（WAV・MP3・OGG・FLAC・M4A/AAC）を読み込み、モーションと一緒に再生して波形を表示します',
  'music.pickTitle': '音楽を開く',
  'music.offset': 'オフセット',
  'music.offsetTitle': 'フレーム 0 より前に流れる曲の長さ（フレーム）。負の値は曲が後から始まります。波形をドラッグしても変えられます',
  'music.mute': 'ミュート',
  'music.unmute': 'ミュート解除',
  'music.volume': '音量',
  'music.remove': '音楽を外す',
  'music.beats': 'ビート',
  'music.beatsTitle': 'ビートマーカー: 曲のテンポを求めて拍ごとに線を表示します。タイムラインでキーをドラッグすると数ピクセル以内の拍に吸着します',
  'music.beatsDetecting': 'ビートを検出中…',
  'music.beatsFound': 'ビート: {bpm} BPM、最初の拍は {first} 秒',
  'music.beatsNone': '{name} に一定のビートが見つかりません',
};

export const sceneStrings: Record<Locale, Record<SceneStringKey, string>> = { en, ja };
