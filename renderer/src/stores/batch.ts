/**
 * The batch dialog: the job being edited (folders, operation and its option form, built from
 * shared/batch/op-specs.ts), the running job's progress (pushed by main) and its summary.
 */
import { defineStore } from 'pinia';
import { initialFormValues, validateOpForm, type FormCheck, type OpFormValues } from '../../../shared/batch/op-form';
import { prepareDocEdit, prepareMirror } from '../../../shared/batch/doc-edits';
import { OP_OPTION_SPECS } from '../../../shared/batch/op-specs';
import type { OptionError } from '../../../shared/batch/options';
import { diffDocuments, isEmptyDiff, mirrorDiffSteps, type MirrorStep } from '../../../shared/key-edits';
import { BATCH_OPS, captureExt, DOC_EDIT_OPS, NAMES_LISTED, notRunCount, warnedCount, wouldWriteCount, type BatchJob, type BatchOp, type BatchProgress, type BatchSummary } from '../../../shared/batch/types';
import { t, type UiStringKey } from '../../../shared/i18n/strings';
import { warningTexts } from '../../../shared/i18n/warning-line';
import { useApi } from '../api';
import { withoutTrailingSeparators } from '../paths';
import { useWorkspaceStore } from './workspace';
import { edited, type EditReport, type EditResult } from '../../../shared/edit-core/report';
import { isCancelled, success, type CodecError } from '../../../shared/vmd/errors';
import { fitFigures, fittingOp, previewedResult, useFitPreviewStore } from './fit-preview';
import { useHistoryStore } from './history';
import { useSelectionStore } from './selection';
import { useNotifyStore, type NoticeError, type NoticeText } from './notify';
import { useSettingsStore } from './settings';
import { usePreviewStore } from './preview';
import { useSceneStore } from './scene';

/**
 * The operations that can also edit the open motion in place (one undo step). Rename is left out: its
 * mapping file is read by main for a batch, and the editor has no such read.
 */
export const DOCUMENT_OPS: BatchOp[] = DOC_EDIT_OPS.filter((op) => op !== 'rename');

/** Where the operation goes: every file under a folder (a batch job), or the motion open in the editor. */
export type BatchTarget = 'folder' | 'document';

let unsubscribe: (() => void)[] = [];
/** Mirror of a motion with at least this many keys runs in slices (as a move or a curve of that many does). */
const SLICED_MIRROR_KEYS = 50_000;

/** Events that arrived before startBatch's answer named the job (a tiny job can finish first). */
const early = new Map<string, { progress?: BatchProgress; summary?: BatchSummary }>();

/** Outputs a run kept because they existed (not a dry run's would-writes). */
export function existingCount(s: BatchSummary): number {
  return s.results.filter((r) => r.ok && r.value.skipped && !r.value.report?.dryRun).length;
}

/** `names` as a summary lists them: the first few, then how many more. */
export function fewNames(names: readonly string[]): NoticeText | string {
  const shown = names.slice(0, NAMES_LISTED).join(', ');
  return names.length > NAMES_LISTED ? { key: 'batch.namesMore', params: { names: shown, n: names.length - NAMES_LISTED } } : shown;
}

/**
 * A finished run's one line (the dialog's summary and the notice): cancelled with what was not done, a folder
 * with nothing to take, a dry run (always said as one), warnings counted, or the plain counts.
 */
export function batchSummaryText(s: BatchSummary, op: BatchOp): NoticeText {
  if (s.cancelled) return { key: 'batch.cancelledNotRun', params: { done: s.results.length, n: notRunCount(s) } };
  if (s.total === 0) {
    const ext = captureExt(op);
    return { key: 'batch.nothing', params: { what: ext ?? { key: 'batch.nothing.motions' } } };
  }
  const warned = warnedCount(s);
  const would = wouldWriteCount(s);
  if (s.dryRun || would > 0) {
    const params = { would, failed: s.failed, skipped: s.skipped - would, warned };
    return { key: warned ? 'batch.doneDryWarnings' : 'batch.doneDry', params };
  }
  return warned ? { key: 'batch.doneWarnings', params: { ok: s.ok, failed: s.failed, skipped: s.skipped, warned } } : { key: 'batch.done', params: { ok: s.ok, failed: s.failed, skipped: s.skipped } };
}

