// The fitter's memory is bounded by the largest track, not the file: each track is sampled, fitted and
// written before the next is sampled. Measured on the real wavefile_v2 re-timed ×0.25 (11,000 frames a
// track): after full garbage collections at track boundaries (progress calls), what is alive beyond what
// was alive before the run stays far below what sampling every track at once would hold; and a reduce
// of the dance baked to every frame holds no index of the whole file. (Peaks inside one track are that
// track's own.)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildTracks, readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { bake, reduce, speedRefit } from '../../../shared/fit';
import { corpusPresent, readCorpus } from '../../helpers/corpus';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const live = () => {
  // Twice: the first collection leaves some array buffers' memory to be given back after it.
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** The most alive (bytes, beyond the start) at the track boundaries of a fit (a re-timing ×factor, or reduce). */
function peakBetweenTracks(doc: VmdDocument, factor: number | 'reduce'): number {
  const base = live();
  let peak = 0;
  // Every eighth track (a collection costs tens of ms): anything held across tracks shows at any of them.
  const progress = (done: number) => void (done % 8 === 1 && (peak = Math.max(peak, live() - base)));
  const r = factor === 'reduce' ? reduce(doc, { progress }) : speedRefit(doc, { factor, progress });
  expect(r.ok).toBe(true);
  return peak;
}

/** Bytes that the samples of every track at once would take: one float64 per channel per output frame. */
function allSamplesBytes(doc: VmdDocument, factor: number): number {
  const t = buildTracks(doc);
  let n = 0;
  for (let i = 0; i < t.bones.names.length; i++) n += 7 * (Math.ceil(t.bones.frames[t.bones.start[i + 1] - 1] / factor) + 1);
  for (let i = 0; i < t.morphs.names.length; i++) n += Math.ceil(t.morphs.frames[t.morphs.start[i + 1] - 1] / factor) + 1;
  return 8 * n;
}

describe.skipIf(!corpusPresent)('fitting memory', () => {
  it('stays bounded by one track: far below every track sampled at once', () => {
    const r = readVmd(readCorpus('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    if (!r.ok) throw new Error(r.error.message);
    const doc = r.value;
    const peak = peakBetweenTracks(doc, 0.25);
    const all = allSamplesBytes(doc, 0.25);
    const mb = (x: number) => (x / 1e6).toFixed(1);
    console.log(`wavefile_v2 re-timed ×0.25: alive between tracks at most ${mb(peak)} MB; every track's samples at once: ${mb(all)} MB`);
    expect(peak).toBeLessThan(all / 4);
  });

  it('holds no index of the whole file: reducing baked wavefile_v2 keeps well under half the file alive', () => {
    // Baked to every frame the file is 28 MB; decoding every track's values up front (52 bytes a key)
    // would hold nearly half of that on its own. The fit decodes one track at a time (boneTrackOf).
    const r = readVmd(readCorpus('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    if (!r.ok) throw new Error(r.error.message);
    const b = bake(r.value);
    if (!b.ok) throw new Error(b.error.message);
    const fileBytes = writeVmd(b.value.doc).length;
    const peak = peakBetweenTracks(b.value.doc, 'reduce');
    console.log(`reduce of baked wavefile_v2 (${(fileBytes / 1e6).toFixed(1)} MB): alive between tracks at most ${(peak / 1e6).toFixed(1)} MB`);
    expect(peak).toBeLessThan(fileBytes / 2);
  });
});
