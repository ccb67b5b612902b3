// readVrma on damaged VRM Animations written by writeVrma (gltf-transform): times that are not a number or
// run backwards, and values so large that the import's float32 keys would overflow, are refused with
// E_VRMA_FORMAT naming the node; a sound file reads back as written. Without these checks the import
// wrote an empty motion for a NaN time, and keys of ±3e38 units (a hair from float32's Infinity) for a
// translation of 3e38 m (the last test shows what the import makes of such data).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readVrma, writeVrma } from '../../electron/vrma/vrma-io';
import { vrmaToMotion, type VrmaData } from '../../shared/bvh/vrma';
import { readModel } from '../../shared/pmx';
import { buildTracks } from '../../shared/vmd';
import { corpusPath, corpusPresent } from '../helpers/corpus';

/** Hips and spine; the hips turn 90° about Y and rise 0.2 m over one second. */
function sample(): VrmaData {
  return {
    nodes: [
      { name: 'hips', parent: -1, translation: [0, 1, 0], rotation: [0, 0, 0, 1] },
      { name: 'spine', parent: 0, translation: [0, 0.1, 0], rotation: [0, 0, 0, 1] },
    ],
    humanBones: { hips: 0, spine: 1 },
    expressions: {},
    tracks: [
      { node: 0, path: 'rotation', interpolation: 'LINEAR', times: Float32Array.from([0, 1]), values: Float32Array.from([0, 0, 0, 1, 0, Math.SQRT1_2, 0, Math.SQRT1_2]) },
      { node: 0, path: 'translation', interpolation: 'LINEAR', times: Float32Array.from([0, 1]), values: Float32Array.from([0, 1, 0, 0, 1.2, 0]) },
    ],
  };
}

async function readBack(v: VrmaData) {
  return readVrma(await writeVrma(v));
}

describe('readVrma: damaged values', () => {
  it('reads a sound file back as written', async () => {
    const r = await readBack(sample());
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.nodes.map((n) => n.name)).toEqual(['hips', 'spine']);
    expect(Array.from(r.value.tracks[0].times)).toEqual([0, 1]);
    expect(r.value.tracks[1].values[4]).toBeCloseTo(1.2, 6);
  });

  const bad: [string, (v: VrmaData) => void, RegExp][] = [
    ['a time that is not a number', (v) => (v.tracks[0].times[1] = NaN), /node "hips": time 2 is NaN/],
    ['a negative time', (v) => (v.tracks[1].times[0] = -1), /node "hips": time 1 is -1/],
    ['times that run backwards', (v) => (v.tracks[0].times = Float32Array.from([1, 0.5])), /node "hips": time 2 \(0\.5 s\) comes before time 1 \(1 s\)/],
    ['a keyed translation of 3e38 m', (v) => v.tracks[1].values.fill(3e38), /node "hips" holds a value beyond ±1,000,000/],
    ['a rest translation of 1e308 m', (v) => (v.nodes[1].translation = [1e308, 0, 0]), /node "spine" has a rest translation or rotation .* beyond ±1,000,000/],
  ];
  for (const [what, damage, message] of bad) {
    it(`refuses ${what} with E_VRMA_FORMAT naming the node`, async () => {
      const v = sample();
      damage(v);
      const r = await readBack(v);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('E_VRMA_FORMAT');
      expect(r.error.message).toMatch(message);
    });
  }

  it.skipIf(!corpusPresent)('what the import made of such data: an empty motion for a NaN time, keys of ±3e38 units for 3e38 m', () => {
    const m = readModel(new Uint8Array(readFileSync(corpusPath('mmd-viewer-js/model/low_miku/miku.pmd'))));
    if (!m.ok) throw new Error(m.error.message);
    const keys = (damage: (v: VrmaData) => void) => {
      const v = sample();
      damage(v);
      const r = vrmaToMotion(v, m.value);
      if (!r.ok) throw new Error(r.error.message);
      const b = buildTracks(r.value.doc).bones;
      return { count: b.frames.length, largest: Math.max(...b.position.map(Math.abs)) };
    };
    const sound = keys(() => {});
    expect(sound.count).toBeGreaterThan(0);
    expect(sound.largest).toBeLessThan(100);
    expect(keys((v) => (v.tracks[0].times[1] = NaN)).count).toBe(0);
    expect(keys((v) => v.tracks[1].values.fill(3e38)).largest).toBeGreaterThan(1e38);
  });
});

describe('readVrma: a damaged container (GLB) is named in our words, with the byte', () => {
  const cases: [string, (b: Uint8Array) => Uint8Array, RegExp][] = [
    ['seven bytes', () => new TextEncoder().encode('not glb'), /^not a binary glTF \(\.vrma\) file: 7 bytes, shorter than the 12-byte GLB header$/],
    ['another magic', (b) => Object.assign(b.slice(), { 0: 0x47 }), /^not a binary glTF \(\.vrma\) file: it does not begin with "glTF"$/],
    ['version 1', (b) => Object.assign(b.slice(), { 4: 1 }), /^glTF version 1 \(at byte 4\); a \.vrma is glTF 2$/],
    ['a cut file', (b) => b.slice(0, 300), /^the file is cut: its header says [\d,]+ bytes \(at byte 8\), the file has 300$/],
    ['a chunk longer than the file says', (b) => {
      const c = b.slice();
      new DataView(c.buffer).setUint32(12, c.byteLength, true);
      return c;
    }, /^chunk 1 at byte 12 holds [\d,]+ bytes, past the GLB's end \([\d,]+ bytes\)$/],
  ];
  for (const [what, damage, message] of cases) {
    it(what, async () => {
      const glb = await writeVrma(sample());
      // The sound file is a GLB whose header's length is its own (the independent check of the layout read here).
      const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
      expect([dv.getUint32(0, true), dv.getUint32(4, true), dv.getUint32(8, true)]).toEqual([0x46546c67, 2, glb.byteLength]);
      const r = await readVrma(damage(glb));
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('E_VRMA_FORMAT');
      expect(r.error.message).toMatch(message);
    });
  }
});
