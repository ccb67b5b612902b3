/**
 * Access to the real files in ../shared/corpus (or $VMD_CORPUS). They are read in place and never
 * copied into the repository. When the corpus is missing, corpus tests are skipped with a clear
 * message — except under VMD_CORPUS_REQUIRED=1 (CI), where a missing corpus fails the run.
 */
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CORPUS, ROOT } from './build';
import { readModel, type ModelData } from '../../shared/pmx';
import { readVmd } from '../../shared/vmd/vmd-reader';
import type { VmdDocument } from '../../shared/vmd/vmd-document';

export const repoRoot = ROOT;
export const corpusDir = CORPUS;
export const corpusPresent = existsSync(corpusDir) && statSync(corpusDir).isDirectory();

if (!corpusPresent) {
  const msg = `corpus not found at ${corpusDir} (set VMD_CORPUS to its folder)`;
  if (process.env.VMD_CORPUS_REQUIRED === '1') throw new Error(msg + '; VMD_CORPUS_REQUIRED=1 makes this an error');
  console.warn(`[corpus] ${msg}: corpus tests are skipped`);
}

/** Every file under the corpus with one of the extensions, sorted. */
export function corpusFiles(...exts: string[]): string[] {
  if (!corpusPresent) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (exts.includes(path.extname(e.name).toLowerCase())) out.push(p);
    }
  };
  walk(corpusDir);
  return out.sort();
}

export function corpusPath(rel: string): string {
  return path.join(corpusDir, rel);
}

/**
 * Copies a file (a corpus file, most often) to `dest` writable by its owner: the corpus may be read-only
 * (0444), and copyFileSync keeps the mode, so a copy the test saves over would be "read-only" to the app too
 * (a save refuses a file without the owner's write bit: electron/services/file-io.ts saveRefusal).
 */
export function copyWritable(src: string, dest: string): void {
  copyFileSync(src, dest);
  chmodSync(dest, (statSync(dest).mode & 0o7777) | 0o200);
}

/** Reads a corpus file as a Uint8Array view of a Buffer (pooled memory, non-zero byteOffset possible). */
export function readCorpus(rel: string): Uint8Array {
  const p = path.isAbsolute(rel) ? rel : corpusPath(rel);
  const b = readFileSync(p);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export const relName = (p: string) => path.relative(corpusDir, p);

/** A corpus model read by the codec (a test's input, not what it checks); throws with the reader's message. */
export function corpusModel(rel: string): ModelData {
  const r = readModel(readCorpus(rel));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A corpus motion read by the codec; throws with the reader's message. */
export function corpusMotion(rel: string): VmdDocument {
  const r = readVmd(readCorpus(rel));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
