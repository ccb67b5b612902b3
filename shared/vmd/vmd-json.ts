/**
 * VMD ⇄ JSON, documented in README ("The VMD JSON format"), meant for people to read, edit and script.
 * VMD → JSON → VMD is byte-identical: wherever a value is not exactly representable the JSON carries
 * the raw bytes beside it —
 *   nameRaw / modelRaw / headerRaw (hex)  a name cut mid-character, bytes after the NUL, unencodable text
 *   "f32:xxxxxxxx"                        −0, NaN, ±Infinity as their float32 bits
 *   interpolation.tail / .copies          the non-curve bytes of the 64-byte block (see interpolation.ts)
 *   interpolationRaw (hex)                a block that the curve fields still cannot reproduce
 *   trailingRaw (hex), absentBlocks       bytes after the last block; blocks the file lacked entirely
 * A raw field is used only while the friendly field beside it still says the same thing; edit the
 * friendly field and the raw one is ignored (curves are then written onto the raw block, keeping the rest).
 */
import { CodecFailure, fail, ok, type Result } from './errors';
import { BLOCK_KINDS, BONE, CAMERA, HEADER_LENGTH, IK, LIGHT, MORPH, SHADOW, SHADOW_DEFAULT, type BlockKind } from './vmd-layout';
import { blockFromRecords, ikBlockFromRecords, recordBytes, viewOf, type VmdDocument } from './vmd-document';
import { headerText } from './vmd-reader';
import { decodeName, encodeNameField, encodeNameFieldCached } from './sjis';
import {
  BONE_CHANNELS,
  BONE_TAIL,
  CAMERA_CHANNELS,
  buildBoneInterpolation,
  buildCameraInterpolation,
  getBoneCurves,
  getCameraCurves,
  hasCopies,
  setBoneCurves,
  setCameraCurve,
  type BoneChannel,
  type CameraChannel,
} from './interpolation';
import { LINEAR_CURVE, type Curve } from './bezier';

export const VMD_JSON_FORMAT = 'vmd-studio-json';
export const VMD_JSON_VERSION = 1;

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
function unhex(s: string, where: string): Uint8Array {
  if (typeof s !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(s)) throw schema(`${where} must be a hex string`);
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}
function schema(message: string): CodecFailure {
  return new CodecFailure({ code: 'E_JSON_SCHEMA', message });
}

type JsonFloat = number | string;

