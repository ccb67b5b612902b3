/** What the edit commands print: the one-line report, warnings, one-line errors, and writing a result. */
import { errorLine, salvageHint, warningPrefix } from '../locale';
import { warningLines } from '../../../shared/i18n/warning-line';
import path from 'node:path';
import { writeOutput } from '../output';
import { MODEL_NAME_NOTE_START, writeVmd, type CodecError, type VmdDocument } from '../../../shared/vmd';
import { reportSummary, type EditReport } from '../../../shared/motion-ops';
import { optValue, type ParsedArgs } from '../args';
import type { CliIo } from '../io';
import { displayPath, displayPathAmong, formatCount, formatMeasure } from '../format';
import { guarded } from '../signals';
import { agree, plural } from '../../../shared/i18n/plural';

const STEP_NAMES = { ik: 'IK/display', shadow: 'self-shadow', light: 'light' } as const;

/** The one-line summary of an edit report: key counts as integers (grouped: formatCount), then the measured errors. */
export function reportLine(r: Record<string, unknown>): string {
  const n = (v: unknown) => formatCount(Number(v ?? 0));
  // A re-timing with refit keeps no input key at its frame: kept / added / dropped would not add up to
  // anything (the JSON still has them); its key counts are the "keys A → B" that follows.
  const retimed = r.edit === 'speed' && typeof r.keysBefore === 'number';
  // A fit (reduce, bake) is worded by what was asked (issue 30: reduce said "added 489" in a reduction, the
  // keys the fit placed between the input's): the verb, then "keys A → B" below says by how much.
  const fitted = typeof r.keysBefore === 'number' && (r.edit === 'reduce' || r.edit === 'bake');
  // Keys left out because another had their frame are lost as much as those dropped on purpose: with any, the
  // line counts them all as lost and says why, or "dropped 0, collisions 728" read as nothing lost (a plain
  // speed ×3 of a dance lost 728 keys).
  const collisions = Number(r.collisions ?? 0), dropped = Number(r.dropped ?? 0);
  // Trim: what "dropped" and "added" are there (a bare "dropped 414701" read as keys lost): the keys outside the
  // range (and those of tracks at rest through it, which trim leaves out), the keys placed at the cuts.
  const outside = Number(r.droppedOutsideRange ?? 0), atRest = dropped - outside;
  const trimmed = r.edit === 'trim' && dropped > 0 ? ` (${atRest > 0 ? `${n(outside)} outside the range, ${n(atRest)} of tracks at rest through it` : 'outside the range'})` : '';
  const cuts = r.edit === 'trim' && Number(r.added ?? 0) > 0 ? ' at the cuts' : '';
  const counts = collisions > 0 ? [...(dropped > 0 ? [`dropped ${n(dropped)}${trimmed}`] : []), `lost ${n(dropped + collisions)}`] : [`dropped ${n(dropped)}${trimmed}`, 'collisions 0'];
  const parts = retimed ? ['re-fitted'] : fitted ? [r.edit === 'reduce' ? 'reduced' : 'baked'] : [`kept ${n(r.kept)}`, `added ${n(r.added)}${cuts}`, ...counts];
  if (r.changed && !retimed && !fitted) parts.push(`changed ${n(r.changed)}`);
  const extra: string[] = [], errors: string[] = [];
  if (collisions > 0 && !retimed && !fitted) extra.push(`${plural(n(collisions), 'key')} landed on taken frames and ${agree(collisions, 'was', 'were')} left out${r.edit === 'speed' ? ' (--refit keeps them)' : ''}`);
  const fmt = (k: string, label: string, unit = '', as: (x: number) => string = formatMeasure, to = errors) => {
    if (typeof r[k] === 'number') to.push(`${label} ${as(r[k] as number)}${unit}`);
  };
  fmt('tracksDropped', 'tracks dropped', '', formatCount, extra);
  fmt('maxPositionError', 'max position error');
  fmt('maxRotationErrorDeg', 'max rotation error', '°');
  // trim --no-hold of a range with no key: no figure to give (shared/motion-ops/trim.ts).
  if (r.keepsNoKey === true) errors.push('the range keeps no key (no pose error to measure)');
  if (typeof r.keysBefore === 'number') {
    // A fit counts the keys it fits (bone, morph, camera); light, self-shadow and IK/display keys are steps
    // it keeps as they are, which "kept" counts too: say so, or the two figures seem to disagree.
    const by = (r.byKind ?? {}) as Record<string, { kept?: number } | undefined>;
    const steps = (['ik', 'shadow', 'light'] as const).filter((k) => (by[k]?.kept ?? 0) > 0).map((k) => `${formatCount(by[k]!.kept!)} ${STEP_NAMES[k]}`);
    extra.unshift(`keys ${n(r.keysBefore)} → ${n(r.keysAfter)}${steps.length ? ` (steps kept as they are: ${steps.join(', ')})` : ''}`);
  }
  if (typeof r.maxMorphError === 'number' && r.maxMorphError > 0) fmt('maxMorphError', 'max morph error');
  if (typeof r.maxCameraAngleErrorDeg === 'number' && r.maxCameraAngleErrorDeg > 0) fmt('maxCameraAngleErrorDeg', 'max camera angle error', '°');
  if (typeof r.maxCameraPositionError === 'number' && r.maxCameraPositionError > 0) fmt('maxCameraPositionError', 'max camera error');
  // A bake keys every frame, so it plays the input exactly there (but the camera's fov, a whole number in a VMD);
  // what it measures is between them, at half frames, where a key per frame is a straight line and the input a
  // curve: said so, or 0.4 units of camera error read as a fault at the frames the help calls exact.
  if (r.edit === 'bake' && r.measuredHalfFrames === 1 && errors.length) {
    const fov = Number(r.cameraKeysBefore ?? 0) > 0 ? " (the camera's fov to a whole degree)" : '';
    extra.push(`exact at every frame${fov}; between frames (at half frames) ${errors.join(', ')}`);
  }
  else extra.push(...errors);
  if (Array.isArray(r.morphsSwapped) && r.morphsSwapped.length) extra.push(`morphs swapped: ${r.morphsSwapped.join(', ')}`);
  if (Array.isArray(r.iksSwapped) && r.iksSwapped.length) extra.push(`IK switches swapped: ${r.iksSwapped.join(', ')}`);
  if (Array.isArray(r.oneSidedBones) && r.oneSidedBones.length) extra.push(`one-sided bones left as they are: ${r.oneSidedBones.join(', ')}`);
  if (typeof r.cameraCutsBefore === 'number' && r.cameraCutsBefore > 0) extra.push(`camera cuts kept ${n(r.cameraCutsKept)} of ${n(r.cameraCutsBefore)}`);
  return parts.join(', ') + (extra.length ? `; ${extra.join(', ')}` : '');
}

