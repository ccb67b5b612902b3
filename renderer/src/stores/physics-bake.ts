/**
 * Whole Motion → Bake physics…: the active actor's model simulated under the active motion and its physics
 * bones baked into keys (shared/physics/bake.ts, the CLI's engine), run in the bake worker
 * (physics/bake-client.ts) with progress and Cancel. The result waits with its figures (bones baked, raw and
 * kept keys, the largest error, the IK switched off, names too long) and the curve pane's overlay (the
 * fit-preview store: the motion before and after) until Apply commits it as one undo step through the
 * workspace history, or Close / a changed motion drops it. Bytes and documents stay out of Vue's reactivity.
 */
import { defineStore } from 'pinia';
import { markRaw, reactive, ref, shallowRef } from 'vue';
import { useApi } from '../api';
import type { PhysicsBakeReport } from '../../../shared/physics/bake';
import { isCancelled, type CodecError } from '../../../shared/vmd/errors';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { buildTracks } from '../../../shared/vmd/tracks';
import { diffDocuments, isEmptyDiff } from '../../../shared/key-edits';
import { newReport } from '../../../shared/edit-core/report';
import { bakeClient, type BakedRun, type BakeSettings } from '../physics/bake-client';
import { useFitPreviewStore } from './fit-preview';
import { useHistoryStore } from './history';
import { useNotifyStore, type NoticeText } from './notify';
import { usePreviewStore } from './preview';
import { useSceneStore } from './scene';
import { useSelectionStore } from './selection';
import { useSettingsStore } from './settings';
import { useWorkspaceStore } from './workspace';

/** The form as typed (strings, so a half-typed number is kept as it is). */
export interface BakeForm {
  from: string;
  to: string;
  /** Warm-up frames simulated before From: empty or "all" simulates from frame 0 (physics-bake --warmup). */
  warmup: string;
  raw: boolean;
  /**
   * Simulate over keys that switch physics off inside the range (a previous bake): physics-bake --resimulate.
   * null until the user ticks or unticks it: the engine decides ('auto': on when every baked bone has such keys
   * in the range, as the bake's own earlier bake leaves them; off for 物理OFF keyed by hand on some bones).
   */
  resimulate: boolean | null;
  posTol: string;
  rotTol: string;
}

/** A field's problem: the message key and its parameters. */
export interface BakeFieldError {
  key: 'bake.err.integer' | 'bake.err.order' | 'bake.err.positive' | 'bake.err.warmup';
  params?: Record<string, string | NoticeText>;
}

/** The form checked: the bake's settings, or per-field errors. */
export function checkBakeForm(f: BakeForm): { settings: BakeSettings; errors: Partial<Record<keyof BakeForm, BakeFieldError>> } {
  const errors: Partial<Record<keyof BakeForm, BakeFieldError>> = {};
  const settings: BakeSettings = { raw: f.raw, resimulate: f.resimulate ?? 'auto' };
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
  settings.from = frame('from');
  settings.to = frame('to');
  if (settings.from !== undefined && settings.to !== undefined && settings.to < settings.from) errors.to = { key: 'bake.err.order' };
  const warm = f.warmup.trim();
  if (warm !== '' && warm.toLowerCase() !== 'all') {
    if (/^\d+$/.test(warm) && Number.isSafeInteger(Number(warm))) settings.warmup = Number(warm);
    else errors.warmup = { key: 'bake.err.warmup' };
  }
  const positive = (name: 'posTol' | 'rotTol', label: 'bake.posTol' | 'bake.rotTol') => {
    const s = f[name].trim();
    if (s === '') return undefined;
    const v = Number(s);
    if (!Number.isFinite(v) || v <= 0) {
      errors[name] = { key: 'bake.err.positive', params: { field: { key: label } } };
      return undefined;
    }
    return v;
  };
  settings.positionTolerance = positive('posTol', 'bake.posTol');
  settings.rotationToleranceDeg = positive('rotTol', 'bake.rotTol');
  return { settings, errors };
}

/** A finished bake waiting for Apply: of this document (the history's current one) and this model. */
export interface BakeResult {
  input: VmdDocument;
  output: VmdDocument;
  report: PhysicsBakeReport;
  /** The baked bones one can see (deforming vertices or displayed), in model order: the dialog plots one of them. */
  seen: string[];
  modelPath: string;
  via: BakedRun['via'];
}

