/**
 * What Bake physics… (physics-bake.ts) and Bake IK to FK… (ik-bake.ts) share as jobs: the dialog's state (open,
 * running with its progress, the waiting result, the failure, cancelled, dropped), Cancel / Close / drop, the run
 * (the model's bytes from a file dropped on the window, the last model read, or main's readModelFile; the bake's
 * worker client with progress and an AbortController; a cancel, a refusal naming the model or the motion, or a
 * result dropped because the motion changed while it ran), and Apply as one undo step. Each store keeps its form,
 * its texts and what it does with a result. Bytes and documents stay out of Vue's reactivity.
 */
import { markRaw, ref, shallowRef } from 'vue';
import { useApi } from '../api';
import { isCancelled, type CodecError, type Outcome } from '../../../shared/vmd/errors';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import { diffDocuments, isEmptyDiff } from '../../../shared/key-edits';
import type { UiStringKey } from '../../../shared/i18n/strings';
import { useHistoryStore } from './history';
import { useNotifyStore, type NoticeText } from './notify';
import { usePreviewStore } from './preview';
import { useSceneStore } from './scene';
import { useSelectionStore } from './selection';
import { useSettingsStore } from './settings';
import { useWorkspaceStore } from './workspace';

/** The history's current document, as the bake read it. */
export interface BakeInput {
  doc: VmdDocument;
  tracks: MotionTracks;
}

/** What a bake's store tells the shared job. */
export interface BakeJobSpec<Settings, Value extends { doc: VmdDocument }> {
  /** Runs the bake in its worker (or on the main thread), with progress; aborting `signal` cancels it. */
  run(model: Uint8Array, motion: VmdDocument, settings: Settings, progress: (done: number, total: number) => void, signal: AbortSignal): Promise<Outcome<Value>>;
  /** The notice of a cancelled bake and of a result dropped because the motion changed. */
  cancelledKey: UiStringKey;
  droppedKey: UiStringKey;
  /** A refusal about the model (it names the model's file), not the motion. */
  modelSide(error: CodecError): boolean;
  /** Called as a waiting result is dropped. */
  onDrop?(): void;
}

/** A finished bake's result: of this document (the history's current one). */
export interface BakeJobResult {
  input: VmdDocument;
  output: VmdDocument;
}

