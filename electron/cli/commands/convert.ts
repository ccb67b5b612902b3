/**
 * `vmd-studio convert IN -o OUT [--frame F]` — by extension: VMD→JSON, JSON→VMD, VPD→VMD (one frame at 0
 * or --frame), VMD→VPD (the pose at --frame, interpolated), VPD→JSON.
 */
import path from 'node:path';
import {
  BLOCK_KINDS,
  buildTracks,
  vmdToJson,
  vmdToVpd,
  stageMotionRefusal,
  vpdToVmd,
  writeVmd,
  writeVpd,
  type CodecError,
  type Diagnostic,
  type VmdDocument,
  type VpdPose,
} from '../../../shared/vmd';
import { warningFields } from '../../../shared/edit-core/report';
import { writeOutput } from '../output';
import { outputRefusal, outputExistsError, OUTPUT_EXISTS_MESSAGE, pathExists, sameFile } from '../../fs/files';
import { backupPathFor, backupRefusal, createBackupSaver } from '../../services/file-io';
import { optNumber, optValue, parseArgs, UsageError, oneInputError, outputRequired } from '../args';
import { loadMotion } from '../load';
import { fileKindByName } from '../../../shared/ipc/file-kind';
import type { CommandInfo } from '../io';
import { displayPathAmong, formatCount } from '../format';
import { failWith as fail, jsonSuccess, printWarnings } from './edit-output';
import { plural } from '../../../shared/i18n/plural';

