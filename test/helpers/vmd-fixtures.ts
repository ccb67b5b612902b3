/**
 * Hand-built VMD bytes for unit tests, written field by field from the layout in the format notes
 * (not with the codec under test), so a wrong offset in the codec shows up as a failure.
 */
export class ByteWriter {
  private bytes: number[] = [];
  u8(...v: number[]): this {
    this.bytes.push(...v);
    return this;
  }
  u32(v: number): this {
    this.bytes.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
    return this;
  }
  f32(...vs: number[]): this {
    for (const v of vs) {
      const b = new Uint8Array(new Float32Array([v]).buffer);
      this.bytes.push(...b);
    }
    return this;
  }
  /** ASCII or raw bytes, zero padded to `len`. */
  fixed(s: string | number[], len: number): this {
    const src = typeof s === 'string' ? Array.from(s, (c) => c.charCodeAt(0)) : s;
    for (let i = 0; i < len; i++) this.bytes.push(src[i] ?? 0);
    return this;
  }
  get length(): number {
    return this.bytes.length;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** Shift_JIS bytes of a few bone names used in fixtures (from the JIS X 0208 table). */
export const SJIS = {
  センター: [0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b],
  左腕: [0x8d, 0xb6, 0x98, 0x72],
  右腕: [0x89, 0x45, 0x98, 0x72],
  まばたき: [0x82, 0xdc, 0x82, 0xce, 0x82, 0xbd, 0x82, 0xab],
};

/** MMD's default interpolation block (all linear), as printed in the format notes. */
export const DEFAULT_INTERP = [
  20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107,
  20, 20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0,
  20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0, 0,
  20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0, 0, 0,
];

/** A 64-byte block for given curves [x1,y1,x2,y2] per channel X, Y, Z, R, with flag bytes 2–3. */
export function interpBlock(curves: number[][], flag: [number, number] = [0, 0]): number[] {
  const row: number[] = [];
  for (let c = 0; c < 4; c++) row[c] = curves[c][0];
  for (let c = 0; c < 4; c++) row[4 + c] = curves[c][1];
  for (let c = 0; c < 4; c++) row[8 + c] = curves[c][2];
  for (let c = 0; c < 4; c++) row[12 + c] = curves[c][3];
  const out = new Array(64).fill(0);
  for (let j = 0; j < 16; j++) out[j] = row[j];
  out[2] = flag[0];
  out[3] = flag[1];
  for (let r = 1; r <= 3; r++) for (let j = 0; j < 16 - r; j++) out[16 * r + j] = row[j + r];
  return out;
}

export interface FixtureBone {
  name: number[] | string;
  frame: number;
  pos?: number[];
  rot?: number[];
  interp?: number[];
}

export function header(w: ByteWriter, version: 1 | 2 = 2, model: number[] | string = 'model'): ByteWriter {
  w.fixed(version === 2 ? 'Vocaloid Motion Data 0002' : 'Vocaloid Motion Data file', 30);
  return w.fixed(model, version === 2 ? 20 : 10);
}

export function boneRecord(w: ByteWriter, b: FixtureBone): ByteWriter {
  return w
    .fixed(b.name, 15)
    .u32(b.frame)
    .f32(...(b.pos ?? [0, 0, 0]))
    .f32(...(b.rot ?? [0, 0, 0, 1]))
    .u8(...(b.interp ?? DEFAULT_INTERP));
}

/** A complete VMD with the given bone, morph and camera keys and all six blocks present. */
export function buildFixture(opts: {
  bones?: FixtureBone[];
  morphs?: { name: number[] | string; frame: number; weight: number }[];
  cameras?: { frame: number; distance: number; target: number[]; rotation: number[]; interp?: number[]; fov: number; perspective?: number }[];
  lights?: { frame: number; color: number[]; direction: number[] }[];
  shadows?: { frame: number; mode: number; distance: number }[];
  ik?: { frame: number; visible: number; iks: { name: number[] | string; enabled: number }[] }[];
  blocks?: number;
  version?: 1 | 2;
}): Uint8Array {
  const w = header(new ByteWriter(), opts.version ?? 2);
  const blocks = opts.blocks ?? 6;
  const sections: (() => void)[] = [
    () => {
      w.u32(opts.bones?.length ?? 0);
      for (const b of opts.bones ?? []) boneRecord(w, b);
    },
    () => {
      w.u32(opts.morphs?.length ?? 0);
      for (const m of opts.morphs ?? []) w.fixed(m.name, 15).u32(m.frame).f32(m.weight);
    },
    () => {
      w.u32(opts.cameras?.length ?? 0);
      for (const c of opts.cameras ?? []) {
        w.u32(c.frame).f32(c.distance).f32(...c.target).f32(...c.rotation);
        w.u8(...(c.interp ?? [20, 107, 20, 107, 20, 107, 20, 107, 20, 107, 20, 107, 20, 107, 20, 107, 20, 107, 20, 107, 20, 107, 20, 107]));
        w.u32(c.fov).u8(c.perspective ?? 0);
      }
    },
    () => {
      w.u32(opts.lights?.length ?? 0);
      for (const l of opts.lights ?? []) w.u32(l.frame).f32(...l.color).f32(...l.direction);
    },
    () => {
      w.u32(opts.shadows?.length ?? 0);
      for (const s of opts.shadows ?? []) w.u32(s.frame).u8(s.mode).f32(s.distance);
    },
    () => {
      w.u32(opts.ik?.length ?? 0);
      for (const k of opts.ik ?? []) {
        w.u32(k.frame).u8(k.visible).u32(k.iks.length);
        for (const it of k.iks) w.fixed(it.name, 20).u8(it.enabled);
      }
    },
  ];
  for (let i = 0; i < blocks; i++) sections[i]();
  return w.done();
}
