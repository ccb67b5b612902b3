/**
 * Binds a motion's tracks to a rig and poses it at any (fractional) frame. The pose comes from the codec's
 * own sampler (`sampleBoneInto`), converted MMD → three.js, so the preview shows exactly what
 * `vmd-studio sample` prints; bone morphs are added on top of it (as MMD adds them to the motion's local
 * transform), then append (付与) rotations and IK run in transform order, with IK switched on and off by
 * the VMD's IK block. Morph weights drive vertex morph targets and the model's bone, material and UV
 * morphs (morph-effects.ts). Allocation-free per frame.
 */
import * as THREE from 'three';
import { sampleBoneInto, sampleMorph } from '../../../shared/vmd/sample';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { keyAtOrBefore } from '../../../shared/vmd/tracks';
import { matchKey } from '../../../shared/pmx/model-inspect';
import { resetRig, updateRigWorld, type Rig } from './rig';
import type { MorphEffects } from './morph-effects';

/** IK on/off over time (shared with the skeleton evaluator: shared/skeleton/ik-switches.ts). */
export { ikSwitchesOf, type IkSwitches } from '../../../shared/skeleton/ik-switches';
import type { IkSwitches } from '../../../shared/skeleton/ik-switches';


/** What one motion morph drives, with factors (group morphs expand): morph targets and morph effects. */
export interface MorphBinding {
  targets: number[];
  factors: number[];
  /**
   * Bone, material and UV morphs it reaches: slots of `runtime` (the model's MorphEffects), when any.
   * The runtime rides along here so a binding built from the morph map alone finds it.
   */
  effects?: { runtime: MorphEffects; slots: number[]; factors: number[] };
}

export class PoseBinding {
  /** Rig bone per bone track, −1 when the rig lacks it. */
  readonly trackBone: Int32Array;
  /** Motion bones the rig lacks (display names). */
  readonly missingBones: string[];
  /** Motion morphs the model lacks. */
  readonly missingMorphs: string[];
  private readonly pos: Float32Array;
  private readonly rot: Float32Array;
  /** Per rig bone: IK switch array for its name, or null (always on). */
  private readonly ikSwitch: (Uint8Array | null)[];
  private readonly morphBind: (MorphBinding | null)[];
  /** Milliseconds the last apply() took. */
  lastPoseMs = 0;
  /** Whether the last apply() changed any morph influence, material or UV. */
  morphsChanged = false;
  /**
   * Whether the last apply() rewrote materials or UVs. Bone morphs show in the bones and vertex morphs in
   * the influences; this is the one change a comparison of those misses.
   */
  effectsChanged = false;
  private readonly morphScratch: Float64Array;
  /** The model's bone / material / UV morphs when the motion reaches any, else null (nothing to do). */
  private effects: MorphEffects | null;
  /** The model's morphs by matching key (the map the binding was built from): a draft's morph is found there. */
  private readonly morphMap: Map<string, MorphBinding>;
  /**
   * A morph slider being dragged (MMD's 表情操作 moves the face live, before 登録): its weight in place of the
   * sampled one on the tracks that name it (`tracks`), or added through `bind` where the motion has no such
   * track (the engine selected its targets: MotionDriver.rebind). Null: none.
   */
  private draft: { tracks: number[]; bind: MorphBinding | null; weight: number } | null = null;
  /** Whether the last apply() showed a draft. */
  private drafted = false;
  /**
   * One bone's local transform in place of its sampled one (three.js coordinates), while its pose handle
   * is dragged (pose-gizmo.ts); morphs, append and IK still act on top of it. Null: none.
   */
  private override: { bone: number; position: THREE.Vector3; quaternion: THREE.Quaternion } | null = null;
  /**
   * The actor's physics while it simulates (physics-actor.ts, set by physics-preview.ts): it evaluates the
   * bones before physics, steps its world and evaluates the bones after physics, in place of one 'all' pass.
   */
  physics: { solve(f: number, ikOn: (ikBone: number) => boolean): void } | null = null;

