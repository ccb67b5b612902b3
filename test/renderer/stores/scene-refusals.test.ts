// What the scene store refuses or cannot open, said in both languages (issue 24's renderer follow-ups): a
// network or device path a scene names is reported by its code's own line (err.E_IO_REMOTE), not main's English
// message; a 65th actor is refused by name before the scene holds more than a scene file can; a file whose
// name is not UTF-8 text is named with what is wrong with it.
import { describe, expect, it } from 'vitest';
import { MAX_SCENE_ACTORS } from '../../../shared/scene/scene-file';
import { t } from '../../../shared/i18n/strings';
import { okValue, type VmdStudioApi } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { memoryScene, dance } from './scene-fixtures';

const sceneFile = (actors: (string | null)[], audio: string | null = null) =>
  new TextEncoder().encode(
    JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: actors.map((m) => ({ model: null, motion: m })), camera: null, activeActor: 0, ...(audio ? { audio: { path: audio } } : {}) }),
  );

/** The last notice as shown in English and in Japanese. */
const lastShown = () => {
  const n = useNotifyStore().items.at(-1)!;
  return { kind: n.kind, en: noticeLines(n, 'en'), ja: noticeLines(n, 'ja') };
};

describe('scene refusals, said in both languages', () => {
  it('a network path in a scene: the notice names the file and says why by E_IO_REMOTE’s line, in English and Japanese', async () => {
    const remote = '//host/share/song.wav';
    const { fake } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/remote.vmdscene', sceneFile(['a.vmd'], remote)],
    ]);
    // Main answers a network path with E_IO_REMOTE and its own English message (services/access.ts).
    const mainMessage = `not opened: ${remote} is on another computer`;
    setApi(new Proxy(fake.api, {
      get: (target, name: string) =>
        name === 'readAudioFile'
          ? async (p: string) => ({ ok: false, error: { code: 'E_IO_REMOTE', message: mainMessage, file: p } })
          : (target as unknown as Record<string, unknown>)[name],
    }) as VmdStudioApi);
    expect(await useSceneStore().openPath('/s/remote.vmdscene')).toBe(true);
    const warning = useNotifyStore().items.find((n) => n.kind === 'warning')!;
    const en = noticeLines(warning, 'en');
    const ja = noticeLines(warning, 'ja');
    expect(en.message).toContain('song.wav');
    expect(ja.message).toContain('song.wav');
    // The path as the scene names it (its parser writes a network path in its Windows form).
    expect(en.detail).toMatch(new RegExp(`^${t('err.E_IO_REMOTE', 'en')} · [\\\\/]{2}host[\\\\/]share[\\\\/]song\\.wav$`));
    expect(ja.detail).toMatch(new RegExp(`^${t('err.E_IO_REMOTE', 'ja')} · [\\\\/]{2}host[\\\\/]share[\\\\/]song\\.wav$`));
    expect(en.detail).not.toContain(mainMessage);
    expect(ja.detail).not.toContain(mainMessage);
    expect(t('err.E_IO_REMOTE', 'ja')).not.toBe(t('err.E_IO_REMOTE', 'en'));
  });

  it(`a scene of ${MAX_SCENE_ACTORS} actors takes no ${MAX_SCENE_ACTORS + 1}th: refused by name in both languages; with one fewer it is added`, async () => {
    const motions = Array.from({ length: MAX_SCENE_ACTORS }, (_, i) => `m${i}.vmd`);
    const { fake } = memoryScene([
      ...motions.map((m, i) => [`/s/${m}`, dance(i + 1)] as [string, Uint8Array]),
      ['/s/extra.vmd', dance(99)],
      ['/s/full.vmdscene', sceneFile(motions)],
    ]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/full.vmdscene')).toBe(true);
    expect(scene.actors).toHaveLength(MAX_SCENE_ACTORS);
    const reads = fake.calls.length;
    expect(await scene.addDocument('/s/extra.vmd')).toBe(false);
    expect(scene.actors).toHaveLength(MAX_SCENE_ACTORS);
    expect(scene.entries.some((e) => e.fileName === 'extra.vmd')).toBe(false);
    const shown = lastShown();
    expect(shown.kind).toBe('warning');
    expect(shown.en.message).toBe(`extra.vmd was not added: a scene holds at most ${MAX_SCENE_ACTORS} actors`);
    expect(shown.ja.message).toBe(`extra.vmd は追加しませんでした。シーンに置けるアクターは ${MAX_SCENE_ACTORS} 人までです`);
    expect(fake.calls.length).toBe(reads + 1); // the file was read (to tell an actor from a camera), nothing written
    // Saved, the scene still reads back (the parser's bound is the same number).
    expect(await scene.saveTo('/s/full.vmdscene', true)).toBe(true);
    expect(await scene.openPath('/s/full.vmdscene')).toBe(true);
    expect(scene.actors).toHaveLength(MAX_SCENE_ACTORS);
    // One actor fewer: the same file is added.
    expect(await scene.addDocument('/s/extra.vmd')).toBe(false);
    scene.removeEntry(scene.actors[0].id);
    expect(await scene.addDocument('/s/extra.vmd')).toBe(true);
    expect(scene.actors.at(-1)!.fileName).toBe('extra.vmd');
  });

  it('a file whose name is not UTF-8 text: the notice names it and says what is wrong, in English and Japanese', async () => {
    memoryScene([]);
    const file = '/s/\uFFFD\uFFFD.vmd';
    // What main answers for it (electron/fs/files.ts ioError; test/electron/service-bounds.test.ts).
    const error = { code: 'E_IO_NAME_NOT_UTF8', message: 'the file name is not valid UTF-8 text, so it cannot be opened by name here; rename the file', file };
    setApi(new Proxy({} as VmdStudioApi, { get: (_t, name: string) => async () => (name === 'openFile' ? { ok: false, error } : okValue(undefined)) }));
    expect(await useSceneStore().openPath(file)).toBe(false);
    const shown = lastShown();
    expect(shown.kind).toBe('error');
    expect(shown.en.message).toBe(`\uFFFD\uFFFD.vmd: ${error.message}`);
    expect(shown.ja.message).toBe(`\uFFFD\uFFFD.vmd: ${t('err.E_IO_NAME_NOT_UTF8', 'ja')}`);
    expect(shown.ja.message).toContain('UTF-8');
    expect(shown.ja.detail).toBe(`E_IO_NAME_NOT_UTF8: ${error.message}`);
  });

  it('a Shift_JIS name (main read it so: params.name): the Japanese line names 立ち.vmd and says how to fix it', async () => {
    memoryScene([]);
    const file = '/s/\uFFFD\uFFFD\uFFFD.vmd';
    // What main answers for it (electron/fs/files.ts notUtf8Error; test/electron/sjis-names.test.ts).
    const message = 'the file name is Shift_JIS text ("立ち.vmd", as a zip made on Japanese Windows writes names), not UTF-8, so it cannot be opened by name here: unzip the archive again';
    const error = { code: 'E_IO_NAME_NOT_UTF8', message, file, params: { name: '立ち.vmd', sjis: 1 } };
    setApi(new Proxy({} as VmdStudioApi, { get: (_t, name: string) => async () => (name === 'openFile' ? { ok: false, error } : okValue(undefined)) }));
    expect(await useSceneStore().openPath(file)).toBe(false);
    const shown = lastShown();
    expect(shown.en.message).toBe(`\uFFFD\uFFFD\uFFFD.vmd: ${message}`);
    expect(shown.ja.message).toContain('（立ち.vmd。');
    expect(shown.ja.message).toContain('convmv -f sjis -t utf8 --notest');
    expect(shown.ja.message).toContain('unzip -O cp932');
  });

  it('a scene saved as UTF-16 (Notepad\'s "Unicode"): the notice says so and to save it as UTF-8, in English and Japanese', async () => {
    const text = '{"format":"vmd-studio-scene","version":1,"actors":[]}';
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(text, (c) => [c.charCodeAt(0), 0]).flat()]);
    memoryScene([['/s/win_utf16.vmdscene', utf16]]);
    expect(await useSceneStore().openPath('/s/win_utf16.vmdscene')).toBe(false);
    const shown = lastShown();
    expect(shown.kind).toBe('error');
    expect(shown.en.message).toBe('win_utf16.vmdscene: the scene file is UTF-16 text: save it as UTF-8');
    expect(shown.ja.message).toBe('win_utf16.vmdscene: シーンファイルが UTF-8 のテキストではありません。UTF-8 で保存し直してください（メモ帳では「名前を付けて保存」で文字コード UTF-8）');
    expect(shown.ja.detail).toBe('E_SCENE_ENCODING: the scene file is UTF-16 text: save it as UTF-8');
  });
});
