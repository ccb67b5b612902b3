/**
 * `retarget` as an operation with its options named as on the command line (`from`, `to`: the models,
 * already read; `map`/`mapText`: a rename map; `no-scale`; `no-floor`; `pos-tol`, `rot-tol`), for the CLI command
 * and the batch engine alike. A bad option throws OptionFailure inside checkOptions (shared/batch/options.ts).
 */
import { mappingFormatOf } from '../batch/doc-edits';
import { parseMapping, type NameMapping } from '../motion-ops/rename';
import { reportSummary } from '../edit-core/report';
import { boolOpt, numOpt, refuse, refuseWith, strOpt, type OpOptions } from '../batch/options';
import type { ModelData } from '../pmx/model-types';
import type { VmdDocument } from '../vmd/vmd-document';
import { retarget, type RetargetOptions, type RetargetResult, type RetargetedMotion } from './retarget';

export interface RetargetModels {
  from: ModelData;
  to: ModelData;
}

/** The rename map of `map`/`mapText`, or undefined when none is given; throws OptionFailure when it is bad. */
export function retargetMapping(o: OpOptions): NameMapping | undefined {
  const text = strOpt(o, 'mapText');
  if (text === undefined) return undefined;
  const fmt = mappingFormatOf(strOpt(o, 'map'));
  if (fmt === null) refuse('map', 'mapFormat');
  const m = parseMapping(text, fmt);
  if (!m.ok) refuseWith('map', m.error);
  return m.value;
}

/** The retarget's options from the operation's (inside checkOptions: a bad one throws OptionFailure). */
export function retargetOptions(o: OpOptions): RetargetOptions {
  const position = numOpt(o, 'pos-tol', { positive: true });
  const rotationDeg = numOpt(o, 'rot-tol', { positive: true });
  const scale = !boolOpt(o, 'no-scale', false);
  const floor = !boolOpt(o, 'no-floor', false);
  const mapping = retargetMapping(o);
  return { mapping, scale, floor, position, rotationDeg };
}

/** Validates the options (inside checkOptions) and returns the retarget of one motion. */
export function prepareRetarget(o: OpOptions, models: RetargetModels): (doc: VmdDocument) => RetargetResult {
  const opts = retargetOptions(o);
  return (doc) => retarget(doc, models.from, models.to, opts);
}

/** A retarget's report as the CLI's --json and the batch report give it: the key counts, the figures and the details. */
export function retargetSummary(r: RetargetedMotion): Record<string, unknown> {
  return { ...reportSummary(r.report), retarget: r.details };
}
