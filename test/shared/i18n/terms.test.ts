// One word for one thing in each language, as a bilingual translator checked the app (report nui18n, findings 3–11):
// before, the music offset was 「ずれ」 on screen and 「オフセット」 to a screen reader, the aspect select "Frame" beside
// the time "Frame 0 / 300" and the "Frame" borders, the Register button "Insert", the Display · IK block 「IK・表示」
// in the File panel, the FOV tab 「視野」, the Video dialog's Japanese in ASCII parentheses, 「15 f」 and 「〜 F」 for
// frames, and the preview 「3D ビュー」, 「カメラ文書」, 「フォルダー」, 「灰色の人形」 in a few strings each.
import { describe, expect, it } from 'vitest';
import { strings, t } from '../../../shared/i18n/strings';
import type { Locale } from '../../../shared/i18n/locale';

/** Every table's strings for a locale: the main table and each `*-strings.ts` (each exports `{ en, ja }`). */
const tables = import.meta.glob('../../../shared/i18n/*-strings.ts', { eager: true }) as Record<string, Record<string, unknown>>;
function all(locale: Locale): [string, string][] {
  const out: [string, string][] = Object.entries(strings[locale]);
  for (const mod of Object.values(tables)) {
    for (const v of Object.values(mod)) {
      const table = (v as Partial<Record<Locale, Record<string, string>>> | null)?.[locale];
      if (v && typeof v === 'object' && table && typeof table === 'object') out.push(...Object.entries(table));
    }
  }
  return out;
}
/**
 * ASCII parentheses around Japanese text, or right after a Japanese character: prose that takes （）. ASCII ones
 * around Latin text stay, as in every table: a key ("(Ctrl+S)"), a file type ("(.vmd, .vpd)"), a placeholder
 * ("({n})"), "720p (1280 × 720)", "WebM (VP9 + Opus)".
 */
const jp = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const asciiAroundJapanese = new RegExp(`\\([^()]*[${jp}][^()]*\\)|[${jp}]\\(`, 'u');
/** Japanese strings whose ASCII parentheses around Japanese are code, not prose (none at present). */
const CODE_PARENS = new Set<string>([]);
const having = (locale: Locale, re: RegExp) => all(locale).filter(([, v]) => re.test(v)).map(([k, v]) => `${k}: ${v}`);

