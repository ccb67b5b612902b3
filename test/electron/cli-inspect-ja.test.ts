// `inspect --lang ja`: each file's warnings were English lines after the English word "warning" (fixwarn3's list):
// a BVH's roots, a WAV cut short, a scene's missing texture and a missing file, a misnamed file, and a VMD's own
// reader notes (coded already, but inspect printed their English). Now 警告 and Japanese lines; --json unchanged
// (English `warnings`, no field added).
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { buildFixture } from '../helpers/vmd-fixtures';
import { tinyPmx } from '../shared/pmx-fixtures';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);
const warningLines = (out: string, word: string) => out.split('\n').filter((l) => l.startsWith(`  ${word} `));

const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
/** A 22,050 Hz mono 16-bit WAV whose header promises 22,050 bytes of samples, of which 1,000 are there. */
function shortWav(): Uint8Array {
  const fmt = [...ascii('fmt '), ...le32(16), ...le16(1), ...le16(1), ...le32(22050), ...le32(44100), ...le16(2), ...le16(16)];
  const data = [...ascii('data'), ...le32(22050), ...new Array(1000).fill(0)];
  return new Uint8Array([...ascii('RIFF'), ...le32(4 + fmt.length + 8 + 22050), ...ascii('WAVE'), ...fmt, ...data]);
}
/** Two roots, A and B, each a joint with an End Site. */
const TWO_ROOTS = 'HIERARCHY\nROOT A\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nROOT B\n{\n  OFFSET 1 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0 0 0 0\n';

describe('inspect --lang ja: the warnings in Japanese, after 警告', () => {
  it('a VMD with bytes after its last block, a BVH with two roots, a WAV cut short, a motion named .vpd', async () => {
    const d = mk('inspect-ja');
    const vmd = buildFixture({ bones: [{ name: 'センター', frame: 0 }] });
    writeFileSync(path.join(d, 'tail.vmd'), Buffer.concat([Buffer.from(vmd), Buffer.from([1, 2, 3])]));
    writeFileSync(path.join(d, 'two.bvh'), TWO_ROOTS);
    writeFileSync(path.join(d, 'part.wav'), shortWav());
    writeFileSync(path.join(d, 'laugh.vpd'), vmd);
    const files = ['tail.vmd', 'two.bvh', 'part.wav', 'laugh.vpd'];
    const en = await cli(d, 'inspect', ...files);
    expect(en.code, en.err).toBe(0);
    const english = [
      '  warning 3 bytes after the last block are kept as they are',
      '  warning 2 roots: the import drives the model from the first (A)',
      '  warning cut short: the header promises 22,050 bytes of samples, the file has 1,000; what is there plays',
      '  warning a VMD motion named .vpd: MMD and VMD Studio open a file by its extension and refuse this one; rename it laugh.vmd',
    ];
    expect(warningLines(en.out, 'warning')).toEqual(english);
    const ja = await cli(d, 'inspect', '--lang', 'ja', ...files);
    expect(ja.code, ja.err).toBe(0);
    expect(warningLines(ja.out, 'warning')).toEqual([]);
    expect(warningLines(ja.out, '警告')).toEqual([
      '  警告 最後のブロックの後ろの 3 バイトはそのまま保持します',
      '  警告 ルートが 2 個あります。読み込みでは最初のルート（A）からモデルを動かします',
      '  警告 途中で切れています：ヘッダーではサンプルが 22,050 バイトのはずですが、ファイルには 1,000 バイトしかありません。ある分だけ再生します',
      '  警告 中身はVMD モーションですが、拡張子が .vpd です。MMD と VMD Studio は拡張子でファイルを開くため、このままでは開けません。名前を laugh.vmd に変えてください',
    ]);
    // --json, in either language: the English lines, no codes added.
    const json = (await cli(d, 'inspect', '--json', '--lang', 'ja', ...files)).out.trim().split('\n').map((l) => JSON.parse(l));
    expect(json.map((j) => j.warnings)).toEqual(english.map((l) => [l.slice('  warning '.length)]));
    for (const j of json) expect(j).not.toHaveProperty('warningCodes');
  });

  it('a scene: a file it names that is not there, a model\'s texture left out of the folder', async () => {
    const d = mk('inspect-ja-scene');
    mkdirSync(path.join(d, 'models'), { recursive: true });
    // tinyPmx's one material 肌 uses tex\skin.png, not in the folder.
    writeFileSync(path.join(d, 'models', 'tiny.pmx'), tinyPmx().build());
    writeFileSync(path.join(d, 'show.vmdscene'), JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: 'models/tiny.pmx', motion: 'gone.vmd', hidden: false }] }));
    const en = await cli(d, 'inspect', 'show.vmdscene');
    expect(warningLines(en.out, 'warning')).toEqual(['  warning gone.vmd: not found', '  warning models/tex/skin.png: not found (a texture of models/tiny.pmx, used by 肌)']);
    const ja = await cli(d, 'inspect', '--lang', 'ja', 'show.vmdscene');
    expect(ja.code, ja.err).toBe(0);
    expect(warningLines(ja.out, '警告')).toEqual(['  警告 gone.vmd: 見つかりません', '  警告 models/tex/skin.png: 見つかりません（models/tiny.pmx のテクスチャ。使う材質: 肌）']);
    const j = JSON.parse((await cli(d, 'inspect', '--json', '--lang', 'ja', 'show.vmdscene')).out.trim());
    expect(j.warnings).toEqual(['gone.vmd: not found', 'models/tex/skin.png: not found (a texture of models/tiny.pmx, used by 肌)']);
    expect(j).not.toHaveProperty('warningCodes');
  });
});
