/**
 * The fit preview in force (Reduce, Bake or Speed with refit, or Simplify on the selected keys,
 * computed but not applied): the motion before and after, the edit's report and the re-timing factor.
 * The Whole Motion dialog sets it from Preview and clears it when its options or the document change
 * or it closes (so Apply, Cancel and close all clear it); the Simplify panel (stores/simplify.ts) sets
 * it while open, with the span of the selected keys. The dialog's plot and the curve pane's plot both
 * draw from it. It also runs the Whole Motion dialog's fits (Preview, and Apply when no current preview
 * has the result) through the fitting worker (fit/fit-client.ts): `running` is the one in progress, with
 * its tracks done, for the progress bar; `cancel()` stops it.
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import type { EditReport } from '../../../shared/edit-core/report';
import { channelPlot, fitOverlay, type FitOverlay, type PlotKind } from '../../../shared/fit/plot';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { boneName, morphName } from '../../../shared/vmd/records';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import type { KeyRef } from '../../../shared/key-edits';
import type { UiStringKey } from '../../../shared/i18n/strings';
import type { OpOptions } from '../../../shared/batch/options';
import type { BatchOp } from '../../../shared/batch/types';
import { edited, type EditResult } from '../../../shared/edit-core/report';
import { runFit, type FitOp, type FitOutcome } from '../fit/fit-client';

export interface FitPreviewResult {
  before: MotionTracks;
  after: MotionTracks;
  report: EditReport;
  factor: number;
  /** Who computed it: the Whole Motion dialog or the Simplify panel. */
  source?: 'whole' | 'simplify';
  /** Frames to plot (the selected keys' first to last); the whole track when absent. */
  span?: { from: number; to: number };
  /** Simplify: the keys it refits (the selection's tracks over its span), before and after. */
  spanKeys?: { before: number; after: number };
  /** A whole-motion preview's input, result and fitKey: Apply commits it when they still hold. */
  input?: VmdDocument;
  output?: VmdDocument;
  key?: string;
}

/** The fitting operation an operation and its options run (Reduce, Bake, Speed with refit), or null. */
export function fittingOp(op: BatchOp, options: OpOptions): FitOp | null {
  if (op === 'reduce' || op === 'bake') return op;
  return op === 'speed' && options.refit === true ? 'speed' : null;
}

/** What a fit is of: the operation and its options (a preview is current while these and the input are). */
export function fitKey(op: FitOp, options: OpOptions): string {
  return JSON.stringify([op, options]);
}

/** The previewed result for `doc`, `op` and `options`, as an edit result, when the preview is of exactly those. */
export function previewedResult(r: FitPreviewResult | null, doc: VmdDocument, op: FitOp, options: OpOptions): EditResult | null {
  if (!r || r.source !== 'whole' || r.input !== doc || !r.output || r.key !== fitKey(op, options)) return null;
  return edited(r.output, r.report);
}

/** A fit in progress: for Preview or for Apply, tracks done of total (0 of 0 until the first word). */
export interface FitRunning {
  task: 'preview' | 'apply';
  done: number;
  total: number;
}

let controller: AbortController | null = null;

/** A preview's overlay as drawn: the two plots, and where the result keeps keys inside the plotted span. */
export interface FitPlot extends FitOverlay {
  /** The result's keys of the track inside the span, as fractions 0..1 of it (Simplify previews only). */
  keys?: Float64Array;
}

/** Frames of one track's keys (the same kind and name), or null when the tracks lack it. */
function keyFrames(t: MotionTracks, kind: PlotKind, name: string): Uint32Array | null {
  if (kind === 'camera') return t.camera.frames.length ? t.camera.frames : null;
  const nt = kind === 'bone' ? t.bones : t.morphs;
  const i = nt.index.get(name);
  return i === undefined ? null : nt.frames.subarray(nt.start[i], nt.start[i + 1]);
}

/**
 * The overlay a preview draws for one track and channel, `n` samples: over its span when it has one
 * (the original and the result over the same frames: Simplify does not re-time; with the result's
 * keys there, so what is left shows), else over the whole track (fitOverlay, re-timed by the factor).
 */
export function previewOverlay(r: FitPreviewResult, kind: PlotKind, name: string, channel: number, n: number): FitPlot | null {
  if (!r.span) return fitOverlay(r.before, r.after, r.factor, kind, name, channel, n);
  const { from, to } = r.span;
  const ch = kind === 'morph' ? 0 : Math.min(channel, kind === 'bone' ? 3 : 5);
  const result = channelPlot(r.after, kind, name, ch, from, to, n);
  // A bone or morph the original has no keys for plays its rest (position 0, no turn, weight 0) all along:
  // a flat line, not nothing (a physics bake keys bones the dance never did).
  const original = channelPlot(r.before, kind, name, ch, from, to, n) ?? (result && kind !== 'camera' ? new Float64Array(n) : null);
  if (!original || !result) return null;
  const frames = keyFrames(r.after, kind, name) ?? new Uint32Array(0);
  const inside = Array.from(frames).filter((f) => f >= from && f <= to);
  const keys = Float64Array.from(inside, (f) => (to > from ? (f - from) / (to - from) : 0));
  return { original, result, from, to, keys };
}

