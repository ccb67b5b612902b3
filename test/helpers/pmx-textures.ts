/**
 * A PMX with its texture table and its materials' texture, sphere and toon fields replaced, everything else
 * byte for byte as it was: the test fixtures of messy model folders (a texture under another name, a toon
 * named toon01.bmp, Shift_JIS names) are made from real models this way, in a temp folder at test time.
 */
export interface MaterialTextures {
  readonly name: string;
  texture: number;
  sphere: number;
  sphereMode: number;
  /** PMX's shared-toon flag: true = `toon` is a shared toon 0–9, false = a texture index. */
  toonShared: boolean;
  toon: number;
}

export function rewritePmxTextures(src: Uint8Array, textures?: readonly string[], edit?: (m: MaterialTextures, index: number) => void): Uint8Array {
  const v = new DataView(src.buffer, src.byteOffset, src.byteLength);
  if (String.fromCharCode(...src.subarray(0, 4)) !== 'PMX ') throw new Error('not a PMX');
  let o = 8;
  const n = src[o++];
  const g = Array.from(src.subarray(o, o + n));
  o += n;
  const [enc, addUv, vS, tS, , bS] = g;
  const i32 = () => ((o += 4), v.getInt32(o - 4, true));
  const skipText = () => {
    const len = i32();
    o += len;
  };
  const readText = () => {
    const len = i32();
    const b = src.subarray(o, o + len);
    o += len;
    return enc === 0 ? Buffer.from(b).toString('utf16le') : Buffer.from(b).toString('utf8');
  };
  const idx = (size: number) => ((o += size), size === 1 ? v.getInt8(o - 1) : size === 2 ? v.getInt16(o - 2, true) : v.getInt32(o - 4, true));
  for (let k = 0; k < 4; k++) skipText();
  const nv = i32();
  for (let k = 0; k < nv; k++) {
    o += 32 + 16 * addUv;
    const w = src[o++];
    o += w === 0 ? bS : w === 1 ? 2 * bS + 4 : w === 2 || w === 4 ? 4 * bS + 16 : 2 * bS + 4 + 36;
    o += 4;
  }
  const faces = i32();
  o += faces * vS;
  const texStart = o;
  const oldTextures = Array.from({ length: i32() }, readText);
  const nm = i32();
  const parts: Uint8Array[] = [];
  const enc16 = (s: string) => (enc === 0 ? Buffer.from(s, 'utf16le') : Buffer.from(s, 'utf8'));
  const i32b = (x: number) => Buffer.from(Int32Array.of(x).buffer);
  const idxb = (x: number) => (tS === 1 ? Buffer.from(Int8Array.of(x).buffer) : tS === 2 ? Buffer.from(Int16Array.of(x).buffer) : i32b(x));
  parts.push(src.subarray(0, texStart), i32b((textures ?? oldTextures).length));
  for (const t of textures ?? oldTextures) parts.push(i32b(enc16(t).length), enc16(t));
  parts.push(i32b(nm));
  for (let k = 0; k < nm; k++) {
    const start = o;
    const name = readText();
    skipText();
    o += 16 + 12 + 4 + 12 + 1 + 16 + 4;
    const head = src.subarray(start, o);
    const m: MaterialTextures = { name, texture: idx(tS), sphere: idx(tS), sphereMode: src[o++], toonShared: src[o++] === 1, toon: 0 };
    m.toon = m.toonShared ? src[o++] : idx(tS);
    const tailStart = o;
    skipText(); // memo
    o += 4; // face count
    edit?.(m, k);
    parts.push(head, idxb(m.texture), idxb(m.sphere), Uint8Array.of(m.sphereMode, m.toonShared ? 1 : 0), m.toonShared ? Uint8Array.of(m.toon) : idxb(m.toon), src.subarray(tailStart, o));
  }
  parts.push(src.subarray(o));
  return new Uint8Array(Buffer.concat(parts));
}
