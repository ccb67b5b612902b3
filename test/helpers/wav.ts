/**
 * WAV files for the music tests, built here field by field (RIFF/WAVE, a 16-byte PCM fmt chunk, data):
 * 16-bit PCM, channels interleaved.
 */
export function pcm16Wav(samples: Int16Array, channels: number, sampleRate = 44_100): Uint8Array {
  const bytes = samples.length * 2;
  const out = new Uint8Array(44 + bytes);
  const dv = new DataView(out.buffer);
  const str = (at: number, s: string) => [...s].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  str(0, 'RIFF');
  dv.setUint32(4, 36 + bytes, true);
  str(8, 'WAVE');
  str(12, 'fmt ');
  dv.setUint32(16, 16, true); // fmt chunk size
  dv.setUint16(20, 1, true); // PCM
  dv.setUint16(22, channels, true);
  dv.setUint32(24, sampleRate, true);
  dv.setUint32(28, sampleRate * channels * 2, true); // bytes per second
  dv.setUint16(32, channels * 2, true); // block align
  dv.setUint16(34, 16, true); // bits per sample
  str(36, 'data');
  dv.setUint32(40, bytes, true);
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] === 1) out.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength), 44);
  else for (let i = 0; i < samples.length; i++) dv.setInt16(44 + i * 2, samples[i], true);
  return out;
}
