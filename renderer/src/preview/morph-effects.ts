/**
 * The preview's bone, material and UV morphs (vertex morphs are GPU morph targets, see model-mesh.ts).
 * Each such morph gets an effect slot; the pose binding writes the slot weights every frame (motion morph
 * weight × group factors), then asks for the bone offsets on top of the sampled pose and for materials and
 * UVs, which are recomputed from their base values only when a weight changed since the last time.
 *
 * MMD → three.js as everywhere in the preview: translations (x, y, −z), quaternions (−x, −y, z, w).
 * Material morphs change every field MMD's do: diffuse, alpha, ambient, specular and power (the model's
 * materials), edge colour, alpha and size (the outline, edge-mesh.ts), and the tints of the texture, sphere
 * map and toon (mmd-material.ts). UV morphs move the base UV, and uv1 morphs the additional UV1 where a
 * sub-texture sphere reads it (sphere-map.ts); uv2–uv4 address UVs only effect shaders read, and are not drawn.
 */
import * as THREE from 'three';
import { MaterialMorphOp, type ModelData, type ModelMaterialMorph } from '../../../shared/pmx/model-types';
import { applyBoneMorph, boneMorphOffsets, type BoneMorphOffsets } from '../../../shared/skeleton/bone-morphs';
import { setMmdMorphLook } from './mmd-material';
import type { BuiltEdges } from './edge-mesh';

/**
 * A material's values a morph scales or adds to, per material: diffuse rgba (0), ambient rgb (4), specular
 * rgb (7), power (10), edge rgba (11), edge size (15).
 */
const VALUES = 16;
/**
 * Tints per material, in setMmdMorphLook's order: texture, sphere, toon, each a multiply rgba (from 1) and
 * an add rgba (from 0).
 */
const TINTS = 24;


interface BoneEffect {
  slot: number;
  /** MMD coordinates, applied by shared/skeleton/bone-morphs.ts (the rule MotionPoser uses too). */
  offsets: BoneMorphOffsets;
}
interface MaterialEffect {
  slot: number;
  morph: ModelMaterialMorph;
}
interface UvEffect {
  slot: number;
  indices: Uint32Array;
  /** 4 per offset as stored; x, y move the UV. */
  offsets: Float32Array;
}

/**
 * One set of UVs that morphs move (the base UV, or the sub-texture's UV1): its morphs, and the base values of
 * the vertex range they reach (vertices first .. end − 1), from which each recompute starts.
 */
class UvChannel {
  readonly effects: UvEffect[] = [];
  private first = Infinity;
  private end = 0;
  private base = new Float32Array(0);

  constructor(private readonly attr: THREE.BufferAttribute) {}

  add(slot: number, uv: { indices: Uint32Array; offsets: Float32Array }): void {
    for (const v of uv.indices) {
      if (v < this.first) this.first = v;
      if (v + 1 > this.end) this.end = v + 1;
    }
    this.effects.push({ slot, indices: uv.indices, offsets: uv.offsets });
  }

  /** Keeps the base values of the reached range (once every morph is added). */
  seal(): void {
    if (this.end === 0) this.first = 0;
    this.base = (this.attr.array as Float32Array).slice(2 * this.first, 2 * this.end);
  }

  /** Base UVs of the reached range + Σ w·(dx, dy); uploads only that range. */
  apply(weights: Float64Array): void {
    const arr = this.attr.array as Float32Array;
    // The preview uploads UVs as stored (textures are not flipped, see textures.ts), so offsets add as stored too.
    arr.set(this.base, 2 * this.first);
    for (const d of this.effects) {
      const w = weights[d.slot];
      if (w === 0) continue;
      for (let k = 0; k < d.indices.length; k++) {
        const v = d.indices[k];
        arr[2 * v] += w * d.offsets[4 * k];
        arr[2 * v + 1] += w * d.offsets[4 * k + 1];
      }
    }
    this.attr.clearUpdateRanges();
    this.attr.addUpdateRange(2 * this.first, 2 * (this.end - this.first));
    this.attr.needsUpdate = true;
  }
}