/** A float32 read from bytes, as a JSON number when exact, else "f32:bits". */
function f32(view: DataView, o: number): JsonFloat {
  const x = view.getFloat32(o, true);
  if (Number.isFinite(x) && !Object.is(x, -0)) return x;
  return 'f32:' + view.getUint32(o, true).toString(16).padStart(8, '0');
}
function f32s(view: DataView, o: number, n: number): JsonFloat[] {
  const out: JsonFloat[] = [];
  for (let i = 0; i < n; i++) out.push(f32(view, o + 4 * i));
  return out;
}
function putF32(view: DataView, o: number, v: unknown, where: string): void {
  if (typeof v === 'number') {
    view.setFloat32(o, v, true);
    return;
  }
  if (typeof v === 'string') {
    const m = /^f32:([0-9a-fA-F]{8})$/.exec(v);
    if (m) return view.setUint32(o, parseInt(m[1], 16), true);
    const n = v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v === '-0' ? -0 : undefined;
    if (n !== undefined) return view.setFloat32(o, n, true);
  }
  throw schema(`${where} must be a number (or "f32:xxxxxxxx")`);
}
function putF32s(view: DataView, o: number, v: unknown, n: number, where: string): void {
  if (!Array.isArray(v) || v.length !== n) throw schema(`${where} must be an array of ${n} numbers`);
  for (let i = 0; i < n; i++) putF32(view, o + 4 * i, v[i], `${where}[${i}]`);
}
function uint(v: unknown, max: number, where: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) throw schema(`${where} must be a whole number from 0 to ${max}`);
  return v;
}
function curve(v: unknown, where: string): Curve {
  if (!Array.isArray(v) || v.length !== 4) throw schema(`${where} must be [x1, y1, x2, y2]`);
  return v.map((x, i) => uint(x, 255, `${where}[${i}]`)) as unknown as Curve;
}
function sameCurves(a: readonly Curve[], b: readonly Curve[]): boolean {
  return a.every((c, i) => c.every((x, j) => x === b[i][j]));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Decoded name and, when the text does not reproduce the bytes, the raw hex; cached per distinct field. */
const nameCache = new Map<string, { name: string; raw?: string }>();
function nameOut(raw: Uint8Array, into: Record<string, unknown>, key = 'name', rawKey = 'nameRaw'): void {
  const h = hex(raw);
  let c = nameCache.get(h);
  if (!c) {
    const name = decodeName(raw);
    const enc = encodeNameField(name, raw.length);
    c = !enc.ok || !sameBytes(enc.value, raw) ? { name, raw: h } : { name };
    if (nameCache.size > 10_000) nameCache.clear();
    nameCache.set(h, c);
  }
  into[key] = c.name;
  if (c.raw !== undefined) into[rawKey] = c.raw;
}
function nameIn(obj: Record<string, unknown>, length: number, where: string, key = 'name', rawKey = 'nameRaw'): Uint8Array {
  const name = obj[key];
  if (typeof name !== 'string') throw schema(`${where}.${key} must be a string`);
  if (obj[rawKey] !== undefined) {
    const raw = unhex(obj[rawKey] as string, `${where}.${rawKey}`);
    if (raw.length !== length) throw schema(`${where}.${rawKey} must be ${length} bytes`);
    if (decodeName(raw) === name) return raw;
  }
  const enc = encodeNameFieldCached(name, length);
  if (!enc.ok) throw new CodecFailure({ code: enc.error.code, message: `${where}.${key}: ${enc.error.message}` });
  return enc.value;
}

/** The JSON spells a record's curves by their channel keys. */
const BONE_KEYS = BONE_CHANNELS;
const CAMERA_KEYS = CAMERA_CHANNELS;

function boneInterpolationOut(ip: Uint8Array, rec: Record<string, unknown>): void {
  const curves = getBoneCurves(ip);
  const copies = hasCopies(ip);
  const o: Record<string, unknown> = {};
  BONE_KEYS.forEach((k, i) => (o[k] = [...curves[i]]));
  let canonical: Uint8Array;
  if (copies) {
    o.physics = [ip[2], ip[3]];
    const tail = BONE_TAIL.map((p) => ip[p]);
    if (tail.some((x) => x !== 0)) o.tail = tail;
    canonical = buildBoneInterpolation(curves, [ip[2], ip[3]], tail);
  } else {
    o.copies = false;
    canonical = buildBoneInterpolation(curves, undefined, undefined, false);
  }
  rec.interpolation = o;
  if (!sameBytes(canonical, ip)) rec.interpolationRaw = hex(ip);
}

function boneInterpolationIn(rec: Record<string, unknown>, where: string): Uint8Array {
  const o = rec.interpolation as Record<string, unknown> | undefined;
  if (o === undefined) {
    if (rec.interpolationRaw !== undefined) return unhex(rec.interpolationRaw as string, `${where}.interpolationRaw`);
    return buildBoneInterpolation([LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE, LINEAR_CURVE]);
  }
  if (typeof o !== 'object' || o === null) throw schema(`${where}.interpolation must be an object`);
  const curves = BONE_KEYS.map((k) => curve(o[k] ?? LINEAR_CURVE, `${where}.interpolation.${k}`));
  const physics = o.physics === undefined ? ([0, 0] as const) : (curve([...(o.physics as number[]), 0, 0], `${where}.interpolation.physics`).slice(0, 2) as unknown as [number, number]);
  const copies = o.copies !== false;
  if (rec.interpolationRaw !== undefined) {
    const raw = unhex(rec.interpolationRaw as string, `${where}.interpolationRaw`);
    if (raw.length !== 64) throw schema(`${where}.interpolationRaw must be 64 bytes`);
    if (!sameCurves(getBoneCurves(raw), curves)) {
      const edited: Partial<Record<BoneChannel, Curve>> = {};
      curves.forEach((c, i) => (edited[i as BoneChannel] = c));
      setBoneCurves(raw, edited);
    }
    if (copies && hasCopies(raw) && (raw[2] !== physics[0] || raw[3] !== physics[1]) && o.physics !== undefined) {
      raw[2] = physics[0];
      raw[3] = physics[1];
    }
    return raw;
  }
  const tail = Array.isArray(o.tail) ? (o.tail as number[]) : [0, 0, 0, 0, 0, 0];
  return buildBoneInterpolation(curves, physics, tail, copies);
}

function cameraInterpolationOut(ip: Uint8Array, rec: Record<string, unknown>): void {
  const curves = getCameraCurves(ip);
  const o: Record<string, unknown> = {};
  CAMERA_KEYS.forEach((k, i) => (o[k] = [...curves[i]]));
  rec.interpolation = o;
}

function cameraInterpolationIn(rec: Record<string, unknown>, where: string): Uint8Array {
  const o = (rec.interpolation ?? {}) as Record<string, unknown>;
  const ip = buildCameraInterpolation(CAMERA_KEYS.map(() => LINEAR_CURVE));
  CAMERA_KEYS.forEach((k, i) => {
    if (o[k] !== undefined) setCameraCurve(ip, i as CameraChannel, curve(o[k], `${where}.interpolation.${k}`));
  });
  return ip;
}

/** The document as a plain JSON-able object. */
export function vmdToJsonObject(doc: VmdDocument): Record<string, unknown> {
  const out: Record<string, unknown> = { format: VMD_JSON_FORMAT, version: VMD_JSON_VERSION };
  const header = headerText(doc.header);
  out.header = header;
  const canonHeader = new Uint8Array(HEADER_LENGTH);
  for (let i = 0; i < header.length; i++) canonHeader[i] = header.charCodeAt(i);
  if (!sameBytes(canonHeader, doc.header)) out.headerRaw = hex(doc.header);
  nameOut(doc.modelName, out, 'model', 'modelRaw');
  out.absentBlocks = BLOCK_KINDS.slice(doc.blocksPresent);
  if (doc.trailing.length) out.trailingRaw = hex(doc.trailing);

  const bones: unknown[] = [];
  for (let i = 0; i < doc.bone.count; i++) {
    const r = recordBytes(doc.bone, i);
    const v = viewOf(r);
    const o: Record<string, unknown> = {};
    nameOut(r.subarray(0, BONE.NAME_LENGTH), o);
    o.frame = v.getUint32(BONE.FRAME, true);
    o.position = f32s(v, BONE.POSITION, 3);
    o.rotation = f32s(v, BONE.ROTATION, 4);
    boneInterpolationOut(r.subarray(BONE.INTERPOLATION, BONE.INTERPOLATION + 64), o);
    bones.push(o);
  }
  const morphs: unknown[] = [];
  for (let i = 0; i < doc.morph.count; i++) {
    const r = recordBytes(doc.morph, i);
    const v = viewOf(r);
    const o: Record<string, unknown> = {};
    nameOut(r.subarray(0, MORPH.NAME_LENGTH), o);
    o.frame = v.getUint32(MORPH.FRAME, true);
    o.weight = f32(v, MORPH.WEIGHT);
    morphs.push(o);
  }
  const cameras: unknown[] = [];
  for (let i = 0; i < doc.camera.count; i++) {
    const r = recordBytes(doc.camera, i);
    const v = viewOf(r);
    const o: Record<string, unknown> = {
      frame: v.getUint32(CAMERA.FRAME, true),
      distance: f32(v, CAMERA.DISTANCE),
      target: f32s(v, CAMERA.TARGET, 3),
      rotation: f32s(v, CAMERA.ROTATION, 3),
      fov: v.getUint32(CAMERA.FOV, true),
      perspective: r[CAMERA.PERSPECTIVE],
    };
    cameraInterpolationOut(r.subarray(CAMERA.INTERPOLATION, CAMERA.INTERPOLATION + 24), o);
    cameras.push(o);
  }
  const lights: unknown[] = [];
  for (let i = 0; i < doc.light.count; i++) {
    const v = viewOf(recordBytes(doc.light, i));
    lights.push({ frame: v.getUint32(LIGHT.FRAME, true), color: f32s(v, LIGHT.COLOR, 3), direction: f32s(v, LIGHT.DIRECTION, 3) });
  }
  const shadows: unknown[] = [];
  for (let i = 0; i < doc.shadow.count; i++) {
    const r = recordBytes(doc.shadow, i);
    const v = viewOf(r);
    shadows.push({ frame: v.getUint32(SHADOW.FRAME, true), mode: r[SHADOW.MODE], distance: f32(v, SHADOW.DISTANCE) });
  }
  const ik: unknown[] = [];
  for (let i = 0; i < doc.ik.count; i++) {
    const r = recordBytes(doc.ik, i);
    const v = viewOf(r);
    const n = v.getUint32(IK.COUNT, true);
    const iks: unknown[] = [];
    for (let j = 0; j < n; j++) {
      const p = IK.HEADER + j * IK.ITEM;
      const item: Record<string, unknown> = {};
      nameOut(r.subarray(p, p + IK.ITEM_NAME_LENGTH), item);
      item.enabled = r[p + IK.ITEM_ENABLED];
      iks.push(item);
    }
    ik.push({ frame: v.getUint32(IK.FRAME, true), visible: r[IK.VISIBLE], iks });
  }
  Object.assign(out, { bones, morphs, cameras, lights, shadows, ik });
  return out;
}

/** The document as JSON text: one key per line, readable and diff-friendly. */
export function vmdToJson(doc: VmdDocument): string {
  const o = vmdToJsonObject(doc);
  const lists = ['bones', 'morphs', 'cameras', 'lights', 'shadows', 'ik'];
  const head = Object.fromEntries(Object.entries(o).filter(([k]) => !lists.includes(k)));
  const parts = [JSON.stringify(head, null, 2).replace(/\n}$/, '')];
  for (const k of lists) {
    const arr = o[k] as unknown[];
    parts.push(`,\n  "${k}": [` + (arr.length ? '\n' + arr.map((x) => '    ' + JSON.stringify(x)).join(',\n') + '\n  ]' : ']'));
  }
  return parts.join('') + '\n}\n';
}

