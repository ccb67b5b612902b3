// Hand-built PMX and PMD byte fixtures for the model reader tests: a little-endian writer and two tiny models
// whose every field value is chosen here, so the tests know the expected result without the code under test.
export class Bytes {
  private parts: number[] = [];
  /** Byte offsets of named places, for tests that corrupt or cut a file at a known spot. */
  marks: Record<string, number> = {};
  mark(name: string): this {
    this.marks[name] = this.parts.length;
    return this;
  }
  u8(...v: number[]): this {
    for (const x of v) this.parts.push(x & 0xff);
    return this;
  }
  raw(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.parts.push(b[i]);
    return this;
  }
  private dv(n: number, f: (d: DataView) => void): this {
    const d = new DataView(new ArrayBuffer(n));
    f(d);
    return this.raw(new Uint8Array(d.buffer));
  }
  u16(...v: number[]): this {
    for (const x of v) this.dv(2, (d) => d.setUint16(0, x, true));
    return this;
  }
  i16(...v: number[]): this {
    for (const x of v) this.dv(2, (d) => d.setInt16(0, x, true));
    return this;
  }
  i32(...v: number[]): this {
    for (const x of v) this.dv(4, (d) => d.setInt32(0, x, true));
    return this;
  }
  f32(...v: number[]): this {
    for (const x of v) this.dv(4, (d) => d.setFloat32(0, x, true));
    return this;
  }
  /** PMX text: i32 byte length + UTF-16LE or UTF-8 bytes. */
  text(s: string, utf8 = false): this {
    let b: number[];
    if (utf8) b = Array.from(new TextEncoder().encode(s));
    else {
      b = [];
      for (let i = 0; i < s.length; i++) b.push(s.charCodeAt(i) & 0xff, s.charCodeAt(i) >> 8);
    }
    return this.i32(b.length).raw(b);
  }
  /** Zero-padded fixed field of the given raw bytes. */
  field(b: ArrayLike<number>, n: number): this {
    const out = new Array(n).fill(0);
    for (let i = 0; i < Math.min(n, b.length); i++) out[i] = b[i];
    return this.raw(out);
  }
  /** Index of the given size (1, 2, 4), signed. */
  idx(size: number, v: number): this {
    return size === 1 ? this.u8(v & 0xff) : size === 2 ? this.i16(v) : this.i32(v);
  }
  get length(): number {
    return this.parts.length;
  }
  build(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/**
 * A PMX 2.0 with: 4 vertices (BDEF1, BDEF2, SDEF, BDEF4), 2 triangles, 1 texture, 1 material,
 * 4 bones (root センター, 左足 under it, 左ひざ with an IK chain target, 左足ＩＫ with a limited link,
 * 右目 appending 0.5 of センター's rotation), a vertex morph and a group morph, 1 rigid body, 0 joints.
 */
export function tinyPmx(opts: { utf8?: boolean; boneIndexSize?: 1 | 2 | 4; vertexIndexSize?: 1 | 2 | 4 } = {}): Bytes {
  const utf8 = !!opts.utf8;
  const bi = opts.boneIndexSize ?? 2;
  const vi = opts.vertexIndexSize ?? 1;
  const t = (s: string) => w.text(s, utf8);
  const w = new Bytes();
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.0).u8(8).u8(utf8 ? 1 : 0, 0, vi, 1, 1, bi, 1, 1);
  t('テスト'); t('Test'); t('コメント'); t('comment');
  w.mark('vertices').i32(4);
  const vtx = (i: number) => w.f32(i, 2 * i, 3 * i).f32(0, 1, 0).f32(0.25 * i, 0.5);
  vtx(0); w.u8(0).idx(bi, 0).f32(1);
  vtx(1); w.u8(1).idx(bi, 0).idx(bi, 1).f32(0.75).f32(1);
  vtx(2); w.u8(3).idx(bi, 1).idx(bi, 2).f32(0.6).f32(1, 2, 3, 4, 5, 6, 7, 8, 9).f32(1);
  vtx(3); w.u8(2).idx(bi, 0).idx(bi, 1).idx(bi, 2).idx(bi, 3).f32(0.1, 0.2, 0.3, 0.4).f32(1);
  w.mark('faces').i32(6);
  for (const k of [0, 1, 2, 1, 2, 3]) vi === 1 ? w.u8(k) : vi === 2 ? w.u16(k) : w.i32(k);
  w.mark('textures').i32(1); t('tex\\skin.png');
  w.mark('materials').i32(1);
  t('肌'); t('skin');
  w.f32(0.8, 0.7, 0.6, 1).f32(0.1, 0.2, 0.3).f32(5).f32(0.4, 0.4, 0.4).u8(0x11).f32(0, 0, 0, 1).f32(1.5);
  w.u8(0).u8(0xff).u8(0).u8(1).u8(3); // texture 0, sphere −1, sphere off, shared toon 3
  t('memo'); w.i32(6);
  w.mark('bones').i32(5);
  // 0 センター: root, rotatable+translatable+visible+enabled, tail offset
  t('センター'); t('center'); w.f32(0, 8, 0).idx(bi, -1).i32(0).u16(0x001e).f32(0, 1, 0);
  // 1 左足: parent 0, tail bone 2
  t('左足'); t('leg_L'); w.f32(1, 10, 0).idx(bi, 0).i32(0).u16(0x001b).idx(bi, 2);
  // 2 左ひざ
  t('左ひざ'); t('knee_L'); w.f32(1, 5, 0).idx(bi, 1).i32(0).u16(0x001b).idx(bi, -1);
  // 3 左足ＩＫ: IK to bone 2, 40 loops, limit 2 rad, links: 1 with limits, 0 without; layer 1
  t('左足ＩＫ'); t('leg IK_L'); w.f32(1, 1, 0).idx(bi, -1).i32(1).u16(0x003e).f32(0, 0, 1);
  w.mark('ik').idx(bi, 2).i32(40).f32(2).i32(2).idx(bi, 1).u8(1).f32(-3, 0, 0).f32(-0.01, 0, 0).idx(bi, 0).u8(0);
  // 4 右目: append rotation from 0 at 0.5, fixed axis
  t('右目'); t('eye_R'); w.f32(-0.5, 18, -1).idx(bi, 0).i32(2).u16(0x051a).f32(0, 0, 0).idx(bi, 0).f32(0.5).f32(0, 1, 0);
  w.mark('morphs').i32(2);
  t('あ'); t('a'); w.u8(3).u8(1).i32(2);
  vi === 1 ? w.u8(1) : vi === 2 ? w.u16(1) : w.i32(1); w.f32(0.5, 0, 0);
  vi === 1 ? w.u8(3) : vi === 2 ? w.u16(3) : w.i32(3); w.f32(0, -0.25, 0.125);
  t('まとめ'); t('group'); w.u8(4).u8(0).i32(1).idx(1, 0).f32(0.7);
  w.mark('frames').i32(0);
  w.mark('rigid').i32(1); t('剛体'); t('rb'); w.idx(bi, 0).u8(0).u16(0xffff).u8(0).f32(1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0.5, 0.5, 0, 0.5).u8(0);
  w.i32(0);
  return w;
}

/** Shift_JIS bytes of a few fixed names (hand-encoded so the fixture does not depend on the encoder under test). */
export const SJIS = {
  'センター': [0x83, 0x5a, 0x83, 0x93, 0x83, 0x5e, 0x81, 0x5b],
  '左ひざ': [0x8d, 0xb6, 0x82, 0xd0, 0x82, 0xb4],
  '左足': [0x8d, 0xb6, 0x91, 0xab],
  '左足ＩＫ': [0x8d, 0xb6, 0x91, 0xab, 0x82, 0x68, 0x82, 0x6a],
  'base': [0x62, 0x61, 0x73, 0x65],
  'あ': [0x82, 0xa0],
};

/**
 * A PMD with 3 vertices, 1 triangle, 1 material "skin.bmp*shine.sph", bones センター / 左足 / 左ひざ / 左足ＩＫ / 足首,
 * one IK (左足ＩＫ moves 足首 through the chain [左ひざ, 左足]; the knee gets MMD's X-only limit), a base morph over
 * vertices 1 and 2 and a morph "あ" moving base entry 1 (= vertex 2).
 */
export function tinyPmd(): Bytes {
  const w = new Bytes();
  w.raw([0x50, 0x6d, 0x64]).f32(1).field(SJIS['センター'], 20).field([0x63], 256);
  w.mark('vertices').i32(3);
  for (let i = 0; i < 3; i++) w.f32(i, i + 1, i + 2).f32(0, 0, -1).f32(0.5, 0.25 * i).u16(0, 1).u8(i === 0 ? 100 : 30).u8(0);
  w.mark('faces').i32(3).u16(0, 1, 2);
  w.mark('materials').i32(1).f32(1, 0.5, 0.25).f32(0.5).f32(4).f32(0, 0, 0).f32(0.2, 0.2, 0.2).u8(2).u8(1).i32(3)
    .field(Array.from('skin.bmp*shine.sph', (ch) => ch.charCodeAt(0)), 20);
  w.mark('bones').u16(5);
  const bone = (name: number[], parent: number, tail: number, type: number, ik: number, p: number[]) =>
    w.field(name, 20).u16(parent, tail, ).u8(type).u16(ik).f32(...p);
  bone(SJIS['センター'], 0xffff, 1, 1, 0, [0, 8, 0]);
  bone(SJIS['左足'], 0, 2, 0, 0, [1, 10, 0]);
  bone(SJIS['左ひざ'], 1, 4, 0, 0, [1, 5, 0]);
  bone(SJIS['左足ＩＫ'], 0xffff, 0, 2, 4, [1, 1, 0]);
  bone([0x91, 0xab, 0x8e, 0xf1], 2, 0, 6, 0, [1, 1, 0]); // 足首 (IK target)
  w.mark('iks').u16(1).u16(3).u16(4).u8(2).u16(30).f32(0.5).u16(2, 1);
  w.mark('morphs').u16(2);
  w.field(SJIS.base, 20).i32(2).u8(0).i32(1).f32(1, 2, 3).i32(2).f32(2, 3, 4);
  w.field(SJIS['あ'], 20).i32(1).u8(3).i32(1).f32(0, 0.5, 0);
  // optional tail: morph display list (0), bone group names (0), bone display (0), no English
  w.mark('tail').u8(0).u8(0).i32(0).u8(0);
  return w;
}
