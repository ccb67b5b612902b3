/**
 * `vmd-studio convert IN -o OUT [--frame F]` — by extension: VMD→JSON, JSON→VMD, VPD→VMD (one frame at 0
 * or --frame), VMD→VPD (the pose at --frame, interpolated), VPD→JSON.
 */
import path from 'node:path';
import {
  buildTracks,
  formatError,
  vmdToJson,
  vmdToVpd,
  vpdToVmd,
  writeVmd,
  writeVpd,
  type CodecError,
} from '../../../shared/vmd';
import { writeOutput } from '../output';
import { optNumber, optValue, parseArgs, UsageError } from '../args';
import { formatOf, loadMotion } from '../load';
import type { CommandInfo } from '../io';

export const convertCommand: CommandInfo = {
  summary: 'VMD ⇄ JSON, VPD → VMD, VMD → VPD (pose at a frame), chosen by file extensions',
  usage: `vmd-studio convert IN -o OUT [--frame F] [--overwrite] [--skip-long-names]
  IN.vmd  -o OUT.json   the whole motion as editable JSON (VMD → JSON → VMD is byte-identical)
  IN.json -o OUT.vmd    back to VMD
  IN.vpd  -o OUT.vmd    a one-frame motion at frame 0 (or --frame F)
  IN.vmd  -o OUT.vpd    the pose at --frame F (default 0), interpolated like playback
  --skip-long-names     VPD → VMD: leave out (and report) bones whose names exceed 15 bytes instead of failing
  --overwrite           allow OUT to be the input file itself (an existing OUT is otherwise replaced atomically)`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'frame'], flags: ['overwrite', 'skip-long-names'], aliases: { o: 'output' } });
    if (a.positionals.length !== 1) throw new UsageError('give exactly one input file');
    const outArg = optValue(a, 'output');
    if (!outArg) throw new UsageError('-o OUT is required');
    const frame = optNumber(a, 'frame') ?? 0;
    if (frame < 0) throw new UsageError('--frame must not be negative');
    const input = path.resolve(io.cwd, a.positionals[0]);
    const output = path.resolve(io.cwd, outArg);
    const outFmt = formatOf(output);
    if (outFmt !== 'vmd' && outFmt !== 'vpd' && outFmt !== 'json') throw new UsageError(`output must end in .vmd, .vpd or .json: ${outArg}`);
    const l = await loadMotion(input);
    const failWith = (e: CodecError) => {
      io.stderr(`vmd-studio: ${formatError({ ...e, file: e.file ?? input })}\n`);
      return 1;
    };
    if (!l.ok) return failWith(l.error);
    let bytes: Uint8Array;
    if (l.format === 'vmd') {
      if (outFmt === 'json') bytes = new TextEncoder().encode(vmdToJson(l.doc));
      else if (outFmt === 'vmd') bytes = writeVmd(l.doc);
      else bytes = writeVpd(vmdToVpd(l.doc, buildTracks(l.doc), frame));
    } else {
      if (outFmt === 'vpd') bytes = writeVpd(l.pose);
      else {
        const r = vpdToVmd(l.pose, { frame: Math.round(frame), skipLongNames: a.flags.has('skip-long-names') });
        if (!r.ok) return failWith(r.error);
        for (const d of r.diagnostics) io.stderr(`vmd-studio: warning: ${d.message}\n`);
        bytes = outFmt === 'json' ? new TextEncoder().encode(vmdToJson(r.value)) : writeVmd(r.value);
      }
    }
    const w = await writeOutput(output, bytes, [input], a.flags.has('overwrite'));
    if (!w.ok) return failWith(w.error);
    return 0;
  },
};
