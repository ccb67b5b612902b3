// The conversions' and the bake's warnings under --lang ja (fixwarn3): import-bvh's notes (map rows naming nothing,
// the capture that barely moves the model, the reader's Frame Time), rename's name that does not fit, export-bvh's
// motion with no bone keys, merge's camera motion, convert's long names and backup, and the bake's were English
// under --lang ja, and so in a Japanese app's batch rows (they said them by the same report). Each is now a code
// with values beside its English line; --json keeps the English. Expected lines are written out here, not taken
// from the string tables.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli-in-process';
import { blockFromRecords, buildVmd, emptyVmd, encodeCameraRecord, withBlocks, writeVmd } from '../../shared/vmd';
import { warningLines } from '../../shared/i18n/warning-line';
import { warningFields } from '../../shared/edit-core/report';
import { bakeNameWarnings, physicsOffKeysWarnings, trimRangeWarnings } from '../../electron/batch/op-warnings';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const ID = [0, 0, 0, 1];
const bone = (name: string, frame: number) => ({ name, frame, position: [0, 0, 0], rotation: ID });
/** A two-joint capture: Base (the hips) and Seg1, which no table maps: the model would barely move. */
const TAIL = 'HIERARCHY\nROOT Base\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n  JOINT Seg1\n  {\n    OFFSET 0 5 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n      OFFSET 0 5 0\n    }\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0\n0 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 10 0 0\n';
const warningsOf = (err: string) => err.split('\n').filter((l) => l.startsWith('vmd-studio: 警告: '));

