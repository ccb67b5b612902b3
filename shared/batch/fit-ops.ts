/**
 * The fitting operations as document edits with their options named as on the command line and in
 * the Batch dialog (shared/batch/op-specs.ts): `reduce`, `bake` and `speed --refit`. Each result's
 * report carries the key counts before and after per kind and the largest error per kind, measured by
 * playing input and output independently of the fitter (measure.ts): every integer and half frame for
 * reduce and bake, every integer frame for a re-timing (where output frame g plays the input at g·K),
 * and the camera's every half frame there too.
 */
import type { EditResult } from '../edit-core/report';
import { namePattern } from '../edit-core/name-pattern';
import type { VmdDocument } from '../vmd/vmd-document';
import { measureErrors, recordErrors } from '../fit/measure';
import { bake, reduce, speedRefit, type FitProgress, type Tolerances } from '../fit/motion-fit';
import { checkOrder, numOpt, refuseWith, type OpOptions } from './options';

/** Option values as the CLI and the Batch form give them. */
export type FitOpOptions = OpOptions;

function tolerances(o: FitOpOptions): Partial<Tolerances> {
  return { position: numOpt(o, 'pos-tol', { positive: true }), rotationDeg: numOpt(o, 'rot-tol', { positive: true }), morph: numOpt(o, 'morph-tol', { positive: true }) };
}

function range(o: FitOpOptions): { from?: number; to?: number } {
  const from = numOpt(o, 'from', { integer: true, min: 0 });
  const to = numOpt(o, 'to', { integer: true, min: 0 });
  checkOrder(from, to);
  return { from, to };
}

/** Adds the measured errors and total key counts to a fitting result's report. */
function withErrors(input: VmdDocument, r: EditResult, measure: { factor?: number; halfFrames: boolean; cameraHalfFrames?: boolean }): EditResult {
  if (!r.ok) return r;
  recordErrors(r.value.report.extra, measureErrors(input, r.value.doc, measure), measure.halfFrames);
  return r;
}

/** A fitting edit: the document, and optionally who is told of its progress track by track. */
export type FitEdit = (doc: VmdDocument, progress?: FitProgress) => EditResult;

/**
 * Validates the options of `reduce`, `bake` or `speed` with `refit` and returns the edit; a bad option
 * throws OptionFailure (shared/batch/options.ts), which prepareDocEdit returns as an error value.
 */
export function prepareFitEdit(op: 'reduce' | 'bake' | 'speed', o: FitOpOptions): FitEdit {
  switch (op) {
    case 'reduce': {
      const tol = tolerances(o);
      const r = range(o);
      const bones = typeof o.bones === 'string' && o.bones !== '' ? o.bones : undefined;
      // Check the pattern once, up front (a bad /regex/ is an option error, not a failed file).
      if (bones !== undefined) {
        const p = namePattern(bones);
        if (!p.ok) refuseWith('bones', p.error);
      }
      return (doc, progress) => withErrors(doc, reduce(doc, { ...tol, ...r, bones, progress }), { halfFrames: true });
    }
    case 'bake': {
      const r = range(o);
      return (doc, progress) => withErrors(doc, bake(doc, { ...r, progress }), { halfFrames: true });
    }
    case 'speed': {
      const factor = numOpt(o, 'factor', { positive: true, required: true, usage: '--factor K is required' })!;
      const tol = tolerances(o);
      return (doc, progress) => withErrors(doc, speedRefit(doc, { factor, ...tol, progress }), { factor, halfFrames: false, cameraHalfFrames: true });
    }
  }
}
