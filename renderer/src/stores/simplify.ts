/**
 * Simplify on the selected keys, previewed before it is applied. Opening the panel (the key
 * inspector's Simplify button) computes at once the result of refitting the selected keys' tracks
 * between the first and the last selected key (shared/fit/simplify.ts) within the panel's tolerances,
 * measures how far it plays from the original over those frames (shared/fit/measure.ts, every integer
 * and half frame, as the Whole Motion dialog's Reduce preview does), and puts it in the fit-preview
 * store, which the curve pane overlays on the original's plot for the active track. The computation
 * (fit/simplify-edit.ts) runs in the fitting worker (fit/fit-client.ts; on the main thread where there
 * is none): `running` is its progress, tracks refitted of total. A changed tolerance recomputes after
 * a short pause (typing "0.05" is one recompute, not four), cancelling the one in flight. Apply commits
 * exactly the previewed document as one undo step (waiting for, or starting, the computation when the
 * fields changed since); Cancel, or any change of the selection or the document since it was computed,
 * stops the computation, drops the preview and changes nothing.
 *
 * The tolerances are the Reduce operation's own option specs (shared/batch/op-specs.ts: names, labels,
 * defaults from the engine) and are checked by the same form validation as the Whole Motion dialog.
 */
import { defineStore } from 'pinia';
import { isCancelled } from '../../../shared/vmd/errors';
import { markRaw } from 'vue';
import { initialFormValues, validateOpForm, type FieldError, type FormValue, type OpFormValues } from '../../../shared/batch/op-form';
import { OP_OPTION_SPECS, type OptionSpec } from '../../../shared/batch/op-specs';
import { simplifyScope } from '../../../shared/fit/simplify';
import type { Tolerances } from '../../../shared/fit/motion-fit';
import { diffDocuments, lowerBound, trackRange, type KeyRef } from '../../../shared/key-edits';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { buildTracks, type MotionTracks } from '../../../shared/vmd/tracks';
import type { EditReport } from '../../../shared/edit-core/report';
import { fitClient } from '../fit/fit-client';
import { fitFigures, useFitPreviewStore, type FitPreviewResult } from './fit-preview';
import { useHistoryStore } from './history';
import { useWorkspaceStore } from './workspace';
import { useSelectionStore } from './selection';

/** The tolerance fields: Reduce's option specs whose name ends in -tol (pos-tol, rot-tol, morph-tol). */
export const SIMPLIFY_SPECS: readonly OptionSpec[] = OP_OPTION_SPECS.reduce.filter((s) => s.name.endsWith('-tol'));

/** Pause after the last change of a tolerance before recomputing (ms). */
export const SIMPLIFY_DEBOUNCE_MS = 250;

/** The panel's state: closed, waiting to compute or computing, shown, nothing to simplify, bad tolerances, failed. */
export type SimplifyState = 'closed' | 'pending' | 'ready' | 'nothing' | 'invalid' | 'failed';

/** A computed preview: the fit preview plus the document Apply commits and what it was computed from. */
export interface SimplifyPreview {
  fit: FitPreviewResult;
  doc: VmdDocument;
  input: VmdDocument;
  selection: number;
}

function initialTolerances(): OpFormValues {
  const all = initialFormValues('reduce');
  return Object.fromEntries(SIMPLIFY_SPECS.map((s) => [s.name, all[s.name]]));
}

/** The preview of a Simplify result: `report` and `out` from simplifyEdit on `doc` (whose tracks are `tracks`) and `refs`. */
function previewOf(doc: VmdDocument, tracks: MotionTracks, refs: readonly KeyRef[], out: VmdDocument, report: EditReport): FitPreviewResult {
  const scope = simplifyScope(doc, refs)!; // the edit succeeded: the keys have a scope
  // The keys Simplify refits: on the selection's tracks, from its first to its last frame. Everything else
  // is untouched, so the motion's change in key count is all theirs.
  const inSpan = (t: Parameters<typeof trackRange>[0], track: number | undefined) => {
    if (track === undefined) return 0;
    const [a, b] = trackRange(t, track);
    return lowerBound(t.frames, a, b, scope.to + 1) - lowerBound(t.frames, a, b, scope.from);
  };
  let before = scope.tracks.camera ? inSpan(tracks.camera, 0) : 0;
  for (const n of scope.tracks.bones) before += inSpan(tracks.bones, tracks.bones.index.get(n));
  for (const n of scope.tracks.morphs) before += inSpan(tracks.morphs, tracks.morphs.index.get(n));
  const x = report.extra;
  const spanKeys = { before, after: before - (x.keysBefore - x.keysAfter) };
  return { before: tracks, after: buildTracks(out), report, factor: 1, source: 'simplify', span: { from: scope.from, to: scope.to }, spanKeys };
}

let timer: ReturnType<typeof setTimeout> | null = null;
function stopTimer() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

/** The computation in flight: aborting it stops the worker; `done` settles when the store has its outcome. */
let run: { ctl: AbortController; done: Promise<void> } | null = null;
function stopRun() {
  const r = run;
  run = null;
  r?.ctl.abort();
}