export function useBakeJob<Settings, Value extends { doc: VmdDocument }, Result extends BakeJobResult>(spec: BakeJobSpec<Settings, Value>) {
  const open = ref(false);
  /** Work done of total while a bake runs (0 of 0 until the first word), else null. */
  const running = ref<{ done: number; total: number } | null>(null);
  const result = shallowRef<Result | null>(null);
  const failure = shallowRef<CodecError | null>(null);
  /** A running bake was stopped by Cancel (or Esc) and the dialog stays: it says so until the next bake or close. */
  const cancelled = ref(false);
  /** A finished bake was thrown away because the motion changed while it ran: the dialog says so until the next bake or close. */
  const dropped = ref(false);
  let controller: AbortController | null = null;
  /** The last model read (path and bytes): baking again with other options does not read it again. */
  let modelCache: { path: string; bytes: Uint8Array } | null = null;

  /** Drops the result (and what the store shows of it). */
  function drop() {
    if (result.value) spec.onDrop?.();
    result.value = null;
  }

  /** Stops a running bake (it resolves as cancelled). */
  function cancel() {
    const c = controller;
    if (running.value) cancelled.value = open.value;
    controller = null;
    running.value = null;
    c?.abort();
  }

  /** The active actor's model file, or null (the built-in figure, a camera document, a model that could not be read). */
  function modelPath(): string | null {
    const a = useSceneStore().active;
    return a && a.kind === 'actor' && a.model && !a.missingModel ? a.model : null;
  }

  /** The motion and model the form's range was typed for: the dialog opened on another starts from the whole motion. */
  let rangeFor = '';
  /** Opens the dialog on the active motion; on another motion or model than last time, `reset` clears the form's range first. */
  function show(reset: () => void) {
    const ws = useWorkspaceStore();
    if (!ws.isOpen) return;
    const target = `${ws.activeId}\n${ws.path ?? ws.fileName}\n${modelPath() ?? ''}`;
    if (target !== rangeFor) {
      rangeFor = target;
      reset();
    }
    open.value = true;
  }

  function close() {
    cancel();
    cancelled.value = false;
    dropped.value = false;
    drop();
    failure.value = null;
    open.value = false;
  }

  /**
   * Bakes `cur` (the history's current document) on the model at `path` with `settings`; `finish` makes the result
   * of the baked value and the output document. True when a result is waiting for Apply.
   */
  async function run(cur: BakeInput, path: string, settings: Settings, finish: (value: Value, output: VmdDocument) => Result): Promise<boolean> {
    const notify = useNotifyStore();
    const hist = useHistoryStore();
    cancel();
    drop();
    failure.value = null;
    cancelled.value = false;
    dropped.value = false;
    const ctl = new AbortController();
    controller = ctl;
    running.value = { done: 0, total: 0 };
    try {
      // A model dropped on a browser's window has no path main could read: the preview keeps its bytes by its name.
      let bytes = usePreviewStore().droppedBytes(path) ?? (modelCache?.path === path ? modelCache.bytes : null);
      if (!bytes) {
        const r = await useApi().readModelFile(path);
        if (!r.ok) {
          failure.value = { ...r.error, file: r.error.file ?? path } as CodecError;
          notify.error(failure.value);
          return false;
        }
        bytes = markRaw(r.value.bytes);
        modelCache = { path, bytes };
      }
      if (ctl.signal.aborted) return false;
      const out = await spec.run(bytes, cur.doc, settings, (done, total) => {
        if (controller === ctl) running.value = { done, total };
      }, ctl.signal);
      if (!out.ok) {
        if (isCancelled(out)) {
          notify.info({ key: spec.cancelledKey });
          return false;
        }
        const file = spec.modelSide(out.error) ? path : (useWorkspaceStore().path ?? useWorkspaceStore().fileName);
        failure.value = { ...out.error, file: out.error.file ?? file };
        notify.error(failure.value);
        return false;
      }
      // The motion changed while it ran: the result is of another document, and is dropped, said in the dialog and
      // a notice (the dialog ended blank: new-user pass nuchaos, finding 4).
      if (hist.current()?.doc !== cur.doc) {
        dropped.value = open.value;
        notify.warning({ key: spec.droppedKey });
        return false;
      }
      // The bytes came back through writeVmd, which writes the IK block's count once the bake added IK keys to a
      // file that had no IK block; the document keeps the input's count of blocks present (the writer still
      // writes every block up to the last non-empty one), so the step is an edit of blocks, undone to the bytes.
      const doc = out.value.doc;
      const output = doc.blocksPresent > cur.doc.blocksPresent ? markRaw({ ...doc, blocksPresent: cur.doc.blocksPresent }) : doc;
      result.value = markRaw(finish(out.value, output));
      return true;
    } finally {
      if (controller === ctl) {
        controller = null;
        running.value = null;
      }
    }
  }

  /**
   * Commits the waiting result as one undo step named `label` (the string key, named in the UI's language when
   * shown: edit-labels.ts), then says so with `applied`; true when the document changed.
   */
  function apply(label: UiStringKey, applied: (r: Result) => void): boolean {
    const r = result.value;
    const hist = useHistoryStore();
    const notify = useNotifyStore();
    const cur = hist.current();
    if (!r || !cur) return false;
    if (cur.doc !== r.input) {
      notify.error({ code: 'E_EDIT', message: { key: 'bake.changed' } });
      drop();
      return false;
    }
    const name = useSettingsStore().t(label);
    const step = diffDocuments(cur.doc, r.output, label);
    if (!step || isEmptyDiff(step.diff)) {
      notify.error({ code: 'E_EDIT', message: step ? `${name}: nothing to change` : `${name}: the bake changed the file header, which cannot be undone here` });
      return false;
    }
    hist.commit(step);
    // Record indices of the old selection mean other keys now: start afresh.
    useSelectionStore().clear();
    applied(r);
    close();
    return true;
  }

  return { open, running, result, failure, cancelled, dropped, drop, cancel, close, modelPath, show, run, apply };
}

/** A bake form's field problem: the message key and its parameters. */
export interface BakeFormError<K extends string> {
  key: K;
  params?: Record<string, string | NoticeText>;
}

/** From and To as typed: empty (the engine's default) or whole frames, To not before From. */
export function checkBakeFrames(f: { from: string; to: string }): { from?: number; to?: number; errors: { from?: BakeFormError<'bake.err.integer'>; to?: BakeFormError<'bake.err.integer' | 'bake.err.order'> } } {
  const errors: { from?: BakeFormError<'bake.err.integer'>; to?: BakeFormError<'bake.err.integer' | 'bake.err.order'> } = {};
  const frame = (name: 'from' | 'to') => {
    const s = f[name].trim();
    if (s === '') return undefined;
    const v = Number(s);
    if (!/^\d+$/.test(s) || !Number.isSafeInteger(v)) {
      errors[name] = { key: 'bake.err.integer', params: { field: { key: name === 'from' ? 'bake.from' : 'bake.to' } } };
      return undefined;
    }
    return v;
  };
  const from = frame('from');
  const to = frame('to');
  if (from !== undefined && to !== undefined && to < from) errors.to = { key: 'bake.err.order' };
  return { from, to, errors };
}

/** A tolerance as typed: empty (the engine's default) or a number greater than 0, its field named by `label`. */
export function checkBakeTolerance(typed: string, label: 'bake.posTol' | 'bake.rotTol'): { value?: number; error?: BakeFormError<'bake.err.positive'> } {
  const s = typed.trim();
  if (s === '') return {};
  const v = Number(s);
  return !Number.isFinite(v) || v <= 0 ? { error: { key: 'bake.err.positive', params: { field: { key: label } } } } : { value: v };
}
