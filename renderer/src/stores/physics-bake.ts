/**
 * Whole Motion → Bake physics…: the active actor's model simulated under the active motion and its physics
 * bones baked into keys (shared/physics/bake.ts, the CLI's engine), run in the bake worker
 * (physics/bake-client.ts) with progress and Cancel. The result waits with its figures (bones baked, raw and
 * kept keys, the largest error, the IK switched off, names too long) and the curve pane's overlay (the
 * fit-preview store: the motion before and after) until Apply commits it as one undo step through the
 * workspace history, or Close / a changed motion drops it. Bytes and documents stay out of Vue's reactivity.
 */
import { defineStore } from 'pinia';
import { reactive } from 'vue';
import type { PhysicsBakeReport } from '../../../shared/physics/bake';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { buildTracks } from '../../../shared/vmd/tracks';
import { newReport } from '../../../shared/edit-core/report';
import { bakeClient, type BakedRun, type BakeSettings } from '../physics/bake-client';
import { checkBakeFrames, checkBakeTolerance, useBakeJob } from './bake-job';
import { useFitPreviewStore } from './fit-preview';
import { useHistoryStore } from './history';
import type { NoticeText } from './notify';
import { usePreviewStore } from './preview';
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
  const frames = checkBakeFrames(f);
  Object.assign(errors, frames.errors);
  settings.from = frames.from;
  settings.to = frames.to;
  const warm = f.warmup.trim();
  if (warm !== '' && warm.toLowerCase() !== 'all') {
    if (/^\d+$/.test(warm) && Number.isSafeInteger(Number(warm))) settings.warmup = Number(warm);
    else errors.warmup = { key: 'bake.err.warmup' };
  }
  const positive = (name: 'posTol' | 'rotTol', label: 'bake.posTol' | 'bake.rotTol') => {
    const r = checkBakeTolerance(f[name], label);
    if (r.error) errors[name] = r.error;
    return r.value;
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
  const form = reactive<BakeForm>({ from: '', to: '', warmup: '', raw: false, resimulate: null, posTol: '', rotTol: '' });
  const job = useBakeJob<BakeSettings, BakedRun, BakeResult>({
    run: (model, motion, settings, progress, signal) => bakeClient().run(model, motion, settings, progress, signal),
    cancelledKey: 'bake.cancelled',
    droppedKey: 'bake.droppedLine',
    // Model problems name the model, the rest the motion.
    modelSide: (e) => e.code.startsWith('E_PMX') || e.code === 'E_PHYSICS',
    // The curve pane's overlay of the result goes with it.
    onDrop: () => useFitPreviewStore().clear(),
  });
  const { open, running, result, failure, cancelled, dropped, drop, cancel, close, modelPath } = job;

  /** Opens the dialog; on another motion or model than last time, from the whole motion. */
  function show() {
    job.show(() => {
      form.from = '';
      form.to = '';
    });
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

  /** Bakes the active motion on the active actor's model; true when a result is waiting for Apply. */
  async function bake(): Promise<boolean> {
    const cur = useHistoryStore().current();
    const path = modelPath();
    const { settings, errors } = checkBakeForm(form);
    if (!cur || !path || Object.keys(errors).length || running.value) return false;
    return job.run(cur, path, settings, ({ report, seen, via }, output) => {
      // The curve pane overlays the motion before and after for the active track, with the key counts.
      const rep = newReport('bake');
      rep.extra = { keysBefore: report.rawKeys, keysAfter: report.keptKeys, maxPositionError: report.maxPositionError, maxRotationErrorDeg: report.maxRotationErrorDeg, maxMorphError: 0 };
      useFitPreviewStore().set({ before: cur.tracks, after: buildTracks(output), report: rep, factor: 1 });
      return { input: cur.doc, output, report, seen, modelPath: path, via };
    });
  }

  /** Commits the waiting result as one undo step; true when the document changed. */
  function apply(): boolean {
    return job.apply('bake.open', (r) => {
      useWorkspaceStore().editNotice('success', { key: 'bake.applied', params: { name: useWorkspaceStore().fileName, kept: r.report.keptKeys, bones: r.report.bones.length } });
    });
  }

  return { open, form, running, result, failure, cancelled, dropped, modelPath, unavailable, show, bake, cancel, apply, close, drop };
});