export const useBakeStore = defineStore('physics-bake', () => {
  const open = ref(false);
  const form = reactive<BakeForm>({ from: '', to: '', warmup: '', raw: false, resimulate: null, posTol: '', rotTol: '' });
  /** Work done of total while a bake runs (0 of 0 until the first word), else null. */
  const running = ref<{ done: number; total: number } | null>(null);
  const result = shallowRef<BakeResult | null>(null);
  const failure = shallowRef<CodecError | null>(null);
  /** A running bake was stopped by Cancel (or Esc) and the dialog stays: it says so until the next bake or close. */
  const cancelled = ref(false);
  /** A finished bake was thrown away because the motion changed while it ran: the dialog says so until the next bake or close. */
  const dropped = ref(false);
  let controller: AbortController | null = null;
  /** The last model read (path and bytes): baking again with other options does not read it again. */
  let modelCache: { path: string; bytes: Uint8Array } | null = null;

  /** The active actor's model file, or null (the built-in figure, a camera document, a model that could not be read). */
  function modelPath(): string | null {
    const a = useSceneStore().active;
    return a && a.kind === 'actor' && a.model && !a.missingModel ? a.model : null;
  }

  /** The motion and model the range was typed for: the dialog opened on another starts from the whole motion. */
  let rangeFor = '';

  function show() {
    const ws = useWorkspaceStore();
    if (!ws.isOpen) return;
    const target = `${ws.activeId}\n${ws.path ?? ws.fileName}\n${modelPath() ?? ''}`;
    if (target !== rangeFor) {
      rangeFor = target;
      form.from = '';
      form.to = '';
    }
    open.value = true;
  }

  /**
   * Why Bake physics… cannot run on the active actor's model, as the preview read it (no rigid bodies, or rigid
   * bodies it could not read), or null (none, or the preview has not read that model yet: the bake then says).
   */
  function unavailable(): NoticeText | null {
    const path = modelPath();
    const p = usePreviewStore();
    if (!path || !p.model || p.model.path !== path) return null;
    // The preview's name: the model's, or its file name when the model's name field is empty.
    const model = p.model.name;
    if (p.physicsState === 'none') return { key: 'bake.offNone', params: { model } };
    if (p.physicsState === 'unreadable') return { key: 'bake.offUnreadable', params: { model } };
    return null;
  }

  /** Drops the result (and the curve pane's overlay of it). */
  function drop() {
    if (result.value) useFitPreviewStore().clear();
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

  function close() {
    cancel();
    cancelled.value = false;
    dropped.value = false;
    drop();
    failure.value = null;
    open.value = false;
  }

  /** Bakes the active motion on the active actor's model; true when a result is waiting for Apply. */
  async function bake(): Promise<boolean> {
    const notify = useNotifyStore();
    const hist = useHistoryStore();
    const cur = hist.current();
    const path = modelPath();
    const { settings, errors } = checkBakeForm(form);
    if (!cur || !path || Object.keys(errors).length || running.value) return false;
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
      const out = await bakeClient().run(bytes, cur.doc, settings, (done, total) => {
        if (controller === ctl) running.value = { done, total };
      }, ctl.signal);
      if (!out.ok) {
        if (isCancelled(out)) {
          notify.info({ key: 'bake.cancelled' });
          return false;
        }
        // Model problems name the model, the rest the motion.
        const file = out.error.code.startsWith('E_PMX') || out.error.code === 'E_PHYSICS' ? path : (useWorkspaceStore().path ?? useWorkspaceStore().fileName);
        failure.value = { ...out.error, file: out.error.file ?? file };
        notify.error(failure.value);
        return false;
      }
      // The motion changed while it ran: the result is of another document, and is dropped, said in the dialog and
      // a notice (the dialog ended blank: new-user pass nuchaos, finding 4).
      if (hist.current()?.doc !== cur.doc) {
        dropped.value = open.value;
        notify.warning({ key: 'bake.droppedLine' });
        return false;
      }
      // The bytes came back through writeVmd, which writes the IK block's count once the bake added IK keys to a
      // file that had no IK block; the document keeps the input's count of blocks present (the writer still
      // writes every block up to the last non-empty one), so the step is an edit of blocks, undone to the bytes.
      const { doc, report, seen, via } = out.value;
      const output = doc.blocksPresent > cur.doc.blocksPresent ? markRaw({ ...doc, blocksPresent: cur.doc.blocksPresent }) : doc;
      result.value = markRaw({ input: cur.doc, output, report, seen, modelPath: path, via });
      // The curve pane overlays the motion before and after for the active track, with the key counts.
      const rep = newReport('bake');
      rep.extra = { keysBefore: report.rawKeys, keysAfter: report.keptKeys, maxPositionError: report.maxPositionError, maxRotationErrorDeg: report.maxRotationErrorDeg, maxMorphError: 0 };
      useFitPreviewStore().set({ before: cur.tracks, after: buildTracks(output), report: rep, factor: 1 });
      return true;
    } finally {
      if (controller === ctl) {
        controller = null;
        running.value = null;
      }
    }
  }

  /** Commits the waiting result as one undo step; true when the document changed. */
  function apply(): boolean {
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
    const label = useSettingsStore().t('bake.open');
    // The step keeps the string key, named in the UI's language when shown (edit-labels.ts).
    const step = diffDocuments(cur.doc, r.output, 'bake.open');
    if (!step || isEmptyDiff(step.diff)) {
      notify.error({ code: 'E_EDIT', message: step ? `${label}: nothing to change` : `${label}: the bake changed the file header, which cannot be undone here` });
      return false;
    }
    hist.commit(step);
    // Record indices of the old selection mean other keys now: start afresh.
    useSelectionStore().clear();
    useWorkspaceStore().editNotice('success', { key: 'bake.applied', params: { name: useWorkspaceStore().fileName, kept: r.report.keptKeys, bones: r.report.bones.length } });
    close();
    return true;
  }

  return { open, form, running, result, failure, cancelled, dropped, modelPath, unavailable, show, bake, cancel, apply, close, drop };
});
