/** `vmd-studio inspect [--json] [--recursive] PATH...` — what each file is, in the order given: motions, poses, captures, models, and files of other kinds (inspect-other.ts). */
import { errorLine, salvageHint, warningPrefix } from '../locale';
import path from 'node:path';
import { buildTracks, inspectMotion, inspectVpd, type CodecError, type Diagnostic, type VmdInspection, type VpdInfo } from '../../../shared/vmd';
import { addWarning, codesOf, inspectWarningLines, withCodes } from './inspect-warnings';
import { listMotionFiles, MOTION_EXTENSIONS } from '../../fs/files';
import { MOCAP_EXTENSIONS } from '../../../shared/ipc/file-types';
import { captureLines, inspectCapture, type CaptureInfo } from './inspect-capture';
import { parseArgs } from '../args';
import { loadMotion } from '../load';
import type { CliIo, CommandInfo } from '../io';
import { modelInspection } from './inspect-model';
import { describeAudio, describeImage, describeWav, imageLines, inspectScene, readHead, sceneLines, wavLines, type AudioInfo, type ImageInfo, type SceneInfo, type WavInfo } from './inspect-other';
import { FILE_KIND_NAMES, fileKindByContent, fileKindByName, fileKindName, isImageKind, misnamedMessage, type FileKind } from '../../../shared/ipc/file-kind';
import { extensionOf } from '../../../shared/ipc/file-types';
import { displayPathAmong } from '../format';
import { count, plural } from '../../../shared/i18n/plural';
import { jsonFailure } from './edit-output';

export type FileInfo =
  | ({ file: string; ok: true } & (VmdInspection | VpdInfo | CaptureInfo | WavInfo | AudioInfo | SceneInfo | ImageInfo))
  | { file: string; ok: false; error: CodecError };

/** The usual extension of a kind a file may be misnamed as, for the name to give it (none for a song or a video: it depends on the format). */
const USUAL_EXTENSION: Partial<Record<FileKind, string>> = { vmd: '.vmd', vpd: '.vpd', pmx: '.pmx', pmd: '.pmd', bvh: '.bvh', vrma: '.vrma', wav: '.wav', scene: '.vmdscene', png: '.png', jpeg: '.jpg', bmp: '.bmp', tga: '.tga' };

/**
 * When a file's name says one kind and its first bytes another (laugh.vpd holding a VMD motion, a PNG named .vmd):
 * the warning inspect adds (it reads the file as what its bytes say, but MMD and the app go by the extension and
 * refuse it; every other command refuses a misnamed motion or pose with the same words, misnamedMessage), and
 * `nameMismatch` for a script, which need not read the prose. Null when they agree or either says nothing.
 */
export function nameMismatch(file: string, head: Uint8Array): { warning: string; code: Diagnostic; nameMismatch: { extension: string; kind: FileKind } } | null {
  const named = fileKindByName(file), is = fileKindByContent(head);
  if (named === null || is === null || named === is) return null;
  const extension = extensionOf(file);
  const base = path.basename(file);
  const usual = USUAL_EXTENSION[is];
  const warning = misnamedMessage(file, head) ?? `${fileKindName(is, head)} named ${extension}: MMD and VMD Studio open a file by its extension and refuse this one${usual ? `; rename it ${base.slice(0, base.length - extension.length)}${usual}` : ''}`;
  // Its values for the Japanese line (note.W_NAME_MISMATCH): what it is (`isWord`, with an audio file's or a video's
  // container where the name says it), the extension, and the name to give it, as the English line has them.
  const m = /^.* named (.+?): MMD and VMD Studio open a file by its extension and refuse this one(?:; rename it (.+))?$/.exec(warning);
  const container = /\((.+)\)$/.exec(fileKindName(is, head))?.[1];
  const said = !misnamedMessage(file, head) && container && fileKindName(is, head) !== FILE_KIND_NAMES[is];
  const params = { isWord: said ? `${is}In` : is, ...(said ? { container } : {}), ext: m?.[1] ?? extension, ...(m?.[2] ? { rename: m[2] } : {}) };
  const code = { code: m?.[2] ? 'W_NAME_MISMATCH' : 'W_NAME_MISMATCH_KEEP', message: warning, params };
  return { warning, code, nameMismatch: { extension, kind: is } };
}

/** An error as a file's line gives it: code, message, byte offset or line (the file is the line's own). */
/**
 * A file that failed: its error as --json prints it (code, message, offset, line). The values the message names
 * (`params`: a count error's block and count, what a non-motion file is) ride along unlisted (not enumerable, so
 * not in the JSON document, nor in a spread copy: pass them on by name), for the Japanese line (locale.ts errorLine), phrased from them as the app phrases it.
 */
const failed = (file: string, e: CodecError): FileInfo => {
  const error = { code: e.code, message: e.message, offset: e.offset, line: e.line } as CodecError;
  if (e.params) Object.defineProperty(error, 'params', { value: e.params, enumerable: false });
  return { file, ok: false, error };
};

/**
 * Inspects one file that is not a model, read by what it is: `kind`, from its first bytes (`head`) where
 * they say, else from its name. Never throws.
 */
