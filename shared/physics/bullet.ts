/**
 * The Bullet build: babylon-mmd 1.3.0's single-threaded release wasm (SPR), which links Bullet Physics in, used
 * through its low-level bindings only (RigidBody, shapes, Generic6DofSpringConstraint, PhysicsRuntime). MMD's
 * rules (modes, bone order, toggles, frames) are ours, in world.ts; babylon-mmd's MMD runtime is not used.
 *
 * Loading the .wasm differs by platform (Node reads a file, the browser fetches a URL), so the bytes come from
 * a loader the caller injects; the wasm-bindgen glue is initialised synchronously from them.
 */
import * as spr from 'babylon-mmd/esm/Runtime/Optimized/wasm/spr/index.js';
import { GetMmdWasmInstance } from 'babylon-mmd/esm/Runtime/Optimized/mmdWasmInstance.js';
import { MmdWasmInstanceTypeSPR } from 'babylon-mmd/esm/Runtime/Optimized/InstanceType/singlePhysicsRelease.js';
import type { IBulletWasmInstance } from 'babylon-mmd/esm/Runtime/Optimized/Physics/Bind/bulletWasmInstance.js';

/** Where the wasm bytes come from: electron/ reads the file, renderer/ fetches the bundled URL. */
export interface BulletWasmLoader {
  /** The bytes of babylon-mmd's `wasm/spr/index_bg.wasm`. */
  wasmBytes(): Promise<Uint8Array | ArrayBuffer>;
}

export type BulletInstance = IBulletWasmInstance;

let instance: Promise<BulletInstance> | null = null;

/** The one Bullet instance of this process (thread), loaded on first use. */
export function loadBullet(loader: BulletWasmLoader): Promise<BulletInstance> {
  if (!instance) {
    instance = (async () => {
      const bytes = await loader.wasmBytes();
      // initSync: the glue's own init would fetch() its file URL, which Node cannot.
      spr.initSync({ module: bytes });
      // One thread: the single-threaded build has no pool (and Node has no navigator to ask).
      return (await GetMmdWasmInstance(new MmdWasmInstanceTypeSPR(), 1)) as unknown as BulletInstance;
    })();
    instance.catch(() => (instance = null));
  }
  return instance;
}
