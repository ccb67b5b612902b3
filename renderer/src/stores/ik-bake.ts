/**
 * Whole Motion → Bake IK to FK… (「IKをFKに焼き込み…」): the pose the IK gives the active actor's model under the
 * active motion written as rotation keys of the chains' bones, with those IK bones switched off over the range
 * (shared/bake/ik-bake.ts, the CLI's `ik-bake` engine), run in the IK-bake worker (fit/ik-bake-client.ts) with
 * progress and Cancel. Which IK bones: the model's, ticked as the motion has them on in the range until the user
 * ticks otherwise ("Legs only": 足ＩＫ and つま先ＩＫ). The result waits with its figures (raw → kept keys, the
 * largest error, the IK switched off), a plot of one chain link (ikBakePlot: the IK's pose frame by frame before,
 * the fitted keys played after) and the curve pane's overlay (the fit-preview store: the same two motions) until
 * Apply commits it as one undo step through the workspace history, or Close / a changed motion drops it. Bytes and
 * documents stay out of Vue's reactivity.
 */
import { defineStore } from 'pinia';
import { reactive, ref } from 'vue';
import type { IkBakedMotion, IkBakeReport } from '../../../shared/bake/ik-bake';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { buildTracks, type MotionTracks } from '../../../shared/vmd/tracks';
import { boneName } from '../../../shared/vmd/records';
import { newReport } from '../../../shared/edit-core/report';
import { ikEnabledAt, ikSwitchesOf, type IkChain } from '../../../shared/skeleton/ik-switches';
import { ikBakeClient, type IkBakeSettings } from '../fit/ik-bake-client';
import { checkBakeFrames, checkBakeTolerance, useBakeJob } from './bake-job';
import { previewOverlay, useFitPreviewStore, type FitPlot, type FitPreviewResult } from './fit-preview';
import { useSelectionStore } from './selection';
import { useHistoryStore } from './history';
import { useNotifyStore, type NoticeText } from './notify';
import { usePreviewStore } from './preview';
import { useWorkspaceStore } from './workspace';

/** The form as typed (strings, so a half-typed number is kept as it is). */
export interface IkBakeForm {
  from: string;
  to: string;
  rotTol: string;
  raw: boolean;
  /** The IK bones ticked, by name; null until the user ticks or unticks one: those on somewhere in the range. */
  bones: string[] | null;
}

/** A field's problem: the message key and its parameters. */
export interface IkBakeFieldError {
  key: 'bake.err.integer' | 'bake.err.order' | 'bake.err.positive' | 'ikBake.noneTicked';
  params?: Record<string, string | NoticeText>;
}

/** The form checked: the bake's settings, or per-field errors. Ticks left as they came (null) leave the engine its default. */
export function checkIkBakeForm(f: IkBakeForm): { settings: IkBakeSettings; errors: Partial<Record<keyof IkBakeForm, IkBakeFieldError>> } {
  const errors: Partial<Record<keyof IkBakeForm, IkBakeFieldError>> = {};
  const settings: IkBakeSettings = { raw: f.raw };
  const frames = checkBakeFrames(f);
  Object.assign(errors, frames.errors);
  settings.from = frames.from;
  settings.to = frames.to;
  const rot = checkBakeTolerance(f.rotTol, 'bake.rotTol');
  if (rot.error) errors.rotTol = rot.error;
  else if (rot.value !== undefined) settings.rotationToleranceDeg = rot.value;
  if (f.bones) {
    if (f.bones.length === 0) errors.bones = { key: 'ikBake.noneTicked' };
    else settings.bones = [...f.bones];
  }
  return { settings, errors };
}

/** The legs' IK chains (足ＩＫ, つま先ＩＫ): by the IK's name, or a chain turning a knee or an ankle. */
export function legIkBones(chains: readonly IkChain[]): string[] {
  const leg = /(足|つま先)[ＩI][ＫK]/;
  const limb = /ひざ|膝|足首/;
  return chains.filter((c) => leg.test(c.ik) || c.links.some((l) => limb.test(l))).map((c) => c.ik);
}

