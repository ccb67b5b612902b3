/**
 * `vmd-studio batch OP INPUT_DIR -o OUTPUT_DIR` — one operation over a folder through the batch engine
 * (electron/batch/engine.ts): progress on stderr, one line per failed file, a summary table, a JSON
 * report. Exit status: 0 all succeeded (skipped outputs count as success), 1 some file failed, 2 bad
 * arguments; 130/143 after SIGINT/SIGTERM (signals.ts: the first cancels, a second exits at once).
 */
import { errorLine, warningPrefix } from '../locale';
import { warningLines } from '../../../shared/i18n/warning-line';
import path from 'node:path';
import { constants as fsConstants, promises as fsp } from 'node:fs';
import { atomicWrite, ensureFolder, removePendingTemps } from '../../fs/files';
import { formatError } from '../../../shared/vmd';
import type { Outcome } from '../../../shared/vmd/errors';
import type { BatchFileResult, BatchOp, BatchProgress, BatchSummary } from '../../../shared/batch/types';
import { BATCH_OPS, captureExt, failedFiles, MAX_BATCH_JOBS, NAMES_LISTED, notRunCount, reportRow, warnedCount, wouldWriteCount } from '../../../shared/batch/types';
import { runBatch } from '../../batch/engine';
import { optNumber, optValue, parseArgs, UsageError } from '../args';
import { jsonFailure } from './edit-output';
import type { CommandInfo } from '../io';
import { displayPathAmong } from '../format';
import { plural } from '../../../shared/i18n/plural';
import { Interrupt } from '../signals';
import { allDetails, loadMapping, OP_SPECS, opOptions, prepare, resolveFileOptions, specFor } from './op-options';
import { retargetLine } from './retarget';
import { boolOpt, strOpt } from '../../../shared/batch/options';
import type { RetargetDetails } from '../../../shared/retarget';

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

/** `names` as a summary lists them: the first few, then how many more ("a.vpd, b.vpd and 3 more"). */
export function fewFiles(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_LISTED).join(', ');
  return names.length > NAMES_LISTED ? `${shown} and ${names.length - NAMES_LISTED} more` : shown;
}

/** The summary table printed at the end of a batch. */
export function summaryTable(s: BatchSummary, op: string, bytes: number, show: (file: string) => string = (f) => f): string {
  // A dry run writes nothing: the files it would have written are counted as such, not as skipped.
  const wouldWrite = wouldWriteCount(s);
  const dry = s.dryRun === true || wouldWrite > 0;
  const warned = warnedCount(s);
  const rows: [string, number][] = [
    dry ? ['would write', wouldWrite] : ['written', s.ok],
    [dry ? 'would skip' : 'skipped', s.skipped - wouldWrite],
    ['failed', s.failed],
    ['not run', notRunCount(s)],
    ['total', s.total],
  ];
  const secs = s.ms / 1000;
  let out = `\nbatch ${op}${dry ? ' (dry run: nothing written)' : ''}${s.cancelled ? ' (cancelled)' : ''}\n  result      files\n`;
  for (const [k, v] of rows) if (k !== 'not run' || v) out += `  ${k.padEnd(11)} ${String(v).padStart(6)}\n`;
  if (warned) out += `  ${plural(warned, 'file')} ${dry ? 'would be written' : 'written'} with warnings (above, on standard error)\n`;
  out += `  time ${secs.toFixed(2)} s · ${(s.results.length / Math.max(secs, 1e-3)).toFixed(1)} files/s · ${(bytes / 1e6 / Math.max(secs, 1e-3)).toFixed(1)} MB/s (${fmtBytes(bytes)} read)\n`;
  if (s.notTaken) {
    const ext = captureExt(op);
    out += ext
      ? `  ${plural(s.notTaken, '.vmd/.vpd file')} not processed: ${op} takes ${ext} files\n`
      : `  ${plural(s.notTaken, '.vpd pose file')} not processed: ${op} works on VMD motions (convert them first: vmd-studio batch convert)\n`;
    // Named, not only counted (README): the first few, then how many more; --json lists them all.
    if (s.notTakenFiles?.length) out += `    ${fewFiles(s.notTakenFiles.map(show))}\n`;
  }
  if (s.inSubfolders) out += `  ${plural(s.inSubfolders, 'file')} in subfolders not included: --recursive includes them\n`;
  if (s.earlierOutputs?.length) out += `  ${plural(s.earlierOutputs.length, 'folder')} left out as an earlier run's outputs (inside the input folder, each file a same-named copy of an input): ${fewFiles(s.earlierOutputs.map(show))}\n`;
  if (s.total === 0 && !s.cancelled) out += `  nothing processed: no file in the folder that ${op} takes${captureExt(op) ? ` (${captureExt(op)})` : ' (.vmd motions)'}\n`;
  const failed = failedFiles(s.results);
  if (failed.length) {
    out += `  failed files:\n`;
    for (const r of failed) out += `    ${show(r.input)}: ${r.error.code} ${r.error.message}${r.error.offset !== undefined ? ` (at byte ${r.error.offset})` : ''}\n`;
  }
  return out;
}

