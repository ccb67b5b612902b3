/**
 * Edit and batch commands: mirror, trim, merge, speed, shift, preset, rename, build (one file) and
 * batch (a folder). Edits run through shared/edits via electron/batch/ops.ts, so a one-file command and
 * a batch apply exactly the same code and options. Exit status: 0 all succeeded (skipped outputs
 * count as success), 1 some file failed, 2 bad arguments; 130/143 after SIGINT/SIGTERM.
 */
import path from 'node:path';
import { atomicWrite, readBytes, removePendingTemps } from '../fs/files';
import { formatError, readVmd, readVpd, writeVmd, type CodecError, type VmdDocument } from '../../shared/vmd';
import { buildFromPoses, merge, parseCurveSpec, reportSummary, type EditReport, type PoseAt } from '../../shared/edits';
import type { BatchFileResult, BatchOp, BatchProgress, BatchSummary } from '../../shared/batch/types';
import { cliArgNames, cliUsage } from '../../shared/batch/op-specs';
import type { OpOptions } from '../../shared/batch/doc-edits';
import { prepareOp } from '../batch/ops';
import { BATCH_OPS } from '../../shared/batch/types';
import { BatchJobError, runBatch } from '../batch/engine';
import { optNumber, optValue, parseArgs, UsageError, type ArgSpec, type ParsedArgs } from './args';
import type { CliIo, CommandInfo } from './io';
import { displayPath, displayPathAmong, formatCount, formatMeasure } from './format';

/**
 * Options each operation takes (without the common -o/--overwrite/... ones), derived from the one
 * schema the Batch dialog's form also uses (shared/batch/op-specs.ts).
 */
const OP_SPECS = Object.fromEntries(
  BATCH_OPS.map((op) => [op, { ...cliArgNames(op), help: cliUsage(op) }]),
) as Record<BatchOp, { values: string[]; flags: string[]; help: string }>;

/** Per-operation help, shown by `OP --help` and all together by `batch --help`. */
const OP_DETAILS: Record<BatchOp, string> = {
  mirror: `swap 左/右 in names; position x, rotation y/z, camera target x and angles y/z negated
           (--no-light keeps the light direction as it is)`,
  trim: `keep frames A..B (B defaults to the last frame) and move them to start at 0. By default the
           pose at A is held at frame 0 (interpolated like MMD), curves cut at A/B are re-fitted and the
           largest resulting pose error is reported; tracks at rest throughout are dropped
           (--keep-static keeps them); --no-hold only cuts and shifts`,
  speed: `frame' = round(frame / K); keys landing on a taken (name, frame) are dropped and counted.
           --refit: nothing dropped; output frame f plays what the input plays at f·K within the
           tolerances (default 0.01 units, 0.1°, 0.005) at every integer frame; cuts stay cuts`,
  reduce: `fewer keys, same motion: bone, morph and camera tracks re-fitted with MMD's curves so that
           playback stays within --pos-tol (units, default 0.01), --rot-tol (degrees, 0.1) and
           --morph-tol (weight, 0.005) at every integer and half frame; --bones "左*,右*" or "/regex/"
           limits bones and morphs, --from/--to the keys touched; reports keys before/after and the
           largest error per kind, measured by playing both files`,
  bake: `a key on every frame of every bone, morph and camera track (between --from and --to,
           widened to the nearest keys); exact at every integer frame`,
  shift: `frame' = frame + N; below 0 is an error unless --clip (cut there, holding the pose)`,
  preset: `curves: linear, ease-in, ease-out, ease-in-out, mmd-default, or x1,y1,x2,y2 in 0..127;
           --bones "左*,右*" (globs) or "/regex/"; channels x,y,z,r; camera channels x,y,z,r,d(ist),v(fov)`,
  rename: `mapping: JSON {"old":"new"} / {"bones":{..},"morphs":{..}} / [["old","new"]], or 2-column CSV;
           --morphs applies a plain mapping to morph names too`,
  pose: `(batch) VMD → VPD: the pose at --frame F`,
  convert: `(batch) VPD → VMD (one key per bone at --frame F) and VMD → VPD (pose at --frame F)`,
  inspect: `(batch) one JSON summary per file`,
};