/**
 * An option error in the app's words: the option by its form label (not `--from`), the problem by its
 * `opt.*` string; the CLI's English stays on the error value for the detail line.
 */
export function optionErrorText(op: BatchOp, e: Pick<OptionError, 'option' | 'problem' | 'params'>): NoticeText {
  const spec = OP_OPTION_SPECS[op].find((s) => s.name === e.option);
  const params: Record<string, string | number | NoticeText> = { ...e.params, option: spec ? { key: spec.label } : e.option };
  const other = typeof e.params.other === 'string' ? OP_OPTION_SPECS[op].find((s) => s.name === e.params.other) : undefined;
  if (other) params.other = { key: other.label };
  return { key: `opt.${e.problem}` as UiStringKey, params };
}

/**
 * An error as the dialog says it: one that names an option (an option error, or a refusal such as shift's
 * "use --clip", shared/vmd/errors.ts optionRefusal) names it by the form's label in the UI's language; any
 * other error is as it came. The CLI's English stays on the value for the detail line and the tooltip.
 */
export function inDialogTerms(op: BatchOp, e: CodecError): NoticeError {
  if (e.option === undefined || e.problem === undefined) return e;
  return { ...e, message: optionErrorText(op, { option: e.option, problem: e.problem as OptionError['problem'], params: e.params ?? {} }) };
}

/**
 * An option refusal (optionRefusal) as a dialog of its own says it (the bake dialog, the capture import
 * dialog): the option, and the `other` one it names, by that dialog's field labels (`labels`, by the CLI's
 * option name); any other error is as it came.
 */
export function inFormTerms(e: CodecError, labels: Readonly<Record<string, UiStringKey>>): NoticeError {
  if (e.option === undefined || e.problem === undefined) return e;
  const label = (o: string): string | NoticeText => (labels[o] ? { key: labels[o] } : o);
  const params: Record<string, string | number | NoticeText> = { ...(e.params ?? {}), option: label(e.option) };
  if (typeof e.params?.other === 'string') params.other = label(e.params.other);
  return { ...e, message: { key: `opt.${e.problem}` as UiStringKey, params } };
}

