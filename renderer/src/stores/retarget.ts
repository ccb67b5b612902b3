/**
 * "Fit this motion to the model…" (issue 28's editor part): an actor whose motion names another model
 * (the VMD header's model name) than the actor's is retargeted (shared/retarget) from the model it was
 * made for (the source, chosen by the user) onto the actor's model (the target). While the panel is
 * open the preview shows the source ghosted beside the target (preview/ghost-actor.ts), the source
 * playing the motion as it is and the target the result, in step; the report says what was folded,
 * scaled, re-fitted and left unmatched; a map (a --map file in the rename-map format, and rows edited
 * here) settles names. The retarget runs in a worker (fit/retarget-client.ts) with progress and Cancel,
 * again after each change of the map or the scale switch. Apply replaces the actor's motion as one undo
 * step (the workspace's diffDocuments/commit: the header's model name goes with it and comes back on undo);
 * the first Save after it asks for a new file, STEM_<model>.vmd beside the original (DocumentStep.newFile).
 *
 * Motion data and models stay out of Vue's reactivity (markRaw), with `version` bumped when the result changes.
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import { useApi } from '../api';
import { readModel } from '../../../shared/pmx/model-reader';
import { standardFigureModel } from '../../../shared/skeleton/standard-figure';
import type { ModelData } from '../../../shared/pmx/model-types';
import { parseMapping } from '../../../shared/motion-ops/rename';
import { mappingFormatOf } from '../../../shared/batch/doc-edits';
import type { RetargetDetails } from '../../../shared/retarget/retarget';
import type { EditReport } from '../../../shared/edit-core/report';
import { diffDocuments, isEmptyDiff } from '../../../shared/key-edits';
import { decodeName, encodeSjis } from '../../../shared/vmd/sjis';
import { buildTracks, type MotionTracks } from '../../../shared/vmd/tracks';
import { writeVmd } from '../../../shared/vmd/vmd-writer';
import { modelNameField } from '../../../shared/vmd/model-name';
import { MODEL_NAME_LENGTH_V2 } from '../../../shared/vmd/vmd-layout';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { isCancelled, type CodecError } from '../../../shared/vmd/errors';
import { runRetarget } from '../fit/retarget-client';
import { fileNameOf, fittedFileName } from '../paths';
import { useWorkspaceStore } from './workspace';
import { useHistoryStore } from './history';
import { useNotifyStore, type NoticeError } from './notify';
import { useSettingsStore } from './settings';
import { useSelectionStore } from './selection';
import { useSceneStore } from './scene';
import { usePreviewStore } from './preview';

/**
 * A model's bytes by the path the panel knows it by: a model dropped on a browser's window has no path, only
 * its name, and its bytes are kept by the preview (droppedModels); any other is read through main.
 */
async function readModelBytes(path: string): Promise<{ ok: true; value: { path: string; bytes: Uint8Array; dropped: boolean } } | { ok: false; error: CodecError }> {
  const dropped = usePreviewStore().droppedBytes(path);
  if (dropped) return { ok: true, value: { path, bytes: dropped, dropped: true } };
  try {
    const r = await useApi().readModelFile(path);
    return r.ok ? { ok: true, value: { path: r.value.path, bytes: r.value.bytes, dropped: false } } : { ok: false, error: r.error as CodecError };
  } catch (e) {
    // The bridge itself failed (the browser mode's server gone): said, not left on "Reading the model…".
    return { ok: false, error: { code: 'E_IO', message: e instanceof Error ? e.message : String(e), file: path } };
  }
}

/**
 * The source path that stands for the standard MMD skeleton (the built-in figure): for a motion whose model
 * the person does not have, as `vmd-studio retarget` without --from. Not a file: it has no bytes, no
 * textures and no place in the recent list; the ghost is the figure.
 */
export const STANDARD_SOURCE = 'standard-skeleton:';

/** The settings' ui key holding the source models chosen before (JSON list of paths, newest first). */
export const RECENT_MODELS_SETTING = 'retarget.recentModels';
const RECENT_MAX = 8;
/** Wait this long after a change of the map or the scale before fitting again (typing a row). */
const REFIT_DELAY_MS = 400;

/** One row of the map: a motion bone (or morph) and the target's name for it. */
export interface MapRow {
  kind: 'bone' | 'morph';
  from: string;
  to: string;
}

/** The retarget shown: the motion it was computed from, the result, and what was done. */
export interface RetargetShown {
  input: VmdDocument;
  doc: VmdDocument;
  tracks: MotionTracks;
  details: RetargetDetails;
  report: EditReport;
}

/** The model name a motion's header gives (trimmed), or ''. */
export function motionModelName(doc: VmdDocument): string {
  return decodeName(doc.modelName).trim();
}