export class MorphEffects {
  /** Model morph index → effect slot, for the bone, material and UV morphs with offsets that are drawn. */
  readonly slotOf = new Map<number, number>();
  /** Weight per slot for the frame being posed; the pose binding zeroes it (beginFrame) and adds into it. */
  readonly weights: Float64Array;
  /** Weights the materials and UVs currently show (per slot; bone slots unused). */
  private readonly applied: Float64Array;
  private readonly boneEffects: BoneEffect[] = [];
  private readonly materialEffects: MaterialEffect[] = [];
  /** The base UV's morphs, and the sub-texture UV1's when the mesh has one. */
  private readonly uvChannels: UvChannel[] = [];
  /** Per material: multiply and add accumulators of the VALUES, reused on every recompute. */
  private readonly mul: Float64Array;
  private readonly add: Float64Array;
  /** Per material: the TINTS accumulators. */
  private readonly tint: Float64Array;
  /** The outline, once built (model-mesh.ts builds it after the effects). */
  private edges: BuiltEdges | null = null;
  /** Scratch: one material's values as shown. */
  private readonly shown = new Float64Array(VALUES);
  /** Materials some material morph can reach; the others are never touched. */
  private readonly touched: number[] = [];
  /** Per material: 1 while a morph made it transparent (so only that is undone, not a texture's alpha). */
  private readonly forcedTransparent: Uint8Array;

  constructor(
    readonly model: ModelData,
    private readonly materials: THREE.MeshLambertMaterial[],
    uvAttr: THREE.BufferAttribute,
    uv1Attr: THREE.BufferAttribute | null = null,
  ) {
    const uv = new UvChannel(uvAttr), uv1 = uv1Attr ? new UvChannel(uv1Attr) : null;
    this.uvChannels = uv1 ? [uv, uv1] : [uv];
    let slots = 0;
    model.morphs.forEach((m, mi) => {
      if (m.count === 0) return;
      const slot = slots;
      const bone = boneMorphOffsets(m);
      if (bone) {
        this.boneEffects.push({ slot, offsets: bone });
      } else if (m.kind === 'material' && m.material) {
        this.materialEffects.push({ slot, morph: m.material });
      } else if (m.kind === 'uv' && m.uv) {
        uv.add(slot, m.uv);
      } else if (m.kind === 'uv1' && m.uv && uv1) {
        uv1.add(slot, m.uv);
      } else return;
      this.slotOf.set(mi, slot);
      slots++;
    });
    this.weights = new Float64Array(slots);
    this.applied = new Float64Array(slots);
    const nMat = materials.length;
    this.mul = new Float64Array(VALUES * nMat);
    this.add = new Float64Array(VALUES * nMat);
    this.tint = new Float64Array(TINTS * nMat);
    this.forcedTransparent = new Uint8Array(nMat);
    const reach = new Uint8Array(nMat);
    for (const e of this.materialEffects) {
      for (const mi of e.morph.indices) {
        if (mi < 0) reach.fill(1);
        else if (mi < nMat) reach[mi] = 1;
      }
    }
    reach.forEach((r, i) => r && this.touched.push(i));
    for (const c of this.uvChannels) c.seal();
  }

  /** The outline whose edge colour and size material morphs change. */
  attachEdges(edges: BuiltEdges): void {
    this.edges = edges;
  }

  /** Zeroes the slot weights before a frame's motion morphs are added in. */
  beginFrame(): void {
    this.weights.fill(0);
  }

  /**
   * Adds the weighted bone morphs to a pose's local transforms, MMD coordinates (call after the bone tracks are
   * sampled, before append and IK): shared/skeleton/bone-morphs.ts's rule, the one MotionPoser applies.
   */
  applyBones(T: Float64Array, R: Float64Array): void {
    for (const d of this.boneEffects) applyBoneMorph(d.offsets, this.weights[d.slot], T, R);
  }

  /**
   * Brings materials and UVs to the current slot weights when any of theirs changed since the last call.
   * Returns whether anything was rewritten.
   */
  applyMaterialsAndUvs(): boolean {
    const w = this.weights;
    const mat = this.catchUp(this.materialEffects);
    if (mat) this.applyMaterials();
    let uv = false;
    for (const c of this.uvChannels) {
      if (!this.catchUp(c.effects)) continue;
      c.apply(w);
      uv = true;
    }
    return mat || uv;
  }

  /** Whether any of these effects' weights changed since they were last applied (and notes them as applied). */
  private catchUp(effects: readonly { slot: number }[]): boolean {
    const w = this.weights, a = this.applied;
    let changed = false;
    for (const { slot: s } of effects) {
      if (w[s] !== a[s]) {
        a[s] = w[s];
        changed = true;
      }
    }
    return changed;
  }

  /** Back to the base materials and UVs (all weights 0). */
  reset(): void {
    this.beginFrame();
    this.applyMaterialsAndUvs();
  }