async function inspectFile(file: string, kind: FileKind | null, head: Uint8Array, size: number): Promise<FileInfo> {
  if (kind === 'bvh' || kind === 'vrma') {
    const c = await inspectCapture(file, kind);
    return c.ok ? withCodes({ file, ok: true, ...c.value }, c.diagnostics) : failed(file, c.error);
  }
  // A film (the app's own Video… output, say): named with its format, as other commands name it.
  if (kind === 'video') return failed(file, { code: 'E_UNSUPPORTED', message: `${fileKindName(kind, head)}, not a motion, a model, a song or a scene: VMD Studio writes videos (Video…; Render → Video… in the desktop app) but does not read them`, offset: 0 });
  // The codes of the warnings ride beside them (not enumerable: a spread leaves them behind), for --lang ja.
  if (kind === 'audio') {
    const a = describeAudio(head, file);
    return withCodes({ file, ok: true, ...a }, codesOf(a));
  }
  if (kind === 'wav' || kind === 'scene' || isImageKind(kind)) {
    const o = kind === 'wav' ? describeWav(head, size, file) : kind === 'scene' ? await inspectScene(file) : describeImage(head, kind, file);
    return o.ok ? withCodes({ file, ok: true, ...o.value }, codesOf(o.value)) : failed(file, o.error);
  }
  const l = await loadMotion(file, 'inspect', file, 'motion', true);
  if (!l.ok) return failed(file, l.error);
  const m = l.value;
  // The reader's notes have their codes (W_VMD_TRAILING, N_BONE_DUPLICATES…): said in Japanese under --lang ja.
  if (m.format === 'vpd') return withCodes({ file, ok: true, ...inspectVpd(m.pose, l.diagnostics) }, l.diagnostics);
  // With the IK bones the display/IK keys turn off ("leg IK off from frame 0 (FK legs)") and where they hide the
  // model ("model hidden from frame 120 (display off)"), and --json's ikOff and displayOff: where.
  const { info, notes } = inspectMotion(m.doc, buildTracks(m.doc), l.diagnostics);
  return withCodes({ file, ok: true, ...info }, notes);
}

/** A hint as a line of a file's block (none when empty). */
const hintLine = (hint: string) => (hint ? `  ${hint}\n` : '');

/** One file's block of the table for people: its path line, what it is, its warnings, a blank line. */
function humanBlock(info: FileInfo, io: CliIo, givens: string[]): void {
  const rel = displayPathAmong(info.file, givens, io.cwd);
  if (!info.ok) {
    // formatError's "message (at byte N)" without a file (the path is the block's first line); in Japanese by code,
    // after エラー rather than ERROR (nujp 9), the code kept for a search.
    io.stdout(`${rel}\n  ${io.locale === 'ja' ? 'エラー' : 'ERROR'} ${info.error.code}: ${errorLine({ ...info.error, params: info.error.params, file: undefined }, io.locale)}\n${hintLine(salvageHint(info.error, rel, io.locale))}\n`);
    return;
  }
  if (info.format === 'wav' || info.format === 'audio') {
    io.stdout(`${rel}\n${wavLines(info)}`);
  } else if (info.format === 'scene') {
    io.stdout(`${rel}\n${sceneLines(info)}`);
  } else if (info.format === 'image') {
    io.stdout(`${rel}\n${imageLines(info)}`);
  } else if (info.format === 'bvh' || info.format === 'vrma') {
    io.stdout(`${rel}\n${captureLines(info)}`);
  } else if (info.format === 'vpd') {
    io.stdout(`${rel}\n  pose (VPD)  model ${info.model || '-'}\n  bones ${count(info.counts.bone)}  morphs ${count(info.counts.morph)}\n`);
  } else {
    const c = info.counts;
    const absent = info.absentBlocks.length ? `  (absent: ${info.absentBlocks.join(', ')})` : '';
    io.stdout(
      `${rel}\n` +
        `  ${info.kind.padEnd(7)} ${info.header}  model "${info.model}"\n` +
        `  length  ${plural(count(info.lastFrame), 'frame')} (${info.durationSeconds.toFixed(2)} s at 30 fps)\n` +
        `  keys    bone ${count(c.bone)}  morph ${count(c.morph)}  camera ${count(c.camera)}  light ${count(c.light)}  shadow ${count(c.shadow)}  ik ${count(c.ik)}${absent}\n` +
        `  tracks  ${plural(count(info.bones.length), 'bone')}, ${plural(count(info.morphs.length), 'morph')}` +
        (c.camera ? `, ${plural(count(info.cameraCuts), 'camera cut')}` : '') +
        '\n',
    );
    if (info.bones.length) io.stdout(`  bones   ${info.bones.slice(0, 24).join(' ')}${info.bones.length > 24 ? ` … (+${count(info.bones.length - 24)})` : ''}\n`);
  }
  for (const w of inspectWarningLines(info, io.locale)) io.stdout(`  ${warningPrefix(io.locale)} ${w}\n`);
  io.stdout('\n');
}