/**
 * The bone a bake's plot shows: of `bones` (the baked ones), the one whose rotation changes most from the
 * original over [from, to] (sampled at `n` frames; a bone without keys in the original rests), so the plot
 * shows what the bake did. Null when no bone is given.
 */
export function mostChangedBone(before: MotionTracks, after: MotionTracks, bones: readonly string[], from: number, to: number, n = 64): string | null {
  let best: string | null = null, most = -1;
  for (const name of bones) {
    const a = channelPlot(after, 'bone', name, 3, from, to, n);
    if (!a) continue;
    const b = channelPlot(before, 'bone', name, 3, from, to, n) ?? new Float64Array(n);
    let d = 0;
    for (let i = 0; i < n; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
    if (d > most) (most = d), (best = name);
  }
  return best ?? bones[0] ?? null;
}

/** The track a preview plots: the active key's, else the first bone (or morph, or the camera). */
export function fitPlotTarget(doc: VmdDocument, tracks: MotionTracks, active: KeyRef | null): { kind: PlotKind; name: string } | null {
  const a = active;
  if (a && a.kind === 'bone' && a.record < doc.bone.count) return { kind: 'bone', name: boneName(doc.bone, a.record) };
  if (a && a.kind === 'morph' && a.record < doc.morph.count) return { kind: 'morph', name: morphName(doc.morph, a.record) };
  if (a && a.kind === 'camera') return { kind: 'camera', name: '' };
  if (tracks.bones.names.length) return { kind: 'bone', name: tracks.bones.names[0] };
  if (tracks.morphs.names.length) return { kind: 'morph', name: tracks.morphs.names[0] };
  return tracks.camera.frames.length ? { kind: 'camera', name: '' } : null;
}

/** The preview's figures as one line: key counts before → after and the largest error played back. */
export function fitSummary(r: FitPreviewResult, t: (key: UiStringKey, params?: Record<string, string | number>) => string): string {
  const whole = t('batch.doc.fit', fitFigures(r.report.extra));
  // Simplify says first what happens to the keys it refits: the motion's totals alone read as if nothing changed.
  return r.spanKeys ? `${t('simplify.spanKeys', { before: r.spanKeys.before, after: r.spanKeys.after })} · ${whole}` : whole;
}

/**
 * What a fit in progress says (the Whole Motion dialog, the Simplify panel): `starting` until the first
 * track is counted, then `progress` with the tracks done of total, and once every track is refitted
 * that the error is being measured (both motions are played back).
 */
export function fitProgressText(r: { done: number; total: number } | null, t: (key: UiStringKey, params?: Record<string, string | number>) => string, starting: UiStringKey, progress: UiStringKey): string {
  if (!r || r.total === 0) return t(starting);
  return r.done >= r.total ? t('batch.fit.measuring') : t(progress, { done: r.done, total: r.total });
}

/** A fitting report's figures as the notices and summaries say them: key counts, largest errors to 2 digits. */
export function fitFigures(x: Record<string, number>): Record<string, string | number> {
  return {
    before: x.keysBefore,
    after: x.keysAfter,
    pos: Number(x.maxPositionError).toPrecision(2),
    rot: Number(x.maxRotationErrorDeg).toPrecision(2),
    morph: Number(x.maxMorphError).toPrecision(2),
  };
}

export const useFitPreviewStore = defineStore('fit-preview', {
  state: () => ({
    result: null as FitPreviewResult | null,
    running: null as FitRunning | null,
  }),
  actions: {
    /** Runs a fit through the fitting worker, cancelling any other in progress; resolves with its outcome. */
    async compute(task: FitRunning['task'], op: FitOp, options: OpOptions, doc: VmdDocument): Promise<FitOutcome> {
      this.cancel();
      const ctl = new AbortController();
      controller = ctl;
      this.running = { task, done: 0, total: 0 };
      try {
        return await runFit(op, options, doc, (done, total) => {
          if (controller === ctl) this.running = { task, done, total };
        }, ctl.signal);
      } finally {
        if (controller === ctl) {
          controller = null;
          this.running = null;
        }
      }
    },
    /** Stops the fit in progress (its compute resolves as cancelled). */
    cancel() {
      const c = controller;
      controller = null;
      this.running = null;
      c?.abort();
    },
    set(r: FitPreviewResult) {
      this.result = markRaw(r);
    },
    clear() {
      if (this.result) this.result = null;
    },
  },
});
