/** `vmd-studio inspect [--json] [--recursive] PATH...` — what each motion or pose file is. */
import path from 'node:path';
import { buildTracks, inspectVmd, inspectVpd, formatError, type CodecError, type VmdInfo, type VpdInfo } from '../../../shared/vmd';
import { listMotionFiles, MOTION_EXTENSIONS } from '../../fs/files';
import { MOCAP_EXTENSIONS, mocapFormatOf } from '../../../shared/ipc/file-types';
import { captureLines, inspectCapture, type CaptureInfo } from './inspect-capture';
import { parseArgs } from '../args';
import { loadMotion } from '../load';
import type { CliIo, CommandInfo } from '../io';
import { modelInspection } from './inspect-model';
import { displayPathAmong } from '../format';
import { jsonFailure } from './edit-output';

export type FileInfo = ({ file: string; ok: true } & (VmdInfo | VpdInfo | CaptureInfo)) | { file: string; ok: false; error: CodecError };

/** Inspects one file; never throws. */
export async function inspectFile(file: string): Promise<FileInfo> {
  const capture = mocapFormatOf(file);
  if (capture) {
    const c = await inspectCapture(file, capture);
    return c.ok ? { file, ok: true, ...c.value } : { file, ok: false, error: { code: c.error.code, message: c.error.message, offset: c.error.offset, line: c.error.line } as CodecError };
  }
  const l = await loadMotion(file, 'inspect');
  if (!l.ok) return { file, ok: false, error: { code: l.error.code, message: l.error.message, offset: l.error.offset } as CodecError };
  const m = l.value;
  if (m.format === 'vpd') return { file, ok: true, ...inspectVpd(m.pose, l.diagnostics) };
  return { file, ok: true, ...inspectVmd(m.doc, buildTracks(m.doc), l.diagnostics) };
}

function humanTable(infos: FileInfo[], io: CliIo, givens: string[]): void {
  for (const info of infos) {
    const rel = displayPathAmong(info.file, givens, io.cwd);
    if (!info.ok) {
      const at = info.error.line !== undefined ? ` (line ${info.error.line})` : info.error.offset !== undefined ? ` (at byte ${info.error.offset})` : '';
      io.stdout(`${rel}\n  ERROR ${info.error.code}: ${info.error.message}${at}\n\n`);
      continue;
    }
    if (info.format === 'bvh' || info.format === 'vrma') {
      io.stdout(`${rel}\n${captureLines(info)}`);
    } else if (info.format === 'vpd') {
      io.stdout(`${rel}\n  pose (VPD)  model ${info.model || '-'}\n  bones ${info.counts.bone}  morphs ${info.counts.morph}\n`);
    } else {
      const c = info.counts;
      const absent = info.absentBlocks.length ? `  (absent: ${info.absentBlocks.join(', ')})` : '';
      io.stdout(
        `${rel}\n` +
          `  ${info.kind.padEnd(7)} ${info.header}  model "${info.model}"\n` +
          `  length  ${info.lastFrame} frames (${info.durationSeconds.toFixed(2)} s at 30 fps)\n` +
          `  keys    bone ${c.bone}  morph ${c.morph}  camera ${c.camera}  light ${c.light}  shadow ${c.shadow}  ik ${c.ik}${absent}\n` +
          `  tracks  ${info.bones.length} bones, ${info.morphs.length} morphs` +
          (c.camera ? `, ${info.cameraCuts} camera cuts` : '') +
          '\n',
      );
      if (info.bones.length) io.stdout(`  bones   ${info.bones.slice(0, 24).join(' ')}${info.bones.length > 24 ? ` … (+${info.bones.length - 24})` : ''}\n`);
    }
    for (const w of info.warnings) io.stdout(`  warning ${w}\n`);
    io.stdout('\n');
  }
}

export const inspectCommand: CommandInfo = {
  summary: 'what each file is: kind, length, key counts, bones, morphs, camera cuts (captures: joints, rate, map)',
  usage: `vmd-studio inspect [--json] [--recursive] PATH...
  PATH       .vmd, .vpd, .bvh, .vrma, .pmx or .pmd files, or folders (every .vmd/.vpd/.bvh/.vrma inside)
  --json     one JSON object per file per line
  --recursive  descend into sub-folders
  --model M  with a motion: list its bones and morphs that model M (.pmx/.pmd) lacks
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
    const modelPaths = a.positionals.filter((p) => /\.(pmx|pmd)$/i.test(p));
    const motionPaths = a.positionals.filter((p) => !/\.(pmx|pmd)$/i.test(p));
    let failed = false;
    for (const m of modelPaths) failed = !(await modelInspection(path.resolve(io.cwd, m), null, a.flags.has('json'), io, a.positionals)) || failed;
    if (motionPaths.length === 0) return failed ? 1 : 0;
    const { files, errors } = await listMotionFiles(motionPaths.map((p) => path.resolve(io.cwd, p)), { recursive: a.flags.has('recursive'), extensions: [...MOTION_EXTENSIONS, ...MOCAP_EXTENSIONS] });
    const infos: FileInfo[] = errors.map((e) => ({ file: e.file ?? '', ok: false as const, error: { code: e.code, message: e.message } }));
    for (const f of files) infos.push(await inspectFile(f.path));
    if (a.flags.has('json')) {
      for (const info of infos) io.stdout(JSON.stringify(info) + '\n');
    } else {
      humanTable(infos, io, motionPaths);
    }
    if (model) {
      for (const info of infos) if (info.ok && 'bones' in info && 'morphs' in info) failed = !(await modelInspection(path.resolve(io.cwd, model), { file: info.file, bones: info.bones, morphs: info.morphs }, a.flags.has('json'), io, [...a.positionals, model])) || failed;
    }
    for (const info of infos) if (!info.ok) io.stderr(`vmd-studio: ${formatError({ ...info.error, file: displayPathAmong(info.file, motionPaths, io.cwd) })}\n`);
    return failed || infos.some((i) => !i.ok) ? 1 : 0;
  },
};
