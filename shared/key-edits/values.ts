/**
 * Value edits from the key inspector, applied to every selected key: each field given replaces that
 * field (per component, so setting X on ten keys keeps each key's Y and Z), and `offset` adds to each
 * key's own value (a relative entry in the inspector). Euler angles are degrees
 * in the YXZ convention of shared/vmd/camera.ts; a key's quaternion is rebuilt only when a rotation
 * field is edited, otherwise its stored bytes stay as they are.
 */
import { eulerDegreesToQuaternion, quaternionToEulerDegrees } from '../vmd/camera';
import { physicsOnPairOf, setPhysicsOff, type PhysicsOnPair } from '../vmd/interpolation';
import { viewOf, type VmdDocument } from '../vmd/vmd-document';
import { BONE, CAMERA, IK, LIGHT, MORPH, SHADOW } from '../vmd/vmd-layout';
import { decodeName } from '../vmd/sjis';
import { success } from '../vmd/errors';
import { BlockEditor, finish, refuse, type EditOutcome } from './diff';
import type { EditKind, KeyRef } from './key-ref';
import { ikFieldName, withIkNames } from './ik';

/** Per-component optional values: undefined keeps the key's own. */
export type Partial3 = readonly (number | undefined)[];

/** The numeric fields of an inspector edit (as values to set, or as offsets to add). */
export interface NumericValues {
  position?: Partial3;
  /** Rotation as Euler degrees (X, Y, Z). */
  euler?: Partial3;
  /** Rotation as a quaternion (x, y, z, w); stored as given (not normalised). */
  quaternion?: Partial3;
  weight?: number;
  distance?: number;
  target?: Partial3;
  /** Camera rotation in degrees (stored as radians). */
  cameraRotation?: Partial3;
  fov?: number;
  color?: Partial3;
  direction?: Partial3;
  /** Self-shadow distance, as stored (float32); the inspector shows and takes MMD's panel figure (shadowRangeOf). */
  shadowDistance?: number;
}

/**
 * MMD's self-shadow panel shows the distance as a range S of 0–9999 (its default 8875); a VMD stores
 * 0.1 − S / 100000 (8875 → 0.01125, SHADOW_DEFAULT). Not in the project's format notes: from MikuToga's VMD
 * model (ShadowMotion: "0.1 - (S / 1.0E+5)", default 8875 ≈ 0.01125f) and XREngine's reader (S = 10000 −
 * stored × 100000, the same line). The stored float stays as it is unless a key is edited.
 */
export function shadowRangeOf(stored: number): number {
  return (0.1 - stored) * 100000;
}

/** The stored self-shadow distance for MMD's panel range `range` (see shadowRangeOf). */
export function storedShadowDistance(range: number): number {
  return 0.1 - range / 100000;
}

/**
 * The ends of MMD's self-shadow slider (0–9999): MMD never writes a range outside it, so a stored distance
 * past 0.1 (a negative range) or below 0.00001 (a range over 9999: 12000 would store −0.02) is none MMD makes.
 */
export const SHADOW_RANGE_MAX = 9999;
const SHADOW_STORED_MIN = storedShadowDistance(SHADOW_RANGE_MAX);
const SHADOW_STORED_MAX = storedShadowDistance(0);

/** MMD's 視野角 is a whole number of degrees; the file's field is an integer, kept to 1–179 (a lens can open). */
export const FOV_MIN = 1;
export const FOV_MAX = 179;

/** The FOV a typed (or summed) value is stored as: rounded to a whole number, kept to FOV_MIN–FOV_MAX. */
export function storedFov(v: number): number {
  return Math.max(FOV_MIN, Math.min(FOV_MAX, Math.round(v)));
}

