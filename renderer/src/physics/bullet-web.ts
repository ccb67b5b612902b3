/**
 * Bullet's wasm bytes in the renderer (the preview's physics, the editor's bake worker): the file vite bundles
 * from babylon-mmd's package, fetched by its URL. One loader for the page and its workers.
 */
import wasmUrl from 'babylon-mmd/esm/Runtime/Optimized/wasm/spr/index_bg.wasm?url';
import { loadBullet, type BulletInstance, type BulletWasmLoader } from '../../../shared/physics/bullet';

export const webBulletLoader: BulletWasmLoader = {
  async wasmBytes() {
    // Electron loads the page from file://, where fetch() refuses the scheme: XMLHttpRequest reads it there.
    if (new URL(wasmUrl, globalThis.location?.href).protocol === 'file:') return readByXhr(wasmUrl);
    const res = await fetch(wasmUrl);
    if (!res.ok) throw new Error(`Bullet's wasm could not be loaded (${res.status} ${wasmUrl})`);
    return new Uint8Array(await res.arrayBuffer());
  },
};

function readByXhr(url: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    xhr.onload = () => (xhr.response ? resolve(new Uint8Array(xhr.response as ArrayBuffer)) : reject(new Error(`Bullet's wasm could not be read (${url})`)));
    xhr.onerror = () => reject(new Error(`Bullet's wasm could not be read (${url})`));
    xhr.send();
  });
}

/** The page's (or worker's) one Bullet instance, loaded on first use. */
export function webBullet(): Promise<BulletInstance> {
  return loadBullet(webBulletLoader);
}