/**
 * The IK bones of `names` that the motion has on somewhere in from..to (at `from`, or at an IK key inside it), as
 * the engine picks its default: the dialog's ticks before the user changes them.
 */
export function ikOnInRange(names: readonly string[], doc: VmdDocument, tracks: MotionTracks, from: number, to: number): string[] {
  const sw = ikSwitchesOf(doc, tracks);
  const frames = [from, ...Array.from(sw.frames).filter((f) => f > from && f <= to)];
  return names.filter((n) => frames.some((f) => ikEnabledAt(sw, n, f)));
}

/** A finished bake waiting for Apply: of this document (the history's current one) and this model. */
export interface IkBakeResult {
  input: VmdDocument;
  output: VmdDocument;
  report: IkBakeReport;
  modelPath: string;
  /**
   * What the plot and the curve pane draw: `before` the output as a raw bake keys it (the baked links at every frame
   * of the range with the IK's pose: ikBake's perFrame; the input where the bake gave none), `after` the output.
   */
  plot: FitPreviewResult;
}

/**
 * The plot of one baked link's rotation (channel 3: its angle from rest, degrees) over the bake's range, `n` samples:
 * the IK's pose frame by frame (grey), the fitted keys played (orange), and where the kept keys are.
 */
export function ikBakePlot(r: Pick<IkBakeResult, 'plot'>, bone: string, n: number): FitPlot | null {
  return previewOverlay(r.plot, 'bone', bone, 3, n);
}

/**
 * The link the plot shows by default: `active` (the active key's or row's bone, or the bone picked in the view) when
 * it is one of the baked links, else the first link of the first IK switched off (足ＩＫ → its first link, the knee),
 * else the first baked link.
 */
export function defaultPlotLink(report: Pick<IkBakeReport, 'bones' | 'ikOff'>, chains: readonly IkChain[] | null, active: string | null): string | null {
  if (active && report.bones.includes(active)) return active;
  for (const ik of report.ikOff) {
    const link = chains?.find((c) => c.ik === ik)?.links.find((l) => report.bones.includes(l));
    if (link) return link;
  }
  return report.bones[0] ?? null;
}