/**
 * Warnings on stderr, each naming the file it is about as a batch's do (`vmd-studio: warning: FILE: …`), so a
 * log of several commands says which file each came from: `shown` is the input as given (the output for a
 * command of several inputs: merge, build). A warning that already starts with the file's name (a reader's
 * note, `walk.bvh: Frame Time …`) is not named twice. `warnings` is a list, or a report holding one.
 * `modelShown`: the model file of a command that writes its name in the header (retarget, import-bvh/-vrma).
 * A report's coded warnings are said in the CLI's language (--lang ja: nujp 3); a list, and --json, stay English.
 */
export function printWarnings(io: CliIo, warnings: readonly unknown[] | Record<string, unknown>, shown: string, modelShown?: string | null): void {
  const w = Array.isArray(warnings) ? warnings : (warnings as Record<string, unknown>).warnings;
  if (!Array.isArray(w)) return;
  const english = Array.isArray(warnings) ? w.map(String) : warningLines(warnings, 'en');
  const said = Array.isArray(warnings) ? english : warningLines(warnings, io.locale ?? 'en');
  said.forEach((text, i) => {
    // A model's name cut for the header (shared/vmd/model-name.ts) is said of the model's file, where the name is
    // (known by its English line: the Japanese one starts otherwise).
    const file = modelShown && english[i]?.startsWith(MODEL_NAME_NOTE_START) ? modelShown : shown;
    io.stderr(`vmd-studio: ${warningPrefix(io.locale)}: ${text.startsWith(`${file}: `) ? text : `${file}: ${text}`}\n`);
  });
}

/**
 * Under --json (io.json), a failure as a JSON line on stdout, the shape inspect --json gives a file that
 * failed: { file (absolute, where one is named), ok: false, error: { code, message, offset (null where the
 * error has none), line?, option? } }. `offset` is always there, so a script reads error.offset without
 * asking first whether the key exists.
 */
export function jsonFailure(io: CliIo, e: CodecError, file?: string): void {
  if (!io.json) return;
  const f = e.file ?? file;
  const { file: _named, ...error } = e;
  io.stdout(JSON.stringify({ ...(f !== undefined ? { file: path.resolve(io.cwd, f) } : {}), ok: false, error: { ...error, offset: error.offset ?? null } }) + '\n');
}

/**
 * A command's --json document on success: `"ok": true` first (a failure's is `"ok": false`), on one line as a
 * failure's is. One line each, not pretty-printed: runs appended to a log make a JSON Lines file (one document a
 * line, whether it succeeded or failed), which `jq` reads as it is and a line-by-line reader too.
 */
export function jsonSuccess(io: CliIo, doc: Record<string, unknown>): void {
  io.stdout(JSON.stringify({ ok: true, ...doc }) + '\n');
}

/**
 * Prints an error on one line on stderr (and under --json its object on stdout, jsonFailure); with `givens`
 * (the path arguments) its file is shown as they gave it. Returns the exit status 1.
 */
export function failWith(io: CliIo, e: CodecError, file?: string, givens?: string[]): number {
  const f = e.file ?? file;
  jsonFailure(io, e, f);
  io.stderr(`vmd-studio: ${errorLine({ ...e, file: f !== undefined && givens?.length ? displayPathAmong(f, givens, io.cwd) : f }, io.locale)}\n`);
  // A VMD cut short: the command that writes the keys it still holds (salvage.ts).
  const hint = salvageHint(e, f !== undefined && givens?.length ? displayPathAmong(f, givens, io.cwd) : f, io.locale);
  if (hint) io.stderr(`vmd-studio: ${hint}\n`);
  return 1;
}

/** `line`: the summary in place of reportLine's (merge names its inputs). */
export function writeEditResult(io: CliIo, a: ParsedArgs, output: string, doc: VmdDocument, report: EditReport, name: string, line: (s: Record<string, unknown>) => string = reportLine): Promise<number> {
  return guarded(async () => {
    const w = await writeOutput(output, writeVmd(doc), a.flags.has('overwrite'));
    if (!w.ok) return failWith(io, w.error, output, [optValue(a, 'output') ?? output]);
    const s = reportSummary(report);
    const shown = displayPath(output, optValue(a, 'output') ?? output, io.cwd);
    if (a.flags.has('json')) jsonSuccess(io, { output, ...s });
    else if (!a.flags.has('quiet')) io.stdout(`${name}: ${shown}: ${line(s)}\n`);
    printWarnings(io, s, shown);
    return 0;
  });
}