const BATCH_LINE = 'vmd-studio batch OP INPUT_DIR -o OUTPUT_DIR [op options] [--recursive] [--jobs N] [--overwrite] [--dry-run] [--report report.json] [--json] [--quiet]';

export const batchCommand: CommandInfo = {
  summary: `apply one operation to every file in a folder (${BATCH_OPS.join(', ')})`,
  // After a bad argument: the command's line and the operation's options, not the whole help (some 70 lines
  // that scroll the error away).
  usageAfterError(argv) {
    const op = argv[0] as BatchOp | undefined;
    const known = op !== undefined && (BATCH_OPS as readonly string[]).includes(op);
    return `${BATCH_LINE}${known ? `\n  OP: ${`${op} ${OP_SPECS[op].help}`.trim()}` : ''}\n(vmd-studio batch --help for every operation and option)`;
  },
  usage: `${BATCH_LINE}
  OP: ${BATCH_OPS.map((op) => `${op} ${OP_SPECS[op].help}`.trim()).join('\n      ')}
  The output folder mirrors the input tree; inputs are never modified; an existing output is skipped
  unless --overwrite; every file is written to a temp file and renamed. A bad file is reported and the
  run goes on. Exit status 0 all succeeded, 1 some failed, 2 bad arguments.
  --jobs N     worker threads (default: CPU count; at most ${MAX_BATCH_JOBS}, a larger N runs ${MAX_BATCH_JOBS})
  --dry-run    run the operation but write nothing (the table counts "would write" and "would skip")
  With the output folder inside the input folder and --recursive, the output folder is never read, nor are
  the folders beside it that hold an earlier run's outputs (each file a same-named copy of one under the
  input folder, extension aside): the summary names them.
  --report F   per-file results as JSON (input, output, ok, error, report counts, ms), in input-path order;
               at the top, ok (true: no file failed, not cancelled), total, written, failed, skipped
  --json       the same JSON on standard output (on one line), in place of the summary table
  --quiet      no progress output
${allDetails()}`,
  async run(argv, io) {
    const [opName, ...rest] = argv;
    if (!opName) throw new UsageError(`give an operation: ${BATCH_OPS.join(', ')}`);
    if (!(BATCH_OPS as readonly string[]).includes(opName)) throw new UsageError(`unknown operation "${opName}": give one of ${BATCH_OPS.join(', ')}`);
    const op = opName as BatchOp;
    const a = parseArgs(rest, specFor(op, { values: ['output', 'jobs', 'report'], flags: ['recursive', 'overwrite', 'dry-run', 'quiet', 'json'] }));
    if (a.positionals.length !== 1) throw new UsageError('give exactly one INPUT_DIR');
    const outArg = optValue(a, 'output');
    if (!outArg) throw new UsageError('-o OUTPUT_DIR is required');
    let jobs = optNumber(a, 'jobs', { integer: true, min: 1 });
    if (jobs !== undefined && jobs > MAX_BATCH_JOBS) {
      io.stderr(`vmd-studio batch: warning: --jobs ${jobs} is more than ${MAX_BATCH_JOBS} worker threads; running ${MAX_BATCH_JOBS}\n`);
      jobs = MAX_BATCH_JOBS;
    }
    const o = opOptions(op, a);
    resolveFileOptions(op, o, io);
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
    // The report's folder is made as the run makes its output folders (ensureFolder), before the run: one
    // that cannot be made is said now, not after minutes of work.
    if (reportArg) {
      const report = path.resolve(io.cwd, reportArg);
      const made = await ensureFolder(path.dirname(report));
      if (!made.ok) throw new UsageError(`--report: ${formatError({ ...made.error, file: undefined })}`);
      // A report that could not be written after the run (a folder at its name, a folder not writable) ran every
      // file first and then failed with "failed 0": said now, nothing processed.
      const st = await fsp.stat(report).catch(() => null);
      if (st?.isDirectory()) throw new UsageError(`--report ${reportArg} is a folder: give a file name`);
      const writable = await fsp.access(path.dirname(report), fsConstants.W_OK).then(() => true, () => false);
      if (!writable) throw new UsageError(`--report: the folder ${path.dirname(reportArg) || '.'} cannot be written`);
    }
    // An output that is a file is a wrong argument, said once, not an error for every input.
    const outStat = await fsp.stat(job.outputDir).catch(() => null);
    if (outStat && !outStat.isDirectory()) throw new UsageError(`-o ${outArg} is a file: give a folder (made if missing)`);
    const interrupt = new Interrupt();
    interrupt.install();
    let lastPlain = 0;
    let lastLine = '';
    let drewBar = false;
    let bytesRead = 0;
    const onProgress = (p: BatchProgress) => {
      bytesRead = p.bytesDone;
      if (quiet) return;
      if (io.isTTY) {
        (io.terminal ?? io.stderr)(`\r${progressLine(p)}\x1b[K`);
        drewBar = true;
      } else if (p.elapsedMs - lastPlain >= 1000 || p.done === p.total) {
        // The last file's event and the run's end both have done === total: one line, not the same line twice.
        const line = progressLine(p).replace(/^\[[#.]+\] /, 'progress: ');
        if (line === lastLine) return;
        lastPlain = p.elapsedMs;
        lastLine = line;
        io.stderr(`${line}\n`);
      }
    };
    // A retarget's figures per file, as the one-file command prints them (leg ratio, re-fit, feet): a folder of
    // dances for another model gave only "written 3", whatever each file's scaling and re-fit were.
    const lineEach = op === 'retarget' && !quiet && !a.flags.has('json');
    const standardSource = strOpt(o, 'from') === undefined, noScale = boolOpt(o, 'no-scale', false);
    const onResult = (r: BatchFileResult) => {
      const warnings = r.ok ? warningLines(r.value.report, io.locale ?? 'en') : [];
      const fitted = lineEach && r.ok ? (r.value.report as { retarget?: RetargetDetails } | undefined)?.retarget : undefined;
      if ((!r.ok || warnings.length || fitted) && drewBar) (io.terminal ?? io.stderr)('\r\x1b[K');
      if (fitted && r.ok) io.stdout(`retarget: ${show(r.output ?? r.input)}: ${retargetLine(fitted, r.value.report as Record<string, unknown>, standardSource, noScale, { from: strOpt(o, 'from'), to: strOpt(o, 'to') })}\n`);
      if (!r.ok) io.stderr(`vmd-studio: ${errorLine({ ...r.error, file: show(r.error.file ?? r.input) }, io.locale)}\n`);
      // Each file's warnings as the one-file commands print theirs (README: "Warnings go to standard error").
      for (const w of warnings) io.stderr(`vmd-studio: ${warningPrefix(io.locale)}: ${show(r.input)}: ${w}\n`);
    };
    let run: Outcome<BatchSummary>;
    try {
      run = await runBatch(job, { onProgress, onResult, signal: interrupt.controller.signal });
    } finally {
      interrupt.uninstall();
    }
    if (!run.ok) {
      jsonFailure(io, run.error);
      io.stderr(`vmd-studio batch: ${errorLine({ ...run.error, ...(run.error.file ? { file: show(run.error.file) } : {}) }, io.locale)}\n`);
      return 2;
    }
    const summary = run.value;
    removePendingTemps();
    if (drewBar) io.stderr('\n');
    const json = a.flags.has('json');
    let reportFailed = false;
    if (reportArg || json) {
      const body = {
        jobId: summary.jobId,
        op,
        inputDir: job.inputDir,
        outputDir: job.outputDir,
        options: Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'mapText')),
        // ok is the run's verdict, as in every command's --json (true: no file failed and the run was not cancelled,
        // exit status 0); the files written are `written` (this count was `ok` before, read as a boolean it said
        // "failed" of a run that skipped everything).
        ok: summary.failed === 0 && !summary.cancelled,
        total: summary.total,
        written: summary.ok,
        failed: summary.failed,
        skipped: summary.skipped,
        cancelled: summary.cancelled,
        // Files in the folder the operation does not take (poses for an edit, motions for an import), as the summary says.
        notTaken: summary.notTaken ?? 0,
        notTakenFiles: summary.notTakenFiles ?? [],
        ...(summary.dryRun ? { dryRun: true } : {}),
        warned: warnedCount(summary),
        notRun: notRunCount(summary),
        ...(summary.earlierOutputs ? { earlierOutputs: summary.earlierOutputs } : {}),
        ms: summary.ms,
        results: summary.results.map(reportRow),
      };
      // Standard output gets one line, as every command's --json document; the report file is indented for reading.
      const text = JSON.stringify(body, null, 2) + '\n';
      if (json) io.stdout(JSON.stringify(body) + '\n');
      if (reportArg) {
        // Written as the run's outputs are: atomically, and a link at its name is replaced, not written through.
        const w = await atomicWrite(path.resolve(io.cwd, reportArg), new TextEncoder().encode(text), { overwrite: true, followLinks: false });
        if (!w.ok) {
          io.stderr(`vmd-studio: cannot write the report: ${formatError(w.error)}\n`);
          reportFailed = true;
        }
      }
    }
    if (!quiet && !json) io.stdout(summaryTable(summary, op, bytesRead, show));
    if (summary.cancelled) return interrupt.signal ? interrupt.exitCode : 130;
    return summary.failed > 0 || reportFailed ? 1 : 0;
  },
};
