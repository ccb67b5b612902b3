// The command line's error lines in Japanese (translator pass nui18n, finding 13): under LANG=ja_JP.UTF-8 every
// line was English ("ERROR E_VMD_COUNT: bone block promises 548 records…", `unknown command "frob"`), though the
// app says the same codes in Japanese. Now Japanese when the environment's locale (LC_ALL, LC_MESSAGES, LANG, in
// POSIX order) starts with "ja", or with --lang ja; on Windows the system locale decides; English otherwise, and
// --json stays English. Expected lines are the app's, as the translator saw them in its notice for the same file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envLocale, salvageHint, shellQuote } from '../../electron/cli/locale';
import { runCliCaptured } from '../helpers/cli-in-process';
import { readCorpus } from '../helpers/corpus';
import { buildVmd, writeVmd } from '../../shared/vmd';

/** A motion of one bone keyed at `frames`. */
const buildVmdBytes = (frames: number[]) => writeVmd(buildVmd({ bones: frames.map((frame) => ({ name: '腕', frame, position: [0, 0, 0], rotation: [0, 0, 0, 1] })) }));
import { CLI, useTempDirs } from './batch-helpers';

const mk = useTempDirs();

/** 02_laugh.vmd cut after 3,000 bytes (its bone block says 548 keys at byte 50) and a text file named .vmd. */
function badFiles(): string {
  const d = mk('lang');
  writeFileSync(path.join(d, 'trunc.vmd'), readCorpus('gene/motion/02_laugh.vmd').subarray(0, 3000));
  writeFileSync(path.join(d, 'text.vmd'), 'hello\n');
  return d;
}
const TRUNC_JA = 'ファイルが壊れています：ボーンブロックのキー数が 548 個とされていますが、ファイルの大きさに収まりません（50 バイト目）';
const TEXT_JA = 'テキストファイルで、モーションではありません。モーションは MMD が保存する .vmd ファイルで、"Vocaloid Motion Data" で始まります';
const TRUNC_EN = 'bone block promises 548 records of 111 bytes, but only 2946 bytes remain (room for 26) (at byte 50)';

