/**
 * Fuzz timing (called by test/bench/bench.ts, `npm run bench`): the same seeded damaged files as
 * test/shared/fuzz.test.ts (test/helpers/mutate.ts) through the parsers, timed one by one. Reports the
 * median and the slowest file per kind: a damaged count that made a parser loop or allocate would show
 * here as a slowest far above the median. Reports numbers; asserts nothing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildTracks, inspectVmd, readVmd, readVpd, samplePose } from '../../shared/vmd';
import { readModel } from '../../shared/pmx';
import { damageModel, damageVmd, damageVpd, rng } from '../helpers/mutate';

function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, ext));
    else if (n.toLowerCase().endsWith(ext)) out.push(p);
  }
  return out;
}

const read = (p: string) => new Uint8Array(readFileSync(p));

/** Times `parse` on `count` damaged copies; returns the median and the slowest in ms. */
function timeDamaged(count: number, source: (n: number) => Uint8Array, parse: (b: Uint8Array) => void): { median: number; slowest: number } {
  const ts: number[] = [];
  for (let n = 0; n < count; n++) {
    const b = source(n);
    const t0 = performance.now();
    parse(b);
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return { median: ts[Math.floor(ts.length / 2)], slowest: ts[ts.length - 1] };
}

export function benchFuzz(corpus: string, log: (s: string) => void = (s) => process.stdout.write(s + '\n')): void {
  const vmds = filesUnder(corpus, '.vmd').filter((f) => !f.includes('wavefile_v2')).map(read);
  const vpds = filesUnder(corpus, '.vpd').map(read);
  const models = [...filesUnder(corpus, '.pmx'), ...filesUnder(corpus, '.pmd')].map(read);
  const fmt = (what: string, r: { median: number; slowest: number }) => log(`fuzz ${what}: median ${r.median.toFixed(3)} ms, slowest ${r.slowest.toFixed(2)} ms`);
  const rv = rng(12345);
  fmt('3000 damaged VMDs (read, tracks, inspect, sample)', timeDamaged(3000, (n) => damageVmd(vmds[n % vmds.length], n, rv), (b) => {
    const r = readVmd(b);
    if (!r.ok) return;
    const tracks = buildTracks(r.value);
    inspectVmd(r.value, tracks);
    samplePose(tracks, tracks.lastFrame / 2);
  }));
  const rp = rng(777);
  if (vpds.length) fmt('1000 damaged VPDs', timeDamaged(1000, (n) => damageVpd(vpds[n % vpds.length], n, rp), (b) => void readVpd(b)));
  const rm = rng(99);
  if (models.length) fmt('60 damaged corpus models', timeDamaged(60, (n) => damageModel(models[n % models.length], n, rm), (b) => void readModel(b)));
}
