/**
 * Encoding new records and documents (for VPD → VMD, JSON → VMD, builders and edits that add keys).
 * Names are checked against their field (15 bytes for bones and morphs, 20 for the model and IK names)
 * and never cut silently: a name that does not fit is an E_NAME_TOO_LONG error, one Shift_JIS cannot hold E_NAME_ENCODING.
 */
import { CodecFailure } from './errors';
import { BONE, CAMERA, HEADER_LENGTH, HEADER_V2, IK, LIGHT, MODEL_NAME_LENGTH_V2, MORPH, SHADOW } from './vmd-layout';
import { blockFromRecords, emptyBlocks, viewOf, type VmdDocument } from './vmd-document';
import { encodeNameFieldCached } from './sjis';
import { defaultBoneInterpolation, defaultCameraInterpolation } from './interpolation';

/** Encodes a name into a fixed field or throws CodecFailure(E_NAME_TOO_LONG, E_NAME_ENCODING); callers at the API edge catch it. */
export function nameField(name: string, length: number, what: string): Uint8Array {
  const r = encodeNameFieldCached(name, length);
  if (!r.ok) throw new CodecFailure({ code: r.error.code, message: `${what}: ${r.error.message}` });
  return r.value;
}

export interface BoneKeyInput {
  name: string | Uint8Array;
  frame: number;
  position: readonly number[];
  rotation: readonly number[];
  interpolation?: Uint8Array;
}

export function encodeBoneRecord(k: BoneKeyInput): Uint8Array {
  const rec = new Uint8Array(BONE.SIZE);
  const v = viewOf(rec);
  rec.set(typeof k.name === 'string' ? nameField(k.name, BONE.NAME_LENGTH, 'bone name') : k.name.subarray(0, BONE.NAME_LENGTH));
  v.setUint32(BONE.FRAME, k.frame, true);
  for (let c = 0; c < 3; c++) v.setFloat32(BONE.POSITION + 4 * c, k.position[c], true);
  for (let c = 0; c < 4; c++) v.setFloat32(BONE.ROTATION + 4 * c, k.rotation[c], true);
  rec.set(k.interpolation ?? defaultBoneInterpolation(), BONE.INTERPOLATION);
  return rec;
}

export function encodeMorphRecord(k: { name: string | Uint8Array; frame: number; weight: number }): Uint8Array {
  const rec = new Uint8Array(MORPH.SIZE);
  const v = viewOf(rec);
  rec.set(typeof k.name === 'string' ? nameField(k.name, MORPH.NAME_LENGTH, 'morph name') : k.name.subarray(0, MORPH.NAME_LENGTH));
  v.setUint32(MORPH.FRAME, k.frame, true);
  v.setFloat32(MORPH.WEIGHT, k.weight, true);
  return rec;
}

export function encodeCameraRecord(k: {
  frame: number;
  distance: number;
  target: readonly number[];
  rotation: readonly number[];
  fov: number;
  perspective?: number;
  interpolation?: Uint8Array;
}): Uint8Array {
  const rec = new Uint8Array(CAMERA.SIZE);
  const v = viewOf(rec);
  v.setUint32(CAMERA.FRAME, k.frame, true);
  v.setFloat32(CAMERA.DISTANCE, k.distance, true);
  for (let c = 0; c < 3; c++) {
    v.setFloat32(CAMERA.TARGET + 4 * c, k.target[c], true);
    v.setFloat32(CAMERA.ROTATION + 4 * c, k.rotation[c], true);
  }
  rec.set(k.interpolation ?? defaultCameraInterpolation(), CAMERA.INTERPOLATION);
  v.setUint32(CAMERA.FOV, Math.max(0, Math.round(k.fov)), true);
  rec[CAMERA.PERSPECTIVE] = k.perspective ?? 0;
  return rec;
}

export function encodeLightRecord(k: { frame: number; color: readonly number[]; direction: readonly number[] }): Uint8Array {
  const rec = new Uint8Array(LIGHT.SIZE);
  const v = viewOf(rec);
  v.setUint32(LIGHT.FRAME, k.frame, true);
  for (let c = 0; c < 3; c++) {
    v.setFloat32(LIGHT.COLOR + 4 * c, k.color[c], true);
    v.setFloat32(LIGHT.DIRECTION + 4 * c, k.direction[c], true);
  }
  return rec;
}

export function encodeShadowRecord(k: { frame: number; mode: number; distance: number }): Uint8Array {
  const rec = new Uint8Array(SHADOW.SIZE);
  const v = viewOf(rec);
  v.setUint32(SHADOW.FRAME, k.frame, true);
  rec[SHADOW.MODE] = k.mode;
  v.setFloat32(SHADOW.DISTANCE, k.distance, true);
  return rec;
}

export function encodeIkRecord(k: { frame: number; visible: number; iks: { name: string | Uint8Array; enabled: number }[] }): Uint8Array {
  const rec = new Uint8Array(IK.HEADER + IK.ITEM * k.iks.length);
  const v = viewOf(rec);
  v.setUint32(IK.FRAME, k.frame, true);
  rec[IK.VISIBLE] = k.visible;
  v.setUint32(IK.COUNT, k.iks.length, true);
  k.iks.forEach((item, j) => {
    const p = IK.HEADER + j * IK.ITEM;
    rec.set(typeof item.name === 'string' ? nameField(item.name, IK.ITEM_NAME_LENGTH, 'IK bone name') : item.name.subarray(0, IK.ITEM_NAME_LENGTH), p);
    rec[p + IK.ITEM_ENABLED] = item.enabled;
  });
  return rec;
}

/** The standard 30-byte header "Vocaloid Motion Data 0002". */
export function standardHeader(): Uint8Array {
  const h = new Uint8Array(HEADER_LENGTH);
  for (let i = 0; i < HEADER_V2.length; i++) h[i] = HEADER_V2.charCodeAt(i);
  return h;
}

/** A new, empty version-0002 document with all six blocks present (as MMD writes them). */
export function emptyVmd(modelName = ''): VmdDocument {
  return {
    header: standardHeader(),
    modelName: nameField(modelName, MODEL_NAME_LENGTH_V2, 'model name'),
    ...emptyBlocks(),
    blocksPresent: 6,
    trailing: new Uint8Array(0),
  };
}

/**
 * The model name MMD writes in a camera motion's header, カメラ・照明 ("camera, light"; Shift_JIS 83 4A 83 81 83 89
 * 81 45 8F C6 96 BE, as in MMD's own camera files, e.g. the corpus's wavefile_camera.vmd): MMD and other tools know
 * a camera VMD by it (shared/retarget keeps it on a camera motion for that reason).
 */
export const CAMERA_MODEL_NAME = 'カメラ・照明';

/** A new, empty camera document: emptyVmd with MMD's camera header name (CAMERA_MODEL_NAME). */
export function emptyCameraVmd(): VmdDocument {
  return emptyVmd(CAMERA_MODEL_NAME);
}

/** Builds a document from key lists (records are encoded; names checked). Throws CodecFailure. */
export function buildVmd(input: {
  model?: string;
  bones?: BoneKeyInput[];
  morphs?: { name: string; frame: number; weight: number }[];
}): VmdDocument {
  const doc = emptyVmd(input.model ?? '');
  return {
    ...doc,
    bone: blockFromRecords('bone', (input.bones ?? []).map(encodeBoneRecord)),
    morph: blockFromRecords('morph', (input.morphs ?? []).map(encodeMorphRecord)),
  };
}
