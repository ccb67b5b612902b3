/**
 * The edits' warnings by code (new-user pass nujp 1): a Japanese UI and `--lang ja` showed "2 bone keys landed
 * on a frame already taken…" in English. Each coded warning keeps its English line in `warnings` (--json, reports)
 * and is said in Japanese from its code; the string table's English says what the edit wrote.
 */
import { describe, expect, it } from 'vitest';
import { blockFromRecords, buildVmd, emptyVmd, encodeCameraRecord, vpdToVmd, withBlocks } from '../../../shared/vmd';
import { buildFromPoses, merge, parseMapping, poseAtFrame, preset, rename, speed } from '../../../shared/motion-ops';
import { reportSummary, type EditReport } from '../../../shared/edit-core/report';
import { renderWarning, warningLines, warningTexts } from '../../../shared/i18n/warning-line';
import { retarget } from '../../../shared/retarget';
import { bareModel } from '../../helpers/bare-model';
import { readVmd, writeVmd } from '../../../shared/vmd';
import { readBvh } from '../../../shared/bvh/bvh-reader';
import { importBvh } from '../../../shared/bvh/import';
import { standardFigureModel } from '../../../shared/skeleton/standard-figure';

const ID = [0, 0, 0, 1];
const bone = (name: string, frame: number) => ({ name, frame, position: [0, 0, 0], rotation: ID });
function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('coded warnings', () => {
  // 腕 at 0,1,2,3 twice as fast: 1→1 (0.5 rounds away), 2→1 taken, 3→2; 足 1→1, 2→1 taken. 表情 あ 1@1, 0@2: 2→1 taken
  // by the key from 1 (a tie: the first in the file), and frame 2 is free: moved there (speed.ts, morphFrames).
  const doc = buildVmd({ bones: [bone('腕', 0), bone('腕', 1), bone('腕', 2), bone('腕', 3), bone('足', 1), bone('足', 2)], morphs: [{ name: 'あ', frame: 1, weight: 1 }, { name: 'あ', frame: 2, weight: 0 }] });

  it('speed: the collision warning is kept in English and said in Japanese from its code', () => {
    const r = must(speed(doc, { factor: 2 })).report;
    expect(r.warnings).toEqual([
      '2 bone keys landed on a frame already taken and were left out (the first in the file kept)',
      '1 morph key landed on the frame of a key that stays there and was moved to the free frame beside it, so peaks keep the keys around them (first: “あ” frame 2 → 2)',
    ]);
    expect(r.warningCodes?.map((w) => [w.code, w.params])).toEqual([
      ['W_SPEED_COLLISIONS', { n: 2, kind: 'bone' }],
      ['W_SPEED_MORPH_MOVED', { n: 1, name: 'あ', frame: 2, at: 2 }],
    ]);
    expect(warningLines(r, 'en')).toEqual(r.warnings);
    expect(warningLines(r, 'ja')).toEqual([
      'ボーンのキー 2 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）',
      '表情のキー 1 個が残すキーと同じフレームに重なったため、隣の空いたフレームへ 1 フレーム移しました。ピークの前後のキーを保ちます（最初: 「あ」フレーム 2 → 2）',
    ]);
    // The JSON summary (--json, batch reports) keeps `warnings` as English lines, the codes beside them.
    const s = reportSummary(r);
    expect(s.warnings).toEqual(r.warnings);
    expect((s.warningCodes as unknown[]).length).toBe(2);
  });

  it('counts past 999 are grouped by thousands in the English line as in the table and Japanese; frame numbers are not', () => {
    // docsfix 1: `speed mocap.vmd --factor 2` warned "3016 bone keys landed…" while its summary said "lost 3,016".
    // 腕 keyed at 0..2001 twice as fast: frame f lands on round(f / 2) (halves away from zero), so 0..2001 land on
    // 0..1001: 1,002 kept, 1,000 left out.
    const many = buildVmd({ bones: Array.from({ length: 2002 }, (_, f) => bone('腕', f)) });
    const r = must(speed(many, { factor: 2 })).report;
    expect(r.warnings).toEqual(['1,000 bone keys landed on a frame already taken and were left out (the first in the file kept)']);
    expect(warningLines(r, 'en')).toEqual(r.warnings);
    expect(warningTexts(r).map((w) => renderWarning(w, 'en'))).toEqual(r.warnings);
    expect(warningLines(r, 'ja')).toEqual(['ボーンのキー 1,000 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）']);
    // A morph key left out past frame 999 (keys on 3000..3008, alternately 0 and 1, ×3 land three on a frame
    // with no free frame beside them): the frame it keeps the key from is a frame number, ungrouped in both
    // languages (the table's {kept} was a count parameter: "frame 3,002" in Japanese and in the table's English).
    const blink = buildVmd({ morphs: [3000, 3001, 3002, 3003, 3004, 3005, 3006, 3007, 3008].map((frame, i) => ({ name: 'あ', frame, weight: i % 2 })) });
    const b = must(speed(blink, { factor: 3 })).report;
    const left = b.warnings.find((w) => w.startsWith('morph “あ”'));
    expect(left).toMatch(/^morph “あ”: \d keys landed on a frame already taken and were left out \(first: frame 300\d → 100\d, which keeps the key from frame 300\d\)$/);
    expect(warningTexts(b).map((w) => renderWarning(w, 'en'))).toEqual(b.warnings);
    expect(warningLines(b, 'ja').join('\n')).toMatch(/フレーム 300\d/);
    expect(warningLines(b, 'ja').join('\n')).not.toMatch(/\d,\d/);
  });

  it('a warning without a code (an older report) stays as written', () => {
    const old = { warnings: ['something English'], warningCodes: [{ code: 'W_NOT_A_STRING', message: 'other' }] };
    expect(warningLines(old, 'ja')).toEqual(['something English']);
    expect(warningLines({ warnings: 'x' }, 'ja')).toEqual([]);
  });

  it('every coded warning the edits give: the table\'s English is the edit\'s message, and there is Japanese', () => {
    const cam = withBlocks(emptyVmd(), {
      camera: blockFromRecords('camera', [0, 4, 6].map((frame) => encodeCameraRecord({ frame, distance: -10, target: [0, 0, 0], rotation: [0, 0, 0], fov: 30 }))),
    });
    const map = parseMapping('{"腕":"arm","足":"arm"}');
    if (!map.ok) throw new Error(map.error.message);
    const long = { frame: 0, pose: { model: 'm', bones: [{ name: 'とてもながいほねのなまえ', position: [0, 0, 0] as [number, number, number], rotation: ID as [number, number, number, number] }], morphs: [] } };
    // ×3: 0@0 and the peak 1@1 land on 0, and nothing comes before 0: 0@0 is left out (named by its morph).
    const face = buildVmd({ morphs: [[0, 0], [1, 1], [2, 0.2], [3, 0.6], [30, 0]].map(([frame, weight]) => ({ name: 'ウィンク', frame, weight })) });
    const reports: EditReport[] = [
      must(speed(doc, { factor: 2 })).report,
      must(speed(face, { factor: 3 })).report,
      must(speed(cam, { factor: 2 })).report,
      must(merge([doc, doc], { overlay: true })).report,
      must(rename(doc, map.value)).report,
      must(poseAtFrame(withBlocks(doc, { camera: cam.camera }), 0)).report,
      must(buildFromPoses([long, { ...long, frame: 0 }], { skipLongNames: true })).report,
      must(preset(doc, { curve: [20, 20, 107, 107], bones: 'nothing*' })).report,
    ];
    const codes = reports.flatMap((r) => r.warningCodes ?? []);
    expect(new Set(codes.map((c) => c.code))).toEqual(new Set(['W_SPEED_COLLISIONS', 'W_SPEED_MORPH_MOVED', 'W_SPEED_MORPH_LEFT_OUT', 'W_SPEED_CAMERA_CUTS', 'W_MERGE_DUPLICATES', 'W_RENAME_COLLISIONS', 'W_POSE_CAMERA', 'W_NAME_SKIPPED', 'W_POSE_SECOND', 'W_PRESET_NO_MATCH']));
    for (const r of reports) {
      const texts = warningTexts(r);
      expect(texts.length).toBe(r.warnings.length);
      texts.forEach((w, i) => {
        expect(typeof w, r.warnings[i]).toBe('object');
        expect(renderWarning(w, 'en')).toBe(r.warnings[i]);
        expect(renderWarning(w, 'ja')).toMatch(/[ぁ-んァ-ヶ一-龠]/);
        expect(renderWarning(w, 'ja')).not.toMatch(/[()]/);
      });
    }
    expect(warningLines(reports[2], 'ja')).toEqual(['カメラの区間 1 個が 1 フレームの長さになり、カメラの切り替え（カット）として再生されます']);
  });

  describe('retarget (fixwarn2: its warnings were English in a Japanese batch row and under --lang ja)', () => {
    const model = bareModel;
    // 尻尾 and the morphs まばたき, にこり are the source's only; ウィンク and ウィンク右 (1 each at frame 0) land on 笑い,
    // their sum 2 clamped; the map's rows X, Y, ない, ないモーフ name nothing; the target has no leg IK; its name
    // is 32 bytes in Shift_JIS, cut to the header's 20.
    const src = model('源', ['センター', '頭', '尻尾'], ['ウィンク', 'ウィンク右', '笑い', 'まばたき', 'にこり']);
    const dst = model('ジェネ・ライト改変テスト版モデル', ['センター', '頭'], ['笑い']);
    const motion = must(readVmd(writeVmd(buildVmd({
      bones: [0, 10].flatMap((f) => ['センター', '頭', '尻尾'].map((n) => bone(n, f))),
      morphs: ['ウィンク', 'ウィンク右', 'まばたき', 'にこり'].map((name) => ({ name, frame: 0, weight: 1 })),
    }))));
    const map = must(parseMapping('{"bones":{"X":"ネクタイ","Y":"頭"},"morphs":{"ウィンク":"笑い","ウィンク右":"笑い","ない":"笑い","まばたき":"ないモーフ"}}'));
    const r = must(retarget(motion, src, dst, { mapping: map })).report;
    const cam = withBlocks(emptyVmd(), { camera: blockFromRecords('camera', [0, 4].map((frame) => encodeCameraRecord({ frame, distance: -10, target: [0, 0, 0], rotation: [0, 0, 0], fov: 30 }))) });
    const stage = must(retarget(cam, src, dst, {})).report;

    it('each has a code, the table\'s English is the message (the model name has the app\'s own English), --json keeps English', () => {
      expect(r.warningCodes?.map((c) => c.code)).toEqual([
        'W_RETARGET_MAP_NO_TARGET_BONE', 'W_RETARGET_MAP_NO_SOURCE_BONE', 'W_RETARGET_MAP_NO_MORPH_TRACK', 'W_RETARGET_MAP_NO_TARGET_MORPH',
        'W_RETARGET_BONES_LEFT_OUT', 'W_RETARGET_MORPHS_ADDED', 'W_RETARGET_MORPH_CLAMPED_ADDED', 'W_RETARGET_MORPHS_LEFT_OUT', 'W_RETARGET_FLOOR_NO_LEG_IK', 'W_MODEL_NAME_LONG',
      ]);
      for (const rep of [r, stage]) {
        const texts = warningTexts(rep);
        expect(texts.length).toBe(rep.warnings.length);
        texts.forEach((w, i) => {
          expect(typeof w, rep.warnings[i]).toBe('object');
          if (rep.warningCodes![i].code !== 'W_MODEL_NAME_LONG') expect(renderWarning(w, 'en')).toBe(rep.warnings[i]);
        });
        expect(reportSummary(rep).warnings).toEqual(rep.warnings);
      }
      expect(r.warnings[4]).toBe('1 bone track the target model lacks was left out: 尻尾 (2)');
    });

    it('said in Japanese: MMD\'s words (ボーン, 表情), full-width brackets around Japanese', () => {
      expect(warningLines(r, 'ja')).toEqual([
        '対応表の行 X,ネクタイ は何もしません：合わせる先のモデルにボーン ネクタイ がありません',
        '対応表の行 Y,頭 は何もしません：元のモデルにもモーションにもボーン Y がありません',
        '対応表の行 ない,笑い（表情）は何もしません：モーションに表情 ない のトラックがありません',
        '対応表の行 まばたき,ないモーフ（表情）は何もしません：合わせる先のモデルに表情 ないモーフ がありません',
        '合わせる先のモデルにないボーンのトラック 1 本を除外しました：尻尾 (2)',
        '表情のトラック ウィンク, ウィンク右 は一つの表情 笑い になるため、ウェイトをフレームごとに足しました（キー 1 個）',
        '表情 笑い：足したウェイトのキー 1 個が 0〜1 の外に出たため、範囲内に収めました',
        '合わせる先のモデルにない表情のトラック 2 本を除外しました：まばたき (1), にこり (1)',
        '足の接地：補正していません（合わせる先のモデルに足ＩＫがありません）',
        'モデル名「ジェネ・ライト改変テスト版モデル」は Shift_JIS で 32 バイトあり、VMD のヘッダーに入る 20 バイトを超えるため、MMD と同じく「ジェネ・ライト改変テ」に切って書き込みます',
      ]);
      expect(warningLines(stage, 'ja')).toEqual(['カメラのモーション（カメラのキー 2 個、ボーンのキーなし）：そのまま写しました（モデルに合わせるのはモデルのモーションです。カメラのモーションはモデルの大きさに合わせません）']);
    });

    it('a `<name>Word` value is said in the reader\'s language (the standard skeleton for a motion with no --from)', () => {
      const d = { warnings: ['the source is the standard MMD skeleton'], warningCodes: [{ code: 'W_RETARGET_CHECK_SOURCE_NAME', message: 'the source is the standard MMD skeleton', params: { ratio: '', header: 'ミク', source: 'the standard MMD skeleton', sourceWord: 'standard' } }] };
      expect(warningLines(d, 'ja')).toEqual(['モーションのヘッダーは「ミク」、元のモデルは MMD 標準ボーン です。モーションを作ったときのモデルはこれで合っていますか？']);
    });
  });

  describe('a capture\'s import and rename (fixwarn3: English in a Japanese batch row and under --lang ja)', () => {
    // Base (the hips) and Seg1; map rows: Nope names no joint, Seg1 → hips takes the hips from Base (guessed from
    // the shape), Base → nothing names no part or bone. Seg1 then plays the hips alone: the model barely moves.
    const TAIL = 'HIERARCHY\nROOT Base\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n  JOINT Seg1\n  {\n    OFFSET 0 5 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n      OFFSET 0 5 0\n    }\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.0333333\n0 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 10 0 0\n';
    const bvh = must(readBvh(TAIL));
    const r = must(importBvh(bvh, standardFigureModel(), { map: new Map([['Nope', 'spine'], ['Seg1', 'hips'], ['Base', 'nothing']]) })).report;

    it('the report carries each warning\'s code (it had none); the table\'s English is the import\'s line', () => {
      expect(r.warningCodes.map((c) => c.code)).toEqual(['W_MAP_JOINTS', 'W_MAP_TARGETS', 'W_MAP_LOST', 'W_CAPTURE_BARELY_MOVES']);
      const texts = warningTexts(r);
      expect(texts.length).toBe(r.warnings.length);
      texts.forEach((w, i) => expect(renderWarning(w, 'en')).toBe(r.warnings[i]));
      expect(r.warnings[2]).toBe('map row Seg1 → hips takes the part from joint Base (as guessed from the shape), which is left unmapped');
    });

    it('said in Japanese, the part\'s origin in Japanese too', () => {
      expect(warningLines(r, 'ja')).toEqual([
        'キャプチャのどの関節にも当たらないマップの行を使いませんでした：Nope',
        'どのヒューマノイド部位にもボーンにも当たらないマップの行を使いませんでした：nothing',
        'マップの行 Seg1 → hips は関節 Base の部位（形から推定）を取るため、Base は対応なしになります',
        'キャプチャの 2 関節のうちヒューマノイド部位に当たるのは 1 個だけで（Seg1 → hips）、背骨・頭・手足はありません。モデルはほとんど動きません（体の関節なら --map で部位を指定してください）',
      ]);
    });

    it('rename: a name that does not fit the field (too long, or a character Shift_JIS lacks)', () => {
      const map = must(parseMapping('{"腕":"とてもながいほねのなまえ","足":"足😀"}'));
      const rr = must(rename(doc, map)).report;
      expect(rr.warningCodes?.map((c) => c.code)).toEqual(['W_RENAME_TOO_LONG', 'W_RENAME_UNENCODABLE']);
      warningTexts(rr).forEach((w, i) => expect(renderWarning(w, 'en')).toBe(rr.warnings[i]));
      expect(warningLines(rr, 'ja')).toEqual([
        '「とてもながいほねのなまえ」には名前を変えていません：Shift_JIS で 24 バイトあり、名前の欄（15 バイト）に入りません',
        '「足😀」には名前を変えていません：Shift_JIS で表せない文字があります',
      ]);
    });
  });
});