describe('coded warnings of the conversions under --lang ja', () => {
  it('import-bvh: the reader\'s Frame Time, a map row naming no joint, the capture that barely moves; the batch\'s rows too; --json English', async () => {
    const d = mk('ja-import');
    writeFileSync(path.join(d, 'tail.bvh'), TAIL);
    writeFileSync(path.join(d, 'map.csv'), 'Nope,spine\n');
    const r = await runCliCaptured(['import-bvh', 'tail.bvh', '-o', 'tail.vmd', '--fps', '30', '--map', 'map.csv', '--quiet', '--lang', 'ja'], d);
    expect(r.code, r.err).toBe(0);
    expect(warningsOf(r.err)).toEqual([
      'vmd-studio: 警告: tail.bvh: Frame Time「0」（18 行目）はフレーム時間として使えないため無視し、指定の 30 fps で読み込みました',
      'vmd-studio: 警告: tail.bvh: キャプチャのどの関節にも当たらないマップの行を使いませんでした：Nope',
      'vmd-studio: 警告: tail.bvh: キャプチャの 2 関節のうちヒューマノイド部位に当たるのは 1 個だけで（Base → hips）、背骨・頭・手足はありません。モデルはほとんど動きません（体の関節なら --map で部位を指定してください）',
    ]);
    expect(r.err).not.toMatch(/map rows|barely|ignored/);
    const j = await runCliCaptured(['import-bvh', 'tail.bvh', '-o', 'tail2.vmd', '--fps', '30', '--map', 'map.csv', '--json', '--lang', 'ja'], d);
    const rep = JSON.parse(j.out);
    expect(rep.warnings).toEqual([
      'tail.bvh: Frame Time must be more than 0 and at most 60 seconds, got 0 (line 18): ignored, the frames taken at the 30 fps given',
      'map rows naming no joint of the capture (left out): Nope',
      "only 1 of the capture's 2 joints matches a humanoid part (Base → hips), none of the spine, head or limbs: the model will barely move (give the parts with --map if the joints are a body's)",
    ]);
    expect(rep.warningCodes).toBeUndefined();
    // The batch says its rows' warnings in the CLI's language too (the app's rows say the same report).
    mkdirSync(path.join(d, 'in'));
    writeFileSync(path.join(d, 'in', 'tail.bvh'), TAIL.replace('Frame Time: 0', 'Frame Time: 0.0333333'));
    const b = await runCliCaptured(['batch', 'import-bvh', 'in', '-o', 'out', '--jobs', '1', '--lang', 'ja', '--report', 'report.json'], d);
    expect(b.code, b.err).toBe(0);
    expect(b.out + b.err).toContain('対応のない関節：Seg1');
    expect(b.out + b.err).not.toMatch(/unmapped joints|barely/);
    const row = JSON.parse(readFileSync(path.join(d, 'report.json'), 'utf8')).results[0].report;
    expect(row.warnings[0]).toBe('unmapped joints: Seg1');
    expect(row.warningCodes.map((c: { code: string }) => c.code)).toEqual(['W_CAPTURE_UNMAPPED', 'W_CAPTURE_BARELY_MOVES']);
  });

  it('rename: a new name over the field\'s 15 bytes is not taken, said in Japanese', async () => {
    const d = mk('ja-rename');
    writeFileSync(path.join(d, 'in.vmd'), writeVmd(buildVmd({ bones: [bone('腕', 0)] })));
    writeFileSync(path.join(d, 'map.csv'), '腕,とてもながいほねのなまえ\n');
    const r = await runCliCaptured(['rename', 'in.vmd', '--map', 'map.csv', '-o', 'out.vmd', '--quiet', '--lang', 'ja'], d);
    expect(r.code, r.err).toBe(0);
    // 12 kana of 2 bytes each in Shift_JIS: 24 bytes.
    expect(warningsOf(r.err)).toEqual(['vmd-studio: 警告: in.vmd: 「とてもながいほねのなまえ」には名前を変えていません：Shift_JIS で 24 バイトあり、名前の欄（15 バイト）に入りません']);
    const j = await runCliCaptured(['rename', 'in.vmd', '--map', 'map.csv', '-o', 'out2.vmd', '--json'], d);
    expect(JSON.parse(j.out).warnings).toEqual(['not renamed to "とてもながいほねのなまえ": name "とてもながいほねのなまえ" is 24 bytes in Shift_JIS; the field holds 15']);
  });

  it('export-bvh of a morph motion, merge of a camera motion, convert\'s long name and backup', async () => {
    const d = mk('ja-main');
    writeFileSync(path.join(d, 'face.vmd'), writeVmd(buildVmd({ morphs: [{ name: 'あ', frame: 0, weight: 1 }] })));
    const e = await runCliCaptured(['export-bvh', 'face.vmd', '-o', 'face.bvh', '--quiet', '--lang', 'ja'], d);
    expect(e.code, e.err).toBe(0);
    expect(warningsOf(e.err)).toEqual(['vmd-studio: 警告: face.vmd: モーションにボーンのキーがありません（表情のキーのみ）：BVH はMMD 標準ボーンが動かずに立っているだけです']);
    const ej = await runCliCaptured(['export-bvh', 'face.vmd', '-o', 'face2.bvh', '--json'], d);
    expect(JSON.parse(ej.out).warnings).toEqual(['the motion has no bone keys (only morph keys): the BVH is the standard skeleton standing still']);

    const cam = withBlocks(emptyVmd(), { camera: blockFromRecords('camera', [0, 4].map((frame) => encodeCameraRecord({ frame, distance: -10, target: [0, 0, 0], rotation: [0, 0, 0], fov: 30 }))) });
    writeFileSync(path.join(d, 'cam.vmd'), writeVmd(cam));
    writeFileSync(path.join(d, 'arm.vmd'), writeVmd(buildVmd({ bones: [bone('腕', 0)] })));
    const m = await runCliCaptured(['merge', 'arm.vmd', 'cam.vmd', '-o', 'both.vmd', '--quiet', '--lang', 'ja'], d);
    expect(m.code, m.err).toBe(0);
    expect(warningsOf(m.err)).toEqual(['vmd-studio: 警告: both.vmd: cam.vmd はカメラのモーションです。そのカメラのキー 2 個をモデルのモーションに加えました（MMD はファイルをカメラに読み込んだときだけ再生します）']);

    writeFileSync(path.join(d, 'long.vpd'), 'Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\n\r\nBone0{とてもながいほねのなまえ\r\n  0,0,0;\r\n  0,0,0,1;\r\n}\r\n');
    const c1 = await runCliCaptured(['convert', 'long.vpd', '-o', 'p.vmd', '--skip-long-names', '--quiet', '--lang', 'ja'], d);
    expect(c1.code, c1.err).toBe(0);
    expect(warningsOf(c1.err)).toEqual(['vmd-studio: 警告: long.vpd: ボーン「とてもながいほねのなまえ」は Shift_JIS で 15 バイトを超えるため省きました']);
    const c2 = await runCliCaptured(['convert', 'long.vpd', '-o', 'p.vmd', '--skip-long-names', '--quiet', '--lang', 'ja'], d);
    expect(c2.code, c2.err).toBe(0);
    expect(warningsOf(c2.err)[1]).toBe('vmd-studio: 警告: p.vmd: 既にあったファイルを置き換えました。前の版は p.vmd.bak に残しています（--overwrite を付けるとバックアップなしで置き換えます）');
  });

  it('the bake\'s and trim\'s warnings (the batch rows and physics-bake say them by these codes)', () => {
    const bake = warningFields([...physicsOffKeysWarnings({ physicsOffKeys: 3, resimulated: false }), ...bakeNameWarnings({ namesTooLong: ['とてもながいほねのなまえ'], ikNamesTooLong: [] })]);
    expect(bake.warnings).toEqual([
      '3 keys of the baked bones in the range switch physics off (keyed by hand, or a previous bake): they were played as keys; --resimulate simulates over them',
      'physics bone "とてもながいほねのなまえ" not baked: its name is over 15 bytes',
    ]);
    expect(warningLines(bake, 'ja')).toEqual([
      '範囲内の焼き込むボーンのキー 3 個が物理をオフにしています（手で打ったキーか、前の焼き込み）。キーとして再生しました（--resimulate を付けると物理演算し直します）',
      '物理ボーン「とてもながいほねのなまえ」は名前が 15 バイトを超えるため焼き込んでいません',
    ]);
    const trim = warningFields(trimRangeWarnings(buildVmd({ bones: [bone('腕', 0), bone('腕', 10)] }), 20, undefined, true));
    expect(trim.warnings).toEqual(["--from 20 is after the motion's last key (frame 10): no key is kept, the output is the pose at frame 10 held at frame 0"]);
    expect(warningLines(trim, 'ja')).toEqual(['--from 20 はモーションの最後のキー（フレーム 10）より後です。残るキーはなく、フレーム 10 のポーズをフレーム 0 に置いて書き出します']);
  });
});
