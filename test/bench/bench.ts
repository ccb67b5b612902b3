/**
 * `npm run bench`: codec speed side by side with the peers, in one run on the same machine.
 * Parse + index + decode every bone key (name, frame, position, rotation, curves) of the largest corpus
 * files with VMD Studio's codec, babylon-mmd's VmdObject and mmd-parser (what three.js used); medians of
 * repeated runs and the ratios. Then full-pose sampling at one frame, and the batch benchmark.
 * Machines are shared and noisy: this reports numbers, it asserts nothing.
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { buildTracks, readVmd, samplePose, sampleBonesInto } from '../../shared/vmd';
import { benchFuzz } from './fuzz-bench';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = process.env.VMD_CORPUS ? path.resolve(process.env.VMD_CORPUS) : path.resolve(root, '../shared/corpus');
const req = createRequire(path.join(root, 'package.json'));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn: () => void, runs: number, warmup = 5): number {
  for (let i = 0; i < warmup; i++) fn();
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    ts.push(performance.now() - t0);
  }
  return median(ts);
}

let sink = 0;

function ours(bytes: Uint8Array): void {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error(r.error.message);
  const t = buildTracks(r.value);
  sink += t.bones.frames.length + t.bones.names.length + t.bones.position[0] + t.bones.curves[0];
}

async function babylon(): Promise<((b: Uint8Array) => void) | null> {
  try {
    const m = await import('babylon-mmd/esm/Loader/Parser/vmdObject.js');
    const VmdObject = m.VmdObject;
    return (bytes: Uint8Array) => {
      const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const o = VmdObject.ParseFromBuffer(buf);
      const keys = o.boneKeyFrames;
      for (let i = 0; i < keys.length; i++) {
        const k = keys.get(i);
        sink += k.frameNumber + k.boneName.length + k.position[0] + k.rotation[3] + k.interpolation[0];
      }
    };
  } catch (e) {
    console.log(`babylon-mmd not available: ${(e as Error).message}`);
    return null;
  }
}

function mmdParser(): ((b: Uint8Array) => void) | null {
  try {
    const { Parser } = req('mmd-parser');
    const p = new Parser();
    return (bytes: Uint8Array) => {
      const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const vmd = p.parseVmd(buf, false);
      for (const m of vmd.motions) sink += m.frameNum + m.boneName.length + m.position[0] + m.rotation[3] + m.interpolation[0];
    };
  } catch (e) {
    console.log(`mmd-parser not available: ${(e as Error).message}`);
    return null;
  }
}

async function main() {
  if (!existsSync(corpus)) {
    console.log(`corpus not found at ${corpus}; set VMD_CORPUS`);
    process.exitCode = 1;
    return;
  }
  const files = ['mmd-viewer-js/vmd/wavefile_v2.vmd', 'mc-mmd-rust/default_anim/Drink.vmd', 'gene/motion/26_mortifying.vmd'];
  const bab = await babylon();
  const mp = mmdParser();
  console.log('\nParse + index + decode every bone key (median ms; ratio = peer / VMD Studio)');
  console.log('file'.padEnd(36) + 'size'.padStart(10) + 'vmd-studio'.padStart(12) + 'babylon-mmd'.padStart(13) + 'ratio'.padStart(7) + 'mmd-parser'.padStart(12) + 'ratio'.padStart(7));
  for (const rel of files) {
    const p = path.join(corpus, rel);
    if (!existsSync(p)) continue;
    const b = readFileSync(p);
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    const runs = bytes.length > 1e6 ? 40 : 100;
    const a = time(() => ours(bytes), runs);
    const bb = bab ? time(() => bab(bytes), runs) : NaN;
    const mm = mp ? time(() => mp(bytes), Math.min(runs, 30)) : NaN;
    console.log(
      path.basename(rel).padEnd(36) +
        `${(bytes.length / 1e6).toFixed(2)} MB`.padStart(10) +
        a.toFixed(3).padStart(12) +
        bb.toFixed(3).padStart(13) +
        `${(bb / a).toFixed(1)}×`.padStart(7) +
        mm.toFixed(3).padStart(12) +
        `${(mm / a).toFixed(1)}×`.padStart(7),
    );
  }

  // Full-pose sampling at one frame.
  const wave = readFileSync(path.join(corpus, 'mmd-viewer-js/vmd/wavefile_v2.vmd'));
  const doc = readVmd(new Uint8Array(wave.buffer, wave.byteOffset, wave.byteLength));
  if (doc.ok) {
    const tracks = buildTracks(doc.value);
    const n = tracks.bones.names.length;
    const pos = new Float32Array(3 * n), rot = new Float32Array(4 * n);
    let f = 0;
    const into = time(() => {
      for (let i = 0; i < 100; i++) sampleBonesInto(tracks.bones, (f = (f + 7.3) % tracks.lastFrame), pos, rot);
    }, 50) / 100;
    const obj = time(() => {
      for (let i = 0; i < 100; i++) sink += Object.keys(samplePose(tracks, (f = (f + 7.3) % tracks.lastFrame)).bones).length;
    }, 30) / 100;
    console.log(`\nFull-pose sampling, wavefile_v2.vmd (${n} bone tracks, ${tracks.morphs.names.length} morphs):`);
    console.log(`  all bones into typed arrays (preview path): ${(into * 1000).toFixed(1)} µs per frame (target < 50 µs)`);
    console.log(`  whole pose as objects (CLI/JSON path):      ${(obj * 1000).toFixed(1)} µs per frame`);
  }

  const batchBench = path.join(root, 'test/bench/batch-bench.ts');
  if (existsSync(batchBench)) {
    try {
      const m = await import('./batch-bench');
      if (typeof (m as { benchBatch?: () => Promise<unknown> }).benchBatch === 'function') await (m as { benchBatch: () => Promise<unknown> }).benchBatch();
    } catch (e) {
      console.log(`batch benchmark failed: ${(e as Error).message}`);
    }
  }
  // Parser time on damaged files (the fuzz tests' inputs; timing is reported here, not asserted there).
  console.log('');
  benchFuzz(corpus);
  if (sink === -1) console.log(sink);
}

await main();
