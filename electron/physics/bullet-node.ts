/** Bullet's wasm bytes on Node (the CLI, batch workers, the app's main process, tests): read from babylon-mmd's package. */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bulletFromBytes, type BulletInstance, type BulletWasmLoader } from '../../shared/physics/bullet';

/**
 * The wasm file's path. The CommonJS main bundle has `require`, and the ESM bundles make one (their banner);
 * unbundled (tests) it is resolved from the working folder, the repository root.
 */
export function bulletWasmPath(): string {
  const req = typeof require === 'function' ? require : createRequire(path.join(process.cwd(), 'package.json'));
  return req.resolve('babylon-mmd/esm/Runtime/Optimized/wasm/spr/index_bg.wasm');
}

export const nodeBulletLoader: BulletWasmLoader = {
  async wasmBytes() {
    return new Uint8Array(await readFile(bulletWasmPath()));
  },
};

/** Bullet made synchronously (a batch worker prepares its operation synchronously). */
export function nodeBulletSync(): BulletInstance {
  return bulletFromBytes(new Uint8Array(readFileSync(bulletWasmPath())));
}
