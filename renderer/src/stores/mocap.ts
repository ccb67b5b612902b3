/**
 * The motion capture import in progress (a BVH or VRM Animation opened: shell/app-actions.ts openAny):
 * the source's bytes, the model it goes onto (the active actor's by default), the options, the map rows
 * the person changed, and the last conversion — its VMD (decoded once, held raw), report and map table.
 * The conversion runs in main's worker (importMocap); `running` is the one in flight, with its fit's progress
 * (mocapProgress events), and `cancel()` stops it.
 * While a result is here the preview shows it on the model (`previewMotion`, read by preview/use-preview.ts)
 * and the time line runs over it; Import adds it to the workspace as a new, unsaved motion (stores/scene.ts
 * addImported), Close drops it. Nothing here is in the workspace or the history until Import.
 * A model chosen in the dialog is lent the preview (`lent`): the preview shows it playing the result while
 * the active actor keeps its own model (stores/scene.ts leaves it alone while lent); Close gives the preview
 * its model back, Import keeps it (the new motion is on that model).
 * A VRM Animation's expressions become morph keys through the expression table (`expressionTable`): the
 * built-in rows (aa → あ, blink → まばたき, …) with the rows the person set (`morphRows`) over them.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { MocapFormat, MocapImportResult, MocapOptions } from '../../../shared/ipc/mocap-types';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { buildTracks, type MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { mappingCsv, parseMapping } from '../../../shared/motion-ops/rename';
import { extensionOf, mocapFormatOf } from '../../../shared/ipc/file-types';
import type { CodecError } from '../../../shared/vmd/errors';
import { DEFAULT_EXPRESSION_MAP, defaultMorphOf } from '../../../shared/bvh/vrma';
import { useApi } from '../api';
import { usePreviewStore } from './preview';
import { fileNameOf } from '../paths';
import { useTimeStore } from './time';
import { useWorkspaceStore } from './workspace';

export interface MocapSource {
  name: string;
  /** The file's path when main read it (Open, a drop under Electron); null for a browser's drop. */
  path: string | null;
  format: MocapFormat;
  bytes: Uint8Array;
}

/** A conversion's result as the dialog and the preview use it. */
export interface MocapResult extends MocapImportResult {
  doc: VmdDocument;
  tracks: MotionTracks;
  /** What it was made from: the model, options and rows (Import commits it only while these still hold). */
  key: string;
}

/** The format a file name says, or null (shared with the CLI's inspect and the batch). */
export { mocapFormatOf };

/** One row of the expression table: an expression, the morph its keys go to (null: left out), and where the row comes from. */
export interface ExpressionRow {
  expression: string;
  morph: string | null;
  /** The VRM Animation has this expression (else it is a built-in row shown so the table is whole). */
  inFile: boolean;
  /** The person set this row (or a map file did). */
  edited: boolean;
  /** The morph is one of the model's (false: no keys would play). */
  inModel: boolean;
}

let jobCounter = 0;

