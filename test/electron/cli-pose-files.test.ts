// Poses through the CLI keep VPD's text: `convert A.vpd -o B.vpd` writes the pose byte for byte (before, it
// went through the writer: "-0.000000" became "0.000000" and LF became CR LF).
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
});