describe('the CLI\'s language', () => {
  it('takes ja from LC_ALL, then LC_MESSAGES, then LANG; the Windows system locale only when none is set', () => {
    const intl = (l: string) => () => l;
    expect(envLocale({ LANG: 'ja_JP.UTF-8' }, 'linux', intl('en-US'))).toBe('ja');
    expect(envLocale({ LC_ALL: 'ja_JP.UTF-8', LANG: 'en_US.UTF-8' }, 'linux', intl('en-US'))).toBe('ja');
    expect(envLocale({ LC_ALL: 'C', LANG: 'ja_JP.UTF-8' }, 'linux', intl('ja-JP'))).toBe('en');
    expect(envLocale({ LC_MESSAGES: 'ja_JP', LANG: 'en_US' }, 'darwin', intl('en-US'))).toBe('ja');
    expect(envLocale({ LC_ALL: '', LANG: 'ja' }, 'linux', intl('en-US'))).toBe('ja');
    // Nothing set: English, whatever Intl says (a CI machine), but on Windows the system's locale.
    expect(envLocale({}, 'linux', intl('ja-JP'))).toBe('en');
    expect(envLocale({}, 'win32', intl('ja-JP'))).toBe('ja');
    expect(envLocale({}, 'win32', intl('en-US'))).toBe('en');
    expect(envLocale({ LANG: 'en_US.UTF-8' }, 'win32', intl('ja-JP'))).toBe('en');
  });

  it('--lang ja: inspect\'s ERROR lines and the stderr lines in Japanese, by code, as the app says them', async () => {
    const d = badFiles();
    const r = await runCliCaptured(['inspect', '--lang', 'ja', 'trunc.vmd', 'text.vmd'], d);
    expect(r.code).toBe(1);
    // A VMD cut short: the line naming salvage, in Japanese too.
    const hint = '壊れた箇所より前のキーは読み出せます: vmd-studio salvage trunc.vmd -o OUT.vmd';
    // ERROR said in Japanese too (nujp 9: an English prefix before the Japanese line), the code kept.
    expect(r.out).toBe(`trunc.vmd\n  エラー E_VMD_COUNT: ${TRUNC_JA}\n  ${hint}\n\ntext.vmd\n  エラー E_VMD_MAGIC: ${TEXT_JA}\n\n`);
    expect(r.err).toBe(`vmd-studio: trunc.vmd: ${TRUNC_JA}\nvmd-studio: text.vmd: ${TEXT_JA}\n`);
    // A one-file command's failure (edit-output failWith) too.
    const t = await runCliCaptured(['trim', 'trunc.vmd', '--from', '0', '--to', '10', '-o', 'out.vmd', '--lang=ja'], d);
    expect([t.code, t.err]).toEqual([1, `vmd-studio: trunc.vmd: ${TRUNC_JA}\nvmd-studio: ${hint}\n`]);
  });

  it('English by default and with --lang en; --json stays English; an unknown command and a bad --lang', async () => {
    const d = badFiles();
    expect((await runCliCaptured(['inspect', 'trunc.vmd'], d)).err).toBe(`vmd-studio: trunc.vmd: ${TRUNC_EN}\n`);
    expect((await runCliCaptured(['--lang', 'en', 'inspect', 'trunc.vmd'], d)).err).toBe(`vmd-studio: trunc.vmd: ${TRUNC_EN}\n`);
    const j = await runCliCaptured(['inspect', '--json', '--lang', 'ja', 'trunc.vmd'], d);
    expect(JSON.parse(j.out).error).toEqual({ code: 'E_VMD_COUNT', message: TRUNC_EN.replace(' (at byte 50)', ''), offset: 50 });
    expect((await runCliCaptured(['--lang', 'ja', 'frob'], d)).err).toBe('vmd-studio: 「frob」というコマンドはありません（vmd-studio --help で一覧）\n');
    expect((await runCliCaptured(['frob'], d)).err).toBe('vmd-studio: unknown command "frob" (try vmd-studio --help)\n');
    expect(await runCliCaptured(['--lang', 'fr', 'inspect', 'trunc.vmd'], d)).toEqual({ code: 2, out: '', err: 'vmd-studio: --lang takes ja or en\n' });
  });

  it('the vmd-studio process: Japanese under LANG=ja_JP.UTF-8, English with no locale set, --lang en over LANG', () => {
    const d = badFiles();
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(LANG|LANGUAGE|LC_.*)$/.test(k)));
    const run = (env: Record<string, string | undefined>, ...argv: string[]) => spawnSync(process.execPath, [CLI, ...argv], { cwd: d, env: { ...base, ...env }, encoding: 'utf8' });
    expect(run({ LANG: 'ja_JP.UTF-8' }, 'inspect', 'trunc.vmd').stderr).toBe(`vmd-studio: trunc.vmd: ${TRUNC_JA}\n`);
    expect(run({}, 'inspect', 'trunc.vmd').stderr).toBe(`vmd-studio: trunc.vmd: ${TRUNC_EN}\n`);
    expect(run({ LANG: 'ja_JP.UTF-8' }, 'inspect', '--lang', 'en', 'trunc.vmd').stderr).toBe(`vmd-studio: trunc.vmd: ${TRUNC_EN}\n`);
  });

  // New-user pass nujp 4: the Japanese "output exists" line lost the English one's way out (--overwrite).
  it('--lang ja: an output that exists says to add --overwrite, as the English line does', async () => {
    const d = mk('lang-exists');
    writeFileSync(path.join(d, 'in.vmd'), readCorpus('gene/motion/stand.vmd'));
    writeFileSync(path.join(d, 'ミク ダンス（反転）.vmd'), 'x');
    const ja = await runCliCaptured(['mirror', 'in.vmd', '-o', 'ミク ダンス（反転）.vmd', '--lang', 'ja'], d);
    expect([ja.code, ja.err]).toEqual([1, 'vmd-studio: ミク ダンス（反転）.vmd: 同じ名前のファイルがすでにあります（置き換えるには --overwrite を付けてください）\n']);
    const en = await runCliCaptured(['mirror', 'in.vmd', '-o', 'ミク ダンス（反転）.vmd', '--lang', 'en'], d);
    expect([en.code, en.err]).toEqual([1, 'vmd-studio: ミク ダンス（反転）.vmd: output exists (use --overwrite to replace it)\n']);
  });

  // New-user pass nujp 5: the salvage line named a path with a space bare; pasted, it was two arguments.
  it('the salvage line quotes a path a shell would split, and a shell reads it back as one argument', async () => {
    const d = mk('lang-quote');
    mkdirSync(path.join(d, 'モーション'));
    writeFileSync(path.join(d, 'モーション', '壊れた ダンス.vmd'), readCorpus('gene/motion/02_laugh.vmd').subarray(0, 3000));
    const r = await runCliCaptured(['inspect', '--lang', 'ja', 'モーション/壊れた ダンス.vmd'], d);
    expect(r.out).toContain('  壊れた箇所より前のキーは読み出せます: vmd-studio salvage "モーション/壊れた ダンス.vmd" -o OUT.vmd\n');
    const e = { code: 'E_VMD_TRUNCATED' };
    expect(salvageHint(e, 'a/笑い　全角.vmd', 'en', 'linux')).toBe('the keys before the damage can be read: vmd-studio salvage "a/笑い　全角.vmd" -o OUT.vmd');
    expect(salvageHint(e, 'C:\\MMD\\ミク ダンス.vmd', 'en', 'win32')).toBe('the keys before the damage can be read: vmd-studio salvage "C:\\MMD\\ミク ダンス.vmd" -o OUT.vmd');
    expect(salvageHint(e, 'trunc.vmd', 'en', 'linux')).toBe('the keys before the damage can be read: vmd-studio salvage trunc.vmd -o OUT.vmd');
    // What a POSIX shell makes of each quoted name: the name itself, one argument.
    const names = ['壊れた ダンス.vmd', '笑い　全角.vmd', "it's $HOME `x` \\ \"q\" !.vmd", 'a&b;c.vmd', 'ミク（完成版）.vmd'];
    for (const n of names) {
      const sh = spawnSync('sh', ['-c', `printf '%s\\n' ${shellQuote(n, 'linux')}`], { encoding: 'utf8' });
      expect(sh.stdout).toBe(`${n}\n`);
    }
  });

  // New-user pass nujp 3: under --lang ja the warnings and the command-line mistakes stayed English ("unknown option
  // --form"): the user could not tell what was wrong. Now Japanese; --json, reports and the usage text stay English.
  it('--lang ja: a speed warning, a batch row\'s warning, and the command-line mistakes in Japanese', async () => {
    const d = mk('lang-warn');
    // One bone keyed at 0..2; ×2 puts them at round(f / 2) = 0, 1, 1 (0.5 rounds away from zero): one key lost.
    writeFileSync(path.join(d, 'in.vmd'), buildVmdBytes([0, 1, 2]));
    const ja = await runCliCaptured(['speed', 'in.vmd', '--factor', '2', '-o', 'out.vmd', '--lang', 'ja'], d);
    expect([ja.code, ja.err]).toEqual([0, 'vmd-studio: 警告: in.vmd: ボーンのキー 1 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）\n']);
    const en = await runCliCaptured(['speed', 'in.vmd', '--factor', '2', '-o', 'out2.vmd'], d);
    expect(en.err).toBe('vmd-studio: warning: in.vmd: 1 bone key landed on a frame already taken and was left out (the first in the file kept)\n');
    const j = await runCliCaptured(['speed', 'in.vmd', '--factor', '2', '-o', 'out3.vmd', '--json', '--lang', 'ja'], d);
    expect(JSON.parse(j.out).warnings).toEqual(['1 bone key landed on a frame already taken and was left out (the first in the file kept)']);
    mkdirSync(path.join(d, 'in'));
    writeFileSync(path.join(d, 'in', 'a.vmd'), buildVmdBytes([0, 1, 2]));
    const b = await runCliCaptured(['batch', 'speed', 'in', '-o', 'out', '--factor', '2', '--lang', 'ja', '--quiet'], d);
    expect(b.err).toContain(`vmd-studio: 警告: ${path.join('in', 'a.vmd')}: ボーンのキー 1 個が既にキーのあるフレームに重なったため除外しました（ファイル内で先のキーを使用）\n`);
    const usage = (r: { err: string }) => r.err.split('\n')[0];
    expect(usage(await runCliCaptured(['trim', 'in.vmd', '--form', '3', '-o', 't.vmd', '--lang', 'ja'], d))).toBe('vmd-studio trim: 「--form」というオプションはありません');
    expect(usage(await runCliCaptured(['trim', 'in.vmd', '--from', 'abc', '-o', 't.vmd', '--lang', 'ja'], d))).toBe('vmd-studio trim: --from：数値を入力してください（「abc」）');
    const two = await runCliCaptured(['speed', 'in.vmd', '1.5', '-o', 't.vmd', '--lang', 'ja'], d);
    expect(two.code).toBe(2);
    expect(usage(two)).toBe('vmd-studio speed: 入力ファイルを 1 つだけ指定してください');
    expect(two.err).toContain('vmd-studio speed IN.vmd -o OUT.vmd'); // the usage, English
    expect(usage(await runCliCaptured(['trim', 'in.vmd', '--form', '3', '-o', 't.vmd'], d))).toBe('vmd-studio trim: unknown option --form');
    // --help says so in both languages.
    expect((await runCliCaptured(['--help'], d)).out).toContain('（--lang ja：エラー・警告・コマンドラインの誤りを日本語で表示します。使い方、レポート、--json は英語のままです）');
  });
});
