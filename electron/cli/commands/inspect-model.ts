/**
 * Models in `inspect`: `inspect MODEL.pmx` lists the model's name, bones and morphs;
 * `inspect MOTION.vmd --model MODEL.pmx` lists the motion's bones and morphs the model lacks
 * (names matched as a 15-byte VMD field holds them, a cut last character ignored).
 */
import { failure, success, type CodecError, type Diagnostic, type Outcome } from '../../../shared/vmd';
import path from 'node:path';
import { compareMotionToModel, isRepairNote, sharedToonIndex, modelInfo, readModel, textureUsers, MORPH_KIND_GROUPS, type ModelData, type ModelInfo } from '../../../shared/pmx';
import { promises as fsp } from 'node:fs';
import { checkTextureBytes } from '../../../shared/pmx/texture-file';
import { readInputBytes } from '../../fs/files';
import { locateAsset, type LocatedAsset } from '../../services/file-service';
import type { AssetNote } from '../../../shared/ipc/contract';
import type { CliIo } from '../io';
import { displayPathAmong } from '../format';
import { count } from '../../../shared/i18n/plural';

/** A texture the model's materials use that is not in its folder, as the app looks it up. */
export interface MissingTexture {
  /** As the model stores it (backslashes kept). */
  path: string;
  /** The materials using it (colour texture, sphere map or toon). */
  materials: string[];
  /** The folder it was looked for in (the model's folder joined with the texture's own folder). */
  folder: string;
  /** The folder the model names that is not there (`light/`), when the file was not found elsewhere either. */
  missingFolder?: string;
}

/** A texture the app uses from another name or folder than the model names (file-service.ts locateAsset). */
export interface FoundTexture {
  path: string;
  materials: string[];
  note: AssetNote;
}

/** A texture that is there but that the app cannot show (a format or a kind of it the preview does not read). */
export interface UnreadableTexture {
  /** As the model stores it. */
  path: string;
  materials: string[];
  /** The file found. */
  file: string;
  /** Why, in English (shared/pmx/texture-file.ts checkTextureBytes's message). */
  reason: string;
}

/** A model's inspection and what the reader repaired or left out on the way (its notes). */
interface InspectedModel {
  info: ModelInfo;
  notes: Diagnostic[];
  missingTextures: MissingTexture[];
  unreadableTextures: UnreadableTexture[];
  foundTextures: FoundTexture[];
}

/**
 * The textures the materials use that are not there, each looked up as the app does (relative to the model's
 * folder, each part of the path matched without regard to case when the exact name is missing), and those
 * that are there but that the preview cannot show, judged by the rule it decodes them by (checkTextureBytes:
 * the format by content, a TGA read whole, a DDS's header).
 */
async function textureProblems(modelFile: string, m: ModelData): Promise<{ missing: MissingTexture[]; unreadable: UnreadableTexture[]; elsewhere: FoundTexture[] }> {
  const base = path.dirname(modelFile);
  const users = textureUsers(m);
  const missing: MissingTexture[] = [];
  const unreadable: UnreadableTexture[] = [];
  const elsewhere: FoundTexture[] = [];
  // Textures used only as a material's own toon file: one named toon01.bmp … toon10.bmp that is not there is
  // MMD's shared toon (the app draws that ramp, as MMD takes its Data\toonNN.bmp), not a missing file.
  const notToon = new Set(m.materials.flatMap((mat) => [mat.texture, ...(mat.sphereMode !== 0 ? [mat.sphereTexture] : [])]));
  for (let i = 0; i < m.textures.length; i++) {
    if (!users[i].length) continue;
    const rel = m.textures[i].replace(/\\/g, '/');
    // An absolute path is refused by the app (textures belong in the model's folder).
    const located: LocatedAsset = path.isAbsolute(rel) || /^[a-zA-Z]:\//.test(rel) ? { found: null } : await locateAsset(base, rel);
    const found = located.found;
    if (!found && !notToon.has(i) && sharedToonIndex(m.textures[i]) !== null) continue;
    if (!found) {
      const folder = 'missingFolder' in located && located.missingFolder ? { missingFolder: located.missingFolder } : {};
      missing.push({ path: m.textures[i], materials: users[i], folder: path.resolve(base, path.dirname(rel)), ...folder });
      continue;
    }
    if ('note' in located && located.note) elsewhere.push({ path: m.textures[i], materials: users[i], note: located.note });
    const file = typeof found === 'string' ? found : found.toString('utf8');
    const bytes = await fsp.readFile(found).catch((e: unknown) => e as Error);
    const checked = bytes instanceof Error ? { ok: false as const, error: { message: bytes.message } } : checkTextureBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), file);
    if (!checked.ok) unreadable.push({ path: m.textures[i], materials: users[i], file, reason: checked.error.message });
  }
  return { missing, unreadable, elsewhere };
}

