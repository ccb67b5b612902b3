/**
 * Models in `inspect`: `inspect MODEL.pmx` lists the model's name, bones and morphs;
 * `inspect MOTION.vmd --model MODEL.pmx` lists the motion's bones and morphs the model lacks
 * (names matched as a 15-byte VMD field holds them, a cut last character ignored).
 */
import { failure, success, type CodecError, type Diagnostic, type Outcome } from '../../../shared/vmd';
import { compareMotionToModel, inspectModel, isRepairNote, type ModelInfo } from '../../../shared/pmx';
import { readInputBytes } from '../../fs/files';
import type { CliIo } from '../io';
import { displayPathAmong } from '../format';

/** A model's inspection and what the reader repaired or left out on the way (its notes). */
interface InspectedModel {
  info: ModelInfo;
  notes: Diagnostic[];
}

/** Each model read once: its inspection, or its error as `--json` gives it (code, message, offset; no file). */
const modelCache = new Map<string, Promise<Outcome<InspectedModel>>>();

function loadModel(file: string): Promise<Outcome<InspectedModel>> {
  let p = modelCache.get(file);
  if (!p) {
    p = (async () => {
      const r = await readInputBytes(file);
      if (!r.ok) return failure({ code: r.error.code, message: r.error.message });
      const m = inspectModel(r.value);
      if (!m.ok) return failure({ code: m.error.code, message: m.error.message, offset: m.error.offset });
      return success({ info: m.value, notes: m.diagnostics });
    })();
    modelCache.set(file, p);
  }
  return p;
}

/** The notes block of a model's inspection: a count, then one line each (with the byte offset where known). */
function notesText(notes: readonly Diagnostic[]): string {
  if (!notes.length) return '';
  return `  notes   ${notes.length}:\n` + notes.map((d) => `    ${d.message}${d.offset !== undefined ? ` (at byte ${d.offset})` : ''}\n`).join('');
}

/**
 * Prints a model's inspection, or (with `motion`) the comparison of a motion's names against it. Returns the
 * error when the model could not be read (printed by the caller, as any file that failed), else null.
 */
export async function modelInspection(
  modelFile: string,
  motion: { file: string; bones: string[]; morphs: string[] } | null,
  json: boolean,
  io: CliIo,
  givens: string[] = [],
): Promise<CodecError | null> {
  const m = await loadModel(modelFile);
  // Paths as the user gave them (givens: the path arguments); absolute without them.
  const rel = (p: string) => (givens.length ? displayPathAmong(p, givens, io.cwd) : p);
  if (!m.ok) return m.error;
  const { info, notes } = m.value;
  if (!motion) {
    if (json) {
      // `notes`: what the reader repaired or left out, each with its code (and byte offset where known).
      io.stdout(JSON.stringify({ file: modelFile, ok: true, ...info, notes: notes.map(({ code, message, offset }) => ({ code, message, offset })) }) + '\n');
    } else {
      io.stdout(
        `${rel(modelFile)}\n  ${info.format.toUpperCase()} ${info.version}  model "${info.name}"${info.nameEn ? ` (${info.nameEn})` : ''}\n` +
          `  ${info.vertexCount} vertices, ${info.faceCount} faces, ${info.materialCount} materials, ${info.textures.length} textures\n` +
          skinningLine(info.skinning) +
          `  bones   ${info.bones.length}: ${info.bones.join(' ')}\n` +
          `  morphs  ${info.morphs.length}: ${info.morphs.join(' ')}\n` +
          (info.iks.length ? `  IK      ${info.iks.join(' ')}\n` : '') +
          (info.rigidBodyCount ? `  bodies  ${info.rigidBodyCount}${modeCounts(info.rigidBodies)}: ${info.rigidBodies.map((b) => `${b.name}(${b.modeName}, ${b.shapeName})`).join(' ')}\n` : '') +
          (info.jointCount ? `  joints  ${info.jointCount}\n` : '') +
          (info.softBodies.length ? `  soft bodies (not simulated) ${info.softBodies.length}: ${info.softBodies.join(' ')}\n` : '') +
          (info.physicsError ? `  physics unreadable: ${info.physicsError.message}\n` : '') +
          // What the reader repaired or left out (the physics error has its line above).
          notesText(notes.filter(isRepairNote)) +
          '\n',
      );
    }
    return null;
  }
  const cmp = compareMotionToModel(motion, info);
  if (json) {
    // Its own line after the motion's: `modelCheck` names the model (the motion's line has `model`, the
    // VMD header's model name).
    io.stdout(JSON.stringify({ file: motion.file, modelCheck: modelFile, ok: true, ...cmp }) + '\n');
  } else {
    io.stdout(
      `${rel(motion.file)} on ${rel(modelFile)} ("${info.name}")\n` +
        `  bones   ${cmp.matchedBones} of ${motion.bones.length} found` +
        (cmp.missingBones.length ? `; missing: ${cmp.missingBones.join(' ')}` : '') +
        `\n  morphs  ${cmp.matchedMorphs} of ${motion.morphs.length} found` +
        (cmp.missingMorphs.length ? `; missing: ${cmp.missingMorphs.join(' ')}` : '') +
        '\n\n',
    );
  }
  return null;
}

/** "skinning BDEF1 13552 · BDEF2 10178 · SDEF 40" (the kinds a model has; none for a model without vertices). */
function skinningLine(s: ModelInfo['skinning']): string {
  const parts = (['bdef1', 'bdef2', 'bdef4', 'sdef', 'qdef'] as const).filter((k) => s[k] > 0).map((k) => `${k.toUpperCase()} ${s[k]}`);
  return parts.length ? `  skinning ${parts.join(' · ')}\n` : '';
}

/** " (60 physics · 20 follows bone · 7 physics + bone position)": the bodies by mode, in RigidMode's order. */
function modeCounts(bodies: ModelInfo['rigidBodies']): string {
  const n = new Map<string, number>();
  for (const b of [...bodies].sort((x, y) => x.mode - y.mode)) n.set(b.modeName, (n.get(b.modeName) ?? 0) + 1);
  return n.size ? ` (${[...n].map(([name, c]) => `${c} ${name}`).join(' · ')})` : '';
}
