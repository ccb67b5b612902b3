import { describe, expect, it } from 'vitest';
import { audioFormatOf } from '../../../shared/scene/audio-format';

const b = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const le32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >>> 24) & 255];

describe('audio format from the first bytes', () => {
  it('WAV with its fmt format tag, after other chunks too', () => {
    expect(audioFormatOf(b('RIFF', le32(36), 'WAVE', 'fmt ', le32(16), [1, 0, 2, 0]))).toBe('WAV (PCM)');
    expect(audioFormatOf(b('RIFF', le32(36), 'WAVE', 'fmt ', le32(16), [3, 0]))).toBe('WAV (float)');
    // A LIST chunk of odd size (padded to even) before fmt.
    expect(audioFormatOf(b('RIFF', le32(50), 'WAVE', 'LIST', le32(3), 'abc', [0], 'fmt ', le32(16), [0x61, 0x01]))).toBe('WAV (WMA)');
    expect(audioFormatOf(b('RIFF', le32(36), 'WAVE', 'fmt ', le32(16), [0x99, 0x12]))).toBe('WAV (format 0x1299)');
    expect(audioFormatOf(b('RIFF', le32(4), 'WAVE'))).toBe('WAV (no format chunk)');
  });

  it('the other containers and streams', () => {
    expect(audioFormatOf(b('FORM', le32(0), 'AIFF'))).toBe('AIFF');
    expect(audioFormatOf(b('FORM', le32(0), 'AIFC'))).toBe('AIFF-C');
    expect(audioFormatOf(b('OggS', [0, 2]))).toBe('Ogg');
    expect(audioFormatOf(b('fLaC', [0]))).toBe('FLAC');
    expect(audioFormatOf(b(le32(0x20000000), 'ftypM4A '))).toBe('MP4/M4A');
    expect(audioFormatOf(b([0x1a, 0x45, 0xdf, 0xa3]))).toBe('WebM/Matroska');
    expect(audioFormatOf(b([0x30, 0x26, 0xb2, 0x75, 0x8e]))).toBe('WMA (ASF)');
    expect(audioFormatOf(b('ID3', [4, 0]))).toBe('MP3');
    expect(audioFormatOf(b([0xff, 0xfb, 0x90]))).toBe('MP3');
    expect(audioFormatOf(b([0xff, 0xf1, 0x50]))).toBe('AAC (ADTS)');
  });

  it('falls back to the extension, then to "unknown"', () => {
    expect(audioFormatOf(b('hello'), 'song.XYZ')).toBe('.xyz file of unknown format');
    expect(audioFormatOf(new Uint8Array(0), 'noext')).toBe('unknown format');
  });
});
