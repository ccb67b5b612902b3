/**
 * What every edit returns: the new document and a report of what happened to the keys, so the CLI,
 * the batch engine and the UI can show the same counts (and never drop a key silently).
 */
import { failure, success, type CodecError, type Diagnostic, type Outcome } from '../vmd/errors';
import type { BlockKind } from '../vmd/vmd-layout';
import { BLOCK_KINDS } from '../vmd/vmd-layout';
import type { VmdDocument } from '../vmd/vmd-document';

export type EditName = 'mirror' | 'trim' | 'merge' | 'speed' | 'shift' | 'preset' | 'rename' | 'build' | 'pose' | 'reduce' | 'bake' | 'retarget';

/** Key counts for one block kind. */
export interface KindCounts {
  /** Input keys written to the output (possibly with a new frame or changed fields). */
  kept: number;
  /** Keys the edit created (trim's hold keys, build's rest keys). */
  added: number;
  /** Input keys left out on purpose (outside a trim range, clipped, dropped static tracks). */
  dropped: number;
  /** Input keys left out because another key already had the same (name, frame); first in the file wins. */
  collisions: number;
  /** Kept keys whose fields other than the frame were rewritten (mirror, preset, rename, trim re-fit). */
  changed: number;
}

export interface EditReport {
  edit: EditName;
  kept: number;
  added: number;
  dropped: number;
  collisions: number;
  changed: number;
  byKind: Record<BlockKind, KindCounts>;
  /** Human-readable warnings (names that did not fit, camera segments that became cuts, …), in English. */
  warnings: string[];
  /**
   * The warnings that have a code (`warn`): code, values and the English message as in `warnings`, so the app
   * and the CLI under --lang ja say them in the user's language (shared/i18n/warning-line.ts). Absent: none.
   */
  warningCodes?: Diagnostic[];
  /** Edit-specific figures, e.g. trim's `maxPositionError`, `tracksDropped`. */
  extra: Record<string, number>;
  /**
   * Mirror: the morph names whose tracks changed places, one "A ⇄ B" per pair (MMD's standard pairs
   * such as ウィンク ⇄ ウィンク右, or 左 ⇄ 右); a name with no counterpart in the motion reads "A → B".
   */
  morphsSwapped?: string[];
  /**
   * Mirror: the IK switch names of the display/IK keys it renamed, as morphsSwapped ("右足ＩＫ ⇄ 左足ＩＫ"); a name
   * whose other side the model lacks keeps its name and is not listed.
   */
  iksSwapped?: string[];
  /**
   * Mirror with the model known: the bone tracks left as they are, name and values, because the model has the bone
   * and not its other side, or its other side only (Gene's one-sided 右腕xcIK), as mirror paste leaves them.
   */
  oneSidedBones?: string[];
  /** Trim without hold: the range kept no key of a motion that has some, so no pose error is measured (none in `extra`). */
  keepsNoKey?: true;
}

/** A whole-motion edit's success: the new document and what happened to its keys. */
export interface EditedMotion {
  doc: VmdDocument;
  report: EditReport;
}

/** What a whole-motion edit returns (`edited` or `editError`). */
export type EditResult = Outcome<EditedMotion>;

export function emptyCounts(): KindCounts {
  return { kept: 0, added: 0, dropped: 0, collisions: 0, changed: 0 };
}

/** A report with zero counts for every kind; fill `byKind` and call `finishReport`. */
export function newReport(edit: EditName): EditReport {
  const byKind = Object.fromEntries(BLOCK_KINDS.map((k) => [k, emptyCounts()])) as Record<BlockKind, KindCounts>;
  return { edit, kept: 0, added: 0, dropped: 0, collisions: 0, changed: 0, byKind, warnings: [], extra: {} };
}

/**
 * Adds a warning with its code (`note.<code>` in shared/i18n/warning-strings.ts) and values: `message` is its
 * English line (the one `warnings` and the CLI's --json keep), which the string table's `en` must match.
 */
export function warn(r: Pick<EditReport, 'warnings' | 'warningCodes'>, code: string, message: string, params?: Record<string, string | number>): void {
  r.warnings.push(message);
  (r.warningCodes ??= []).push(params ? { code, message, params } : { code, message });
}

/**
 * Coded warnings (each a Diagnostic whose `message` is its English line) as a report's two fields: `warnings`,
 * the English lines (--json, reports), and `warningCodes` beside them (none: absent), for a report built outside
 * the edits (the conversions' and the bake's, in electron/batch/op-warnings.ts).
 */
export function warningFields(coded: readonly Diagnostic[]): Pick<EditReport, 'warnings' | 'warningCodes'> {
  return { warnings: coded.map((d) => d.message), ...(coded.length ? { warningCodes: [...coded] } : {}) };
}

/** Sums the per-kind counts into the totals. */
export function finishReport(r: EditReport): EditReport {
  r.kept = r.added = r.dropped = r.collisions = r.changed = 0;
  for (const k of BLOCK_KINDS) {
    const c = r.byKind[k];
    r.kept += c.kept;
    r.added += c.added;
    r.dropped += c.dropped;
    r.collisions += c.collisions;
    r.changed += c.changed;
  }
  return r;
}

/** A whole-motion edit that succeeded: its document and its (finished) report. */
export function edited(doc: VmdDocument, report: EditReport): EditResult {
  return success({ doc, report });
}

export function editError(message: string, code: CodecError['code'] = 'E_EDIT'): EditResult {
  return failure({ code, message });
}

/**
 * A flat summary suitable for JSON reports (per-kind counts only where non-zero). `lost` is every input key the
 * output does not have, dropped on purpose or left out by a collision: a script checking `dropped` alone read a
 * plain speed that lost 728 keys to taken frames as losing none.
 */
export function reportSummary(r: EditReport): Record<string, unknown> {
  const byKind: Record<string, KindCounts> = {};
  for (const k of BLOCK_KINDS) {
    const c = r.byKind[k];
    if (c.kept || c.added || c.dropped || c.collisions || c.changed) byKind[k] = c;
  }
  return { edit: r.edit, kept: r.kept, added: r.added, dropped: r.dropped, collisions: r.collisions, lost: r.dropped + r.collisions, changed: r.changed, byKind, warnings: r.warnings, ...(r.warningCodes?.length ? { warningCodes: r.warningCodes } : {}), ...(r.morphsSwapped ? { morphsSwapped: r.morphsSwapped } : {}), ...(r.iksSwapped ? { iksSwapped: r.iksSwapped } : {}), ...(r.oneSidedBones ? { oneSidedBones: r.oneSidedBones } : {}), ...r.extra, ...(r.keepsNoKey ? { keepsNoKey: true } : {}) };
}