describe('the table says each wording the code writes (fixwarn4: W_BVH_FRAME_TIME matched one of two, W_NAME_SKIPPED not convert\'s)', () => {
  // A capture's reader note as import-bvh and the batch report it (electron/batch/op-warnings.ts captureWarnings):
  // the file's name before the reader's line, `file` among the values.
  const asImported = (file: string, d: { code: string; message: string; params?: Record<string, string | number> }) => {
    const message = `${file}: ${d.message}`;
    return { warnings: [message], warningCodes: [{ code: d.code, message, params: { ...d.params, file } }] };
  };
  const bvh = (frameTime: string) => `HIERARCHY\nROOT Base\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n  JOINT Seg1\n  {\n    OFFSET 0 5 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n      OFFSET 0 5 0\n    }\n  }\n}\nMOTION\nFrames: 1\nFrame Time: ${frameTime}\n0 0 0 0 0 0 0 0 0\n`;

  it('W_BVH_FRAME_TIME: a Frame Time out of range and one that is no number, each said as the reader says it', () => {
    const range = readBvh(bvh('0'), { fps: 30 });
    const word = readBvh(bvh('fast'), { fps: 24 });
    if (!range.ok || !word.ok) throw new Error('fixture');
    const a = asImported('a.bvh', range.diagnostics[0]);
    const b = asImported('b.bvh', word.diagnostics[0]);
    // Frame Time is on line 18 of the fixture.
    expect(a.warnings).toEqual(['a.bvh: Frame Time must be more than 0 and at most 60 seconds, got 0 (line 18): ignored, the frames taken at the 30 fps given']);
    expect(b.warnings).toEqual(['b.bvh: Frame Time must be a number, got "fast" (line 18): ignored, the frames taken at the 24 fps given']);
    for (const r of [a, b]) expect(warningTexts(r).map((w) => renderWarning(w, 'en'))).toEqual(r.warnings);
    expect(warningLines(b, 'ja')).toEqual(['b.bvh: Frame Time「fast」（18 行目）はフレーム時間として使えないため無視し、指定の 24 fps で読み込みました']);
  });

  it('W_NAME_SKIPPED: VPD → VMD (convert) and a pose edit say the same, with the kind; and the batch\'s "kept as it is"', () => {
    const pose = { model: 'm', bones: [{ name: 'とても長いボーンの名前です', position: [0, 0, 0] as [number, number, number], rotation: ID as [number, number, number, number] }], morphs: [{ name: 'とても長い表情の名前です', weight: 1 }] };
    const c = vpdToVmd({ ...pose, declaredBones: null, encoding: 'shift_jis' }, { skipLongNames: true });
    if (!c.ok) throw new Error(c.error.message);
    const conv = { warnings: c.diagnostics.map((d) => d.message), warningCodes: c.diagnostics };
    expect(conv.warnings).toEqual([
      'bone "とても長いボーンの名前です" left out: longer than 15 bytes in Shift_JIS',
      'morph "とても長い表情の名前です" left out: longer than 15 bytes in Shift_JIS',
    ]);
    const built = must(buildFromPoses([{ frame: 0, pose }], { skipLongNames: true })).report;
    expect(built.warnings).toEqual(conv.warnings);
    for (const r of [conv, built]) expect(warningTexts(r).map((w) => renderWarning(w, 'en'))).toEqual(r.warnings);
    expect(warningLines(conv, 'ja')).toEqual([
      'ボーン「とても長いボーンの名前です」は Shift_JIS で 15 バイトを超えるため省きました',
      '表情「とても長い表情の名前です」は Shift_JIS で 15 バイトを超えるため省きました',
    ]);
    // A batch pose edit keeps a VPD's long names (electron/batch/ops.ts): the reader's line, then "kept as it is".
    const kept = c.diagnostics.map((d) => ({ code: 'W_NAME_SKIPPED_KEPT', message: `${d.message}: kept as it is`, params: { name: d.params!.name, kind: d.params!.kind } }));
    const k = { warnings: kept.map((d) => d.message), warningCodes: kept };
    expect(warningTexts(k).map((w) => renderWarning(w, 'en'))).toEqual(k.warnings);
  });
});