export const useIkBakeStore = defineStore('ik-bake', () => {
  const form = reactive<IkBakeForm>({ from: '', to: '', rotTol: '', raw: false, bones: null });
  const job = useBakeJob<IkBakeSettings, IkBakedMotion, IkBakeResult>({
    run: (model, motion, settings, progress, signal) => ikBakeClient().run(model, motion, settings, progress, signal),
    cancelledKey: 'ikBake.cancelled',
    droppedKey: 'ikBake.droppedLine',
    // A model without IK or a name it lacks names the model; IK off over the range and the rest, the motion.
    modelSide: (e) => e.code.startsWith('E_PMX') || (e.code === 'E_IK' && e.params?.reason !== 'off'),
    // The curve pane's overlay of the result goes with it.
    onDrop: () => useFitPreviewStore().clear(),
  });
  const { open, running, result, failure, cancelled, dropped, drop, cancel, close, modelPath } = job;
  /** The link the plot shows: the user's pick from the list, or null for the default (defaultPlotLink). */
  const plotPick = ref<string | null>(null);

  /** The active bone: the active key's, else the active row's, else the one picked in the view; null for none. */
  function activeBone(): string | null {
    const cur = useHistoryStore().current();
    const sel = useSelectionStore();
    if (cur && sel.active?.kind === 'bone' && sel.active.record < cur.doc.bone.count) return boneName(cur.doc.bone, sel.active.record);
    if (cur && sel.activeTrack?.kind === 'bone') {
      const name = cur.tracks.bones.names[sel.activeTrack.track];
      if (name !== undefined) return name;
    }
    return usePreviewStore().picked?.name ?? null;
  }

  /** The baked link the plot shows (null: no result). */
  function plotBone(): string | null {
    const r = result.value;
    if (!r) return null;
    if (plotPick.value && r.report.bones.includes(plotPick.value)) return plotPick.value;
    return defaultPlotLink(r.report, chains(), activeBone());
  }

  /** The model's IK chains as the preview read it (null: not read yet, or another model shown). */
  function chains(): IkChain[] | null {
    const path = modelPath();
    const p = usePreviewStore();
    if (!path || !p.model || p.model.path !== path) return null;
    return p.modelOutline?.ikChains ?? null;
  }

  /** The model's IK bones, in model order (empty until the preview has read it). */
  function ikBones(): string[] {
    return (chains() ?? []).map((c) => c.ik);
  }

  /** Why Bake IK to FK… cannot run: no model file for the active actor, or a model without IK bones; else null. */
  function unavailable(): NoticeText | null {
    const path = modelPath();
    if (!path) return { key: 'ikBake.offNoModel' };
    const c = chains();
    if (c && c.length === 0) return { key: 'ikBake.offNone', params: { model: usePreviewStore().model!.name } };
    return null;
  }

  /** The range as the form gives it, with the engine's defaults (0 to the last key). */
  function range(): { from: number; to: number } | null {
    const cur = useHistoryStore().current();
    if (!cur) return null;
    const { settings } = checkIkBakeForm(form);
    const from = settings.from ?? 0;
    return { from, to: settings.to ?? Math.max(from, cur.tracks.lastFrame) };
  }

  /** The IK bones ticked: the user's, or those the motion has on somewhere in the range. */
  function ticked(): string[] {
    if (form.bones) return form.bones;
    const cur = useHistoryStore().current();
    const r = range();
    if (!cur || !r) return [];
    return ikOnInRange(ikBones(), cur.doc, cur.tracks, r.from, r.to);
  }

  /** Ticks or unticks one IK bone (the list then is the user's, in model order). */
  function tick(name: string, on: boolean) {
    const now = new Set(ticked());
    if (on) now.add(name);
    else now.delete(name);
    form.bones = ikBones().filter((b) => now.has(b));
    drop();
  }

  /** "Legs only": 足ＩＫ and つま先ＩＫ ticked, every other IK bone not; "All": every IK bone. */
  function tickLegs() {
    form.bones = legIkBones(chains() ?? []);
    drop();
  }
  function tickAll() {
    form.bones = ikBones();
    drop();
  }

  /** Opens the dialog; on another motion or model than last time, from the whole motion and the IK it has on. */
  function show() {
    job.show(() => {
      form.from = '';
      form.to = '';
      form.bones = null;
    });
  }

  /** Bakes the active motion's IK on the active actor's model; true when a result is waiting for Apply. */
  async function bake(): Promise<boolean> {
    const cur = useHistoryStore().current();
    const path = modelPath();
    const { settings, errors } = checkIkBakeForm(form);
    if (!cur || !path || Object.keys(errors).length || running.value) return false;
    plotPick.value = null;
    return job.run(cur, path, settings, ({ report, perFrame }, output) => {
      // Keys at one per frame against the keys kept, with the largest error, as the curve pane's figures say them.
      const rep = newReport('bake');
      rep.extra = { keysBefore: report.rawKeys, keysAfter: report.keptKeys, maxPositionError: report.maxPositionError, maxRotationErrorDeg: report.maxRotationErrorDeg, maxMorphError: 0 };
      const plot: FitPreviewResult = { before: buildTracks(perFrame ?? cur.doc), after: buildTracks(output), report: rep, factor: 1, span: { from: report.from, to: report.to } };
      // The curve pane overlays the whole track (no span): the IK's pose and the keys, for the active track.
      useFitPreviewStore().set({ ...plot, span: undefined });
      return { input: cur.doc, output, report, modelPath: path, plot };
    });
  }

  /** Commits the waiting result as one undo step; true when the document changed. */
  function apply(): boolean {
    return job.apply('ikBake.open', (r) => {
      useNotifyStore().success({ key: 'ikBake.applied', params: { name: useWorkspaceStore().fileName, kept: r.report.keptKeys, bones: r.report.bones.length, iks: r.report.ikOff.join(', ') } });
    });
  }

  return { open, form, running, result, failure, cancelled, dropped, plotPick, modelPath, chains, ikBones, unavailable, range, ticked, tick, tickLegs, tickAll, plotBone, show, bake, cancel, apply, close, drop };
});