/**
 * MMD's 照明 (light) panel shows the light colour as whole numbers 0–255 per channel (default 154); a VMD
 * stores a float 0–1 (the project's format notes: "Color (r, g, b), 0.0–1.0"). The scale is 255, as nanoem's
 * light panel (hkrn/nanoem emapp/src/internal/ImGuiWindow.cc drawLightPanel: ImGui::ColorEdit3, which shows
 * round(f × 255) and reads n / 255) and its default colour (DirectionalLight.cc kInitialColor = 154 / 255).
 * MMD's own default 0.602 reads 154 at either 255 or 256, so it does not settle the scale; nanoem does.
 * The stored float stays as it is unless that channel is edited.
 */
export const LIGHT_COLOR_SCALE = 255;

export interface ValueEdit extends NumericValues {
  physicsOff?: boolean;
  /** Camera perspective on (stored 0 = on). */
  perspective?: boolean;
  /** Self-shadow key: mode 0 (off), 1 or 2 (stored as one byte). */
  shadowMode?: number;
  /** Display/IK key: the model shown (stored 1) or hidden (0). */
  display?: boolean;
  /**
   * Display/IK key: one IK bone, by decoded name, on (1) or off (0); a key not listing it gets it (the Key panel
   * lists every IK bone of the model shown, so a model's hair or arm IK can be switched in a key that never named it).
   */
  ik?: { readonly name: string; readonly enabled: boolean };
  /**
   * Added to each key's own value (a relative entry such as +5 or −10°): Euler offsets turn the key's
   * rotation about its own angles, so ten keys keep their differences. Applied after the fields set.
   */
  offset?: NumericValues;
  /** Multiplies each key's own value (`*0.8`): a morph weight, a bone position's components. Applied after the offset. */
  scale?: Pick<NumericValues, 'weight' | 'position'>;
}

/** Multiplies the float32 fields at `at` by per-component factors (undefined components untouched). */
function scaleF32s(v: DataView, at: number, factors: Partial3 | undefined): void {
  if (!factors) return;
  for (let c = 0; c < factors.length; c++) {
    const k = factors[c];
    if (k !== undefined && Number.isFinite(k)) v.setFloat32(at + 4 * c, v.getFloat32(at + 4 * c, true) * k + 0, true);
  }
}

function setF32s(v: DataView, at: number, values: Partial3 | undefined, scale = 1): void {
  if (!values) return;
  for (let c = 0; c < values.length; c++) {
    const x = values[c];
    // + 0: a zero is written +0 (a typed −0, a rotation's zero component), as MMD writes it.
    if (x !== undefined && Number.isFinite(x)) v.setFloat32(at + 4 * c, x * scale + 0, true);
  }
}

/** Adds per-component offsets to the float32 fields at `at` (undefined components untouched). */
function addF32s(v: DataView, at: number, values: Partial3 | undefined, scale = 1): void {
  if (!values) return;
  for (let c = 0; c < values.length; c++) {
    const d = values[c];
    if (d !== undefined && Number.isFinite(d)) v.setFloat32(at + 4 * c, v.getFloat32(at + 4 * c, true) + d * scale + 0, true);
  }
}

/** Clamps the float32 fields at `at` that `touched` names (its defined components) to [lo, hi]. */
function clampF32s(v: DataView, at: number, touched: Partial3 | undefined, lo: number, hi: number): void {
  if (!touched) return;
  for (let c = 0; c < touched.length; c++) {
    if (touched[c] === undefined) continue;
    const x = v.getFloat32(at + 4 * c, true);
    if (x < lo) v.setFloat32(at + 4 * c, lo, true);
    else if (x > hi) v.setFloat32(at + 4 * c, hi, true);
  }
}

function offsetBone(v: DataView, o: NumericValues): void {
  addF32s(v, BONE.POSITION, o.position);
  if (o.euler && o.euler.some((x) => x !== undefined && Number.isFinite(x))) {
    const cur = quaternionToEulerDegrees([0, 1, 2, 3].map((c) => v.getFloat32(BONE.ROTATION + 4 * c, true)));
    setF32s(v, BONE.ROTATION, eulerDegreesToQuaternion([0, 1, 2].map((c) => cur[c] + (Number.isFinite(o.euler![c]) ? o.euler![c]! : 0))));
  }
  addF32s(v, BONE.ROTATION, o.quaternion);
}