  constructor(
    readonly rig: Rig,
    readonly tracks: MotionTracks | null,
    readonly ik: IkSwitches,
    /** Morph name (matching key) → binding; empty for the figure. */
    morphs: Map<string, MorphBinding> = new Map(),
    private readonly influences: number[] | null = null,
  ) {
    const names = tracks?.bones.names ?? [];
    this.trackBone = new Int32Array(names.length);
    this.missingBones = [];
    names.forEach((n, t) => {
      const b = rig.byKey.get(matchKey(n));
      this.trackBone[t] = b ?? -1;
      if (b === undefined) this.missingBones.push(n);
    });
    this.pos = new Float32Array(3);
    this.rot = new Float32Array(4);
    this.ikSwitch = rig.info.map((b) => (b.ik ? (ik.byName.get(matchKey(b.name)) ?? null) : null));
    const morphNames = tracks?.morphs.names ?? [];
    this.morphBind = morphNames.map((n) => morphs.get(matchKey(n)) ?? null);
    this.missingMorphs = morphNames.filter((_, i) => !this.morphBind[i]);
    this.morphScratch = new Float64Array(influences?.length ?? 0);
    this.effects = this.morphBind.find((b) => b?.effects)?.effects?.runtime ?? null;
    this.morphMap = morphs;
  }

  /**
   * Shows morph `name` at `weight` in place of what the motion samples (null: the motion's again), as the
   * morph panel's slider is dragged; nothing is keyed. A morph the motion lacks shows only where the model's
   * targets for it were selected (MotionDriver.rebind does that for the draft's name).
   */
  setMorphDraft(d: { name: string; weight: number } | null): void {
    if (!d) {
      this.draft = null;
      return;
    }
    const key = matchKey(d.name);
    const names = this.tracks?.morphs.names ?? [];
    const tracks: number[] = [];
    names.forEach((n, t) => matchKey(n) === key && tracks.push(t));
    const bind = tracks.length ? null : (this.morphMap.get(key) ?? null);
    this.effects ??= bind?.effects?.runtime ?? null;
    this.draft = { tracks, bind, weight: d.weight };
  }

  /** Puts `position` and `quaternion` in place of the bone's sampled local transform (null: the motion's again). */
  setOverride(o: { bone: number; position: THREE.Vector3; quaternion: THREE.Quaternion } | null): void {
    this.override = o && { bone: o.bone, position: o.position.clone(), quaternion: o.quaternion.clone() };
  }

  /** The last bone track that moves rig bone `bone` (the one apply() leaves in force), or −1. */
  trackOf(bone: number): number {
    return this.trackBone.lastIndexOf(bone);
  }

  /**
   * Bone `bone`'s local transform as the motion samples it at frame f, in three.js coordinates (rest offset
   * plus the key's offset; the key's rotation), before morphs, append and IK: rest and no rotation when no
   * track moves it.
   */
  sampledLocal(bone: number, f: number, position: THREE.Vector3, quaternion: THREE.Quaternion): void {
    const rest = this.rig.rest, t = this.trackOf(bone);
    position.set(rest[3 * bone], rest[3 * bone + 1], rest[3 * bone + 2]);
    quaternion.set(0, 0, 0, 1);
    if (t < 0 || !this.tracks) return;
    const P = this.pos, R = this.rot;
    sampleBoneInto(this.tracks.bones, t, f, P, R, 0);
    position.set(rest[3 * bone] + P[0], rest[3 * bone + 1] + P[1], rest[3 * bone + 2] - P[2]);
    quaternion.set(-R[0], -R[1], R[2], R[3]);
  }

