/** Bullet's wasm bytes on Node (the CLI, batch workers, tests): read from babylon-mmd's package. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { BulletWasmLoader } from '../../shared/physics/bullet';

export const nodeBulletLoader: BulletWasmLoader = {
  async wasmBytes() {
    const path = createRequire(import.meta.url).resolve('babylon-mmd/esm/Runtime/Optimized/wasm/spr/index_bg.wasm');
    return new Uint8Array(await readFile(path));
  },
};