/**
 * The pair a bone key turned physics-on gets in `doc` (physicsOnPairOf over its bone keys): 0/0 where the
 * motion's physics-on keys hold 0/0, else MMD's copy of x1 of Z and rotation.
 */
export function physicsOnPairIn(doc: VmdDocument): PhysicsOnPair {
  return physicsOnPairOf(doc.bone.bytes, doc.bone.count, BONE.SIZE, BONE.INTERPOLATION);
}

/**
 * Applies an inspector edit to one record's bytes in place (a copy: editValues, setValuesAt). `physicsOn`:
 * the pair a bone key turned physics-on gets (physicsOnPairIn of its motion).
 */
export function editRecord(kind: EditKind, rec: Uint8Array, e: ValueEdit, physicsOn: PhysicsOnPair = 'copy'): Uint8Array {
  // An IK bone the key does not list is added first (the record grows by one item); the flag is then set below.
  if (kind === 'ik' && e.ik) rec = withIkNames(rec, [e.ik.name]);
  const v = viewOf(rec);
  if (kind === 'bone') {
    setF32s(v, BONE.POSITION, e.position);
    const q0 = [0, 1, 2, 3].map((c) => v.getFloat32(BONE.ROTATION + 4 * c, true));
    if (e.euler && e.euler.some((x) => x !== undefined)) {
      const cur = quaternionToEulerDegrees(q0);
      const next = [0, 1, 2].map((c) => e.euler![c] ?? cur[c]);
      setF32s(v, BONE.ROTATION, eulerDegreesToQuaternion(next));
    }
    setF32s(v, BONE.ROTATION, e.quaternion);
    if (e.physicsOff !== undefined) setPhysicsOff(rec.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + 64), e.physicsOff, physicsOn);
    if (e.offset) offsetBone(v, e.offset);
    scaleF32s(v, BONE.POSITION, e.scale?.position);
  } else if (kind === 'morph') {
    if (e.weight !== undefined && Number.isFinite(e.weight)) v.setFloat32(MORPH.WEIGHT, e.weight + 0, true);
    if (e.offset?.weight !== undefined) addF32s(v, MORPH.WEIGHT, [e.offset.weight]);
    if (e.scale?.weight !== undefined) scaleF32s(v, MORPH.WEIGHT, [e.scale.weight]);
  } else if (kind === 'camera') {
    if (e.distance !== undefined && Number.isFinite(e.distance)) v.setFloat32(CAMERA.DISTANCE, e.distance + 0, true);
    setF32s(v, CAMERA.TARGET, e.target);
    setF32s(v, CAMERA.ROTATION, e.cameraRotation, Math.PI / 180);
    if (e.fov !== undefined && Number.isFinite(e.fov)) v.setUint32(CAMERA.FOV, storedFov(e.fov), true);
    if (e.perspective !== undefined) rec[CAMERA.PERSPECTIVE] = e.perspective ? 0 : 1;
    const o = e.offset;
    if (o) {
      if (o.distance !== undefined) addF32s(v, CAMERA.DISTANCE, [o.distance]);
      addF32s(v, CAMERA.TARGET, o.target);
      addF32s(v, CAMERA.ROTATION, o.cameraRotation, Math.PI / 180);
      if (o.fov !== undefined && Number.isFinite(o.fov)) {
        v.setUint32(CAMERA.FOV, storedFov(v.getUint32(CAMERA.FOV, true) + o.fov), true);
      }
    }
  } else if (kind === 'light') {
    setF32s(v, LIGHT.COLOR, e.color);
    setF32s(v, LIGHT.DIRECTION, e.direction);
    addF32s(v, LIGHT.COLOR, e.offset?.color);
    // An offset stops at MMD's range (0–255 on the panel, 0–1 stored); a channel it did not reach stays as stored.
    clampF32s(v, LIGHT.COLOR, e.offset?.color, 0, 1);
    addF32s(v, LIGHT.DIRECTION, e.offset?.direction);
    // MMD's 照明 X/Y/Z run −1…+1: a typed value was kept there (directionClamp), and a sum stops there too.
    clampF32s(v, LIGHT.DIRECTION, e.offset?.direction, -1, 1);
  } else if (kind === 'shadow') {
    if (e.shadowMode !== undefined && Number.isInteger(e.shadowMode) && e.shadowMode >= 0 && e.shadowMode <= 2) rec[SHADOW.MODE] = e.shadowMode;
    if (e.shadowDistance !== undefined && Number.isFinite(e.shadowDistance)) v.setFloat32(SHADOW.DISTANCE, e.shadowDistance + 0, true);
    if (e.offset?.shadowDistance !== undefined) addF32s(v, SHADOW.DISTANCE, [e.offset.shadowDistance]);
    // What is typed stops at MMD's slider (0–9999 on the panel), as the light colour does; a key not edited
    // keeps its stored float, in range or not.
    const touched = e.shadowDistance !== undefined || e.offset?.shadowDistance !== undefined;
    if (touched) clampF32s(v, SHADOW.DISTANCE, [0], SHADOW_STORED_MIN, SHADOW_STORED_MAX);
  } else if (kind === 'ik') {
    if (e.display !== undefined) rec[IK.VISIBLE] = e.display ? 1 : 0;
    if (e.ik) {
      // Flags only: the record keeps its length and every name byte.
      const n = v.getUint32(IK.COUNT, true);
      for (let j = 0; j < n; j++) {
        const p = IK.HEADER + j * IK.ITEM;
        if (decodeName(rec, p, IK.ITEM_NAME_LENGTH) === ikFieldName(e.ik.name)) rec[p + IK.ITEM_ENABLED] = e.ik.enabled ? 1 : 0;
      }
    }
  }
  return rec;
}