export const useBatchStore = defineStore('batch', {
  state: () => ({
    open: false,
    target: 'folder' as BatchTarget,
    /** An operation is being applied to the open motion (a few seconds on a 36 MB motion). */
    applying: false,
    op: 'mirror' as BatchOp,
    inputDir: '',
    outputDir: '',
    /** Each operation's form values, kept while the user switches operations. */
    forms: Object.fromEntries(BATCH_OPS.map((op) => [op, initialFormValues(op)])) as Record<BatchOp, OpFormValues>,
    recursive: true,
    overwrite: false,
    dryRun: false,
    jobId: null as string | null,
    progress: null as BatchProgress | null,
    summary: null as BatchSummary | null,
    /** The running or last job's operation and input folder: its results are said and named by them. */
    ranOp: 'mirror' as BatchOp,
    ranInputDir: '',
  }),
  getters: {
    running: (s) => s.jobId !== null && s.summary === null,
    fraction: (s) => (s.progress && s.progress.total > 0 ? s.progress.done / s.progress.total : 0),
    /** The chosen operation's options and per-field errors. */
    check: (s): FormCheck => validateOpForm(s.op, s.forms[s.op]),
    /** The operations offered for the chosen target. */
    ops: (s): readonly BatchOp[] => (s.target === 'document' ? DOCUMENT_OPS : BATCH_OPS),
    /** Why the target cannot be used yet (message key), or null. */
    targetProblem(): 'batch.err.folders' | 'batch.err.sameFolder' | 'batch.err.noDocument' | null {
      if (this.target === 'document') return useWorkspaceStore().isOpen ? null : 'batch.err.noDocument';
      return this.folderProblem;
    },
    /** The output folder lies inside the input folder, sub-folders included: the dialog says what is not read then. */
    outputInside: (s): boolean => {
      const a = withoutTrailingSeparators(s.inputDir.trim());
      const b = withoutTrailingSeparators(s.outputDir.trim());
      return s.recursive && a !== '' && b.length > a.length && b.startsWith(a) && /[\\/]/.test(b.charAt(a.length));
    },
    /** Why the folders cannot be used yet (message key), or null. */
    folderProblem: (s): 'batch.err.folders' | 'batch.err.sameFolder' | null => {
      const a = withoutTrailingSeparators(s.inputDir.trim());
      const b = withoutTrailingSeparators(s.outputDir.trim());
      if (!a || !b) return 'batch.err.folders';
      return a === b ? 'batch.err.sameFolder' : null;
    },
  },
  actions: {
    /** Subscribes to the pushed batch events (once, from App). */
    listen() {
      if (unsubscribe.length) return;
      const api = useApi();
      unsubscribe = [
        api.onBatchProgress((p) => {
          if (p.jobId === this.jobId) this.progress = p;
          else early.set(p.jobId, { ...early.get(p.jobId), progress: p });
        }),
        api.onBatchDone((s) => {
          if (s.jobId !== this.jobId) {
            early.set(s.jobId, { ...early.get(s.jobId), summary: s });
            return;
          }
          this.finish(s);
        }),
      ];
    },
    finish(s: BatchSummary) {
      this.summary = s;
      const notify = useNotifyStore();
      const text = batchSummaryText(s, this.ranOp);
      // Skipped because the output was there already: say so, and how to replace them (the dialog's summary
      // also has "Run again, overwriting").
      const existing = existingCount(s);
      const detail: NoticeText | undefined = existing && !s.cancelled ? { key: 'batch.skippedExisting', params: { n: existing, overwrite: { key: 'batch.overwrite' } } } : undefined;
      // Failures, warnings, a cancelled run's files left undone and a folder with nothing to take are warnings;
      // only outputs kept as they were are plain information.
      if (s.failed || warnedCount(s) || s.cancelled || (s.total === 0 && !s.cancelled)) notify.warning(text, detail);
      else if (existing && !s.ok) notify.push('info', text, detail);
      else notify.push('success', text, detail);
    },
    /** "Run again, overwriting": the last job again with Overwrite ticked (its kept outputs are replaced). */
    async rerunOverwriting(): Promise<boolean> {
      if (this.running) return false;
      this.overwrite = true;
      this.dryRun = false;
      return this.start();
    },
    stopListening() {
      unsubscribe.forEach((u) => u());
      unsubscribe = [];
    },
    show() {
      this.fillRetargetTarget();
      this.open = true;
    },
    /**
     * Retarget's "Target model" starts as the active actor's model (the one the preview shows it on), not
     * empty: the motions usually go to the model on screen. A path typed or chosen stays.
     */
    fillRetargetTarget() {
      const form = this.forms.retarget;
      if (form.to) return;
      const scene = useSceneStore();
      const actor = scene.entries.find((e) => e.id === scene.shownActorId);
      const preview = usePreviewStore();
      const shown = preview.model && !preview.droppedBytes(preview.model.path) ? preview.model.path : null;
      const model = (actor?.kind === 'actor' && actor.model && !actor.missingModel ? actor.model : null) ?? shown;
      if (model) form.to = model;
    },
    /** Switches between a folder and the open motion; an operation the target lacks falls back to mirror. */
    setTarget(target: BatchTarget) {
      this.target = target;
      if (!this.ops.includes(this.op)) this.op = 'mirror';
    },
    /**
     * Applies the chosen operation to the open motion as one undo step (the same edit and options as
     * a batch job, from shared/batch/doc-edits.ts). A fitting edit (Reduce, Bake, Speed with
     * refit) commits the dialog's preview when it is of this document, operation and options, and
     * otherwise runs in the fitting worker (progress and Cancel in the dialog; closing it cancels).
     * Returns whether the document changed.
     */
    async applyToDocument(): Promise<boolean> {
      if (this.applying) return false;
      this.applying = true;
      try {
        const hist = useHistoryStore();
        const cur = hist.current();
        const { options, errors } = this.check;
        if (this.op === 'mirror' && cur && !Object.keys(errors).length) return await this.applyMirror();
        const fitOp = fittingOp(this.op, options);
        if (!fitOp || !cur || Object.keys(errors).length) {
          // Let the dialog show "Applying…" before the edit holds the main thread.
          await new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          return this.applyNow();
        }
        const fit = useFitPreviewStore();
        const previewed = previewedResult(fit.result, cur.doc, fitOp, options);
        if (previewed) return this.applyNow(previewed);
        const out = await fit.compute('apply', fitOp, options, cur.doc);
        // Cancelled, or the document changed meanwhile: nothing is committed; the second is said (the bar ended
        // and the dialog went back to Apply with no word of it: new-user pass nuchaos, finding 3).
        if (isCancelled(out)) return false;
        if (hist.current()?.doc !== cur.doc) {
          useNotifyStore().warning({ key: 'batch.doc.changedWhileFitting', params: { op: { key: `batch.op.${this.op}` } } });
          return false;
        }
        return this.applyNow(out.ok ? edited(out.value.doc, out.value.report) : out);
      } finally {
        this.applying = false;
      }
    },
    /**
     * Applies the chosen operation now, on this thread: `result` when given (the edit's result, computed
     * from the current document by a fit preview or the fitting worker), else the edit run here.
     */
    applyNow(result?: EditResult): boolean {
      const notify = useNotifyStore();
      const doc = useWorkspaceStore();
      const hist = useHistoryStore();
      const cur = hist.current();
      const { options, errors } = this.check;
      if (!cur || Object.keys(errors).length || !DOCUMENT_OPS.includes(this.op)) {
        notify.error({ code: 'E_ARGUMENT', message: { key: cur ? 'batch.fix' : 'batch.err.noDocument' } });
        return false;
      }
      // The step keeps the string key: the undo/redo buttons name it in the UI's language of the moment.
      const label = `batch.op.${this.op}`;
      const opText: NoticeText = { key: `batch.op.${this.op}` };
      const prepared = prepareDocEdit(this.op, options)!;
      if (!prepared.ok) {
        notify.error({ ...prepared.error, message: optionErrorText(this.op, prepared.error) });
        return false;
      }
      const out = result ?? prepared.value(cur.doc);
      if (!out.ok) {
        notify.error({ ...inDialogTerms(this.op, out.error), file: doc.path ?? doc.fileName });
        return false;
      }
      const step = diffDocuments(cur.doc, out.value.doc, label);
      if (isEmptyDiff(step.diff)) {
        notify.info({ key: 'batch.doc.unchanged', params: { op: opText, name: doc.fileName } });
        return false;
      }
      hist.commit(step);
      // Record indices of the old selection mean other keys now (or none): start afresh.
      useSelectionStore().clear();
      this.announce(out.value.report, this.op);
      this.hide();
      return true;
    },
    /**
     * Mirror on the open motion as an editor step of its own (shared/key-edits/mirror-motion.ts): the bytes
     * and the report of the batch edit, kept in the history as a diff that holds no bytes (undo and redo
     * mirror again). On a big motion it runs in slices between frames: its progress shows after 100 ms,
     * Escape cancels it, and nothing is committed unless it completes. Resolves to whether it changed the
     * document.
     */
    async applyMirror(): Promise<boolean> {
      const notify = useNotifyStore();
      const ws = useWorkspaceStore();
      const hist = useHistoryStore();
      const cur = hist.current();
      const opts = prepareMirror(this.check.options);
      if (!cur) {
        notify.error({ code: 'E_ARGUMENT', message: { key: 'batch.err.noDocument' } });
        return false;
      }
      if (!opts.ok) {
        notify.error({ ...opts.error, message: optionErrorText('mirror', opts.error) });
        return false;
      }
      const label = 'batch.op.mirror';
      const d = cur.doc;
      const big = d.bone.count + d.morph.count + d.camera.count + d.light.count + d.ik.count >= SLICED_MIRROR_KEYS;
      const made: { step?: MirrorStep } = {};
      // The shown model's morph names: its wink pairs win (ウィンク ⇄ ウィンク右, or 左 ⇄ 右 where it names both);
      // its morph and bone names decide which names in Latin letters pair (eyeBlinkLeft ⇄ eyeBlinkRight).
      const outline = usePreviewStore().modelOutline;
      const modelMorphs = (outline?.morphs ?? []).map((m) => m.name);
      const modelBones = (outline?.groups ?? []).flatMap((g) => g.bones);
      const committed = await hist.runSteps(
        label,
        (doc) =>
          (function* () {
            made.step = yield* mirrorDiffSteps(doc, { light: opts.value.light, modelMorphs, modelBones }, label);
            return success(made.step.diff);
          })(),
        big,
      );
      if (committed !== true) {
        // Cancelled (or the motion changed meanwhile): nothing happened. A motion with nothing to mirror says so.
        if (made.step && isEmptyDiff(made.step.diff)) notify.info({ key: 'batch.doc.unchanged', params: { op: { key: 'batch.op.mirror' }, name: ws.fileName } });
        return false;
      }
      useSelectionStore().clear();
      this.announce(made.step!.report, 'mirror');
      this.hide();
      return true;
    },
    /** Says what an applied edit did to the keys, as the batch report says it: nothing is dropped silently. */
    announce(r: EditReport, op: BatchOp): void {
      const doc = useWorkspaceStore();
      const opText: NoticeText = { key: `batch.op.${op}` };
      const counts: NoticeText = { key: 'batch.doc.counts', params: { kept: r.kept, added: r.added, dropped: r.dropped, collisions: r.collisions } };
      // Fitting (reduce, bake, speed --refit): fewer keys is the point; say how many and how close it plays.
      const x = r.extra;
      const fitted = typeof x.keysBefore === 'number';
      const fit: NoticeText[] = fitted
        ? [{ key: 'batch.doc.fit', params: fitFigures(x) }]
        : [];
      // Mirror: which morph tracks changed names (ウィンク ⇄ ウィンク右 is no 左/右 swap, so it is said).
      // And which IK switches (表示・IK keys) did: a one-sided IK bone of the model keeps its name, so the list says which swapped.
      // And the bones left as they are because the model lacks their other side (Gene's 右腕xcIK), so a track that
      // did not move is not taken for a fault.
      const swapped: NoticeText[] = [
        ...(r.morphsSwapped?.length ? [{ key: 'batch.doc.morphsSwapped' as const, params: { names: r.morphsSwapped.join(', ') } }] : []),
        ...(r.iksSwapped?.length ? [{ key: 'batch.doc.iksSwapped' as const, params: { names: r.iksSwapped.join(', ') } }] : []),
        ...(r.oneSidedBones?.length ? [{ key: 'batch.doc.oneSidedBones' as const, params: { names: r.oneSidedBones.join(', ') } }] : []),
      ];
      // A fit re-expresses the keys (a re-timing has no key of the input at its old place): there the
      // kept / added / dropped line counts nothing a person can check, and the fit's own line says it.
      useWorkspaceStore().editNotice(
        (r.dropped && !fitted) || r.collisions || r.warnings.length ? 'warning' : 'success',
        { key: 'batch.doc.applied', params: { op: opText, name: doc.fileName } },
        // The edit's warnings in the UI's language where they have a code (nujp 1: they were English in a Japanese UI).
        [...(fitted ? fit : [counts]), ...swapped, ...(warningTexts(r, 'app') as NoticeText[])],
      );
    },
    hide() {
      this.open = false;
    },
    /** Puts the chosen operation's form back to its defaults. */
    resetForm() {
      this.forms[this.op] = initialFormValues(this.op);
      if (this.op === 'retarget') this.fillRetargetTarget();
    },
    /** The job from the form, or an error message when the form is not valid. */
    buildJob(): BatchJob | string {
      const locale = useSettingsStore().locale;
      if (this.folderProblem) return t(this.folderProblem, locale);
      const { options, errors } = this.check;
      if (Object.keys(errors).length) return t('batch.fix', locale);
      return {
        op: this.op,
        inputDir: this.inputDir.trim(),
        outputDir: this.outputDir.trim(),
        options,
        recursive: this.recursive,
        overwrite: this.overwrite,
        dryRun: this.dryRun,
      };
    },
    async start(): Promise<boolean> {
      // The dialog starts a run through shell/job-guard.ts startFolderBatch, which refuses it over another job (a
      // store may not import the shell); a second run of this store is refused here too.
      if (this.running) return false;
      const job = this.buildJob();
      if (typeof job === 'string') {
        useNotifyStore().error({ code: 'E_ARGUMENT', message: job });
        return false;
      }
      this.listen();
      this.progress = null;
      this.summary = null;
      this.ranOp = job.op;
      this.ranInputDir = job.inputDir;
      const r = await useApi().startBatch(job);
      if (!r.ok) {
        useNotifyStore().error(inDialogTerms(job.op, r.error));
        return false;
      }
      this.jobId = r.value.jobId;
      const got = early.get(this.jobId);
      early.clear();
      if (got?.progress) this.progress = got.progress;
      if (got?.summary) this.finish(got.summary);
      return true;
    },
    async cancel() {
      if (!this.jobId) return;
      const r = await useApi().cancelBatch(this.jobId);
      if (!r.ok) useNotifyStore().error(r.error);
    },
  },
});
