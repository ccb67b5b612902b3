// `inspect SCENE` is how a person checks a scene folder before sharing it, or one a friend sent. A scene that
// Windows Notepad saved as "Unicode" (UTF-16) was called "audio MP3 32000 Hz" with a warning about an audio file
// named .vmdscene; now it is the scene it is, refused with what to do.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);

describe('a scene in UTF-16 (Notepad\'s "Unicode")', () => {
  it('is named a scene in another encoding, with what to do: not an MP3', async () => {
    const d = mk('inspect-utf16');
    const text = '{\r\n  "format": "vmd-studio-scene",\r\n  "version": 1,\r\n  "actors": [{ "model": null, "motion": "a.vmd", "hidden": false }]\r\n}\r\n';
    writeFileSync(path.join(d, 'win_utf16.vmdscene'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const t = await cli(d, 'inspect', 'win_utf16.vmdscene');
    expect(t.out + t.err).not.toContain('MP3');
    expect(t.err).toContain('win_utf16.vmdscene: the scene file is UTF-16 text: save it as UTF-8');
    expect(t.code).not.toBe(0);
    const j = await cli(d, 'inspect', '--json', 'win_utf16.vmdscene');
    expect(JSON.parse(j.out.trim())).toMatchObject({ ok: false, error: { code: 'E_SCENE_ENCODING', message: 'the scene file is UTF-16 text: save it as UTF-8' } });
  });
});