/** Each model read once: its inspection, or its error as `--json` gives it (code, message, offset; no file). */
const modelCache = new Map<string, Promise<Outcome<InspectedModel>>>();

function loadModel(file: string): Promise<Outcome<InspectedModel>> {
  let p = modelCache.get(file);
  if (!p) {
    p = (async () => {
      const r = await readInputBytes(file);
      if (!r.ok) return failure({ code: r.error.code, message: r.error.message });
      const m = readModel(r.value, file);
      if (!m.ok) return failure({ code: m.error.code, message: m.error.message, offset: m.error.offset });
      const tex = await textureProblems(file, m.value);
      return success({ info: modelInfo(m.value), notes: m.diagnostics, missingTextures: tex.missing, unreadableTextures: tex.unreadable, foundTextures: tex.elsewhere });
    })();
    modelCache.set(file, p);
  }
  return p;
}

/**
 * The textures a model's materials use that are not in its folder, looked up as the app does (`inspect
 * SCENE` lists them for each actor's model); the model's read error when it cannot be read.
 */
export async function modelMissingTextures(file: string): Promise<Outcome<MissingTexture[]>> {
  const m = await loadModel(file);
  return m.ok ? success(m.value.missingTextures) : m;
}

/**
 * The textures a model's materials use that the app takes from another name or folder than the model names
 * (a name garbled by a zip, a renamed folder: file-service.ts locateAsset); `inspect SCENE` warns of them, as
 * MMD, which looks only where the model says, shows those materials white.
 */
export async function modelFoundTextures(file: string): Promise<Outcome<FoundTexture[]>> {
  const m = await loadModel(file);
  return m.ok ? success(m.value.foundTextures) : m;
}

