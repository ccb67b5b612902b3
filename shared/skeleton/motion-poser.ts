/**
 * A motion played on a skeleton: the VMD's bone tracks sampled exactly as `vmd-studio sample` and the preview
 * do (shared/vmd/sample.ts), mapped to the model's bones by name (matchKey), with the VMD's IK on/off keys.
 * Bone morphs keyed by the motion are added on top of the sampled bones by the preview's own rule
 * (bone-morphs.ts) when the model's morphs are given.
 */
import { matchKey } from '../pmx/model-inspect';
import { sampleBoneInto, sampleMorph } from '../vmd/sample';
import type { ModelData } from '../pmx/model-types';
import { MotionBoneMorphs } from './bone-morphs';
import { keyAtOrBefore, type MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import { ikSwitchesOf, type IkSwitches } from './ik-switches';
import type { Pose, Skeleton } from './skeleton';

export class MotionPoser {
  /** Skeleton bone per bone track, −1 where the model lacks it. */
  readonly trackBone: Int32Array;
  /** Motion bones the model lacks (names as in the motion). */
  readonly missingBones: string[];
  readonly ik: IkSwitches;
  /** Per skeleton bone: its IK switch array (per IK key), or null (always on). */
  private readonly ikSwitch: (Uint8Array | null)[];

  /** The model's bone morphs the motion keys (null: no model given, or none keyed). */
  private readonly boneMorphs: MotionBoneMorphs | null;

  /**
   * `model`: the skeleton's model, for its bone morphs (MMD applies them to the sampled bones before append
   * and IK). Without it the poser applies none (a skeleton built from bones alone has no morphs).
   */
  constructor(
    readonly skeleton: Skeleton,
    doc: VmdDocument | null,
    readonly tracks: MotionTracks | null,
    model: Pick<ModelData, 'format' | 'morphs'> | null = null,
  ) {
    const names = tracks?.bones.names ?? [];
    this.trackBone = new Int32Array(names.length);
    this.missingBones = [];
    names.forEach((n, t) => {
      const b = skeleton.byKey.get(matchKey(n));
      this.trackBone[t] = b ?? -1;
      if (b === undefined) this.missingBones.push(n);
    });
    this.ik = ikSwitchesOf(doc, tracks);
    this.ikSwitch = skeleton.bones.map((b) => (b.ik ? (this.ik.byName.get(matchKey(b.name)) ?? null) : null));
    const bm = model && tracks ? new MotionBoneMorphs(model, tracks.morphs.names) : null;
    this.boneMorphs = bm?.any ? bm : null;
  }

  /**
   * Sets the pose's inputs to the motion at frame f (fractional allowed); bones without a track rest. `only` (a
   * mask by bone, as Pose.evaluate takes): only those bones' tracks are sampled.
   */
  apply(pose: Pose, f: number, only?: Uint8Array): void {
    const n = this.skeleton.count;
    pose.translation.fill(0);
    const R = pose.rotation;
    for (let i = 0; i < n; i++) {
      R[4 * i] = R[4 * i + 1] = R[4 * i + 2] = 0;
      R[4 * i + 3] = 1;
    }
    const b = this.tracks?.bones;
    if (!b) return;
    // A later track of the same bone wins, as in the preview.
    for (let t = 0; t < this.trackBone.length; t++) {
      const i = this.trackBone[t];
      if (i >= 0 && (!only || only[i])) sampleBoneInto(b, t, f, pose.translation, pose.rotation, i);
    }
    const m = this.tracks!.morphs;
    // MMD rule — bone morphs on top of the sampled local transforms, before append and IK (bone-morphs.ts).
    this.boneMorphs?.apply((t) => sampleMorph(m, t, f), pose.translation, pose.rotation);
  }

  /**
   * The bone morphs the motion keys at frame f as offsets from rest (MotionBoneMorphs.fromRest): T (3 per bone,
   * Σ w·t) and R (4 per bone, the turns composed; apply puts them before the key: R ⊗ key). Zeros and identity
   * where no morph reaches a bone, or no model was given. A bake that keys what plays takes them back out.
   */
  boneMorphsAt(f: number, T: Float64Array, R: Float64Array): void {
    if (this.boneMorphs) {
      const m = this.tracks!.morphs;
      this.boneMorphs.fromRest((t) => sampleMorph(m, t, f), T, R);
      return;
    }
    T.fill(0);
    for (let i = 0; i < R.length; i += 4) { R[i] = R[i + 1] = R[i + 2] = 0; R[i + 3] = 1; }
  }

  /** Whether each IK chain is on at frame f (the last IK key at or before f; on before any key). */
  ikEnabledAt(f: number): (ikBone: number) => boolean {
    const frames = this.ik.frames;
    const k = frames.length ? keyAtOrBefore(frames, 0, frames.length, f) : -1;
    if (k < 0) return () => true;
    return (bone) => {
      const sw = this.ikSwitch[bone];
      return !sw || sw[k] !== 0;
    };
  }

  /** The pose at frame f: the motion's inputs, then every bone evaluated with the motion's IK switches. */
  poseAt(pose: Pose, f: number): void {
    this.apply(pose, f);
    pose.evaluate('all', this.ikEnabledAt(f));
  }
}
