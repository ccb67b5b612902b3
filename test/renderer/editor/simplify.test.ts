// Simplify on the selected keys (key inspector button → useEditorActions().simplifySelected): the
// selected track gets fewer keys between the first and last selected key, the others stay as they
// are, the motion plays within tolerance, it is one undo step, and the notice gives the counts.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { blockFromRecords, buildTracks, emptyVmd, encodeBoneRecord, readVmd, writeVmd } from '../../../shared/vmd';
import { useDocumentStore } from '../../../renderer/src/stores/document';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { setApi } from '../../../renderer/src/api';
import KeyInspector from '../../../renderer/src/editor/KeyInspector.vue';
import { playedErrors } from '../../helpers/motion-error';

const okVoid = async () => ({ ok: true as const, value: undefined });
setApi(new Proxy({}, { get: () => okVoid }) as never);

/** センター moves smoothly with a key on every frame 0..60 (records 0..60); 左腕 likewise (61..121). */
function open(): Uint8Array {
  const recs: Uint8Array[] = [];
  for (let f = 0; f <= 60; f++) recs.push(encodeBoneRecord({ name: 'センター', frame: f, position: [Math.sin(f / 8), 0, 0], rotation: [0, 0, 0, 1] }));
  for (let f = 0; f <= 60; f++) recs.push(encodeBoneRecord({ name: '左腕', frame: f, position: [0, Math.cos(f / 8), 0], rotation: [0, 0, 0, 1] }));
  const bytes = writeVmd({ ...emptyVmd('m'), bone: blockFromRecords('bone', recs) });
  useDocumentStore().openBytes('m.vmd', bytes, null);
  return bytes;
}

describe('Simplify on selected keys', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('refits the selected track between the first and last selected key as one undo step', async () => {
    const original = open();
    const sel = useSelectionStore();
    sel.select(Array.from({ length: 41 }, (_, i) => ({ kind: 'bone' as const, record: 10 + i }))); // センター 10..50
    const w = mount(KeyInspector);
    await w.vm.$nextTick();
    await w.get('[data-testid="inspector-simplify"]').trigger('click');
    const hist = useHistoryStore();
    const doc = hist.current()!.doc;
    const t = buildTracks(doc).bones;
    const frames = (name: string) => Array.from(t.frames.subarray(t.start[t.index.get(name)!], t.start[t.index.get(name)! + 1]));
    const c = frames('センター');
    expect(c.length).toBeLessThan(40);
    for (const f of [0, 5, 10, 50, 55, 60]) expect(c).toContain(f);
    expect(frames('左腕')).toHaveLength(61);
    const before = readVmd(original);
    if (!before.ok) throw new Error(before.error.message);
    const e = playedErrors(before.value, doc);
    expect(e.position).toBeLessThanOrEqual(0.01 + 1e-6);
    const n = useNotifyStore().items.at(-1)!;
    expect(noticeLines(n, 'en').message).toContain(`122 keys → ${doc.bone.count}`);
    expect(hist.undo()).toBe(true);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(Buffer.from(original));
  });
});
