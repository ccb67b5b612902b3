/** VPD ↔ VMD: a pose becomes one key per bone and morph at a frame; a VMD frame becomes a pose. */
import { CodecFailure, fail, failure, ok, optionRefusal, type Diagnostic, type Result } from './errors';
import { buildVmd, type BoneKeyInput } from './vmd-build';
import { sjisLength, decodeName } from './sjis';
import { modelNameField } from './model-name';
import type { VmdDocument } from './vmd-document';
import { readVpd, updateVpd, writeVpd, type VpdPose } from './vpd';
import { buildTracks } from './tracks';
import { samplePose } from './sample';
import type { MotionTracks } from './tracks';

export interface PoseToVmdOptions {
  frame?: number;
  /** Skip (and report) bones and morphs whose names exceed 15 bytes instead of failing. */
  skipLongNames?: boolean;
  interpolation?: Uint8Array;
}

export function vpdToVmd(pose: VpdPose, opts: PoseToVmdOptions = {}): Result<VmdDocument> {
  const frame = opts.frame ?? 0;
  const diagnostics: Diagnostic[] = [];
  /** True when `name` fits a 15-byte field; otherwise fails, or reports and skips with skipLongNames. */
  const fits = (what: 'bone' | 'morph', name: string): boolean | Result<VmdDocument> => {
    const len = sjisLength(name);
    if (len <= 15) return true;
    if (!opts.skipLongNames) {
      return failure(optionRefusal('E_NAME_TOO_LONG', `${what} "${name}" is ${len} bytes in Shift_JIS; VMD ${what} names hold 15 (use --skip-long-names to leave it out)`, 'skip-long-names', 'namesTooLong', { names: `"${name}"` }));
    }
    diagnostics.push({ code: 'W_NAME_SKIPPED', message: `${what} "${name}" left out: longer than 15 bytes in Shift_JIS`, params: { name, kind: what } });
    return false;
  };
  const bones: BoneKeyInput[] = [];
  for (const b of pose.bones) {
    const f = fits('bone', b.name);
    if (typeof f !== 'boolean') return f;
    if (f) bones.push({ name: b.name, frame, position: b.position, rotation: b.rotation, interpolation: opts.interpolation?.slice() });
  }
  const morphs = [];
  for (const m of pose.morphs) {
    const f = fits('morph', m.name);
    if (typeof f !== 'boolean') return f;
    if (f) morphs.push({ name: m.name, frame, weight: m.weight });
  }
  const model = pose.model.replace(/\.osm$/i, '');
  try {
    // The .osm line's name, cut as MMD cuts a long one (it used to be left out, the header then naming no model).
    const name = modelNameField(model);
    if (name.note) diagnostics.push(name.note);
    return ok({ ...buildVmd({ bones, morphs }), modelName: name.field }, diagnostics);
  } catch (e) {
    if (e instanceof CodecFailure) return { ok: false, error: e.error };
    throw e;
  }
}

/**
 * The header's model field as MMD writes it: the model file's base name with .osm (Gene_light.pmx →
 * "Gene_light.osm"; MMD's own poses in the corpus say 初音ミク.osm for 初音ミク.pmd).
 */
export function osmName(modelFile: string): string {
  const base = modelFile.split(/[\\/]/).pop() ?? '';
  return `${base.replace(/\.[^.]*$/, '') || 'model'}.osm`;
}

/**
 * The pose at frame f as a VPD (MMD coordinates, interpolated like playback). `modelFile`: the model it is
 * posed on, whose file name the header gives (osmName); without one, the motion's own model name.
 */
export function vmdToVpd(doc: VmdDocument, tracks: MotionTracks, f: number, modelFile?: string | null): VpdPose {
  const pose = samplePose(tracks, f);
  const model = decodeName(doc.modelName);
  return {
    model: modelFile ? osmName(modelFile) : `${model || 'model'}.osm`,
    bones: Object.entries(pose.bones).map(([name, b]) => ({ name, position: b.position, rotation: b.rotation })),
    morphs: Object.entries(pose.morphs).map(([name, weight]) => ({ name, weight })),
    declaredBones: null,
    encoding: 'shift_jis',
  };
}

/**
 * `pose` written over the VPD file `original`: only the bones and morphs whose values differ from what the
 * original holds are rewritten, as MMD writes them, and every other line stays byte for byte (updateVpd).
 * "What the original holds" is its pose read the way a document holds it (a one-frame VMD: single-precision
 * values, names longer than 15 bytes left out), so a value read and written back unchanged compares equal.
 * A file that does not read as a VPD is written anew.
 */
export function saveVpd(original: Uint8Array, pose: VpdPose): Uint8Array {
  const read = readVpd(original);
  const doc = read.ok ? vpdToVmd(read.value, { frame: 0, skipLongNames: true }) : null;
  if (!doc?.ok) return writeVpd(pose);
  return updateVpd(original, vmdToVpd(doc.value, buildTracks(doc.value), 0), pose) ?? writeVpd(pose);
}
