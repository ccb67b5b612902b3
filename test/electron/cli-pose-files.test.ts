// Poses through the CLI keep VPD's text: `convert A.vpd -o B.vpd` writes the pose byte for byte (before, it
// went through the writer: "-0.000000" became "0.000000" and LF became CR LF). A face preset made a motion
// (微笑.vpd: 6 morphs, no bone) is inspected as a facial (morph) motion (before: "unknown", as under 11 keys).
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../helpers/cli-in-process';
import { useTempDirs } from './batch-helpers';
import { corpusFiles, corpusPresent, readCorpus, relName } from '../helpers/corpus';

const mk = useTempDirs();
const cli = (cwd: string, ...argv: string[]) => runCliCaptured(argv, cwd);
const vpds = corpusFiles('.vpd');

describe.skipIf(!corpusPresent)('poses through the CLI', () => {
  it.each(vpds.map((f) => [relName(f), f]))('convert %s -o OUT.vpd writes it byte for byte', async (_n, f) => {
    const dir = mk('pose-convert');
    writeFileSync(path.join(dir, 'in.vpd'), readCorpus(f));
    const r = await cli(dir, 'convert', 'in.vpd', '-o', 'out.vpd', '--quiet');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(Buffer.compare(readFileSync(path.join(dir, 'out.vpd')), Buffer.from(readCorpus(f)))).toBe(0);
  });

  it('convert 微笑.vpd -o smile.vmd, then inspect: a morph motion of 6 morph keys', async () => {
    const dir = mk('pose-face');
    writeFileSync(path.join(dir, 'smile.vpd'), readCorpus('mc-mmd-rust/CustomMorphs/微笑.vpd'));
    expect((await cli(dir, 'convert', 'smile.vpd', '-o', 'smile.vmd', '--quiet')).code).toBe(0);
    const r = await cli(dir, 'inspect', 'smile.vmd', '--json');
    expect(r.code).toBe(0);
    const info = JSON.parse(r.out);
    expect(info.counts).toMatchObject({ bone: 0, morph: 6, camera: 0, light: 0 });
    expect(info.kind).toBe('morph');
  });
});