/**
 * Whether a light record's direction is 0, 0, 0: a light with no direction (MMD's panel cannot make one; the
 * preview and the ground shadow need one), which a value edit refuses.
 */
export function lightWithoutDirection(rec: Uint8Array): boolean {
  const v = viewOf(rec);
  return [0, 1, 2].every((c) => v.getFloat32(LIGHT.DIRECTION + 4 * c, true) === 0);
}

const zeroDirection = () => refuse('E_ARGUMENT', 'a light direction of 0, 0, 0 has no direction', 'editor.refusal.zeroDirection');

/** Applies an inspector edit to every key given. */
/** `label`: the step's name (the Key panel names a typed camera value: "camera distance -45 → -30"). */
export function editValues(doc: VmdDocument, refs: readonly KeyRef[], edit: ValueEdit, label = 'edit values'): EditOutcome {
  if (refs.length === 0) return refuse('E_EMPTY', 'no key selected', 'editor.refusal.noKeySelected');
  const editors = new Map<EditKind, BlockEditor>();
  // Read before any key changes: the convention of the keys that are already on.
  const physicsOn = edit.physicsOff === false && refs.some((r) => r.kind === 'bone') ? physicsOnPairIn(doc) : 'copy';
  for (const r of refs) {
    if (r.record >= doc[r.kind].count) continue;
    let ed = editors.get(r.kind);
    if (!ed) editors.set(r.kind, (ed = new BlockEditor(doc[r.kind])));
    const rec = editRecord(r.kind, ed.copy(r.record), edit, physicsOn);
    if (r.kind === 'light' && (edit.direction || edit.offset?.direction) && lightWithoutDirection(rec)) return zeroDirection();
    ed.put(r.record, rec);
  }
  return success(finish(doc, label, [...editors.values()]));
}