export const convertCommand: CommandInfo = {
  summary: 'VMD ⇄ JSON, VPD → VMD, VMD → VPD (pose at a frame), chosen by file extensions',
  usage: `vmd-studio convert IN -o OUT [--frame F] [--overwrite] [--skip-long-names] [--json] [--quiet]
  IN.vmd  -o OUT.json   the whole motion as editable JSON (VMD → JSON → VMD is byte-identical)
  IN.json -o OUT.vmd    back to VMD
  IN.vpd  -o OUT.vmd    a one-frame motion at frame 0 (or --frame F)
  IN.vmd  -o OUT.vpd    the pose at --frame F (default 0), interpolated like playback
  --skip-long-names     VPD → VMD: leave out (and report) bones whose names exceed 15 bytes instead of failing
  --overwrite           replace an existing OUT without a backup (without it, the file replaced is kept as OUT.bak,
                        with a warning); OUT is never the input; a read-only OUT is never replaced
  --json                print what was written as JSON (input, output, from, to, frame, counts, skipped, bytesOut)
  --quiet               print nothing on success (default: one summary line, like the edit commands)`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'frame'], flags: ['overwrite', 'skip-long-names', 'json', 'quiet'], aliases: { o: 'output' } });
    if (a.positionals.length !== 1) throw oneInputError();
    const outArg = optValue(a, 'output');
    if (!outArg) throw outputRequired();
    const frame = optNumber(a, 'frame') ?? 0;
    if (frame < 0) throw new UsageError('--frame must not be negative');
    const input = path.resolve(io.cwd, a.positionals[0]);
    const output = path.resolve(io.cwd, outArg);
    const outFmt = fileKindByName(output);
    if (outFmt !== 'vmd' && outFmt !== 'vpd' && outFmt !== 'json') throw new UsageError(`output must end in .vmd, .vpd or .json: ${outArg}`);
    // Never the input (through a link too), whatever --overwrite says (it used to let OUT be the input).
    if (await sameFile(input, output)) throw new UsageError('the output must be a different file (inputs are never modified)');
    const overwrite = a.flags.has('overwrite');
    const shown = (f: string) => displayPathAmong(f, [a.positionals[0], outArg], io.cwd);
    const failWith = (e: CodecError) => fail(io, e, input, [a.positionals[0], outArg]);
    // convert replaces an existing OUT (its contract since the first release: scripts, and the project's own
    // conformance check, convert into the same names over and over), but it no longer loses what it replaces
    // (a 1.6 MB dance became a one-frame pose, silently): without --overwrite the file replaced is kept as
    // OUT.bak (the app's backup rule: never through a link, only a regular file of this user's), and a warning
    // says so; where no backup can be written it is refused as by the other commands. --overwrite replaces
    // without a backup. A read-only OUT is never replaced.
    const refused = await outputRefusal(output, true);
    if (refused) return failWith(refused);
    const existed = !overwrite && (await pathExists(output));
    if (existed) {
      const blocked = await backupRefusal(backupPathFor(output));
      if (blocked) return failWith({ ...outputExistsError(output), message: `${OUTPUT_EXISTS_MESSAGE}; its backup cannot be kept (${blocked})` });
    }
    const l = await loadMotion(input, 'convert', a.positionals[0]);
    if (!l.ok) return failWith(l.error);
    const m = l.value;
    let bytes: Uint8Array;
    // What was written, for the summary: keys per block of a motion, or bones and morphs of a pose.
    let counts: Record<string, number>;
    let skipped = 0;
    const motionCounts = (d: VmdDocument) => Object.fromEntries(BLOCK_KINDS.map((k) => [k, d[k].count]));
    const poseCounts = (p: VpdPose) => ({ bones: p.bones.length, morphs: p.morphs.length });
    // The reader's notes (a long name skipped), coded so that --lang ja says them in Japanese; --json keeps the English.
    const notes: Diagnostic[] = [];
    if (m.format === 'vmd') {
      if (outFmt === 'vpd') {
        // A camera or light motion has no pose: refused, not written as an empty VPD.
        const stage = stageMotionRefusal(m.doc, 'convert to VPD');
        if (stage) return failWith(stage);
        const pose = vmdToVpd(m.doc, buildTracks(m.doc), frame);
        bytes = writeVpd(pose);
        counts = poseCounts(pose);
      } else {
        bytes = outFmt === 'json' ? new TextEncoder().encode(vmdToJson(m.doc)) : writeVmd(m.doc);
        counts = motionCounts(m.doc);
      }
    } else {
      if (outFmt === 'vpd') {
        // Nothing changes in a pose written as a pose: its bytes as they are (−0.000000, line endings,
        // comments), as the app's Save of an unedited pose would write them.
        bytes = m.bytes;
        counts = poseCounts(m.pose);
      } else {
        const r = vpdToVmd(m.pose, { frame: Math.round(frame), skipLongNames: a.flags.has('skip-long-names') });
        if (!r.ok) return failWith(r.error);
        notes.push(...r.diagnostics);
        skipped = r.diagnostics.filter((d) => d.code === 'W_NAME_SKIPPED').length;
        bytes = outFmt === 'json' ? new TextEncoder().encode(vmdToJson(r.value)) : writeVmd(r.value);
        counts = motionCounts(r.value);
      }
    }
    let backup: string | null = null;
    // Said of the output (the other warnings are the input's).
    let backupNote: Diagnostic | null = null;
    if (existed) {
      const w = await createBackupSaver()(output, bytes, { overwrite: true, backup: true });
      if (!w.ok) return failWith(w.error);
      backup = w.value.backupPath;
      // (None where nothing regular stood there: a dangling link, followed as the other commands' -o is.)
      if (backup) backupNote = { code: 'W_CONVERT_BACKUP', message: `${shown(output)}: it existed and was replaced; its previous version is kept as ${shown(backup)} (--overwrite replaces without a backup)`, params: { output: shown(output), backup: shown(backup) } };
    } else {
      const w = await writeOutput(output, bytes, overwrite);
      if (!w.ok) return failWith(w.error);
    }
    const from = fileKindByName(input) === 'json' ? 'json' : m.format;
    const atFrame = outFmt === 'vpd' && m.format === 'vmd' ? frame : m.format === 'vpd' && outFmt !== 'vpd' ? Math.round(frame) : null;
    if (a.flags.has('json')) {
      jsonSuccess(io, { input, output, from, to: outFmt, frame: atFrame, ...counts, skipped, bytesOut: bytes.byteLength, backup, warnings: [...notes, ...(backupNote ? [backupNote] : [])].map((d) => d.message) });
    } else if (!a.flags.has('quiet')) {
      // The same shape as the edit commands' line: "convert: OUT: what, counts".
      const what = `${from.toUpperCase()} → ${outFmt.toUpperCase()}${atFrame !== null ? ` at frame ${atFrame}` : ''}`;
      const list = Object.entries(counts).map(([k, v]) => `${k} ${formatCount(v)}`).join(', ');
      const keys = 'bone' in counts ? `keys ${list}` : list;
      io.stdout(`convert: ${shown(output)}: ${what}; ${keys}${skipped ? `; skipped ${plural(formatCount(skipped), 'long name')}` : ''}; ${formatCount(bytes.byteLength)} bytes\n`);
    }
    printWarnings(io, warningFields(notes), shown(input));
    if (backupNote) printWarnings(io, warningFields([backupNote]), shown(output));
    return 0;
  },
};
