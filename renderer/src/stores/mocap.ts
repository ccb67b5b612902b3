/**
 * The motion capture import in progress (a BVH or VRM Animation opened: shell/app-actions.ts openAny):
 * the source's bytes, the model it goes onto (the active actor's by default), the options, the map rows
 * the person changed, and the last conversion — its VMD (decoded once, held raw), report and map table.
 * The conversion runs in main's worker (importMocap); `running` is the one in flight, with its fit's progress
 * (mocapProgress events), and `cancel()` stops it.
 * While a result is here the preview shows it on the model (`previewMotion`, read by preview/use-preview.ts)
 * and the time line runs over it; Import adds it to the workspace as a new, unsaved motion (stores/scene.ts
 * addImported), Close drops it. Nothing here is in the workspace or the history until Import.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef } from 'vue';
import type { MocapFormat, MocapImportResult, MocapOptions } from '../../../shared/ipc/mocap-types';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { buildTracks, type MotionTracks } from '../../../shared/vmd/tracks';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { parseMapping } from '../../../shared/motion-ops/rename';
import { extensionOf } from '../../../shared/ipc/file-types';
import type { CodecError } from '../../../shared/vmd/errors';
import { useApi } from '../api';
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

/** The format a file name says, or null. */
export function mocapFormatOf(name: string): MocapFormat | null {
  const e = extensionOf(name);
  return e === '.bvh' ? 'bvh' : e === '.vrma' ? 'vrma' : null;
}

/** Rows as a map file (the CLI's --map CSV): `joint,target` per line, quoted where a name holds `,` or `"`. */
export function mapFileText(rows: [string, string][]): string {
  const q = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return rows.map(([j, t]) => `${q(j)},${q(t)}`).join('\n') + '\n';
}

let jobCounter = 0;

export const useMocapStore = defineStore('mocap', () => {
  const source = shallowRef<MocapSource | null>(null);
  const modelPath = ref<string | null>(null);
  const options = ref<MocapOptions>({});
  /** Map rows the person set (or a map file loaded): joint → part or MMD bone ('-' unmaps). */
  const rows = ref<Record<string, string>>({});
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
  const currentKey = computed(() => JSON.stringify([modelPath.value, options.value, rows.value]));
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

  /** Starts an import of `src` onto `model` (null: the dialog asks for one) and converts with the defaults. */
  async function begin(src: MocapSource, model: string | null): Promise<void> {
    if (running.value) await cancel();
    source.value = markRaw({ ...src, bytes: markRaw(src.bytes) });
    modelPath.value = model;
    options.value = {};
    rows.value = {};
    error.value = null;
    setResult(null);
    if (model) await convert();
  }

  /** Converts the source with the dialog's model, options and rows; the result replaces the last one. */
  async function convert(): Promise<boolean> {
    const src = source.value, model = modelPath.value;
    if (!src || !model) return false;
    if (running.value) await cancel();
    const id = `mocap-${Date.now().toString(36)}-${++jobCounter}`;
    const key = currentKey.value;
    listen();
    running.value = { id, startedAt: Date.now(), done: 0, total: 0 };
    error.value = null;
    const map = Object.entries(rows.value);
    const opts = Object.fromEntries(Object.entries(options.value).filter(([, v]) => v !== undefined && !(typeof v === 'number' && !Number.isFinite(v)))) as MocapOptions;
    try {
      const r = await useApi().importMocap({ id, format: src.format, name: src.path ?? src.name, bytes: src.bytes, model, options: opts, ...(map.length ? { map } : {}) });
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

  /** Loads a map file's rows (CSV or JSON, as --map): they replace the rows set so far. */
  async function loadMap(file: string): Promise<CodecError | null> {
    const r = await useApi().readMapFile(file);
    if (!r.ok) return r.error;
    const text = new TextDecoder('utf-8').decode(r.value.bytes);
    const m = parseMapping(text, extensionOf(file) === '.json' ? 'json' : undefined);
    if (!m.ok) return { code: 'E_ARGUMENT', message: m.error.message, file: r.value.path, line: (m.error as { line?: number }).line };
    rows.value = Object.fromEntries(m.value.bones);
    return null;
  }

  /**
   * Saves the map table as a map file: every joint of the table with its part ('-' for none), so the file
   * gives the same map whatever the built-in tables become.
   */
  async function saveMap(file: string, overwrite: boolean): Promise<CodecError | null> {
    const r = result.value;
    if (!r) return { code: 'E_ARGUMENT', message: 'nothing converted yet' };
    const list: [string, string][] = r.joints.map((j) => [j.joint, j.part ?? '-']);
    const bytes = new TextEncoder().encode(extensionOf(file) === '.json' ? JSON.stringify(Object.fromEntries(list), null, 2) + '\n' : mapFileText(list));
    const w = await useApi().saveMapFile(file, bytes, { overwrite });
    return w.ok ? null : w.error;
  }

  /** Closes the import: the preview goes back to the document, the time line to the workspace's motions. */
  async function close(): Promise<void> {
    await cancel();
    source.value = null;
    error.value = null;
    setResult(null);
  }

  /** The import's file name as a motion ("walk.bvh" → "walk.vmd"). */
  const vmdName = computed(() => {
    const n = source.value ? fileNameOf(source.value.name) : '';
    return n.replace(/\.(bvh|vrma)$/i, '') + '.vmd';
  });

  return { source, modelPath, options, rows, result, running, error, previewVersion, open, previewMotion, current, vmdName, begin, convert, cancel, setRow, loadMap, saveMap, close };
});
