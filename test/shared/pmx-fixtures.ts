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
 * 右目 appending 0.5 of センター's rotation), morphs: vertex あ, group まとめ, bone 骨, UV 目UV, material 色
 * (one multiply offset on material 0, one add offset on all), flip フリップ and impulse インパルス; 1 rigid body, 0 joints.
 * Marks: boneMorph / uvMorph / materialMorph = first byte of that morph's offsets, materialOp = the
 * operation byte of the material morph's first offset.
 */
export function tinyPmx(opts: { utf8?: boolean; boneIndexSize?: 1 | 2 | 4; vertexIndexSize?: 1 | 2 | 4; materialIndexSize?: 1 | 2 | 4 } = {}): Bytes {
  const utf8 = !!opts.utf8;
  const bi = opts.boneIndexSize ?? 2;
  const vi = opts.vertexIndexSize ?? 1;
  const mi = opts.materialIndexSize ?? 1;
  const t = (s: string) => w.text(s, utf8);
  const vidx = (k: number) => (vi === 1 ? w.u8(k) : vi === 2 ? w.u16(k) : w.i32(k));
  const w = new Bytes();
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.0).u8(8).u8(utf8 ? 1 : 0, 0, vi, 1, mi, bi, 1, 1);
  t('テスト'); t('Test'); t('コメント'); t('comment');
  w.mark('vertices').i32(4);
  const vtx = (i: number) => w.f32(i, 2 * i, 3 * i).f32(0, 1, 0).f32(0.25 * i, 0.5);
  // Each vertex ends with its edge scale: 1, 0.5, 2, 0.
  vtx(0); w.u8(0).idx(bi, 0).f32(1);
  vtx(1); w.u8(1).idx(bi, 0).idx(bi, 1).f32(0.75).f32(0.5);
  vtx(2); w.u8(3).idx(bi, 1).idx(bi, 2).f32(0.6).f32(1, 2, 3, 4, 5, 6, 7, 8, 9).f32(2);
  vtx(3); w.u8(2).idx(bi, 0).idx(bi, 1).idx(bi, 2).idx(bi, 3).f32(0.1, 0.2, 0.3, 0.4).f32(0);
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
  w.mark('morphs').i32(7);
  t('あ'); t('a'); w.u8(3).u8(1).i32(2);
  vi === 1 ? w.u8(1) : vi === 2 ? w.u16(1) : w.i32(1); w.f32(0.5, 0, 0);
  vi === 1 ? w.u8(3) : vi === 2 ? w.u16(3) : w.i32(3); w.f32(0, -0.25, 0.125);
  t('まとめ'); t('group'); w.u8(4).u8(0).i32(1).idx(1, 0).f32(0.7);
  // bone morph: 左足 moved by (0.5, −1, 2) and turned by (0, 0.6, 0, 0.8)
  t('骨'); t('bone'); w.u8(4).u8(2).i32(1);
  w.mark('boneMorph').idx(bi, 1).f32(0.5, -1, 2).f32(0, 0.6, 0, 0.8);
  // UV morph: vertex 1 and vertex 3
  t('目UV'); t('uv'); w.u8(2).u8(3).i32(2);
  w.mark('uvMorph'); vidx(1); w.f32(0.125, -0.25, 0.5, 1); vidx(3); w.f32(-1, 2, -3, 4);
  // material morph: multiply material 0, add to all (−1); field by field in file order
  t('色'); t('colour'); w.u8(4).u8(8).i32(2);
  w.mark('materialMorph').idx(mi, 0).mark('materialOp').u8(0)
    .f32(0.5, 0.25, 2, 0) // diffuse rgba
    .f32(1, 2, 3) // specular rgb
    .f32(4) // specularity
    .f32(0.125, 0.25, 0.375) // ambient rgb
    .f32(0.5, 0.625, 0.75, 0.875) // edge colour rgba
    .f32(1.5) // edge size
    .f32(2, 2.5, 3, 3.5) // texture tint rgba
    .f32(4.5, 5, 5.5, 6) // sphere tint rgba
    .f32(6.5, 7, 7.5, 8); // toon tint rgba
  w.idx(mi, -1).u8(1).f32(-0.5, 0, 0.25, -1).f32(0, 0, 0).f32(-2).f32(0.0625, 0, 0).f32(0, 0, 0, -0.25).f32(-0.75).f32(0, 0, 0, 0).f32(0, 0, 0, 0).f32(0, 0, 0, 0.5);
  // flip and impulse: skipped by the reader, counts kept
  t('フリップ'); t('flip'); w.u8(4).u8(9).i32(1).idx(1, 0).f32(1);
  t('インパルス'); t('impulse'); w.u8(4).u8(10).i32(1).idx(1, 0).u8(1).f32(1, 2, 3, 4, 5, 6);
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
/**
 * With `display`: bone groups (ASCII names, each written with the line feed PMD editors end them with) and the bone
 * display list's (bone, 1-based group) entries; with `display.en`, an English section whose group names are those.
 */