const allDetails = () => 'Operations:\n' + BATCH_OPS.map((op) => `  ${op.padEnd(8)} ${OP_DETAILS[op]}`).join('\n');

class Interrupt {
  readonly controller = new AbortController();
  signal: NodeJS.Signals | null = null;
  private handlers: [NodeJS.Signals, () => void][] = [];

  /** Installs SIGINT/SIGTERM handlers: first one aborts, a second one exits at once. */
  install(): void {
    for (const sig of ['SIGINT', 'SIGTERM'] as NodeJS.Signals[]) {
      const h = () => {
        if (this.signal) {
          removePendingTemps();
          process.exit(sig === 'SIGINT' ? 130 : 143);
        }
        this.signal = sig;
        this.controller.abort();
      };
      process.on(sig, h);
      this.handlers.push([sig, h]);
    }
  }

  uninstall(): void {
    for (const [sig, h] of this.handlers) process.off(sig, h);
    this.handlers = [];
  }

  get exitCode(): number {
    return this.signal === 'SIGTERM' ? 143 : 130;
  }
}

function specFor(op: BatchOp, extra: ArgSpec): ArgSpec {
  const s = OP_SPECS[op];
  return {
    values: [...s.values, ...(extra.values ?? [])],
    flags: [...s.flags, ...(extra.flags ?? [])],
    aliases: { o: 'output', j: 'jobs', r: 'recursive', q: 'quiet', ...(extra.aliases ?? {}) },
  };
}

/** The op's options from parsed arguments, named as on the command line. */
function opOptions(op: BatchOp, a: ParsedArgs): OpOptions {
  const o: OpOptions = {};
  for (const v of OP_SPECS[op].values) {
    const x = optValue(a, v);
    if (x !== undefined) o[v] = x;
  }
  for (const f of OP_SPECS[op].flags) if (a.flags.has(f)) o[f] = true;
  return o;
}

/** The one-line summary of an edit report: key counts as integers, then the measured errors. */
export function reportLine(r: Record<string, unknown>): string {
  const n = (v: unknown) => formatCount(Number(v ?? 0));
  const parts = [`kept ${n(r.kept)}`, `added ${n(r.added)}`, `dropped ${n(r.dropped)}`, `collisions ${n(r.collisions)}`];
  if (r.changed) parts.push(`changed ${n(r.changed)}`);
  const extra: string[] = [];
  const fmt = (k: string, label: string, unit = '', as: (x: number) => string = formatMeasure) => {
    if (typeof r[k] === 'number') extra.push(`${label} ${as(r[k] as number)}${unit}`);
  };
  fmt('tracksDropped', 'tracks dropped', '', formatCount);
  fmt('maxPositionError', 'max position error');
  fmt('maxRotationErrorDeg', 'max rotation error', '°');
  if (typeof r.keysBefore === 'number') extra.unshift(`keys ${r.keysBefore} → ${r.keysAfter}`);
  if (typeof r.maxMorphError === 'number' && r.maxMorphError > 0) fmt('maxMorphError', 'max morph error');
  if (typeof r.maxCameraAngleErrorDeg === 'number' && r.maxCameraAngleErrorDeg > 0) fmt('maxCameraAngleErrorDeg', 'max camera angle error', '°');
  if (typeof r.maxCameraPositionError === 'number' && r.maxCameraPositionError > 0) fmt('maxCameraPositionError', 'max camera error');
  return parts.join(', ') + (extra.length ? `; ${extra.join(', ')}` : '');
}

function printWarnings(io: CliIo, r: Record<string, unknown>): void {
  const w = r.warnings;
  if (Array.isArray(w)) for (const x of w) io.stderr(`vmd-studio: warning: ${String(x)}\n`);
}