  /**
   * Recomputed from the model's base values (never from what the materials show, so nothing accumulates):
   * value = base · Π(1 + (v − 1)·w) over multiply offsets + Σ v·w over add offsets, as MMD does; a tint
   * keeps its multiply and add parts apart (the shader applies them, mmd-material.ts).
   */
  private applyMaterials(): void {
    const { mul, add, tint } = this, nMat = this.materials.length;
    for (const i of this.touched) {
      mul.fill(1, VALUES * i, VALUES * (i + 1));
      add.fill(0, VALUES * i, VALUES * (i + 1));
      for (let q = TINTS * i; q < TINTS * (i + 1); q += 8) tint.fill(1, q, q + 4).fill(0, q + 4, q + 8);
    }
    for (const e of this.materialEffects) {
      const w = this.weights[e.slot];
      if (w === 0) continue;
      const d = e.morph;
      for (let k = 0; k < d.indices.length; k++) {
        const op = d.operations[k];
        if (op !== MaterialMorphOp.MULTIPLY && op !== MaterialMorphOp.ADD) continue;
        // This offset's values in VALUES order, and its tints (texture, sphere, toon rgba).
        const v = offsetValues(d, k), t = offsetTints(d, k);
        const target = d.indices[k];
        const lo = target < 0 ? 0 : target, hi = target < 0 ? nMat : Math.min(target + 1, nMat);
        for (let i = lo; i < hi; i++) {
          const o = VALUES * i, q = TINTS * i;
          if (op === MaterialMorphOp.MULTIPLY) {
            for (let j = 0; j < VALUES; j++) mul[o + j] *= 1 + (v[j] - 1) * w;
            for (let j = 0; j < 12; j++) tint[q + 8 * (j >> 2) + (j & 3)] *= 1 + (t[j] - 1) * w;
          } else {
            for (let j = 0; j < VALUES; j++) add[o + j] += v[j] * w;
            for (let j = 0; j < 12; j++) tint[q + 8 * (j >> 2) + 4 + (j & 3)] += t[j] * w;
          }
        }
      }
    }
    const { shown } = this;
    for (const i of this.touched) {
      const base = this.model.materials[i], mat = this.materials[i], o = VALUES * i;
      baseValues(base, shown);
      for (let j = 0; j < VALUES; j++) shown[j] = shown[j] * mul[o + j] + add[o + j];
      mat.color.setRGB(shown[0], shown[1], shown[2]);
      // The MMD material's ambient (mmd-material.ts).
      mat.emissive.setRGB(shown[4], shown[5], shown[6]);
      setMmdMorphLook(mat, shown[7], shown[8], shown[9], Math.max(0, shown[10]), tint, TINTS * i);
      this.edges?.setEdge(i, shown[11], shown[12], shown[13], shown[14], shown[15]);
      const alpha = Math.min(1, Math.max(0, shown[3]));
      mat.opacity = alpha;
      // As in MMD, a material whose alpha reaches 0 is not drawn at all.
      mat.visible = alpha > 0;
      // Blending must be on to show alpha below 1; switching it recompiles, so only on a real change, and
      // only what a morph switched on is switched off again (a texture with alpha keeps its own).
      if (alpha < 1 && !mat.transparent) {
        mat.transparent = true;
        this.forcedTransparent[i] = 1;
        mat.needsUpdate = true;
      } else if (alpha >= 1 && this.forcedTransparent[i]) {
        mat.transparent = false;
        this.forcedTransparent[i] = 0;
        mat.needsUpdate = true;
      }
    }
  }
}

/** A material's own values in VALUES order. */
function baseValues(m: ModelData['materials'][number], out: Float64Array): void {
  out.set(m.diffuse, 0);
  out.set(m.ambient, 4);
  out.set(m.specular, 7);
  out[10] = m.specularity;
  out.set(m.edgeColor, 11);
  out[15] = m.edgeSize;
}

const valuesScratch = new Float64Array(VALUES), tintsScratch = new Float64Array(12);

/** Offset k's values in VALUES order (a shared scratch array). */
function offsetValues(d: ModelMaterialMorph, k: number): Float64Array {
  const v = valuesScratch;
  v.set(d.diffuse.subarray(4 * k, 4 * k + 4), 0);
  v.set(d.ambient.subarray(3 * k, 3 * k + 3), 4);
  v.set(d.specular.subarray(3 * k, 3 * k + 3), 7);
  v[10] = d.specularity[k];
  v.set(d.edgeColor.subarray(4 * k, 4 * k + 4), 11);
  v[15] = d.edgeSize[k];
  return v;
}

/** Offset k's tints: texture, sphere, toon, each rgba (a shared scratch array). */
function offsetTints(d: ModelMaterialMorph, k: number): Float64Array {
  const t = tintsScratch;
  t.set(d.textureTint.subarray(4 * k, 4 * k + 4), 0);
  t.set(d.sphereTint.subarray(4 * k, 4 * k + 4), 4);
  t.set(d.toonTint.subarray(4 * k, 4 * k + 4), 8);
  return t;
}