/**
 * Whether a motion whose header names `motionName` was made for another model than `modelName`: not
 * when it names none, nor when it is the model's name (cut at the header's field, as writers store it).
 */
export function namesAnotherModel(motionName: string, modelName: string, field = 20): boolean {
  const m = motionName.trim(), n = modelName.trim();
  if (!m || !n || m === n) return false;
  // A long model name is stored cut to the field's bytes (at a character boundary).
  return !(n.startsWith(m) && encodeSjis(m).length > field - 2);
}

// The report's key counts by what became of the motion's tracks: shared with the CLI's summary line.
export { retargetKeyCounts, type RetargetKeyCounts } from '../../../shared/retarget/key-counts';

function parseRecent(v: unknown): string[] {
  if (typeof v !== 'string') return [];
  try {
    const a = JSON.parse(v);
    return Array.isArray(a) ? a.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

let abort: AbortController | null = null;
let refitTimer: ReturnType<typeof setTimeout> | null = null;

export const useRetargetStore = defineStore('retarget', {
  state: () => ({
    open: false,
    /** The actor (workspace document id) whose motion is fitted. */
    actorId: null as number | null,
    /** The target: the actor's model file and its name. */
    targetPath: '',
    targetName: '',
    /** The model the motion names (its header). */
    motionName: '',
    /** The source model chosen (null: not yet). */
    sourcePath: null as string | null,
    sourceName: '',
    /** The map: rows from a loaded file and edited here; the file's name when one was loaded. */
    rows: [] as MapRow[],
    mapFile: null as string | null,
    scale: true,
    /** Keep the feet on the floor (足IK補正; the CLI's --no-floor turns it off). */
    floor: true,
    /** choose: asking for the source; loading: reading a model; running: fitting; ready: a result is shown; failed. */
    state: 'choose' as 'choose' | 'loading' | 'running' | 'ready' | 'failed',
    progress: null as { done: number; total: number } | null,
    error: null as CodecError | null,
    /** Bumped when what the preview shows changes (the source model, the result). */
    version: 0,
    /** Kept raw: the models' bytes and the source model, the result. */
    raw: markRaw({ source: null as ModelData | null, target: null as ModelData | null, sourceBytes: null as Uint8Array | null, targetBytes: null as Uint8Array | null, shown: null as RetargetShown | null }),
    /** Where the last run ran (tests read it: the worker is the point). */
    via: null as 'worker' | 'main' | null,
    /**
     * The last Apply: the actor, the source, the model name it wrote into the header, and what folding and
     * matching did; the preview's list of bones the model lacks says it while the motion still names that model.
     */
    applied: null as { actorId: number; source: string; modelName: string; folded: { bone: string; keys: number; into: string[] }[]; unmatched: { bone: string; keys: number }[] } | null,
  }),
  getters: {
    /** Source models offered besides Browse…: chosen before, and the scene's and preview's models (not the target). */
    recentModels(state): string[] {
      const settings = useSettingsStore();
      const list = [...parseRecent(settings.settings.ui[RECENT_MODELS_SETTING])];
      // The scene's other actors' models (a duet of two models is the usual case), and the preview's last.
      for (const e of useSceneStore().actors) if (e.model && !e.missingModel) list.push(e.model);
      if (settings.settings.previewModel) list.push(settings.settings.previewModel);
      return [...new Set(list)].filter((p) => p !== state.targetPath);
    },
    /** The result when it is ready (raw). */
    shown(state): RetargetShown | null {
      void state.version;
      return state.state === 'ready' ? state.raw.shown : null;
    },
  },
  actions: {
    /**
     * Opens the panel for an actor on a model (`targetPath`, named `targetName`): reads the target's bytes
     * for the worker; the source is asked for next.
     */
    async start(actorId: number, targetPath: string, targetName: string): Promise<boolean> {
      const d = useWorkspaceStore().get(actorId);
      if (!d) return false;
      this.reset();
      this.open = true;
      this.actorId = actorId;
      this.targetPath = targetPath;
      this.targetName = targetName;
      this.motionName = motionModelName(d.doc);
      this.state = 'loading';
      const r = await readModelBytes(targetPath);
      if (!this.open || this.actorId !== actorId) return false;
      if (!r.ok) return this.fail(r.error);
      const m = readModel(r.value.bytes);
      if (!m.ok) return this.fail({ ...m.error, file: r.value.path });
      this.raw.target = markRaw(m.value);
      this.raw.targetBytes = markRaw(r.value.bytes);
      this.state = 'choose';
      return true;
    },

    /** The source model chosen (a recent one, or through the file dialog): read, shown as the ghost, and fitted. */
    async chooseSource(path: string): Promise<boolean> {
      if (!this.open) return false;
      this.cancelRun();
      this.state = 'loading';
      this.error = null;
      const r = await readModelBytes(path);
      if (!this.open) return false;
      if (!r.ok) return this.fail(r.error);
      const m = readModel(r.value.bytes);
      if (!m.ok) return this.fail({ ...m.error, file: r.value.path });
      this.sourcePath = r.value.path;
      this.sourceName = m.value.name.trim() || fileNameOf(r.value.path);
      this.raw.source = markRaw(m.value);
      this.raw.sourceBytes = markRaw(r.value.bytes);
      this.raw.shown = null;
      this.version++;
      // A dropped model has a name, not a path: it is not offered again in a later session.
      if (r.value.dropped) return this.compute();
      const settings = useSettingsStore();
      const recent = [r.value.path, ...parseRecent(settings.settings.ui[RECENT_MODELS_SETTING]).filter((p) => p !== r.value.path)].slice(0, RECENT_MAX);
      void settings.update({ ui: { ...settings.settings.ui, [RECENT_MODELS_SETTING]: JSON.stringify(recent) } });
      return this.compute();
    },

    /** The standard MMD skeleton as the source (the built-in figure, as the CLI without --from): shown as the ghost, and fitted. */
    chooseStandardSource(): Promise<boolean> {
      if (!this.open) return Promise.resolve(false);
      this.cancelRun();
      this.error = null;
      this.sourcePath = STANDARD_SOURCE;
      this.sourceName = useSettingsStore().t('retarget.standardSource');
      this.raw.source = markRaw(standardFigureModel());
      this.raw.sourceBytes = null;
      this.raw.shown = null;
      this.version++;
      return this.compute();
    },

    /** A --map file's text (rename-map format: CSV or JSON): its rows replace the map's; fitted again. */
    loadMap(name: string, text: string): boolean {
      const fmt = mappingFormatOf(name);
      const m = fmt === null ? null : parseMapping(text, fmt);
      if (!m || !m.ok) {
        const message = m && !m.ok ? { key: `opt.${m.error.problem}` as const, params: { ...m.error.params, option: name } } : { key: 'opt.mapFormat' as const, params: { option: name } };
        useNotifyStore().error({ code: 'E_ARGUMENT', message, file: name });
        return false;
      }
      this.rows = [
        ...[...m.value.bones].map(([from, to]) => ({ kind: 'bone' as const, from, to })),
        ...[...m.value.morphs].map(([from, to]) => ({ kind: 'morph' as const, from, to })),
      ];
      this.mapFile = name;
      this.refitSoon(0);
      return true;
    },

    addRow(row: MapRow = { kind: 'bone', from: '', to: '' }) {
      this.rows = [...this.rows, row];
    },
    /** A row's names changed (typed or picked): fitted again after a pause. */
    setRow(i: number, row: MapRow) {
      if (i < 0 || i >= this.rows.length) return;
      this.rows = this.rows.map((r, j) => (j === i ? row : r));
      this.refitSoon();
    },
    removeRow(i: number) {
      this.rows = this.rows.filter((_, j) => j !== i);
      this.refitSoon();
    },
    setScale(on: boolean) {
      this.scale = on;
      this.refitSoon(0);
    },
    setFloor(on: boolean) {
      this.floor = on;
      this.refitSoon(0);
    },

    refitSoon(delay = REFIT_DELAY_MS) {
      if (refitTimer) clearTimeout(refitTimer);
      refitTimer = null;
      if (!this.raw.source) return;
      this.cancelRun();
      this.state = 'running';
      this.progress = null;
      refitTimer = setTimeout(() => {
        refitTimer = null;
        void this.compute();
      }, delay);
    },

    /**
     * Retargets the actor's motion as it is now, in the worker; a newer run (or Cancel) stops this one. When it
     * cannot run (the target model was not read, the actor is gone) it fails with a message: a panel left
     * 'loading' or 'running' would show its progress for good, with Apply disabled.
     */
    async compute(): Promise<boolean> {
      const ws = useWorkspaceStore();
      const d = this.actorId === null ? null : ws.get(this.actorId);
      const { sourceBytes, targetBytes } = this.raw;
      const standard = this.sourcePath === STANDARD_SOURCE;
      if (!this.open) return false;
      if (!d) return this.fail({ code: 'E_EDIT', message: { key: 'retarget.noActor' } });
      if (!targetBytes) return this.fail({ code: 'E_EDIT', message: { key: 'retarget.noTarget', params: { model: this.targetName || fileNameOf(this.targetPath) } }, file: this.targetPath });
      if ((!sourceBytes && !standard) || !this.sourcePath) return this.fail({ code: 'E_EDIT', message: { key: 'retarget.noSource' } });
      this.cancelRun();
      const ctl = new AbortController();
      abort = ctl;
      this.state = 'running';
      this.progress = null;
      this.error = null;
      const input = d.doc;
      const rows = this.rows.filter((r) => r.from.trim() && r.to.trim());
      const pairs = (kind: MapRow['kind']) => rows.filter((r) => r.kind === kind).map((r) => [r.from.trim(), r.to.trim()] as [string, string]);
      let out: Awaited<ReturnType<typeof runRetarget>>;
      try {
        out = await runRetarget(
          {
            motion: writeVmd(input),
            source: standard ? null : sourceBytes,
            target: targetBytes,
            sourceFile: this.sourcePath,
            targetFile: this.targetPath,
            bones: pairs('bone'),
            morphs: pairs('morph'),
            scale: this.scale,
            floor: this.floor,
          },
          (done, total) => {
            if (abort === ctl) this.progress = { done, total };
          },
          ctl.signal,
        );
      } catch (e) {
        // Never left "Fitting…": a run that threw (the worker and the main-thread fallback both) is said.
        if (abort !== ctl) return false;
        abort = null;
        return this.fail({ code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e), file: d.path ?? d.fileName });
      }
      if (abort !== ctl) return false;
      abort = null;
      if (!out.ok) return isCancelled(out) ? false : this.fail({ ...out.error, file: out.error.file ?? d.path ?? d.fileName });
      const { doc, details, report, via } = out.value;
      this.via = via;
      this.raw.shown = markRaw({ input, doc, tracks: markRaw(buildTracks(doc)), details, report });
      this.state = 'ready';
      this.version++;
      return true;
    },

    /**
     * Apply: the result replaces the actor's motion as one undo step (the actor made active first: steps
     * go to the active document). When the motion changed since it was fitted, it is fitted again first.
     */
    async apply(): Promise<boolean> {
      const shown = this.shown;
      const ws = useWorkspaceStore();
      if (!shown || this.actorId === null) return false;
      const d = ws.get(this.actorId);
      if (!d) return false;
      if (d.doc !== shown.input) {
        if (!(await this.compute())) return false;
        return this.apply();
      }
      if (ws.activeId !== d.id) ws.activate(d.id);
      const step = diffDocuments(shown.input, shown.doc, 'retarget.stepLabel');
      if (isEmptyDiff(step.diff)) {
        useNotifyStore().info({ key: 'retarget.unchanged', params: { name: d.fileName } });
        this.close();
        return false;
      }
      // Saved as a new file beside the original (STEM_<model>.vmd), as vmd_sizing does: the dance for its own model stays.
      useHistoryStore().commit(step, { newFile: fittedFileName(d.fileName, this.targetName || motionModelName(shown.doc)) });
      useSelectionStore().clear();
      const x = shown.details;
      this.applied = { actorId: d.id, source: this.sourceName, modelName: motionModelName(shown.doc), folded: x.folded, unmatched: x.unmatched };
      useWorkspaceStore().editNotice(x.unmatched.length || x.unmatchedMorphs.length ? 'warning' : 'success', { key: 'retarget.applied', params: { name: d.fileName, model: this.targetName } }, {
        key: 'retarget.appliedDetail',
        params: { folded: x.folded.length, scaled: x.scaled.length, refitted: x.refitted.length, unmatched: x.unmatched.length, morphs: x.unmatchedMorphs.length },
      });
      // The header holds 20 bytes of the target's name: a longer one is cut as MMD cuts it, and said (as the CLI does).
      const cut = modelNameField(this.targetName, shown.doc.modelName.length || MODEL_NAME_LENGTH_V2);
      if (cut.note && motionModelName(shown.doc) === cut.written.trim()) useNotifyStore().warning({ key: `note.${cut.note.code}` as 'note.W_MODEL_NAME_LONG', params: cut.note.params });
      this.close();
      return true;
    },

    /** Stops a run in progress (its result is dropped). */
    cancelRun() {
      if (refitTimer) clearTimeout(refitTimer);
      refitTimer = null;
      abort?.abort();
      abort = null;
    },

    /** Cancel or after Apply: the panel closes, the ghost goes, the actor plays its own motion again. */
    close() {
      this.cancelRun();
      this.reset();
    },

    fail(e: CodecError | NoticeError): false {
      this.state = 'failed';
      this.error = e as CodecError;
      useNotifyStore().error(e);
      return false;
    },

    reset() {
      this.open = false;
      this.actorId = null;
      this.targetPath = '';
      this.targetName = '';
      this.motionName = '';
      this.sourcePath = null;
      this.sourceName = '';
      this.rows = [];
      this.mapFile = null;
      this.scale = true;
      this.floor = true;
      this.state = 'choose';
      this.progress = null;
      this.error = null;
      this.via = null;
      this.raw = markRaw({ source: null, target: null, sourceBytes: null, targetBytes: null, shown: null });
      this.version++;
    },
  },
});