async function loadMapping(o: OpOptions, io: CliIo): Promise<void> {
  if (typeof o.map === 'string') {
    const file = path.resolve(io.cwd, o.map);
    const r = await readBytes(file);
    if (!r.ok) throw new UsageError(`mapping file: ${formatError(r.error)}`);
    o.map = file;
    o.mapText = new TextDecoder('utf-8').decode(r.value);
  }
}

function prepare(op: BatchOp, o: OpOptions) {
  const p = prepareOp(op, o);
  // The CLI phrases an option error with its dashes (the error's English message).
  if (!p.ok) throw new UsageError(p.error.message);
  return p.value;
}

/** Prints an error on one line; with `givens` (the path arguments) its file is shown as they gave it. */
function failWith(io: CliIo, e: CodecError, file?: string, givens?: string[]): number {
  const f = e.file ?? file;
  io.stderr(`vmd-studio: ${formatError({ ...e, file: f !== undefined && givens?.length ? displayPathAmong(f, givens, io.cwd) : f })}\n`);
  return 1;
}

/** Runs `fn` with SIGINT/SIGTERM removing temp files before the process exits. */
async function guarded(fn: () => Promise<number>): Promise<number> {
  const onSig = (sig: NodeJS.Signals) => {
    removePendingTemps();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSig);
  process.on('SIGTERM', onSig);
  try {
    return await fn();
  } finally {
    process.off('SIGINT', onSig);
    process.off('SIGTERM', onSig);
  }
}

function singleFileCommand(op: BatchOp, summary: string): CommandInfo {
  const usage = `vmd-studio ${op} IN.vmd -o OUT.vmd ${OP_SPECS[op].help} [--overwrite] [--json] [--quiet]\n  ${OP_DETAILS[op]}`;
  return {
    summary,
    usage,
    async run(argv, io) {
      const a = parseArgs(argv, specFor(op, { values: ['output'], flags: ['overwrite', 'json', 'quiet'] }));
      if (a.positionals.length !== 1) throw new UsageError('give exactly one input file');
      const outArg = optValue(a, 'output');
      if (!outArg) throw new UsageError('-o OUT is required');
      const o = opOptions(op, a);
      await loadMapping(o, io);
      const prepared = prepare(op, o);
      const input = path.resolve(io.cwd, a.positionals[0]);
      const output = path.resolve(io.cwd, outArg);
      if (input === output) throw new UsageError('the output must be a different file (inputs are never modified)');
      return guarded(async () => {
        const r = await readBytes(input);
        const givens = [a.positionals[0], outArg];
        if (!r.ok) return failWith(io, r.error, input, givens);
        const out = prepared.run(r.value, path.extname(input).toLowerCase());
        if (!out.ok) return failWith(io, out.error, input, givens);
        const w = await atomicWrite(output, out.bytes, { overwrite: a.flags.has('overwrite') });
        if (!w.ok) return failWith(io, w.error, output, givens);
        if (a.flags.has('json')) io.stdout(JSON.stringify({ input, output, ...out.report }, null, 2) + '\n');
        else if (!a.flags.has('quiet')) io.stdout(`${op}: ${displayPath(output, outArg, io.cwd)}: ${reportLine(out.report)}\n`);
        printWarnings(io, out.report);
        return 0;
      });
    },
  };
}

async function loadVmdFile(file: string): Promise<{ ok: true; doc: VmdDocument } | { ok: false; error: CodecError }> {
  const r = await readBytes(file);
  if (!r.ok) return r;
  const d = readVmd(r.value);
  if (!d.ok) return { ok: false, error: { ...d.error, file } };
  return { ok: true, doc: d.value };
}

function writeEditResult(io: CliIo, a: ParsedArgs, output: string, doc: VmdDocument, report: EditReport, name: string): Promise<number> {
  return guarded(async () => {
    const w = await atomicWrite(output, writeVmd(doc), { overwrite: a.flags.has('overwrite') });
    if (!w.ok) return failWith(io, w.error, output, [optValue(a, 'output') ?? output]);
    const s = reportSummary(report);
    if (a.flags.has('json')) io.stdout(JSON.stringify({ output, ...s }, null, 2) + '\n');
    else if (!a.flags.has('quiet')) io.stdout(`${name}: ${displayPath(output, optValue(a, 'output') ?? output, io.cwd)}: ${reportLine(s)}\n`);
    printWarnings(io, s);
    return 0;
  });
}