export function tinyPmd(opts: { toons?: string[]; display?: { groups: string[]; entries: [number, number][]; en?: string[] } } = {}): Bytes {
  const w = new Bytes();
  w.raw([0x50, 0x6d, 0x64]).f32(1).field(SJIS['センター'], 20).field([0x63], 256);
  w.mark('vertices').i32(3);
  // The last byte of a vertex is "edge off": vertex 1 has no outline.
  for (let i = 0; i < 3; i++) w.f32(i, i + 1, i + 2).f32(0, 0, -1).f32(0.5, 0.25 * i).u16(0, 1).u8(i === 0 ? 100 : 30).u8(i === 1 ? 1 : 0);
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
  // optional tail: morph display list (0), bone group names, bone display list (none unless given), English names
  const ascii = (s: string) => Array.from(s, (ch) => ch.charCodeAt(0));
  const d = opts.display;
  w.mark('tail').u8(0).u8(d?.groups.length ?? 0);
  for (const g of d?.groups ?? []) w.field(ascii(`${g}\n`), 50);
  w.mark('boneDisplay').i32(d?.entries.length ?? 0);
  for (const [b, g] of d?.entries ?? []) w.u16(b).u8(g);
  w.mark('english');
  if (d?.en) {
    w.u8(1).field(ascii('Center'), 20).field([], 256);
    for (const b of ['center', 'leg_L', 'knee_L', 'leg IK_L', 'ankle']) w.field(ascii(b), 20);
    w.field(ascii('a'), 20);
    for (const g of d.en) w.field(ascii(`${g}\n`), 50);
  } else w.u8(0);
  // then, when given, the table of ten toon file names (ASCII here), 100 bytes each
  if (opts.toons) for (let k = 0; k < 10; k++) w.field(Array.from(opts.toons[k] ?? '', (ch) => ch.charCodeAt(0)), 100);
  return w;
}

/**
 * A PMX 2.0 for the preview's morph tests (UTF-8, one additional UV: vertex i's is (i/8, 0.75, 5, 6); all
 * index sizes 1): 4 vertices on bone 0,
 * 2 materials (A: diffuse 0.8 0.6 0.4 1, ambient 0.5 0.5 0.5, 3 indices; B: diffuse 0.2 0.4 0.6 0.5,
 * ambient 0.2 0.4 0.2, 3 indices), bones センター (0, 8, 0) → 頭 (0, 15, 1) → 鼻 (0, 15, −1) and 目 (0, 16, 0)
 * under センター appending 1 × 頭's rotation, morphs:
 *   0 骨    bone: 頭 translated (1, 2, 3), rotated 60° about (1, 2, 2)/3 (MMD coordinates)
 *   1 乗算  material A multiply: diffuse (0.5, 1, 0, 0), ambient (0, 2, 1), the rest 1
 *   2 加算  material −1 (all) add: diffuse (0.125, 0.25, −0.375, −0.5), ambient (0.125, 0, 0), the rest 0
 *   3 UV    uv: vertex 1 (0.25, −0.5), vertex 2 (−0.125, 0.25) (z, w 9: unused)
 *   4 UV1   uv1: vertex 0 (1, 1, 1, 1)
 *   5 まとめ group: 骨 × 0.5
 *   6 反転  flip: まとめ × 1
 *   7 空    material morph with no offsets
 * With `look`: B has the edge flag and a specular colour, and two more material morphs on B, 8 ルック
 * (multiply) and 9 ルック加 (add), of what the others leave alone: specular, power, edge, tints.
 * With `subTexture`: A's sphere mode is 3 (a sub-texture, no texture named), so UV1 is drawn. With
 * `uv2`: a second additional UV, (7, 8, 9, 10) on every vertex.
 */
/** morphPmx's bone morph 骨 on 頭, in MMD coordinates: the move and the rotation (axis, angle) it writes. */
export const BONE_MORPH_ON_HEAD = { t: [1, 2, 3] as const, axis: [1, 2, 2] as const, angle: Math.PI / 3 };