export const useSimplifyStore = defineStore('simplify', {
  state: () => ({
    state: 'closed' as SimplifyState,
    /** The tolerance fields as typed (kept between openings). */
    form: initialTolerances(),
    /** The computed preview (raw: documents and typed arrays), or null. */
    preview: null as SimplifyPreview | null,
    /** The computation in progress (tracks refitted of total; 0 of 0 until the first word), or null. */
    running: null as { done: number; total: number } | null,
    /** Why the last computation failed (state 'failed'). */
    message: '',
  }),
  getters: {
    open: (s) => s.state !== 'closed',
    check: (s) => validateOpForm('reduce', s.form),
    /** Per tolerance field, its problem (empty when all are valid). */
    errors(): Record<string, FieldError> {
      return this.check.errors;
    },
    /** Apply would commit something: a preview of fewer keys is shown (or a recompute is waiting). */
    canApply: (s) => s.preview !== null && (s.state === 'ready' || s.state === 'pending'),
  },
  actions: {
    /** Opens the panel for the current selection and computes its preview at once (after a paint). */
    start(): boolean {
      const cur = useHistoryStore().current();
      const sel = useSelectionStore();
      if (!cur || !sel.count || !simplifyScope(cur.doc, sel.refs)) return false;
      this.drop();
      this.schedule(0);
      return true;
    },
    /** Sets one tolerance field; the preview follows after SIMPLIFY_DEBOUNCE_MS. */
    setTolerance(name: string, value: FormValue) {
      if (!this.open) return;
      this.form[name] = value;
      this.schedule(SIMPLIFY_DEBOUNCE_MS);
    },
    schedule(ms: number) {
      this.halt();
      this.state = 'pending';
      timer = setTimeout(() => {
        timer = null;
        this.compute();
      }, ms);
    },
    /**
     * Computes the preview now (a waiting recompute included) in the fitting worker, cancelling one in
     * flight, and shows it; resolves when it is shown (or failed, or was cancelled or superseded).
     */
    compute(): Promise<void> {
      this.halt();
      const fit = useFitPreviewStore();
      const cur = useHistoryStore().current();
      const sel = useSelectionStore();
      if (!cur || !sel.count) {
        this.cancel();
        return Promise.resolve();
      }
      const { options, errors } = this.check;
      if (Object.keys(errors).length) {
        this.setPreview(null);
        this.state = 'invalid';
        return Promise.resolve();
      }
      const tol: Partial<Tolerances> = {
        position: options['pos-tol'] as number | undefined,
        rotationDeg: options['rot-tol'] as number | undefined,
        morph: options['morph-tol'] as number | undefined,
      };
      const input = cur.doc, tracks = cur.tracks, selection = sel.version;
      const refs = sel.refs.map((k) => ({ kind: k.kind, record: k.record }));
      const ctl = new AbortController();
      this.state = 'pending';
      this.running = { done: 0, total: 0 };
      const done = (async () => {
        const out = await fitClient().runSimplify(refs, tol, input, (d, n) => {
          if (run?.ctl === ctl) this.running = { done: d, total: n };
        }, ctl.signal);
        if (run?.ctl !== ctl) return; // cancelled, or a newer computation took over
        run = null;
        this.running = null;
        if (!out.ok) {
          // Stopped by another run on the shared client (the Whole Motion dialog's): nothing to show.
          if (isCancelled(out)) return this.cancel();
          this.setPreview(null);
          this.message = out.error.message;
          this.state = 'failed';
          return;
        }
        const { doc, report } = out.value;
        const result = previewOf(input, tracks, refs, doc, report);
        this.setPreview({ fit: result, doc, input, selection });
        fit.set(result);
        const x = result.report.extra;
        this.state = x.keysAfter < x.keysBefore ? 'ready' : 'nothing';
      })();
      run = { ctl, done };
      return done;
    },
    setPreview(p: SimplifyPreview | null) {
      const fit = useFitPreviewStore();
      if (this.preview && fit.result === this.preview.fit) fit.clear();
      this.preview = p ? markRaw(p) : null;
    },
    /** Whether the preview still belongs to the open document and the selection it was computed for. */
    isCurrent(): boolean {
      const p = this.preview;
      return !!p && useHistoryStore().current()?.doc === p.input && useSelectionStore().version === p.selection;
    },
    /**
     * Commits the previewed document as one undo step (a waiting recompute runs first, and one in
     * flight is waited for, so what is applied is what the fields say), closes the panel and says the
     * figures. False when there is nothing to apply, the panel closed meanwhile, or the document or
     * selection changed since (then the panel closes).
     */
    async apply(): Promise<boolean> {
      // A tolerance typed while waiting starts another computation: wait for that one too.
      while (this.state === 'pending') {
        if (timer !== null) await this.compute();
        else if (run) await run.done;
        else break;
      }
      const p = this.preview;
      if (this.state !== 'ready' || !p) return false;
      if (!this.isCurrent()) {
        this.cancel();
        return false;
      }
      const hist = useHistoryStore();
      const step = diffDocuments(p.input, p.doc, 'inspector.simplify');
      const x = p.fit.report.extra;
      this.cancel();
      hist.commit(step);
      useSelectionStore().clear();
      useWorkspaceStore().editNotice('success', {
        key: 'simplify.applied',
        params: fitFigures(x),
      });
      return true;
    },
    /** Closes the panel and drops the preview; the document is not touched. */
    cancel() {
      this.drop();
      this.state = 'closed';
    },
    /** Stops the waiting recompute and the computation in flight (its outcome is not shown). */
    halt() {
      stopTimer();
      stopRun();
      this.running = null;
    },
    drop() {
      this.halt();
      this.setPreview(null);
      this.message = '';
    },
  },
});
