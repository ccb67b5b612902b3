/**
 * NamedTracks.index, made when first asked (issue 31: a read that never looks a name up no longer makes a
 * Map of every name; 2,974 of them were some 200 µs of a 1.6 MB motion's read). Checked against an eager
 * construction of its own: every record's name read through the field accessors (boneName, morphName),
 * in file order, each name not seen before given the next track. On every corpus motion, through the
 * WebAssembly path (blocks of 2,048 records or more) and the JS loops alike; and on names spelt in other
 * bytes that decode alike (CP932's doubly mapped pairs, a character cut by the NUL), where the grouping
 * itself must look names up, with the first such spelling coming after many plain ones.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { boneName, buildTracks, decodeName, indexBoneTracks, morphName, readVmd, type Block, type NamedTracks, type VmdDocument } from '../../shared/vmd';
import { setTracksWasm } from '../../shared/vmd/tracks-wasm';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';
import { buildFixture, type FixtureBone } from '../helpers/vmd-fixtures';

afterAll(() => setTracksWasm(true));

function docOf(bytes: Uint8Array): VmdDocument {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The eager index: names in file order of first appearance, each the next track. */
function eagerIndex(block: Block, nameOf: (i: number) => string): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < block.count; i++) {
    const name = nameOf(i);
    if (!index.has(name)) index.set(name, index.size);
  }
  return index;
}

/** Checks tracks' index: a getter, not yet made; once asked, the eager Map; kept; copied by a spread. */
function expectLazyIndex(got: NamedTracks, expected: Map<string, number>, label: string): void {
  const own = Object.getOwnPropertyDescriptor(got, 'index');
  expect(typeof own?.get, `${label}: index is a getter`).toBe('function');
  expect(Object.keys(got), label).toContain('index');
  const index = got.index;
  expect([...index], label).toEqual([...expected]);
  expect(got.index, `${label}: made once`).toBe(index);
  expect({ ...got }.index, `${label}: a spread copies it`).toBe(index);
  // Every track's name finds that track.
  for (const [name, t] of expected) expect(got.names[t], label).toBe(name);
}

const paths = [['WebAssembly', true], ['JS loops', false]] as const;

describe.skipIf(!corpusPresent)('the track index on the corpus', () => {
  const files = corpusFiles('.vmd');
  it('finds the corpus motions', () => expect(files.length).toBeGreaterThan(10));
  for (const f of files) {
    it(`gives the eager construction's Map: ${relName(f)}`, () => {
      const doc = docOf(readCorpus(f));
      const bones = eagerIndex(doc.bone, (i) => boneName(doc.bone, i));
      const morphs = eagerIndex(doc.morph, (i) => morphName(doc.morph, i));
      for (const [path, on] of paths) {
        setTracksWasm(on);
        const t = buildTracks(doc);
        expectLazyIndex(t.bones, bones, `${relName(f)} bones (${path})`);
        expectLazyIndex(t.morphs, morphs, `${relName(f)} morphs (${path})`);
        expectLazyIndex(indexBoneTracks(doc.bone), bones, `${relName(f)} indexBoneTracks (${path})`);
      }
      setTracksWasm(true);
    });
  }
});

describe('the track index of names that decode alike', () => {
  // ≒ is both 81E0 and 8790 in CP932; "AB" then a lead byte cut by the NUL decodes as "AB".
  const nearlyEqual1 = [0x81, 0xe0], nearlyEqual2 = [0x87, 0x90], cutAB = [0x41, 0x42, 0x82];
  /**
   * 600 plain (lone) names first, then ≒ spelt one way (the grouping starts looking names up there), more
   * plain names and "AB", then ≒ and "AB" spelt the other way; every record on a frame of its own,
   * 2,400 bone and morph records in all (the WebAssembly path) or 600 (the JS loops' small blocks).
   */
  function keys(records: number): FixtureBone[] {
    const spellings: (number[] | string)[] = [];
    for (let k = 0; k < 600; k++) spellings.push(`N${k}`);
    spellings.push(nearlyEqual1);
    for (let k = 600; k < 620; k++) spellings.push(`N${k}`);
    spellings.push('AB', nearlyEqual2, cutAB);
    const out: FixtureBone[] = [];
    for (let i = 0; i < records; i++) out.push({ name: spellings[i % spellings.length], frame: i });
    return out;
  }

  for (const records of [2400, 624]) {
    it(`gives both spellings one track and one entry (${records} records)`, () => {
      const fixture = keys(records);
      const doc = docOf(buildFixture({ bones: fixture, morphs: fixture.map((k) => ({ ...k, weight: 0 })) }));
      // Worked out by hand: N0..N599, ≒, N600..N619, AB; the second ≒ and the cut AB join theirs.
      const names = [...Array.from({ length: 600 }, (_, k) => `N${k}`), '≒', ...Array.from({ length: 20 }, (_, k) => `N${600 + k}`), 'AB'];
      const expected = new Map(names.map((n, t) => [n, t]));
      const perName = Math.floor(records / 624); // the last spellings' keys per spelling
      for (const [path, on] of paths) {
        setTracksWasm(on);
        const t = buildTracks(doc);
        for (const [kind, got] of [['bones', t.bones], ['morphs', t.morphs]] as const) {
          const label = `${kind} (${path}, ${records})`;
          expect(got.names, label).toEqual(names);
          expectLazyIndex(got, expected, label);
          // Each spelling's bytes, decoded as a caller would, look up the one track, which holds both spellings' keys.
          for (const [spelling, name] of [[nearlyEqual1, '≒'], [nearlyEqual2, '≒'], ['AB', 'AB'], [cutAB, 'AB']] as const) {
            const bytes = typeof spelling === 'string' ? Uint8Array.from(spelling, (c) => c.charCodeAt(0)) : Uint8Array.from(spelling);
            const tr = got.index.get(decodeName(bytes, 0, bytes.length));
            expect(tr, `${label} ${name}`).toBe(names.indexOf(name));
            expect(got.start[tr! + 1] - got.start[tr!], `${label} ${name}: keys`).toBe(2 * perName);
          }
        }
      }
      setTracksWasm(true);
    });
  }
});
