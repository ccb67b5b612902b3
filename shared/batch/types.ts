/**
 * Batch jobs: the types the batch engine (electron/batch), the CLI, the IPC contract and the renderer
 * share. A job applies one operation to every .vmd/.vpd (import-bvh: .bvh, import-vrma: .vrma) under a folder,
 * writing a mirrored tree.
 */
import type { Outcome } from '../vmd/errors';

/** Every batch operation, in the order the CLI's help and the Batch dialog list them. */
export const BATCH_OPS = ['mirror', 'trim', 'speed', 'shift', 'preset', 'rename', 'reduce', 'bake', 'physics-bake', 'ik-bake', 'retarget', 'import-bvh', 'import-vrma', 'export-bvh', 'export-vrma', 'convert', 'pose', 'inspect'] as const;
export type BatchOp = (typeof BATCH_OPS)[number];

/**
 * The operations in the groups the Batch dialog shows them under (string key `batch.group.<group>`), in
 * BATCH_OPS's order: every operation in exactly one group.
 */
export const BATCH_OP_GROUPS: readonly { group: 'edit' | 'capture' | 'files'; ops: readonly BatchOp[] }[] = [
  { group: 'edit', ops: ['mirror', 'trim', 'speed', 'shift', 'preset', 'rename', 'reduce', 'bake', 'physics-bake', 'ik-bake', 'retarget'] },
  { group: 'capture', ops: ['import-bvh', 'import-vrma', 'export-bvh', 'export-vrma'] },
  { group: 'files', ops: ['convert', 'pose', 'inspect'] },
];

/** The file kind a capture import takes (its folder's motions are not taken), or null for the other operations. */
export function captureExt(op: BatchOp | string): '.bvh' | '.vrma' | null {
  return op === 'import-bvh' ? '.bvh' : op === 'import-vrma' ? '.vrma' : null;
}

/** The operations that edit one motion (shared/batch/doc-edits.ts); the others write another kind of file. */
export const DOC_EDIT_OPS = ['mirror', 'trim', 'speed', 'shift', 'preset', 'rename', 'reduce', 'bake'] as const satisfies readonly BatchOp[];
export type DocEditOp = (typeof DOC_EDIT_OPS)[number];

/**
 * The most worker threads a batch runs at once (the app's Batch dialog, `--jobs` on the command line, the
 * CPU count on a large machine): each holds a file and a V8 heap, and past a few dozen they only wait on
 * the disk. A larger number is capped here, and the CLI says so.
 */
export const MAX_BATCH_JOBS = 64;

export interface BatchJob {
  op: BatchOp;
  inputDir: string;
  outputDir: string;
  /** Operation options, as the CLI spells them without dashes, e.g. { from: 10, to: 200, hold: true }. */
  options: Record<string, string | number | boolean | string[]>;
  recursive?: boolean;
  /** Worker threads; default = CPU count; at most MAX_BATCH_JOBS. */
  jobs?: number;
  overwrite?: boolean;
  dryRun?: boolean;
}

export interface BatchProgress {
  jobId: string;
  done: number;
  total: number;
  failed: number;
  /** The file the latest worker took (null before the first and once none is in progress). */
  currentFile: string | null;
  /** Files in progress at once (one per busy worker); absent from an older sender. */
  running?: number;
  bytesDone: number;
  bytesTotal: number;
  elapsedMs: number;
}

/** A file written, or skipped, with its report. */
export interface FileDone {
  /** Skipped: the output existed and overwrite was off, or a dry run. */
  skipped?: boolean;
  /** The edit's report: counts of keys kept, added, dropped, collisions, warnings. */
  report?: Record<string, unknown>;
}

/** One file's outcome, with its input, its output (null when nothing was or would be written there) and its time. */
export type BatchFileResult = { input: string; output: string | null; ms: number } & Outcome<FileDone>;

/** A file written or skipped, with what became of it. */
export type DoneFile = BatchFileResult & { ok: true };

/** A file that failed, with its error. */
export type FailedFile = BatchFileResult & { ok: false };

/** The files that failed, in order. */
export function failedFiles(results: readonly BatchFileResult[]): FailedFile[] {
  return results.filter((r): r is FailedFile => !r.ok);
}

/**
 * One file's row in the CLI's `--report` JSON: the outcome flattened, fields in the order that file has
 * always had (`input, output, ok, skipped, error, report, ms`; absent ones left out).
 */
export function reportRow(r: BatchFileResult): Record<string, unknown> {
  return r.ok
    ? { input: r.input, output: r.output, ok: true, skipped: r.value.skipped, report: r.value.report, ms: r.ms }
    : { input: r.input, output: r.output, ok: false, error: r.error, ms: r.ms };
}

export interface BatchSummary {
  jobId: string;
  total: number;
  ok: number;
  failed: number;
  skipped: number;
  cancelled: boolean;
  results: BatchFileResult[];
  ms: number;
  /** Files in the folder the operation does not take (VPD poses for an edit of VMD motions: convert them first); absent when none. */
  notTaken?: number;
  /** Those files' paths, in the order they were listed (notTaken of them); absent when none. */
  notTakenFiles?: string[];
  /** The run wrote nothing (--dry-run): its `skipped` results with `dryRun` in their report would have been written. */
  dryRun?: boolean;
  /**
   * Sub-folders of the input left out as outputs of an earlier run: with the output folder inside the input
   * folder, a sibling of the output folder each of whose files has a same-named file (extension aside) at the
   * same place under the input folder (engine.ts earlierOutputFolders); absent when none.
   */
  earlierOutputs?: string[];
  /** Files in sub-folders of the input the operation takes, left out because the job is not recursive; absent when none. */
  inSubfolders?: number;
}

/** A file's warnings (its report's `warnings`: English, as the CLI prints them); [] for none or a failure. */
export function warningsOf(r: BatchFileResult): string[] {
  const w = r.ok ? (r.value.report as { warnings?: unknown } | undefined)?.warnings : undefined;
  return Array.isArray(w) ? w.filter((x): x is string => typeof x === 'string' && x !== '') : [];
}

/** Files written (or, in a dry run, that would be) with at least one warning. */
export function warnedCount(s: Pick<BatchSummary, 'results'>): number {
  return s.results.filter((r) => warningsOf(r).length > 0).length;
}

/** Files a run never got to (cancelled before they started). */
export function notRunCount(s: Pick<BatchSummary, 'results' | 'total'>): number {
  return Math.max(0, s.total - s.results.length);
}

/** How many names a summary lists before it says how many more there are. */
export const NAMES_LISTED = 5;

/** Files a dry run would have written (counted among `skipped`, with `dryRun` in their report). */
export function wouldWriteCount(s: Pick<BatchSummary, 'results'>): number {
  return s.results.filter((r) => r.ok && r.value.skipped && (r.value.report as { dryRun?: boolean } | undefined)?.dryRun === true).length;
}