const mergeCommand: CommandInfo = {
  summary: 'join motions one after another (--gap N) or on one timeline (--overlay); duplicates reported',
  usage: `vmd-studio merge A.vmd B.vmd [C.vmd...] -o OUT.vmd [--gap N] [--overlay] [--overwrite] [--json] [--quiet]
  Concatenate: each next file starts at (last frame so far) + N (default 1).
  --overlay: all files on one timeline (motion + facial + camera).
  A (name, frame) pair is never written twice: the first file wins; dropped duplicates are reported.`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'gap'], flags: ['overlay', 'overwrite', 'json', 'quiet'], aliases: { o: 'output' } });
    if (a.positionals.length < 2) throw new UsageError('give at least two input files');
    const outArg = optValue(a, 'output');
    if (!outArg) throw new UsageError('-o OUT is required');
    const gap = optNumber(a, 'gap', { integer: true, min: 0 }) ?? 1;
    const inputs = a.positionals.map((p) => path.resolve(io.cwd, p));
    const output = path.resolve(io.cwd, outArg);
    if (inputs.includes(output)) throw new UsageError('the output must not be one of the inputs');
    const docs: VmdDocument[] = [];
    for (const f of inputs) {
      const l = await loadVmdFile(f);
      if (!l.ok) return failWith(io, l.error, f, a.positionals);
      docs.push(l.doc);
    }
    const r = merge(docs, { gap, overlay: a.flags.has('overlay') });
    if (!r.ok) return failWith(io, r.error);
    return writeEditResult(io, a, output, r.doc, r.report, 'merge');
  },
};

const buildCommand: CommandInfo = {
  summary: 'build a motion from poses: POSE.vpd@FRAME ... (union of bones, rest pose where missing)',
  usage: `vmd-studio build POSE.vpd@FRAME [POSE.vpd@FRAME...] -o OUT.vmd [--curve PRESET] [--skip-long-names] [--overwrite] [--json] [--quiet]
  Every pose gets a key for every bone any pose has (rest pose where it lacks one) and every morph
  (weight 0 where missing). Curves: MMD's linear default, or --curve linear|ease-in|ease-out|ease-in-out|x1,y1,x2,y2.`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'curve'], flags: ['skip-long-names', 'overwrite', 'json', 'quiet'], aliases: { o: 'output' } });
    if (a.positionals.length < 1) throw new UsageError('give at least one POSE.vpd@FRAME');
    const outArg = optValue(a, 'output');
    if (!outArg) throw new UsageError('-o OUT is required');
    let curve;
    const cs = optValue(a, 'curve');
    if (cs) {
      const c = parseCurveSpec(cs);
      if ('error' in c) throw new UsageError(c.error);
      curve = c.curve;
    }
    const specs = a.positionals.map((p) => {
      const m = /^(.*)@(\d+)$/.exec(p);
      if (!m) throw new UsageError(`"${p}": give each pose as FILE.vpd@FRAME`);
      return { file: path.resolve(io.cwd, m[1]), frame: Number(m[2]) };
    });
    const poses: PoseAt[] = [];
    for (const s of specs) {
      const r = await readBytes(s.file);
      if (!r.ok) return failWith(io, r.error, s.file);
      const p = readVpd(r.value);
      if (!p.ok) return failWith(io, p.error, s.file);
      poses.push({ pose: p.value, frame: s.frame });
    }
    const r = buildFromPoses(poses, { curve, skipLongNames: a.flags.has('skip-long-names') });
    if (!r.ok) return failWith(io, r.error);
    return writeEditResult(io, a, path.resolve(io.cwd, outArg), r.doc, r.report, 'build');
  },
};

function fmtBytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`;
}

function fmtDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** One progress line: bar, files done/total, MB/s, ETA. */
export function progressLine(p: BatchProgress, width = 24): string {
  const frac = p.total ? p.done / p.total : 1;
  const fill = Math.round(frac * width);
  const secs = p.elapsedMs / 1000;
  const mbs = secs > 0 ? p.bytesDone / 1e6 / secs : 0;
  const rate = secs > 0 ? p.done / secs : 0;
  const eta = rate > 0 ? ((p.total - p.done) / rate) * 1000 : NaN;
  return `[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${p.done}/${p.total} files  ${mbs.toFixed(1)} MB/s  ETA ${Number.isFinite(eta) ? fmtDuration(eta) : '--'}${p.failed ? `  ${p.failed} failed` : ''}`;
}

/** The summary table printed at the end of a batch. */
export function summaryTable(s: BatchSummary, op: string, bytes: number, show: (file: string) => string = (f) => f): string {
  const rows: [string, number][] = [
    ['written', s.ok],
    ['skipped', s.skipped],
    ['failed', s.failed],
    ['not run', s.total - s.results.length],
    ['total', s.total],
  ];
  const secs = s.ms / 1000;
  let out = `\nbatch ${op}${s.cancelled ? ' (cancelled)' : ''}\n  result    files\n`;
  for (const [k, v] of rows) if (k !== 'not run' || v) out += `  ${k.padEnd(8)} ${String(v).padStart(6)}\n`;
  out += `  time ${secs.toFixed(2)} s · ${(s.results.length / Math.max(secs, 1e-3)).toFixed(1)} files/s · ${(bytes / 1e6 / Math.max(secs, 1e-3)).toFixed(1)} MB/s (${fmtBytes(bytes)} read)\n`;
  const failed = s.results.filter((r) => !r.ok);
  if (failed.length) {
    out += `  failed files:\n`;
    for (const r of failed) out += `    ${show(r.input)}: ${r.error ? `${r.error.code} ${r.error.message}${r.error.offset !== undefined ? ` (at byte ${r.error.offset})` : ''}` : 'failed'}\n`;
  }
  return out;
}

const batchCommand: CommandInfo = {
  summary: `apply one operation to every file in a folder (${BATCH_OPS.join(', ')})`,
  usage: `vmd-studio batch OP INPUT_DIR -o OUTPUT_DIR [op options] [--recursive] [--jobs N] [--overwrite] [--dry-run] [--report report.json] [--quiet]
  OP: ${BATCH_OPS.map((op) => `${op} ${OP_SPECS[op].help}`.trim()).join('\n      ')}
  The output folder mirrors the input tree; inputs are never modified; an existing output is skipped
  unless --overwrite; every file is written to a temp file and renamed. A bad file is reported and the
  run goes on. Exit status 0 all succeeded, 1 some failed, 2 bad arguments.
  --jobs N     worker threads (default: CPU count)
  --dry-run    run the operation but write nothing
  --report F   per-file results as JSON (input, output, ok, error, report counts, ms)
  --quiet      no progress output
${allDetails()}`,
  async run(argv, io) {
    const [opName, ...rest] = argv;
    if (!opName || !(BATCH_OPS as readonly string[]).includes(opName)) throw new UsageError(`give an operation: ${BATCH_OPS.join(', ')}`);
    const op = opName as BatchOp;
    const a = parseArgs(rest, specFor(op, { values: ['output', 'jobs', 'report'], flags: ['recursive', 'overwrite', 'dry-run', 'quiet'] }));
    if (a.positionals.length !== 1) throw new UsageError('give exactly one INPUT_DIR');
    const outArg = optValue(a, 'output');
    if (!outArg) throw new UsageError('-o OUTPUT_DIR is required');
    const jobs = optNumber(a, 'jobs', { integer: true, min: 1 });
    const o = opOptions(op, a);
    await loadMapping(o, io);
    prepare(op, o); // bad options are exit status 2 before anything runs
    const quiet = a.flags.has('quiet');
    const reportArg = optValue(a, 'report');
    const job = {
      op,
      inputDir: path.resolve(io.cwd, a.positionals[0]),
      outputDir: path.resolve(io.cwd, outArg),
      options: o,
      recursive: a.flags.has('recursive'),
      jobs,
      overwrite: a.flags.has('overwrite'),
      dryRun: a.flags.has('dry-run'),
    };
    const show = (f: string) => displayPathAmong(f, [a.positionals[0], outArg], io.cwd);
    const interrupt = new Interrupt();
    interrupt.install();
    let lastPlain = 0;
    let drewBar = false;
    let bytesRead = 0;
    const onProgress = (p: BatchProgress) => {
      bytesRead = p.bytesDone;
      if (quiet) return;
      if (io.isTTY) {
        io.stderr(`\r${progressLine(p)}\x1b[K`);
        drewBar = true;
      } else if (p.elapsedMs - lastPlain >= 1000 || p.done === p.total) {
        lastPlain = p.elapsedMs;
        io.stderr(`${progressLine(p).replace(/^\[[#.]+\] /, 'progress: ')}\n`);
      }
    };
    const onResult = (r: BatchFileResult) => {
      if (!r.ok && r.error) {
        if (drewBar) io.stderr('\r\x1b[K');
        io.stderr(`vmd-studio: ${formatError({ ...r.error, file: show(r.error.file ?? r.input) })}\n`);
      }
    };
    let summary: BatchSummary;
    try {
      summary = await runBatch(job, { onProgress, onResult, signal: interrupt.controller.signal });
    } catch (e) {
      interrupt.uninstall();
      if (e instanceof BatchJobError) {
        io.stderr(`vmd-studio batch: ${formatError(e.error)}\n`);
        return 2;
      }
      throw e;
    }
    interrupt.uninstall();
    removePendingTemps();
    if (drewBar) io.stderr('\n');
    if (reportArg) {
      const reportFile = path.resolve(io.cwd, reportArg);
      const body = {
        jobId: summary.jobId,
        op,
        inputDir: job.inputDir,
        outputDir: job.outputDir,
        options: Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'mapText')),
        total: summary.total,
        ok: summary.ok,
        failed: summary.failed,
        skipped: summary.skipped,
        cancelled: summary.cancelled,
        ms: summary.ms,
        results: summary.results,
      };
      const w = await atomicWrite(reportFile, new TextEncoder().encode(JSON.stringify(body, null, 2) + '\n'), { overwrite: true });
      if (!w.ok) io.stderr(`vmd-studio: cannot write the report: ${formatError(w.error)}\n`);
    }
    if (!quiet) io.stdout(summaryTable(summary, op, bytesRead, show));
    if (summary.cancelled) return interrupt.signal ? interrupt.exitCode : 130;
    return summary.failed > 0 ? 1 : 0;
  },
};

export const editCommands: Record<string, CommandInfo> = {
  mirror: singleFileCommand('mirror', 'mirror left/right (names 左⇄右, positions, rotations, camera); mirroring twice is the identity'),
  trim: singleFileCommand('trim', 'keep frames A..B, holding the pose at A and re-fitting cut curves; reports the pose error'),
  merge: mergeCommand,
  speed: singleFileCommand('speed', 'change speed by a factor (frame / K, rounded; --refit re-fits within tolerance, nothing dropped)'),
  shift: singleFileCommand('shift', 'move every key by N frames (--clip to cut what lands before 0)'),
  preset: singleFileCommand('preset', 'set interpolation curves of selected bone/camera keys to a preset'),
  rename: singleFileCommand('rename', 'rename/retarget bones (and morphs) from a JSON or CSV mapping'),
  reduce: singleFileCommand('reduce', 'fewer keys within a tolerance (curves fitted, errors measured by playing both files)'),
  bake: singleFileCommand('bake', 'a key on every frame (for tools that want baked data)'),
  build: buildCommand,
  batch: batchCommand,
};
