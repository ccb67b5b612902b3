/**
 * The edits' warnings by code (new-user pass nujp 1): a Japanese UI and `--lang ja` showed "2 bone keys landed
 * on a frame already taken…" in English. Each coded warning keeps its English line in `warnings` (--json, reports)
 * and is said in Japanese from its code; the string table's English says what the edit wrote.
 */
import { describe, expect, it } from 'vitest';
import { blockFromRecords, buildVmd, emptyVmd, encodeCameraRecord, withBlocks } from '../../../shared/vmd';
import { buildFromPoses, merge, parseMapping, poseAtFrame, preset, rename, speed } from '../../../shared/motion-ops';
import { reportSummary, type EditReport } from '../../../shared/edit-core/report';
import { renderWarning, warningLines, warningTexts } from '../../../shared/i18n/warning-line';

const ID = [0, 0, 0, 1];
const bone = (name: string, frame: number) => ({ name, frame, position: [0, 0, 0], rotation: ID });
function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('coded warnings', () => {
  // 腕 at 0,1,2,3 twice as fast: 1→1 (0.5 rounds away), 2→1 taken, 3→2; 足 1→1, 2→1 taken. 表情 at 1, 2: 2→1 taken.
  const doc = buildVmd({ bones: [bone('腕', 0), bone('腕', 1), bone('腕', 2), bone('腕', 3), bone('足', 1), bone('足', 2)], morphs: [{ name: 'あ', frame: 1, weight: 1 }, { name: 'あ', frame: 2, weight: 0 }] });

  it('speed: the collision warning is kept in English and said in Japanese from its code', () => {
    const r = must(speed(doc, { factor: 2 })).report;
    expect(r.warnings).toEqual([
      '2 bone keys landed on a frame already taken and were left out (the first in the file kept)',
      '1 morph key landed on a frame already taken and was left out (the first in the file kept)',
    ]);
    expect(r.warningCodes?.map((w) => [w.code, w.params])).toEqual([
      ['W_SPEED_COLLISIONS', { n: 2, kind: 'bone' }],
      ['W_SPEED_COLLISIONS', { n: 1, kind: 'morph' }],
    ]);
    expect(warningLines(r, 'en')).toEqual(r.warnings);
    expect(warningLines(r, 'ja')).toEqual([
      'ボーンのキー 2 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）',
      '表情のキー 1 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）',
    ]);
    // The JSON summary (--json, batch reports) keeps `warnings` as English lines, the codes beside them.
    const s = reportSummary(r);
    expect(s.warnings).toEqual(r.warnings);
    expect((s.warningCodes as unknown[]).length).toBe(2);
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
    const reports: EditReport[] = [
      must(speed(doc, { factor: 2 })).report,
      must(speed(cam, { factor: 2 })).report,
      must(merge([doc, doc], { overlay: true })).report,
      must(rename(doc, map.value)).report,
      must(poseAtFrame(withBlocks(doc, { camera: cam.camera }), 0)).report,
      must(buildFromPoses([long, { ...long, frame: 0 }], { skipLongNames: true })).report,
      must(preset(doc, { curve: [20, 20, 107, 107], bones: 'nothing*' })).report,
    ];
    const codes = reports.flatMap((r) => r.warningCodes ?? []);
    expect(new Set(codes.map((c) => c.code))).toEqual(new Set(['W_SPEED_COLLISIONS', 'W_SPEED_CAMERA_CUTS', 'W_MERGE_DUPLICATES', 'W_RENAME_COLLISIONS', 'W_POSE_CAMERA', 'W_NAME_SKIPPED', 'W_POSE_SECOND', 'W_PRESET_NO_MATCH']));
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
    expect(warningLines(reports[1], 'ja')).toEqual(['カメラの区間 1 個が 1 フレームの長さになり、カメラの切り替え（カット）として再生されます']);
  });
});
