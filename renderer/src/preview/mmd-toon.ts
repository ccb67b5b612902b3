/**
 * MMD's toon ramps: which ramp a material uses, and the ten shared ramps as our own pictures.
 *
 * A toon ramp is a column of colours looked up by the light's angle: v = ½ − ½·(N·L), so the top row
 * (v = 0) is where the surface faces the light and the bottom row where it faces away; the lit colour is
 * multiplied by it. A PMX material names either one of MMD's shared toon01–10 (by index 0–9) or a
 * texture of the model; a PMD material names the shared ones by index (0xFF none). A material without a
 * toon is drawn with a white ramp: no toon shading, as MMD's toon0.
 *
 * MMD's shared toon01–10.bmp are MMD's own files and are not shipped here: SHARED_TOON_RAMPS are ramps
 * of our own making with the same role (white on the lit side, a shade on the far side, a short soft
 * step near the terminator), generated in code.
 */
import * as THREE from 'three';
import type { ModelMaterial } from '../../../shared/pmx/model-types';

/** Which toon a material uses: one of the shared ramps (0–9), a texture of the model, or none (white). */
export type ToonRef = { kind: 'shared'; index: number } | { kind: 'file'; texture: number } | { kind: 'none' };

/**
 * The toon a material names. PMX: the shared flag with an index 0–9, or a texture index into the model's
 * table; PMD: an index 0–9 (0xFF, read as −1, none). An index out of range is no toon.
 */
export function toonRefOf(m: Pick<ModelMaterial, 'toonShared' | 'toon'>, textureCount: number): ToonRef {
  if (m.toonShared) return m.toon >= 0 && m.toon <= 9 ? { kind: 'shared', index: m.toon } : { kind: 'none' };
  return m.toon >= 0 && m.toon < textureCount ? { kind: 'file', texture: m.toon } : { kind: 'none' };
}

/** Rows of a generated ramp (v from 0 at the top to 1 at the bottom). */
export const RAMP_ROWS = 32;

/**
 * One of our shared ramps: white above `edge` (as a share of the column, from the top), `shade` (sRGB
 * 0–255) below it, blended over `soft` of the column. The shades differ as MMD's set does (greys, a warm
 * skin shade, a cool one), each our own choice.
 */
export interface RampSpec {
  shade: [number, number, number];
  edge: number;
  soft: number;
}

/** Our ramps for MMD's shared toon01–10 (index 0 = toon01). */
export const SHARED_TOON_RAMPS: readonly RampSpec[] = [
  { shade: [205, 205, 205], edge: 0.5, soft: 0.06 },
  { shade: [236, 236, 236], edge: 0.5, soft: 0.06 },
  { shade: [170, 170, 170], edge: 0.5, soft: 0.06 },
  { shade: [242, 222, 212], edge: 0.5, soft: 0.08 },
  { shade: [222, 222, 232], edge: 0.5, soft: 0.08 },
  { shade: [190, 190, 196], edge: 0.45, soft: 0.1 },
  { shade: [214, 218, 236], edge: 0.5, soft: 0.06 },
  { shade: [240, 214, 222], edge: 0.5, soft: 0.06 },
  { shade: [150, 150, 150], edge: 0.55, soft: 0.04 },
  { shade: [245, 240, 236], edge: 0.5, soft: 0.3 },
];

/** The ramp's sRGB colour (0–255) at v in [0, 1]. */
export function rampColour(spec: RampSpec, v: number): [number, number, number] {
  const t = spec.soft > 0 ? Math.min(1, Math.max(0, (v - spec.edge) / spec.soft + 0.5)) : v < spec.edge ? 0 : 1;
  return [0, 1, 2].map((c) => Math.round(255 + (spec.shade[c] - 255) * t)) as [number, number, number];
}

/** A column texture (1 × RAMP_ROWS, sRGB, row 0 on top as MMD's pictures) for a ramp; null spec: white. */
export function rampTexture(spec: RampSpec | null): THREE.DataTexture {
  const rows = spec ? RAMP_ROWS : 1;
  const data = new Uint8Array(4 * rows);
  for (let r = 0; r < rows; r++) {
    const c = spec ? rampColour(spec, (r + 0.5) / rows) : [255, 255, 255];
    data.set([c[0], c[1], c[2], 255], 4 * r);
  }
  const tex = new THREE.DataTexture(data, 1, rows, THREE.RGBAFormat);
  setToonSampling(tex);
  tex.name = spec ? 'toon ramp' : 'toon white';
  tex.needsUpdate = true;
  return tex;
}

/** A toon picture is read clamped at its ends (v runs exactly 0–1), smoothly between rows, as sRGB. */
export function setToonSampling(tex: THREE.Texture): void {
  tex.wrapS = tex.wrapT = THREE.ClampToEdgeWrapping;
  tex.magFilter = THREE.LinearFilter;
  tex.minFilter = THREE.LinearFilter;
  tex.generateMipmaps = false;
  tex.flipY = false;
  tex.colorSpace = THREE.SRGBColorSpace;
}

/**
 * The shared ramps and the white one a model's materials use, made once per model (textures are per
 * model so that disposing a model gives back everything it made).
 */
export class ToonSet {
  private readonly shared = new Map<number, THREE.DataTexture>();
  private whiteTex: THREE.DataTexture | null = null;

  /** The texture for a shared index or for none (a model's own file arrives later, textures.ts). */
  textureFor(ref: ToonRef): THREE.Texture {
    if (ref.kind === 'shared') {
      let t = this.shared.get(ref.index);
      if (!t) this.shared.set(ref.index, (t = rampTexture(SHARED_TOON_RAMPS[ref.index])));
      return t;
    }
    return (this.whiteTex ??= rampTexture(null));
  }

  dispose(): void {
    for (const t of this.shared.values()) t.dispose();
    this.whiteTex?.dispose();
    this.shared.clear();
    this.whiteTex = null;
  }
}