export const inspectCommand: CommandInfo = {
  summary: 'what each file is: kind, length, key counts, bones, morphs, camera cuts (captures: joints, rate, map)',
  usage: `vmd-studio inspect [--json] [--recursive] PATH...
  PATH       .vmd, .vpd, .bvh, .vrma, .pmx or .pmd files, or folders (every .vmd/.vpd/.bvh/.vrma inside;
             a folder with none is an error);
             a WAV or another song (MP3, Ogg, FLAC, M4A…), a .vmdscene or an image is named and described
             too. Each file is read as what its
             first bytes say (a PNG named .vmd is an image), and said in the order given; a name that
             says another kind is warned of (MMD and the app open files by their extension and
             refuse it; --json: "nameMismatch": {extension, kind})
  --json     one JSON object per file per line; "ok": true means the file could be read (as what its
             first bytes say), not that MMD or the app take it: see "warnings" and "nameMismatch"
  --recursive  descend into sub-folders
  --model M  with a motion: list its bones and morphs that model M (.pmx/.pmd) lacks
A model's rigid bodies are listed with their modes as MMD and PMX Editor call them: follows bone
(ボーン追従), physics (物理演算), physics + bone position (物理+ボーン位置合わせ), and their shapes
(sphere, box, capsule); --json gives mode and shape as stored, with modeName and shapeName.
Exit status 1 if any file failed to read.`,
  async run(argv, io) {
    const a = parseArgs(argv, { flags: ['json', 'recursive', 'r'], values: ['model'], aliases: { r: 'recursive' } });
    if (a.positionals.length === 0) {
      const message = 'give at least one file or folder';
      jsonFailure({ ...io, json: a.flags.has('json') }, { code: 'E_ARGUMENT', message });
      io.stderr(`vmd-studio inspect: ${message}\n`);
      return 2;
    }
    const model = a.values.model?.[a.values.model.length - 1];
    const modelFile = model === undefined ? undefined : path.resolve(io.cwd, model);
    const json = a.flags.has('json');
    const givens = model === undefined ? a.positionals : [...a.positionals, model];
    // Each file's line or block as soon as it is read, in the order the paths were given (a folder's files in
    // name order); a file that failed is also one line on stderr, all of them at the end.
    const failures: { file: string; error: CodecError }[] = [];
    const emit = (info: FileInfo) => {
      // A failure's offset is always there (null where the error has none), as every command's --json failure.
      if (json) io.stdout(JSON.stringify(info.ok ? info : { ...info, error: { ...info.error, offset: info.error.offset ?? null } }) + '\n');
      else humanBlock(info, io, givens);
      if (!info.ok) failures.push(info);
    };
    let modelFailed = false;
    for (const given of a.positionals) {
      const abs = path.resolve(io.cwd, given);
      const extensions = [...MOTION_EXTENSIONS, ...MOCAP_EXTENSIONS];
      const { files, errors } = await listMotionFiles([abs], { recursive: a.flags.has('recursive'), extensions });
      for (const e of errors) emit(failed(e.file ?? '', e));
      // A folder that gave nothing (empty, or a folder named x.vmd): said as a failure, never an empty answer
      // with status 0 that a loop over uploads would take for a file with nothing to say.
      if (!files.length && !errors.length) {
        const sub = a.flags.has('recursive') ? '' : ' (sub-folders are read with --recursive)';
        emit(failed(abs, { code: 'E_IO_NOT_FOUND', message: `a folder with no ${extensions.slice(0, -1).join(', ')} or ${extensions[extensions.length - 1]} file${sub}` }));
      }
      for (const f of files) {
        const h = await readHead(f.path);
        if (!h.ok) {
          emit(failed(f.path, h.error));
          continue;
        }
        // Content first: a model under a motion's name is inspected as the model it is.
        const kind = fileKindByContent(h.head) ?? fileKindByName(f.path);
        if (kind === 'pmx' || kind === 'pmd') {
          const e = await modelInspection(f.path, null, json, io, givens);
          if (e) emit(failed(f.path, e));
          continue;
        }
        const info = await inspectFile(f.path, kind, h.head, h.size);
        // Read as what its bytes say, so `ok` stays true ("could be read"); the name that says otherwise is warned of.
        const mismatch = info.ok ? nameMismatch(f.path, h.head) : null;
        if (info.ok && mismatch) {
          info.warnings = [...info.warnings];
          addWarning(info, mismatch.code.code, mismatch.warning, mismatch.code.params);
          Object.assign(info, { nameMismatch: mismatch.nameMismatch });
        }
        emit(info);
        if (modelFile !== undefined && !modelFailed && info.ok && 'bones' in info && 'morphs' in info) {
          // A model that cannot be read: said once, where it is first needed.
          const e = await modelInspection(modelFile, { file: info.file, bones: info.bones, morphs: info.morphs }, json, io, givens);
          if (e) emit(failed(modelFile, e));
          modelFailed = e !== null;
        }
      }
    }
    for (const f of failures) io.stderr(`vmd-studio: ${errorLine({ ...f.error, params: f.error.params, file: displayPathAmong(f.file, givens, io.cwd) }, io.locale)}\n`);
    return failures.length ? 1 : 0;
  },
};
