/**
 * tracks.ts's hot loops in WebAssembly (tracks.wat) for large bone and morph blocks: grouping by name,
 * placement, the per-track sort, dropping duplicates, and the bone values' decoding. Each call copies the
 * block into one memory, grown to what the block needs; reads that follow each other share it, and it is
 * let go KEEP_MS after the last (releaseLater). The views over it assume a little-endian host, as every
 * platform Electron and Node ship for is. Where WebAssembly is missing or refused (a page
 * whose policy forbids compiling it), `tracksWasm()` is null and tracks.ts runs its own loops, which
 * give the same results (test/shared/tracks-wasm.test.ts compares them).
 */
import { WASM_BASE64 } from './tracks-wasm.gen';

interface Exports {
  group(n: number, size: number, valueOff: number, names: number, frames: number, values: number, words: number, keys: number, first: number, table: number): number;
  place(n: number, tracks: number, map: number, frames: number, counts: number, slot: number, descents: number, order: number, out: number, places: number): number;
  radix(order: number, frames: number, scratchO: number, scratchF: number, m: number, buckets: number): void;
  sort(tracks: number, counts: number, descents: number, order: number, frames: number, dest: number, places: number, scratchO: number, scratchF: number, buckets: number): number;
  dedup(n: number, tracks: number, counts: number, order: number, frames: number, dest: number, places: number, start: number): number;
  decode(n: number, dest: number, pos: number, rot: number, curves: number): void;
  gather(m: number, record: number, bits: number, out: number): void;
}

/**
 * What this needs of the host, typed here: the shared code is built without DOM or Node types (it
 * runs in Node, the page and workers alike), and any of these may be missing.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface Host {
  WebAssembly?: {
    Module: new (bytes: Uint8Array) => object;
    Instance: new (module: object, imports: object) => { exports: unknown };
    Memory: new (descriptor: { initial: number }) => WasmMemory;
  };
  setTimeout?: (f: () => void, ms: number) => unknown;
}
const host = globalThis as unknown as Host;

let compiled: object | null | undefined;
let enabled = true;

/** Base64 to bytes, by hand: atob is not everywhere the shared code runs. */
function fromBase64(text: string): Uint8Array {
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const value = new Uint8Array(128);
  for (let i = 0; i < 64; i++) value[digits.charCodeAt(i)] = i;
  const len = text.replace(/=+$/, '').length;
  const out = new Uint8Array((len * 3) >> 2);
  for (let i = 0, o = 0; i < len; i += 4) {
    const n = (value[text.charCodeAt(i)] << 18) | (value[text.charCodeAt(i + 1)] << 12) | (value[text.charCodeAt(i + 2) || 65] << 6) | value[text.charCodeAt(i + 3) || 65];
    out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 0xff;
    if (o < out.length) out[o++] = n & 0xff;
  }
  return out;
}

/** The compiled module, or null where WebAssembly cannot run here. */
function wasmModule(): object | null {
  if (compiled !== undefined) return compiled;
  try {
    compiled = host.WebAssembly ? new host.WebAssembly.Module(fromBase64(WASM_BASE64)) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/** For tests and benchmarks: false makes tracks.ts use its own loops everywhere. */
export function setTracksWasm(on: boolean): void {
  enabled = on;
}

const PAGE = 65536;
/** How long the memory is kept after the last read that used it. */
const KEEP_MS = 2000;

let held: { exports: Exports; memory: WasmMemory } | null = null;
let lastUse = 0;
let releaseTimer: unknown = null;

/** f after ms; in Node the pending timer does not keep the process alive. */
function later(f: () => void, ms: number): unknown {
  const t = host.setTimeout!(f, ms);
  (t as { unref?: () => void }).unref?.();
  return t;
}

/**
 * Lets the memory go once no read has used it for KEEP_MS. A fresh memory costs its page faults on
 * first touch (some 35 µs per 64 KB page here, 4 ms for a block of 100,000 morph keys: more than the
 * read itself), so reads that follow each other (a batch, a folder, the editor reopening) share one,
 * grown to the largest block among them; KEEP_MS after the last, none is held.
 */
function releaseLater(): void {
  if (host.setTimeout === undefined) {
    // No timers (a bare JS engine): nothing is kept.
    held = null;
    return;
  }
  lastUse = Date.now();
  if (releaseTimer !== null) return;
  const check = () => {
    const idle = Date.now() - lastUse;
    if (idle >= KEEP_MS) {
      held = null;
      releaseTimer = null;
    } else {
      releaseTimer = later(check, KEEP_MS - idle);
    }
  };
  releaseTimer = later(check, KEEP_MS);
}

/** An instance whose memory holds at least `bytes` bytes, or null (no WebAssembly, or turned off). */
export function wasmInstance(bytes: number): { exports: Exports; memory: WasmMemory } | null {
  if (!enabled) return null;
  const mod = wasmModule();
  if (mod === null) return null;
  try {
    const pages = Math.ceil(bytes / PAGE);
    if (held === null) {
      const memory = new host.WebAssembly!.Memory({ initial: pages });
      const instance = new host.WebAssembly!.Instance(mod, { env: { memory } });
      held = { exports: instance.exports as unknown as Exports, memory };
    } else if (held.memory.buffer.byteLength < pages * PAGE) {
      held.memory.grow(pages - held.memory.buffer.byteLength / PAGE);
    }
  } catch {
    // Out of memory for this block: the JS loops need less.
    held = null;
    return null;
  }
  releaseLater();
  return held;
}

/** Lets the memory go now (tests). */
export function releaseTracksWasm(): void {
  held = null;
}
