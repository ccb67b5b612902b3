/**
 * Simplify on the selected keys, previewed before it is applied. Opening the panel (the key
 * inspector's Simplify button) computes at once the result of refitting the selected keys' tracks
 * between the first and the last selected key (shared/fit/simplify.ts) within the panel's tolerances,
 * measures how far it plays from the original over those frames (shared/fit/measure.ts, every integer
 * and half frame, as the Whole Motion dialog's Reduce preview does), and puts it in the fit-preview
 * store, which the curve pane overlays on the original's plot for the active track. A changed
 * tolerance recomputes after a short pause (typing "0.05" is one recompute, not four). Apply commits
 * exactly the previewed document as one undo step; Cancel, or any change of the selection or the
 * document since it was computed, drops the preview and changes nothing.
 *
 * The tolerances are the Reduce operation's own option specs (shared/batch/op-specs.ts: names, labels,
 * defaults from the engine) and are checked by the same form validation as the Whole Motion dialog.
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import { initialFormValues, validateOpForm, type FieldError, type FormValue, type OpFormValues } from '../../../shared/batch/op-form';
import { OP_OPTION_SPECS, type OptionSpec } from '../../../shared/batch/op-specs';
import { measureErrors, recordErrors } from '../../../shared/fit/measure';
import { simplifyKeys, simplifyScope, type SimplifyScope } from '../../../shared/fit/simplify';
import type { Tolerances } from '../../../shared/fit/motion-fit';
import { diffDocuments, type KeyRef } from '../../../shared/key-edits';
import { blockFromRecords, emptyBlocks, recordBytes, withBlocks, type VmdDocument } from '../../../shared/vmd/vmd-document';
import { buildTracks, type MotionTracks, type NamedTracks } from '../../../shared/vmd/tracks';
import { fitFigures, useFitPreviewStore, type FitPreviewResult } from './fit-preview';
import { useHistoryStore } from './history';
import { useNotifyStore } from './notify';
import { useSelectionStore } from './selection';
import { useSettingsStore } from './settings';

/** The tolerance fields: Reduce's option specs whose name ends in -tol (pos-tol, rot-tol, morph-tol). */
export const SIMPLIFY_SPECS: readonly OptionSpec[] = OP_OPTION_SPECS.reduce.filter((s) => s.name.endsWith('-tol'));

/** Pause after the last change of a tolerance before recomputing (ms). */
export const SIMPLIFY_DEBOUNCE_MS = 250;

/** The panel's state: closed, waiting to compute, shown, nothing to simplify, bad tolerances, failed. */
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

/**
 * `doc` with only these tracks' keys (the others are byte-identical in input and result, so they
 * play 0 apart): measuring the pair plays only what Simplify touched, not every track of the motion.
 */
function onlyTracks(doc: VmdDocument, tracks: MotionTracks, sel: SimplifyScope['tracks']): VmdDocument {
  const pick = (t: NamedTracks, names: ReadonlySet<string>, kind: 'bone' | 'morph') => {
    const recs: Uint8Array[] = [];
    for (const name of names) {
      const i = t.index.get(name);
      if (i !== undefined) for (let k = t.start[i]; k < t.start[i + 1]; k++) recs.push(recordBytes(doc[kind], t.record[k]));
    }
    return blockFromRecords(kind, recs);
  };
  return withBlocks(doc, { ...emptyBlocks(), bone: pick(tracks.bones, sel.bones, 'bone'), morph: pick(tracks.morphs, sel.morphs, 'morph'), camera: sel.camera ? doc.camera : emptyBlocks().camera });
}

/**
 * The result of Simplify on `refs` with these tolerances, measured by playing both motions (the
 * selected tracks) over the selected span (outside it nothing changes: keys outside the span and at
 * its ends are kept). The
 * report carries keysBefore/keysAfter (bone + morph + camera keys of the whole motion) and the largest
 * errors, as the Whole Motion dialog's previews do, so one summary line says both.
 */
export function computeSimplify(doc: VmdDocument, tracks: MotionTracks, refs: readonly KeyRef[], tol: Partial<Tolerances>): { ok: true; fit: FitPreviewResult; doc: VmdDocument } | { ok: false; message: string } {
  const out = simplifyKeys(doc, refs, tol);
  if (!out.ok) return { ok: false, message: out.error.message };
  const scope = simplifyScope(doc, refs)!; // simplifyKeys succeeded: the keys have a scope
  const after = buildTracks(out.doc);
  const span = { from: scope.from, to: scope.to };
  recordErrors(out.report.extra, measureErrors(onlyTracks(doc, tracks, scope.tracks), onlyTracks(out.doc, after, scope.tracks), { halfFrames: true, ...span }), true);
  return { ok: true, doc: out.doc, fit: { before: tracks, after, report: out.report, factor: 1, source: 'simplify', span } };
}

let timer: ReturnType<typeof setTimeout> | null = null;
function stopTimer() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

export const useSimplifyStore = defineStore('simplify', {
  state: () => ({
    state: 'closed' as SimplifyState,
    /** The tolerance fields as typed (kept between openings). */
    form: initialTolerances(),
    /** The computed preview (raw: documents and typed arrays), or null. */
    preview: null as SimplifyPreview | null,
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
      stopTimer();
      this.state = 'pending';
      timer = setTimeout(() => {
        timer = null;
        this.compute();
      }, ms);
    },
    /** Computes the preview now (a waiting recompute included) and shows it. */
    compute() {
      stopTimer();
      const fit = useFitPreviewStore();
      const cur = useHistoryStore().current();
      const sel = useSelectionStore();
      if (!cur || !sel.count) return this.cancel();
      const { options, errors } = this.check;
      if (Object.keys(errors).length) {
        this.setPreview(null);
        this.state = 'invalid';
        return;
      }
      const tol: Partial<Tolerances> = {
        position: options['pos-tol'] as number | undefined,
        rotationDeg: options['rot-tol'] as number | undefined,
        morph: options['morph-tol'] as number | undefined,
      };
      const r = computeSimplify(cur.doc, cur.tracks, sel.refs, tol);
      if (!r.ok) {
        this.setPreview(null);
        this.message = r.message;
        this.state = 'failed';
        return;
      }
      this.setPreview({ fit: r.fit, doc: r.doc, input: cur.doc, selection: sel.version });
      fit.set(r.fit);
      const x = r.fit.report.extra;
      this.state = x.keysAfter < x.keysBefore ? 'ready' : 'nothing';
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
     * Commits the previewed document as one undo step (a waiting recompute runs first, so what is
     * applied is what the fields say), closes the panel and says the figures. False when there is
     * nothing to apply, or the document or selection changed since (then the panel closes).
     */
    apply(): boolean {
      if (this.state === 'pending') this.compute();
      const p = this.preview;
      if (this.state !== 'ready' || !p) return false;
      if (!this.isCurrent()) {
        this.cancel();
        return false;
      }
      const hist = useHistoryStore();
      const step = diffDocuments(p.input, p.doc, useSettingsStore().t('inspector.simplify'));
      if (!step) {
        this.state = 'nothing';
        return false;
      }
      const x = p.fit.report.extra;
      this.cancel();
      hist.commit(step);
      useSelectionStore().clear();
      useNotifyStore().push('success', {
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
    drop() {
      stopTimer();
      this.setPreview(null);
      this.message = '';
    },
  },
});
