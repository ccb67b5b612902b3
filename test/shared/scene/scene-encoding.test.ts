// A scene saved by Windows Notepad as "Unicode" (UTF-16 LE with its byte order mark FF FE) was called an MP3 by
// the sniffing (FF FE 7B 00 reads as an MPEG-1 Layer I frame header: `inspect` said "audio MP3 32000 Hz"), and
// the app said only "not UTF-8 text". The sniffing now wants a whole MPEG frame (a bit rate it can measure, and
// the next frame's header where the bytes reach it), and a scene in UTF-16 or Shift_JIS says so and what to do.
import { describe, expect, it } from 'vitest';
import { audioContainerOf, fileKindByContent, fileKindOf } from '../../../shared/ipc/file-kind';
import { audioFormatOf } from '../../../shared/scene/audio-format';
import { parseScene } from '../../../shared/scene/scene-file';

const SCENE = '{\r\n  "format": "vmd-studio-scene",\r\n  "version": 1,\r\n  "actors": [{ "model": null, "motion": "motions/33_angry.vmd", "hidden": false }]\r\n}\r\n';

/** `text` as UTF-16 little endian (or big endian), with its byte order mark, written out unit by unit here. */
function utf16(text: string, bigEndian = false): Uint8Array {
  const out = bigEndian ? [0xfe, 0xff] : [0xff, 0xfe];
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    out.push(...(bigEndian ? [u >> 8, u & 0xff] : [u & 0xff, u >> 8]));
  }
  return new Uint8Array(out);
}

/**
 * An MPEG-1 Layer III frame of 128 kbit/s at 44.1 kHz without padding: FF FB 90 64, then zeros to its length,
 * 144 × 128000 / 44100 = 417 bytes (417.96, rounded down).
 */
const FRAME = [0xff, 0xfb, 0x90, 0x64, ...new Array(413).fill(0)];

describe('UTF-16 text is not an MP3', () => {
  it('a UTF-16 LE scene, short or long, is no audio kind (FF FE 7B 00 is no MPEG stream); by its name it is a scene', () => {
    const short = utf16(SCENE);
    const long = utf16(SCENE + ' '.repeat(400));
    expect(short.length).toBeLessThan(340); // shorter than the Layer I frame its first bytes would announce
    expect(long.length).toBeGreaterThan(340);
    for (const b of [short, long, utf16(SCENE, true)]) {
      expect(audioContainerOf(b)).toBeNull();
      expect(fileKindByContent(b)).toBeNull();
      expect(fileKindOf('win_utf16.vmdscene', b)).toBe('scene');
      expect(audioFormatOf(b, 'win_utf16.vmdscene')).toBe('.vmdscene file of unknown format');
    }
  });

  it('an MPEG stream is still one: two frames, or one frame that the bytes end within', () => {
    expect(audioContainerOf(new Uint8Array([...FRAME, ...FRAME]))).toBe('mp3');
    expect(audioContainerOf(new Uint8Array(FRAME.slice(0, 100)))).toBe('mp3');
    // A header whose frame is followed by something else, the free bit rate (index 0) and the reserved one (15) are not.
    expect(audioContainerOf(new Uint8Array([...FRAME, 0x41, 0x42, 0x43, 0x44]))).toBeNull();
    expect(audioContainerOf(new Uint8Array([0xff, 0xfb, 0x00, 0x64]))).toBeNull();
    expect(audioContainerOf(new Uint8Array([0xff, 0xfb, 0xf0, 0x64]))).toBeNull();
  });
});

describe('a scene in another encoding says which, and to save it as UTF-8', () => {
  it('UTF-16 LE and BE (with the byte order mark, or LE without it): E_SCENE_ENCODING', () => {
    for (const b of [utf16(SCENE), utf16(SCENE, true), utf16(SCENE).subarray(2)]) {
      const r = parseScene(b, '/p/win_utf16.vmdscene');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ code: 'E_SCENE_ENCODING', message: 'the scene file is UTF-16 text: save it as UTF-8', file: '/p/win_utf16.vmdscene' });
    }
  });

  it('Shift_JIS (a Japanese folder name in it): E_SCENE_ENCODING naming Shift_JIS; bytes that are no text stay E_SCENE_JSON', () => {
    // モデル in Shift_JIS: 83 82 83 66 83 8B (not UTF-8: 0x83 cannot start a UTF-8 character).
    const head = new TextEncoder().encode('{"format":"vmd-studio-scene","version":1,"actors":[{"model":"');
    const tail = new TextEncoder().encode('/x.pmx","motion":null,"hidden":false}]}');
    const sjis = new Uint8Array([...head, 0x83, 0x82, 0x83, 0x66, 0x83, 0x8b, ...tail]);
    const r = parseScene(sjis, '/p/win_sjis.vmdscene');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'E_SCENE_ENCODING', message: 'the scene file is Shift_JIS text, it seems: save it as UTF-8' });
    const junk = parseScene(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), '/p/junk.vmdscene');
    expect(junk.ok).toBe(false);
    if (!junk.ok) expect(junk.error).toMatchObject({ code: 'E_SCENE_JSON', message: 'the scene file is not UTF-8 text' });
  });
});