describe('terms: one word per thing', () => {
  it('reads every table (a glob that found nothing would pass the checks below)', () => {
    expect(all('ja').length).toBeGreaterThan(1000);
    expect(all('en').length).toBe(all('ja').length);
  });

  it('the music offset is オフセット on screen, to a screen reader and in Getting started', () => {
    expect(t('music.offsetLabel', 'ja')).toBe('オフセット');
    expect(t('music.offset', 'ja')).toBe('オフセット');
    expect(t('help.step4', 'ja')).toContain('「オフセット」にフレーム数を入力');
    expect(having('ja', /(?<!い)ずれ/)).toEqual([]); // いずれか (either) is another word
  });

  it('the aspect is Aspect / 画面, in the preview and in the Video dialog; the shot borders are Border / 枠', () => {
    expect([t('camera.aspect', 'en'), t('camera.aspect', 'ja')]).toEqual(['Aspect', '画面']);
    expect(t('video.aspect', 'en', { aspect: '16:9' })).toBe('Aspect 16:9, as the preview’s Aspect');
    expect(t('video.aspect', 'ja', { aspect: '16:9' })).toBe('画面 16:9（プレビューの「画面」と同じ）');
    expect([t('guide.frame', 'en'), t('guide.frame', 'ja')]).toEqual(['Border', '枠']);
  });

  it('登録 is Register in English, everywhere; no Japanese text says 挿入', () => {
    expect(t('editor.insertKey', 'en')).toBe('Register');
    expect(t('editor.insertKeyTitle', 'en')).toBe('Register a key at the current frame on the active track or the picked bone (Enter)');
    expect(t('shortcuts.insertKey', 'en')).toBe('Register a key at the current frame (interpolated pose)');
    expect(t('edit.label.insertKey', 'en')).toBe('register key');
    expect(having('en', /\binserts?\b/i)).toEqual([]);
    expect(having('ja', /挿入/)).toEqual([]);
  });

  it('the Display · IK block has MMD’s name in the File panel as on the timeline', () => {
    expect([t('summary.block.ik', 'en'), t('summary.block.ik', 'ja')]).toEqual(['Display · IK', '表示・IK']);
    expect(t('summary.block.ik', 'ja')).toBe(t('editor.group.ik', 'ja'));
  });

  it('the camera’s FOV tab is 視野角, as in the Key panel and MMD’s camera curves', () => {
    expect(t('curve.channelShort.v', 'ja')).toBe('視野角');
  });

  it('the Video dialog’s Japanese has full-width parentheses; the Batch model hint is a sentence', () => {
    const video = all('ja').filter(([k]) => k.startsWith('video.'));
    expect(video.length).toBeGreaterThan(40);
    expect(video.filter(([, v]) => asciiAroundJapanese.test(v)).map(([k, v]) => `${k}: ${v}`)).toEqual([]);
    expect(t('video.reversed', 'ja', { from: 300, to: 10 })).toBe('開始が終了より後です（フレーム 300 〜 10）：書き出すものがありません');
    expect(t('batch.opt.mirror.model.hint', 'ja')).toMatch(/空欄のときはモーション自身の名前で対にします$/);
    expect(t('batch.opt.no-light.none', 'ja')).toBe('（このモーションに照明のキーはありません）');
  });

  it('every Japanese text puts Japanese words in full-width parentheses, not ASCII ones', () => {
    // Before, 22 strings outside the Video and Whole Motion texts still had them: 「(Ctrl+Z で元に戻せます)」,
    // 「物理演算: オン (剛体 87, ジョイント 92)」, 「(補間曲線はそのまま)」 and others.
    const cut = all('ja').filter(([k, v]) => !CODE_PARENS.has(k) && asciiAroundJapanese.test(v)).map(([k, v]) => `${k}: ${v}`);
    expect(cut).toEqual([]);
    // Those that are code, not prose, still hold what made them exceptions (else they leave the list).
    for (const k of CODE_PARENS) expect(asciiAroundJapanese.test(t(k as never, 'ja')), k).toBe(true);
    expect(t('preview.physicsOn', 'ja', { bodies: 87, joints: 92 })).toBe('物理演算: オン（剛体 87、ジョイント 92）');
    expect(t('simplify.applied', 'ja', { before: 10, after: 4, pos: 0.01, rot: 0.2, morph: 0 })).toMatch(/（Ctrl\+Z で元に戻せます）$/);
  });

  it('the Key panel says 移動 / 回転 as the pose handle and MMD’s 数値入力; the File panel says 表情 as the timeline and the tab', () => {
    // Before (nuscratch finding 5): 「位置」 in the Key panel beside the handle's 「✥ 移動」, and 「モーフ数」「モーフ」 in the
    // File panel while the timeline group and the left tab said 「表情」.
    expect(t('inspector.position', 'ja')).toBe('移動');
    expect(t('preview.poseMove', 'ja')).toBe('✥ 移動');
    expect(t('inspector.rotation', 'ja')).toBe('回転（°）');
    expect([t('summary.morphs', 'ja'), t('summary.block.morph', 'ja'), t('model.morphs', 'ja')]).toEqual(['表情数', '表情', '表情']);
    expect([t('editor.group.morphs', 'ja'), t('side.morphs', 'ja')]).toEqual(['表情', '表情']);
    // English keeps Position and Morphs.
    expect([t('inspector.position', 'en'), t('summary.morphs', 'en'), t('model.morphs', 'en')]).toEqual(['Position', 'Morphs', 'Morphs']);
  });

  it('a morph is 表情 in Japanese, as in MMD; モーフ only where PMX’s data or a VRM expression map names it', () => {
    // Before (fixmisc3): the preview's info line said 「モーフ 184」, Getting started's glossary 「モーフ（表情）」, and
    // 24 more texts (retarget, batch, mirror, merge, poses, notes) 「モーフ」 beside the timeline's and the tab's 「表情」.
    expect(t('preview.modelSummary', 'ja', { name: 'Gene', bones: 224, morphs: 184, vertices: 28646 })).toContain('表情 184');
    expect(t('help.term.morph', 'ja')).toBe('表情（モーフ）');
    expect(t('summary.kind.morph', 'ja')).toBe('表情モーション');
    expect(t('retarget.kindMorph', 'ja')).toBe('表情');
    // Where モーフ stays (glosses 「表情（モーフ）」 aside): the kinds of PMX morph, PMXEditor's words (頂点モーフ, ボーンモーフ,
    // …), and the notes on a PMX morph's data; mocap's and VRMA's expression maps, which set a face-tracking or VRM
    // 表情 (expression) against the model's モーフ.
    const pmxData = ['vertex', 'uv', 'bone', 'material', 'group', 'flip', 'impulse'].map((k) => `morphKindTitle.${k}`).concat('note.W_PMX_MORPH', 'err.E_PMX_MORPH');
    const expressionMap = ['exprTable', 'morph', 'morphLacking', 'exprNote', 'exportUnusedMorphs'].map((k) => `mocap.${k}`)
      .concat('batch.opt.export-vrma.map.hint', 'batch.opt.import-vrma.map.hint');
    const rest = all('ja').filter(([, v]) => /モーフ/.test(v.replaceAll('表情（モーフ）', '')));
    expect(rest.map(([k]) => k).sort()).toEqual([...pmxData, ...expressionMap].sort());
  });

  it('frames are フレーム in Japanese, not f or F', () => {
    expect(t('music.offsetAhead', 'ja', { s: '0.50', f: 15 })).toBe('曲 +0.50 秒（15 フレーム）：フレーム 0 で曲の 0.50 秒から再生');
    expect(t('music.offsetLater', 'ja', { s: '1.50', f: 45 })).toBe('曲 −1.50 秒（−45 フレーム）：フレーム 45 から曲が始まる');
    expect(t('curve.plot', 'ja', { from: 2815, to: 2816 })).toBe('フレーム 2815〜2816');
  });

  it('one word each for the camera document, the preview, the default figure and a folder', () => {
    expect(having('ja', /カメラ文書|3D ?ビュー|3Dプレビュー|フォルダー|灰色の人形/)).toEqual([]);
    expect(having('en', /3D view/)).toEqual([]);
  });

  it('the preview’s info lines: Japanese 、 between counts, counts grouped by thousands in both languages', () => {
    const model = { name: 'Gene', bones: 224, morphs: 184, vertices: 28646 };
    expect(t('preview.modelSummary', 'ja', model)).toBe('Gene: ボーン 224、表情 184、頂点 28,646');
    expect(t('preview.modelSummary', 'en', model)).toBe('Gene: 224 bones, 184 morphs, 28,646 vertices');
    expect(t('preview.modelSummary', 'en', { name: 'M', bones: 1, morphs: 1, vertices: 1 })).toBe('M: 1 bone, 1 morph, 1 vertex');
    expect(t('preview.cameraInfo', 'ja', { keys: 1070, cuts: 29 })).toBe('カメラ: キー 1,070、カット 29');
  });

  // New-user pass (numigrate 8): the preview's switch said セルフシャドウ where the timeline and the Key panel say セルフ影
  // (MMD's セルフ影操作), and 輪郭線 is what MMD users call エッジ.
  it('self-shadow is セルフ影 in every Japanese string (MMD’s word); the outline switch says 輪郭線（エッジ）', () => {
    expect(having('ja', /セルフシャドウ/)).toEqual([]);
    expect(['preview.selfShadow', 'editor.track.shadow', 'inspector.shadow'].map((k) => t(k as 'preview.selfShadow', 'ja'))).toEqual(['セルフ影', 'セルフ影', 'セルフ影']);
    expect(t('preview.outline', 'ja')).toBe('輪郭線（エッジ）');
    expect(t('preview.outline', 'en')).toBe('Outline');
  });

  it('the IK bake is MMD users’ 「IKをFKに焼き込み」 in the menu, the Whole Motion dialog, F1 and the dialog’s title', () => {
    expect(t('ikBake.open', 'ja')).toBe('IKをFKに焼き込み…');
    expect(t('shortcuts.bakeIk', 'ja')).toBe('モーション全体 → IKをFKに焼き込み…');
    expect(t('ikBake.title', 'ja', { motion: 'a.vmd' })).toBe('IKをFKに焼き込み: a.vmd');
    expect(t('ikBake.open', 'en')).toBe('Bake IK to FK…');
  });
});