/** The textures a model's materials use that are there but that the app cannot show (`inspect SCENE` warns of them). */
export async function modelUnreadableTextures(file: string): Promise<Outcome<UnreadableTexture[]>> {
  const m = await loadModel(file);
  return m.ok ? success(m.value.unreadableTextures) : m;
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
  const { info, notes, missingTextures: missing, unreadableTextures: unreadable, foundTextures: elsewhere } = m.value;
  if (!motion) {
    if (json) {
      // `notes`: what the reader repaired or left out, each with its code (and byte offset where known).
      // `missingTextures`: the textures the materials use that are not in the model's folder;
      // `unreadableTextures`: those that are there but that the app cannot show (with the reason);
      // `foundTextures`: those the app uses from another name or folder (`note`: how they were found).
      io.stdout(JSON.stringify({ file: modelFile, ok: true, ...info, missingTextures: missing, unreadableTextures: unreadable, foundTextures: elsewhere, notes: notes.map(({ code, message, offset }) => ({ code, message, offset })) }) + '\n');
    } else {
      io.stdout(
        `${rel(modelFile)}\n  ${info.formatText}${info.encoding ? ` (${ENCODING_NAMES[info.encoding]})` : ''}  model "${info.name}"${info.nameEn ? ` (${info.nameEn})` : ''}\n` +
          commentLines('comment', info.comment) +
          commentLines('comment (en)', info.commentEn) +
          `  ${count(info.vertexCount)} vertices, ${count(info.faceCount)} faces, ${count(info.materialCount)} materials, ${count(info.textures.length)} textures\n` +
          missing.map((x) => `  texture missing: ${x.path} (${x.materials.join(', ')}), ${x.missingFolder ? `folder ${x.missingFolder} not found in ${path.dirname(modelFile)}` : `not in ${x.folder}`}\n`).join('') +
          elsewhere.map((x) => `  texture found elsewhere: ${x.path} (${x.materials.join(', ')}): ${foundText(x.note)}\n`).join('') +
          unreadable.map((x) => `  texture unreadable: ${x.path} (${x.materials.join(', ')}): ${x.reason}\n`).join('') +
          skinningLine(info.skinning) +
          `  bones   ${count(info.bones.length)}: ${info.bones.join(' ')}\n` +
          `  morphs  ${count(info.morphs.length)}${morphKindText(info.morphKinds)}: ${info.morphs.join(' ')}\n` +
          `  display frames ${count(info.displayFrameCount)}\n` +
          (info.iks.length ? `  IK      ${info.iks.join(' ')}\n` : '') +
          (info.rigidBodyCount ? `  bodies  ${count(info.rigidBodyCount)}${modeCounts(info.rigidBodies)}: ${info.rigidBodies.map((b) => `${b.name}(${b.modeName}, ${b.shapeName})`).join(' ')}\n` : '') +
          (info.jointCount ? `  joints  ${count(info.jointCount)}\n` : '') +
          (info.softBodies.length ? `  soft bodies (not simulated) ${count(info.softBodies.length)}: ${info.softBodies.join(' ')}\n` : '') +
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
    // Everything found is one line, so the user sees the check ran and passed; else a line per list.
    const allFound = !cmp.missingBones.length && !cmp.missingMorphs.length;
    // Names found only as MMD cuts them: fine in MMD, not in players that match names exactly.
    const cut = [...cmp.cutBones, ...cmp.cutMorphs];
    // A cut name that two model names or more share (Gene's brow_angry_geo_L and _R) is every one of them: listed
    // all, and said that a VMD cannot tell them apart.
    const shared = cut.filter((c) => c.models.length > 1);
    const cutLine =
      (cut.length
        ? `  ${cut.length} ${cut.length === 1 ? 'name' : 'names'} cut to 15 bytes (MMD matches them; babylon-mmd and three.js match names exactly and do not): ${cut.map((c) => `${c.motion} (${c.models.join(' / ')})`).join(' ')}\n`
        : '') +
      (shared.length
        ? `  ${shared.length} cut ${shared.length === 1 ? 'name stands' : 'names stand'} for more than one name of the model, which a VMD cannot tell apart: ${shared.map((c) => `${c.motion} = ${c.models.join(' = ')}`).join(', ')}\n`
        : '');
    io.stdout(
      `${rel(motion.file)} on ${rel(modelFile)} ("${info.name}")\n` +
        (allFound
          ? `  bones ${cmp.matchedBones} of ${motion.bones.length} found, morphs ${cmp.matchedMorphs} of ${motion.morphs.length} found\n`
          : `  bones   ${cmp.matchedBones} of ${motion.bones.length} found` +
            (cmp.missingBones.length ? `; missing: ${cmp.missingBones.join(' ')}` : '') +
            `\n  morphs  ${cmp.matchedMorphs} of ${motion.morphs.length} found` +
            (cmp.missingMorphs.length ? `; missing: ${cmp.missingMorphs.join(' ')}` : '') +
            '\n') +
        cutLine +
        '\n',
    );
  }
  return null;
}

/** How a texture was found elsewhere, as the app's row says it (`inspect MODEL`'s line, and `inspect SCENE`'s warning). */
export function foundText(n: AssetNote): string {
  return n.kind === 'encoding'
    ? `found as ${n.found} (the zip's names were extracted in another encoding; re-extract with Japanese encoding, e.g. \`unzip -O cp932\`)`
    : `${n.folder} is not there: used ${n.found}`;
}

/** The encodings as PMX Editor names them. */
const ENCODING_NAMES = { 'utf-16': 'UTF-16', 'utf-8': 'UTF-8', shift_jis: 'Shift_JIS' } as const;

/** "  comment  line one\n           line two\n" (nothing for an empty comment; its line breaks kept, CR LF as LF). */
function commentLines(label: string, text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\s+$/, '').split('\n');
  if (!lines.join('').trim()) return '';
  const pad = ' '.repeat(label.length + 4);
  return lines.map((l, i) => (i === 0 ? `  ${label}  ${l}` : `${pad}${l}`).trimEnd() + '\n').join('');
}

/** " (120 vertex · 4 bone · 2 group)": the morphs by kind, the kinds the model has, in MORPH_KIND_GROUPS' order. */
function morphKindText(kinds: ModelInfo['morphKinds']): string {
  const parts = MORPH_KIND_GROUPS.filter((k) => kinds[k] > 0).map((k) => `${count(kinds[k])} ${k}`);
  return parts.length ? ` (${parts.join(' · ')})` : '';
}

/** "skinning BDEF1 13,552 · BDEF2 10,178 · SDEF 40" (the kinds a model has; none for a model without vertices). */
function skinningLine(s: ModelInfo['skinning']): string {
  const parts = (['bdef1', 'bdef2', 'bdef4', 'sdef', 'qdef'] as const).filter((k) => s[k] > 0).map((k) => `${k.toUpperCase()} ${count(s[k])}`);
  return parts.length ? `  skinning ${parts.join(' · ')}\n` : '';
}

/** " (60 physics · 20 follows bone · 7 physics + bone position)": the bodies by mode, in RigidMode's order. */
function modeCounts(bodies: ModelInfo['rigidBodies']): string {
  const n = new Map<string, number>();
  for (const b of [...bodies].sort((x, y) => x.mode - y.mode)) n.set(b.modeName, (n.get(b.modeName) ?? 0) + 1);
  return n.size ? ` (${[...n].map(([name, c]) => `${count(c)} ${name}`).join(' · ')})` : '';
}
