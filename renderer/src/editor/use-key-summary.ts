/**
 * The key inspector's summary of the selected keys (shared/key-edits/mixed-values.ts KeySummarizer),
 * kept current as the selection and the document change. A selection of up to SYNC_KEYS keys is read at
 * once; a larger one (Ctrl+A on 600,000 keys) in slices of SLICE_MS between frames, so the window never
 * freezes on it: meanwhile the inspector shows the count with every field mixed (`pending` is true), and
 * a newer selection or edit drops the slices still to run.
 */
import { onBeforeUnmount, ref, shallowRef, watch } from 'vue';
import { KeySummarizer, type KeySummary } from '../../../shared/key-edits';
import type { VmdDocument } from '../../../shared/vmd/vmd-document';
import { useWorkspaceStore } from '../stores/workspace';
import { useSelectionStore } from '../stores/selection';

/** Selections up to this many keys are summarised at once (a few ms). */
export const SYNC_KEYS = 20_000;
/** Main-thread time one slice of a large summary may take. */
const SLICE_MS = 6;

export function useKeySummary() {
  const docStore = useWorkspaceStore();
  const sel = useSelectionStore();
  const summary = shallowRef<KeySummary | null>(null);
  const pending = ref(false);
  let job = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function stop() {
    job++;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function restart() {
    stop();
    const a = sel.active, doc = docStore.doc as VmdDocument | null;
    const s = a && doc ? KeySummarizer.start(doc, { kind: a.kind, record: a.record }) : null;
    if (!a || !s) {
      summary.value = null;
      pending.value = false;
      return;
    }
    const set = sel.sets[a.kind];
    if (set.size <= SYNC_KEYS) {
      set.forEach((r) => s.add(r));
      summary.value = s.result();
      pending.value = false;
      return;
    }
    const records = set.toArray();
    const total = records.length + (set.has(a.record) ? 0 : 1);
    summary.value = s.provisional(total);
    pending.value = true;
    const id = job;
    let i = 0;
    const slice = () => {
      timer = null;
      if (id !== job) return;
      const t0 = performance.now();
      while (i < records.length) {
        const end = Math.min(records.length, i + 1024);
        for (; i < end; i++) s.add(records[i]);
        if (performance.now() - t0 > SLICE_MS) break;
      }
      if (i < records.length) timer = setTimeout(slice, 0);
      else {
        summary.value = s.result();
        pending.value = false;
      }
    };
    timer = setTimeout(slice, 0);
  }

  watch(() => [docStore.version, sel.version, sel.active], restart, { immediate: true });
  onBeforeUnmount(stop);
  return { summary, pending };
}