function list(o: Record<string, unknown>, key: string): Record<string, unknown>[] {
  const v = o[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw schema(`"${key}" must be an array`);
  return v.map((x, i) => {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) throw schema(`${key}[${i}] must be an object`);
    return x as Record<string, unknown>;
  });
}

/** Parses the JSON form back into a document. */
export function vmdFromJson(text: string): Result<VmdDocument> {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec(String((e as Error).message));
    return fail('E_JSON_SYNTAX', `not valid JSON: ${(e as Error).message}`, m ? Number(m[1]) : undefined);
  }
  try {
    return ok(vmdFromJsonObject(o));
  } catch (e) {
    if (e instanceof CodecFailure) return { ok: false, error: e.error };
    throw e;
  }
}

/** Builds a document from the parsed JSON object; throws CodecFailure on schema errors. */
export function vmdFromJsonObject(input: unknown): VmdDocument {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw schema('top level must be an object');
  const o = input as Record<string, unknown>;
  if (o.format !== undefined && o.format !== VMD_JSON_FORMAT) throw schema(`"format" must be "${VMD_JSON_FORMAT}"`);
  const header = typeof o.header === 'string' ? o.header : 'Vocaloid Motion Data 0002';
  let headerBytes: Uint8Array | null = null;
  if (o.headerRaw !== undefined) {
    const raw = unhex(o.headerRaw as string, 'headerRaw');
    if (raw.length !== HEADER_LENGTH) throw schema(`headerRaw must be ${HEADER_LENGTH} bytes`);
    if (headerText(raw) === header) headerBytes = raw;
  }
  if (!headerBytes) {
    if (!header.startsWith('Vocaloid Motion Data') || header.length > HEADER_LENGTH || /[^\x20-\x7e]/.test(header)) {
      throw schema('"header" must be ASCII text starting "Vocaloid Motion Data", at most 30 characters');
    }
    headerBytes = new Uint8Array(HEADER_LENGTH);
    for (let i = 0; i < header.length; i++) headerBytes[i] = header.charCodeAt(i);
  }
  const modelLength = header.startsWith('Vocaloid Motion Data file') ? 10 : 20;
  const modelName = nameIn({ model: o.model ?? '', modelRaw: o.modelRaw }, modelLength, 'model', 'model', 'modelRaw');

  const bones = list(o, 'bones').map((b, i) => {
    const w = `bones[${i}]`;
    const r = new Uint8Array(BONE.SIZE);
    const v = viewOf(r);
    r.set(nameIn(b, BONE.NAME_LENGTH, w));
    v.setUint32(BONE.FRAME, uint(b.frame, 0xffffffff, `${w}.frame`), true);
    putF32s(v, BONE.POSITION, b.position ?? [0, 0, 0], 3, `${w}.position`);
    putF32s(v, BONE.ROTATION, b.rotation ?? [0, 0, 0, 1], 4, `${w}.rotation`);
    r.set(boneInterpolationIn(b, w), BONE.INTERPOLATION);
    return r;
  });
  const morphs = list(o, 'morphs').map((m, i) => {
    const w = `morphs[${i}]`;
    const r = new Uint8Array(MORPH.SIZE);
    const v = viewOf(r);
    r.set(nameIn(m, MORPH.NAME_LENGTH, w));
    v.setUint32(MORPH.FRAME, uint(m.frame, 0xffffffff, `${w}.frame`), true);
    putF32(v, MORPH.WEIGHT, m.weight ?? 0, `${w}.weight`);
    return r;
  });
  const cameras = list(o, 'cameras').map((c, i) => {
    const w = `cameras[${i}]`;
    const r = new Uint8Array(CAMERA.SIZE);
    const v = viewOf(r);
    v.setUint32(CAMERA.FRAME, uint(c.frame, 0xffffffff, `${w}.frame`), true);
    putF32(v, CAMERA.DISTANCE, c.distance ?? -45, `${w}.distance`);
    putF32s(v, CAMERA.TARGET, c.target ?? [0, 10, 0], 3, `${w}.target`);
    putF32s(v, CAMERA.ROTATION, c.rotation ?? [0, 0, 0], 3, `${w}.rotation`);
    r.set(cameraInterpolationIn(c, w), CAMERA.INTERPOLATION);
    v.setUint32(CAMERA.FOV, uint(c.fov ?? 30, 0xffffffff, `${w}.fov`), true);
    r[CAMERA.PERSPECTIVE] = uint(c.perspective ?? 0, 255, `${w}.perspective`);
    return r;
  });
  const lights = list(o, 'lights').map((l, i) => {
    const w = `lights[${i}]`;
    const r = new Uint8Array(LIGHT.SIZE);
    const v = viewOf(r);
    v.setUint32(LIGHT.FRAME, uint(l.frame, 0xffffffff, `${w}.frame`), true);
    putF32s(v, LIGHT.COLOR, l.color ?? [0.6, 0.6, 0.6], 3, `${w}.color`);
    putF32s(v, LIGHT.DIRECTION, l.direction ?? [-0.5, -1, 0.5], 3, `${w}.direction`);
    return r;
  });
  const shadows = list(o, 'shadows').map((s, i) => {
    const w = `shadows[${i}]`;
    const r = new Uint8Array(SHADOW.SIZE);
    const v = viewOf(r);
    v.setUint32(SHADOW.FRAME, uint(s.frame, 0xffffffff, `${w}.frame`), true);
    r[SHADOW.MODE] = uint(s.mode ?? SHADOW_DEFAULT.mode, 255, `${w}.mode`);
    putF32(v, SHADOW.DISTANCE, s.distance ?? SHADOW_DEFAULT.distance, `${w}.distance`);
    return r;
  });
  const ik = list(o, 'ik').map((k, i) => {
    const w = `ik[${i}]`;
    const items = k.iks === undefined ? [] : (k.iks as unknown[]);
    if (!Array.isArray(items)) throw schema(`${w}.iks must be an array`);
    const r = new Uint8Array(IK.HEADER + IK.ITEM * items.length);
    const v = viewOf(r);
    v.setUint32(IK.FRAME, uint(k.frame, 0xffffffff, `${w}.frame`), true);
    r[IK.VISIBLE] = uint(k.visible ?? 1, 255, `${w}.visible`);
    v.setUint32(IK.COUNT, items.length, true);
    items.forEach((it, j) => {
      const p = IK.HEADER + j * IK.ITEM;
      const item = it as Record<string, unknown>;
      r.set(nameIn(item, IK.ITEM_NAME_LENGTH, `${w}.iks[${j}]`), p);
      r[p + IK.ITEM_ENABLED] = uint(item.enabled ?? 1, 255, `${w}.iks[${j}].enabled`);
    });
    return r;
  });

  let blocksPresent = 6;
  if (o.absentBlocks !== undefined) {
    if (!Array.isArray(o.absentBlocks)) throw schema('"absentBlocks" must be an array of block names');
    const absent = o.absentBlocks as string[];
    for (const a of absent) if (!BLOCK_KINDS.includes(a as BlockKind)) throw schema(`"absentBlocks" has unknown block "${a}"`);
    blocksPresent = BLOCK_KINDS.findIndex((k) => absent.includes(k));
    if (blocksPresent < 0) blocksPresent = 6;
  }
  return {
    header: headerBytes,
    modelName,
    bone: blockFromRecords('bone', bones),
    morph: blockFromRecords('morph', morphs),
    camera: blockFromRecords('camera', cameras),
    light: blockFromRecords('light', lights),
    shadow: blockFromRecords('shadow', shadows),
    ik: ikBlockFromRecords(ik),
    blocksPresent,
    trailing: o.trailingRaw !== undefined ? unhex(o.trailingRaw as string, 'trailingRaw') : new Uint8Array(0),
  };
}
