/**
 * Whole Motion → Bake IK to FK… (「IKをFKに焼き込み…」): the pose the IK gives the active actor's model under the
 * active motion written as rotation keys of the chains' bones, with those IK bones switched off over the range
 * (shared/bake/ik-bake.ts, the CLI's `ik-bake` engine), run in the IK-bake worker (fit/ik-bake-client.ts) with
 * progress and Cancel. Which IK bones: the model's, ticked as the motion has them on in the range until the user
 * ticks otherwise ("Legs only": 足ＩＫ and つま先ＩＫ). The result waits with its figures (raw → kept keys, the
 * largest error, the IK switched off) until Apply commits it as one undo step through the workspace history, or
 * Close / a changed motion drops it. Bytes and documents stay out of Vue's reactivity.
 */
import { defineStore } from 'pinia';
import { reactive } from 'vue';
import type { IkBakedMotion, IkBakeReport } from '../../../shared/bake/ik-bake';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import { ikEnabledAt, ikSwitchesOf, type IkChain } from '../../../shared/skeleton/ik-switches';
import { ikBakeClient, type IkBakeSettings } from '../fit/ik-bake-client';
import { checkBakeFrames, checkBakeTolerance, useBakeJob } from './bake-job';
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
}

export const useIkBakeStore = defineStore('ik-bake', () => {
  const form = reactive<IkBakeForm>({ from: '', to: '', rotTol: '', raw: false, bones: null });
  const job = useBakeJob<IkBakeSettings, IkBakedMotion, IkBakeResult>({
    run: (model, motion, settings, progress, signal) => ikBakeClient().run(model, motion, settings, progress, signal),
    cancelledKey: 'ikBake.cancelled',
    droppedKey: 'ikBake.droppedLine',
    // A model without IK or a name it lacks names the model; IK off over the range and the rest, the motion.
    modelSide: (e) => e.code.startsWith('E_PMX') || (e.code === 'E_IK' && e.params?.reason !== 'off'),
  });
  const { open, running, result, failure, cancelled, dropped, drop, cancel, close, modelPath } = job;

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
    return job.run(cur, path, settings, ({ report }, output) => ({ input: cur.doc, output, report, modelPath: path }));
  }

  /** Commits the waiting result as one undo step; true when the document changed. */
  function apply(): boolean {
    return job.apply('ikBake.open', (r) => {
      useNotifyStore().success({ key: 'ikBake.applied', params: { name: useWorkspaceStore().fileName, kept: r.report.keptKeys, bones: r.report.bones.length, iks: r.report.ikOff.join(', ') } });
    });
  }

  return { open, form, running, result, failure, cancelled, dropped, modelPath, chains, ikBones, unavailable, range, ticked, tick, tickLegs, tickAll, show, bake, cancel, apply, close, drop };
});