export const useMocapStore = defineStore('mocap', () => {
  const source = shallowRef<MocapSource | null>(null);
  const modelPath = ref<string | null>(null);
  /**
   * The motion goes onto the standard MMD skeleton (the preview's built-in figure) instead of a model
   * file: what an import with no model shown starts with, so a capture opened first plays at once.
   */
  const standard = ref(false);
  const options = ref<MocapOptions>({});
  /** Map rows the person set (or a map file loaded): joint → part or MMD bone ('-' unmaps). */
  const rows = ref<Record<string, string>>({});
  /** Expression rows the person set (or a map file's "morphs"): expression → morph ('-' leaves it out). VRM Animation only. */
  const morphRows = ref<Record<string, string>>({});
  /** The preview's own model while the dialog shows another one on it (its path, or null for the figure). */
  const lent = shallowRef<{ before: string | null } | null>(null);
  const result = shallowRef<MocapResult | null>(null);
  /** The conversion in flight: its fit's tracks done of total once main reports them (0 of 0 while it retargets). */
  const running = ref<{ id: string; startedAt: number; done: number; total: number } | null>(null);
  let unsubscribe: (() => void) | null = null;
  function listen() {
    if (unsubscribe) return;
    unsubscribe = useApi().onMocapProgress((p) => {
      if (running.value?.id === p.id) running.value = { ...running.value, done: p.done, total: p.total };
    });
  }
  const error = shallowRef<CodecError | null>(null);
  /** Bumped when the previewed motion changes (the preview re-binds). */
  const previewVersion = ref(0);

  const open = computed(() => source.value !== null);
  const currentKey = computed(() => JSON.stringify([standard.value ? null : modelPath.value, options.value, rows.value, morphRows.value]));
  /** The motion the preview shows instead of the document's, while the dialog holds a result. */
  const previewMotion = computed(() => (result.value ? { doc: result.value.doc, tracks: result.value.tracks } : null));
  /** A result made from what the dialog shows now (else Import converts first). */
  const current = computed(() => !!result.value && result.value.key === currentKey.value);

  function syncTime() {
    const time = useTimeStore();
    const ws = useWorkspaceStore();
    time.pause();
    time.setRange(Math.max(ws.lastFrame(), result.value?.tracks.lastFrame ?? 0));
  }

  function setResult(r: MocapResult | null) {
    result.value = r ? markRaw(r) : null;
    previewVersion.value++;
    syncTime();
  }

  /**
   * Starts an import of `src` onto `model` (the preview's; null: the standard skeleton, on the figure the
   * preview shows then) and converts with the defaults.
   */
  async function begin(src: MocapSource, model: string | null): Promise<void> {
    if (running.value) await cancel();
    if (lent.value) model = giveBack();
    source.value = markRaw({ ...src, bytes: markRaw(src.bytes) });
    modelPath.value = model;
    standard.value = model === null;
    // The capture starts at the origin unless the person unticks it (import-bvh --origin): a path that
    // begins metres away walks out of the preview and out of the scene (MMD's BVH loaders place it so too).
    options.value = { origin: true };
    rows.value = {};
    morphRows.value = {};
    error.value = null;
    setResult(null);
    await convert();
  }

  /** Converts the source with the dialog's model, options and rows; the result replaces the last one. */
  async function convert(): Promise<boolean> {
    const src = source.value;
    // null: the standard skeleton.
    const model = standard.value ? null : modelPath.value;
    if (!src || (model === null && !standard.value)) return false;
    if (running.value) await cancel();
    const id = `mocap-${Date.now().toString(36)}-${++jobCounter}`;
    const key = currentKey.value;
    listen();
    running.value = { id, startedAt: Date.now(), done: 0, total: 0 };
    error.value = null;
    const map = Object.entries(rows.value);
    const morphs = Object.entries(morphRows.value);
    const opts = Object.fromEntries(Object.entries(options.value).filter(([, v]) => v !== undefined && !(typeof v === 'number' && !Number.isFinite(v)))) as MocapOptions;
    try {
      // A model dropped on a browser's window has no path main could read: its bytes go with the job.
      const modelBytes = usePreviewStore().droppedBytes(model);
      const r = await useApi().importMocap({ id, format: src.format, name: src.path ?? src.name, bytes: src.bytes, model, ...(modelBytes ? { modelBytes } : {}), options: opts, ...(map.length ? { map } : {}), ...(morphs.length && src.format === 'vrma' ? { morphs } : {}) });
      if (running.value?.id !== id) return false; // cancelled, or another conversion started
      if (!r.ok) {
        if (r.error.code !== 'E_CANCELLED') error.value = r.error;
        return false;
      }
      const d = readVmd(r.value.vmd);
      if (!d.ok) {
        error.value = { ...d.error, file: src.name };
        return false;
      }
      setResult({ ...r.value, vmd: markRaw(r.value.vmd), doc: markRaw(d.value), tracks: markRaw(buildTracks(d.value)), key });
      return true;
    } finally {
      if (running.value?.id === id) running.value = null;
    }
  }

  /** Stops the conversion in flight (the last result stays). */
  async function cancel(): Promise<void> {
    const r = running.value;
    if (!r) return;
    running.value = null;
    await useApi().cancelMocap(r.id);
  }

  /** Sets one row of the map table: a part or an MMD bone, '-' to unmap; null goes back to the built-in or guessed row. */
  function setRow(joint: string, target: string | null) {
    const next = { ...rows.value };
    if (target === null) delete next[joint];
    else next[joint] = target;
    rows.value = next;
  }

  /**
   * The model the motion goes onto, chosen in the dialog: the preview shows it (lent until Close or Import),
   * then the source is converted onto it.
   */
  async function chooseModel(path: string): Promise<boolean> {
    const preview = usePreviewStore();
    const shown = preview.model?.path ?? null;
    if (shown !== path) {
      if (!lent.value) lent.value = { before: shown };
      if (lent.value.before === path) lent.value = null;
      preview.requestModel({ path });
    }
    modelPath.value = path;
    standard.value = false;
    return convert();
  }

  /** The standard MMD skeleton instead of a model: the preview shows its figure (lent until Close), and the source is converted onto it. */
  async function chooseStandard(): Promise<boolean> {
    const preview = usePreviewStore();
    const shown = preview.model?.path ?? null;
    if (shown !== null) {
      if (!lent.value) lent.value = { before: shown };
      preview.requestFigure();
    }
    modelPath.value = null;
    standard.value = true;
    return convert();
  }

  /** The preview's own model back (Close); returns it. */
  function giveBack(): string | null {
    const l = lent.value;
    if (!l) return null;
    lent.value = null;
    const preview = usePreviewStore();
    if (l.before) preview.requestModel({ path: l.before });
    else preview.requestFigure();
    return l.before;
  }

  /** Sets one expression row: a morph name, '' or '-' to leave it out; null goes back to the built-in row. */
  function setMorphRow(expression: string, morph: string | null) {
    const next = { ...morphRows.value };
    if (morph === null) delete next[expression];
    else next[expression] = morph.trim() === '' ? '-' : morph.trim();
    morphRows.value = next;
  }

  /** The expression table: the file's expressions (file order), then the built-in rows it lacks. */
  const expressionTable = computed<ExpressionRow[]>(() => {
    const r = result.value;
    if (!r || source.value?.format !== 'vrma') return [];
    const inFile = r.expressions ?? [];
    const morphs = new Set(r.modelMorphs ?? []);
    const names = [...inFile, ...Object.keys(DEFAULT_EXPRESSION_MAP).filter((e) => !inFile.includes(e))];
    return names.map((expression) => {
      const set = morphRows.value[expression];
      // As the conversion (shared/bvh/vrma.ts): the row, else the built-in one, else a morph of the expression's own name.
      const base = defaultMorphOf(expression, (x) => morphs.has(x)) ?? (morphs.has(expression) ? expression : null);
      const morph = set === undefined ? base : set === '-' || set === '' ? null : set;
      return { expression, morph, inFile: inFile.includes(expression), edited: set !== undefined, inModel: morph !== null && morphs.has(morph) };
    });
  });

  /** Loads a map file's rows (CSV or JSON, as --map): they replace the rows set so far. */
  async function loadMap(file: string): Promise<CodecError | null> {
    const r = await useApi().readMapFile(file);
    if (!r.ok) return r.error;
    const text = new TextDecoder('utf-8').decode(r.value.bytes);
    const m = parseMapping(text, extensionOf(file) === '.json' ? 'json' : undefined);
    if (!m.ok) return { code: 'E_ARGUMENT', message: m.error.message, file: r.value.path, line: (m.error as { line?: number }).line };
    rows.value = Object.fromEntries(m.value.bones);
    morphRows.value = Object.fromEntries(m.value.morphs);
    return null;
  }

  /**
   * Saves the map table as a map file: every joint of the table with its part ('-' for none), so the file
   * gives the same map whatever the built-in tables become.
   */
  async function saveMap(file: string, overwrite: boolean): Promise<CodecError | null> {
    const r = result.value;
    if (!r) return { code: 'E_ARGUMENT', message: 'nothing converted yet' };
    if (source.value?.format === 'vrma') {
      // The expression table whole, as --map's JSON "morphs" section ('-' for a row left out).
      const morphs = Object.fromEntries(expressionTable.value.map((x) => [x.expression, x.morph ?? '-']));
      const w = await useApi().saveMapFile(file, new TextEncoder().encode(JSON.stringify({ morphs }, null, 2) + '\n'), { overwrite });
      return w.ok ? null : w.error;
    }
    const list: [string, string][] = r.joints.map((j) => [j.joint, j.part ?? '-']);
    const bytes = new TextEncoder().encode(extensionOf(file) === '.json' ? JSON.stringify(Object.fromEntries(list), null, 2) + '\n' : mappingCsv(list));
    const w = await useApi().saveMapFile(file, bytes, { overwrite });
    return w.ok ? null : w.error;
  }

  /**
   * Closes the import: the preview goes back to the document (and to its own model, unless `keepModel`:
   * Import, whose new motion is on the dialog's model), the time line to the workspace's motions.
   */
  async function close(keepModel = false): Promise<void> {
    await cancel();
    if (keepModel) lent.value = null;
    else giveBack();
    source.value = null;
    error.value = null;
    setResult(null);
  }

  /** The import's file name as a motion ("walk.bvh" → "walk.vmd"). */
  const vmdName = computed(() => {
    const n = source.value ? fileNameOf(source.value.name) : '';
    return n.replace(/\.(bvh|vrma)$/i, '') + '.vmd';
  });

  return { source, modelPath, standard, chooseStandard, options, rows, morphRows, lent, result, running, error, previewVersion, open, previewMotion, current, vmdName, expressionTable, begin, convert, cancel, chooseModel, setRow, setMorphRow, loadMap, saveMap, close };
});