  /** Poses the rig at frame f (fractional allowed) and sets morph influences. */
  apply(f: number): void {
    const t0 = performance.now();
    const rig = this.rig;
    resetRig(rig);
    const tr = this.tracks;
    if (tr) {
      const b = tr.bones, P = this.pos, R = this.rot, rest = rig.rest;
      for (let t = 0; t < this.trackBone.length; t++) {
        const i = this.trackBone[t];
        if (i < 0) continue;
        sampleBoneInto(b, t, f, P, R, 0);
        const bone = rig.bones[i];
        // MMD → three.js: z of positions and x, y of quaternions change sign.
        bone.position.set(rest[3 * i] + P[0], rest[3 * i + 1] + P[1], rest[3 * i + 2] - P[2]);
        bone.quaternion.set(-R[0], -R[1], R[2], R[3]);
      }
    }
    const o = this.override;
    if (o && o.bone < rig.bones.length) {
      rig.bones[o.bone].position.copy(o.position);
      rig.bones[o.bone].quaternion.copy(o.quaternion);
    }
    const draft = this.draft;
    // Without a motion, one more pass after a draft ends puts its morph back to 0.
    const drafted = this.drafted;
    this.drafted = !!draft;
    if (tr || draft || drafted) {
      const fx = this.effects;
      if (this.influences || fx) {
        // Summed in scratch arrays, written to the mesh only where a value changed.
        const sum = this.morphScratch;
        sum.fill(0);
        fx?.beginFrame();
        for (let t = 0; t < this.morphBind.length; t++) {
          const mb = this.morphBind[t];
          if (!mb) continue;
          const w = draft && draft.tracks.includes(t) ? draft.weight : sampleMorph(tr!.morphs, t, f);
          if (w !== 0) this.addMorph(mb, w, sum, fx);
        }
        if (draft?.bind && draft.weight !== 0) this.addMorph(draft.bind, draft.weight, sum, fx);
        let changed = false;
        const inf = this.influences;
        if (inf) {
          for (let k = 0; k < sum.length; k++) {
            if (inf[k] !== sum[k]) {
              inf[k] = sum[k];
              changed = true;
            }
          }
        }
        this.effectsChanged = false;
        // Bone morphs go on in solve(), on the pose's local transforms (MMD coordinates).
        if (fx) this.effectsChanged = fx.applyMaterialsAndUvs();
        this.morphsChanged = changed || this.effectsChanged;
      }
    }
    this.solve(f);
    this.lastPoseMs = performance.now() - t0;
  }

  /** Adds morph `mb` at weight `w` to the summed target influences and effect weights. */
  private addMorph(mb: MorphBinding, w: number, sum: Float64Array, fx: MorphEffects | null): void {
    for (let k = 0; k < mb.targets.length; k++) sum[mb.targets[k]] += w * mb.factors[k];
    const e = mb.effects;
    if (e && fx && e.runtime === fx) for (let k = 0; k < e.slots.length; k++) fx.weights[e.slots[k]] += w * e.factors[k];
  }

  /**
   * Append and IK in transform order, by shared/skeleton (the same solver the bakes, retargeting and
   * exports use): the three.js bones' local transforms go in (MMD coordinates: z of positions and x, y of
   * quaternions change sign), the solved ones come back.
   */
  private solve(f: number): void {
    const rig = this.rig, pose = rig.pose, rest = rig.rest;
    const T = pose.translation, R = pose.rotation;
    for (let i = 0; i < rig.bones.length; i++) {
      const b = rig.bones[i];
      T[3 * i] = b.position.x - rest[3 * i];
      T[3 * i + 1] = b.position.y - rest[3 * i + 1];
      T[3 * i + 2] = -(b.position.z - rest[3 * i + 2]);
      R[4 * i] = -b.quaternion.x;
      R[4 * i + 1] = -b.quaternion.y;
      R[4 * i + 2] = b.quaternion.z;
      R[4 * i + 3] = b.quaternion.w;
    }
    // On top of the sampled local transforms, before append and IK read them (as in MMD); the weights were
    // summed in apply() for this frame.
    if ((this.tracks || this.draft) && this.effects) this.effects.applyBones(T, R);
    let ikKeyIndex = -1;
    if (this.ik.frames.length) ikKeyIndex = keyAtOrBefore(this.ik.frames, 0, this.ik.frames.length, f);
    const ikOn = (i: number) => {
      const sw = this.ikSwitch[i];
      return !(sw && ikKeyIndex >= 0 && sw[ikKeyIndex] === 0);
    };
    if (this.physics) this.physics.solve(f, ikOn);
    else pose.evaluate('all', ikOn);
    const ST = pose.solvedTranslation, SR = pose.solvedRotation;
    for (let i = 0; i < rig.bones.length; i++) {
      const b = rig.bones[i];
      b.position.set(rest[3 * i] + ST[3 * i], rest[3 * i + 1] + ST[3 * i + 1], rest[3 * i + 2] - ST[3 * i + 2]);
      b.quaternion.set(-SR[4 * i], -SR[4 * i + 1], SR[4 * i + 2], SR[4 * i + 3]);
    }
    updateRigWorld(rig);
  }
}
