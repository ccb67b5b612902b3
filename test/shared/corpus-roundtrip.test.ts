import { describe, expect, it } from 'vitest';
import { buildTracks, inspectVmd, readVmd, readVpd, writeVmd, vmdFromJson, vmdToJson } from '../../shared/vmd';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';

const vmds = corpusFiles('.vmd');
const vpds = corpusFiles('.vpd');

describe.skipIf(!corpusPresent)('real corpus files', () => {
  it('has motion files to test', () => {
    expect(vmds.length).toBeGreaterThanOrEqual(20);
    expect(vpds.length).toBeGreaterThanOrEqual(10);
  });

  it.each(vmds.map((f) => [relName(f), f]))('%s: read → write is byte-identical', (_n, f) => {
    const bytes = readCorpus(f);
    const r = readVmd(bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const out = writeVmd(r.value);
    expect(out.length).toBe(bytes.length);
    expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
  });

  it.each(vmds.map((f) => [relName(f), f]))('%s: VMD → JSON → VMD is byte-identical', (_n, f) => {
    const bytes = readCorpus(f);
    const r = readVmd(bytes);
    if (!r.ok) throw new Error(r.error.message);
    const back = vmdFromJson(vmdToJson(r.value));
    expect(back.ok).toBe(true);
    if (back.ok) expect(Buffer.from(writeVmd(back.value)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('finds the block counts the corpus manifest lists for wavefile_v2 and the camera file', () => {
    const wave = readVmd(readCorpus('mmd-viewer-js/vmd/wavefile_v2.vmd'));
    const cam = readVmd(readCorpus('threejs/vmds/wavefile_camera.vmd'));
    if (!wave.ok || !cam.ok) throw new Error('corpus file failed to read');
    const wi = inspectVmd(wave.value, buildTracks(wave.value));
    expect(wi.counts).toMatchObject({ bone: 14160, morph: 1279, camera: 0, light: 0, shadow: 0 });
    expect(wi.absentBlocks).toEqual(['ik']);
    expect(wi.lastFrame).toBe(2809);
    expect(wi.kind).toBe('motion');
    const ci = inspectVmd(cam.value, buildTracks(cam.value));
    expect(ci.kind).toBe('camera');
    expect(ci.counts.camera).toBe(70);
    expect(ci.absentBlocks).toEqual(['shadow', 'ik']);
    expect(ci.lastFrame).toBe(2816);
  });

  it('keeps tool-written interpolation blocks whose rows 1–3 are empty (Drink.vmd) byte for byte', () => {
    const r = readVmd(readCorpus('mc-mmd-rust/default_anim/Drink.vmd'));
    if (!r.ok) throw new Error(r.error.message);
    const json = vmdToJson(r.value);
    expect(json).toContain('"copies":false');
    expect(json).not.toContain('interpolationRaw');
  });

  it.each(vpds.map((f) => [relName(f), f]))('%s: parses, with sections counted', (_n, f) => {
    const r = readVpd(readCorpus(f));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.bones.length + r.value.morphs.length).toBeGreaterThan(0);
  });
});