export function morphPmx(opts: { look?: boolean; subTexture?: boolean; uv2?: boolean } = {}): Bytes {
  const w = new Bytes();
  const t = (s: string) => w.text(s, true);
  w.raw([0x50, 0x4d, 0x58, 0x20]).f32(2.0).u8(8).u8(1, opts.uv2 ? 2 : 1, 1, 1, 1, 1, 1, 1);
  t('morphs'); t(''); t(''); t('');
  w.i32(4);
  for (let i = 0; i < 4; i++) {
    w.f32(i, 10, 0).f32(0, 0, -1).f32(0.25 * i, 0.5).f32(0.125 * i, 0.75, 5, 6);
    if (opts.uv2) w.f32(7, 8, 9, 10);
    w.u8(0).idx(1, 0).f32(1);
  }
  w.i32(6).u8(0, 1, 2, 1, 3, 2);
  w.i32(0); // textures
  w.i32(2);
  const material = (name: string, diffuse: number[], ambient: number[], flags = 0, specular = [0, 0, 0], sphereMode = 0) => {
    t(name); t('');
    w.f32(...diffuse).f32(...specular).f32(1).f32(...ambient).u8(flags).f32(0, 0, 0, 1).f32(1);
    w.idx(1, -1).idx(1, -1).u8(sphereMode).u8(1).u8(0); // no texture, no sphere texture, shared toon 0
    t(''); w.i32(3);
  };
  material('A', [0.8, 0.6, 0.4, 1], [0.5, 0.5, 0.5], 0, [0, 0, 0], opts.subTexture ? 3 : 0);
  // With `look`, B draws an edge (flag 0x10; colour (0, 0, 0, 1), size 1 as written above) and has a specular
  // colour (0.1, 0.2, 0.4) (power 1).
  if (opts.look) material('B', [0.2, 0.4, 0.6, 0.5], [0.2, 0.4, 0.2], 0x10, [0.1, 0.2, 0.4]);
  else material('B', [0.2, 0.4, 0.6, 0.5], [0.2, 0.4, 0.2]);
  w.i32(4);
  t('センター'); t(''); w.f32(0, 8, 0).idx(1, -1).i32(0).u16(0x001e).f32(0, 1, 0);
  t('頭'); t(''); w.f32(0, 15, 1).idx(1, 0).i32(0).u16(0x001b).idx(1, -1);
  t('鼻'); t(''); w.f32(0, 15, -1).idx(1, 1).i32(0).u16(0x001b).idx(1, -1);
  // 目: appends all of 頭's rotation (reads it after the bone morph)
  t('目'); t(''); w.f32(0, 16, 0).idx(1, 0).i32(0).u16(0x011b).idx(1, -1).idx(1, 1).f32(1);
  w.i32(opts.look ? 10 : 8);
  const s = Math.sin(Math.PI / 6), c = Math.cos(Math.PI / 6);
  t('骨'); t(''); w.u8(4).u8(2).i32(1).idx(1, 1).f32(...BONE_MORPH_ON_HEAD.t).f32(s / 3, (2 * s) / 3, (2 * s) / 3, c);
  // material offsets: diffuse, specular, specularity, ambient, edge colour, edge size, texture / sphere / toon tints
  t('乗算'); t(''); w.u8(4).u8(8).i32(1).idx(1, 0).u8(0).f32(0.5, 1, 0, 0);
  w.f32(1, 1, 1).f32(1).f32(0, 2, 1).f32(1, 1, 1, 1).f32(1).f32(1, 1, 1, 1).f32(1, 1, 1, 1).f32(1, 1, 1, 1);
  t('加算'); t(''); w.u8(4).u8(8).i32(1).idx(1, -1).u8(1).f32(0.125, 0.25, -0.375, -0.5);
  w.f32(0, 0, 0).f32(0).f32(0.125, 0, 0).f32(0, 0, 0, 0).f32(0).f32(0, 0, 0, 0).f32(0, 0, 0, 0).f32(0, 0, 0, 0);
  t('UV'); t(''); w.u8(4).u8(3).i32(2).u8(1).f32(0.25, -0.5, 9, 9).u8(2).f32(-0.125, 0.25, 9, 9);
  t('UV1'); t(''); w.u8(4).u8(4).i32(1).u8(0).f32(1, 1, 1, 1);
  t('まとめ'); t(''); w.u8(4).u8(0).i32(1).idx(1, 0).f32(0.5);
  t('反転'); t(''); w.u8(4).u8(9).i32(1).idx(1, 5).f32(1);
  t('空'); t(''); w.u8(4).u8(8).i32(0);
  if (opts.look) {
    // 8 ルック: multiply on B of what the others leave alone: specular, power, edge colour and size, the tints.
    t('ルック'); t(''); w.u8(4).u8(8).i32(1).idx(1, 1).u8(0).f32(1, 1, 1, 1);
    w.f32(2, 0.5, 0).f32(3).f32(1, 1, 1).f32(0.5, 1, 1, 0.5).f32(2).f32(0.5, 1, 1, 1).f32(1, 1, 1, 0.5).f32(1, 0.25, 1, 1);
    // 9 ルック加: add on B.
    t('ルック加'); t(''); w.u8(4).u8(8).i32(1).idx(1, 1).u8(1).f32(0, 0, 0, 0);
    w.f32(0.25, 0, 0).f32(1).f32(0, 0, 0).f32(0.25, 0, 0, 0).f32(0.5).f32(0, 0.125, 0, 0).f32(0, 0, 0, 0.25).f32(0.5, 0, 0, 0);
  }
  w.i32(0).i32(0).i32(0); // display frames, rigid bodies, joints
  return w;
}
