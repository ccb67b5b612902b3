// The Simplify store through the fitting worker (fake workers, as test/renderer/fit/fit-client.test.ts
// does: here one that holds each request until the test releases it, then runs the real worker code,
// fit-worker-core.ts): the request carries the motion's bytes, the selected keys as plain values and
// the tolerances; progress shows while it runs; a tolerance typed meanwhile cancels it (the worker is
// terminated) and the next one's result is shown; Apply while it runs waits for it and commits one
// undo step; closing the panel stops it; without a worker the same runs on the main thread. Expected
// documents come from shared/fit/simplify.ts run directly.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { writeVmd } from '../../../shared/vmd';
import { DEFAULT_TOLERANCES, type Tolerances } from '../../../shared/fit/motion-fit';
import { simplifyKeys } from '../../../shared/fit/simplify';
import { setQuietApi } from '../../helpers/quiet-api';
import { FitClient, setFitClient } from '../../../renderer/src/fit/fit-client';
import { handleFitRequest } from '../../../renderer/src/fit/fit-worker-core';
import { useFitPreviewStore } from '../../../renderer/src/stores/fit-preview';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSimplifyStore } from '../../../renderer/src/stores/simplify';
import { CENTER_KEYS_10_TO_50, openAndSelect, readBack } from './simplify-fixture';
import { fakeFitWorker, type FakeFitWorker } from '../../helpers/fake-fit-worker';

setQuietApi();

interface Held extends FakeFitWorker {
  /** Runs the held request through the real worker code. */
  release(): void;
}

/** A worker that answers `started` and one progress message, then holds the request until released. */
function heldWorker(): Held {
  const w = fakeFitWorker((fw, req) => {
    fw.deliver({ type: 'started', id: req.id });
    fw.deliver({ type: 'progress', id: req.id, done: 1, total: 2 });
  }) as Held;
  w.release = () => {
    const req = w.requests.at(-1)!;
    setTimeout(() => handleFitRequest(req, (m) => w.deliver(m)), 0);
  };
  return w;
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The document Simplify gives for the fixture's selection, from shared/fit directly. */
function expectedBytes(original: Uint8Array, tol: Partial<Tolerances>): Buffer {
  const out = simplifyKeys(readBack(original), CENTER_KEYS_10_TO_50, tol);
  if (!out.ok) throw new Error(out.error.message);
  return Buffer.from(writeVmd(out.value.doc));
}

const AT = (position: number) => ({ position, rotationDeg: DEFAULT_TOLERANCES.rotationDeg, morph: DEFAULT_TOLERANCES.morph });

describe('Simplify in the fitting worker', () => {
  let made: Held[];
  let client: FitClient;
  beforeEach(() => {
    setActivePinia(createPinia());
    made = [];
    client = new FitClient(() => {
      const w = heldWorker();
      made.push(w);
      return w;
    });
    setFitClient(client);
  });
  afterEach(() => setFitClient(null));

  it('sends the bytes, plain keys and tolerances; shows progress; a tolerance typed meanwhile cancels the run', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore(), fit = useFitPreviewStore();
    expect(s.start()).toBe(true);
    await until(() => s.running?.total === 2, 'the first progress');
    expect(s.running).toEqual({ done: 1, total: 2 });
    expect(s.state).toBe('pending');
    expect(s.preview).toBeNull();
    const req = made[0].requests[0];
    expect(req.op).toBe('simplify');
    if (req.op !== 'simplify') throw new Error('not simplify');
    expect(Buffer.from(req.bytes)).toEqual(Buffer.from(original));
    expect(req.keys).toEqual(CENTER_KEYS_10_TO_50);
    expect(req.tol).toEqual(AT(DEFAULT_TOLERANCES.position));
    // Typed while it runs: the run stops at once (worker terminated), the next waits for the pause.
    s.setTolerance('pos-tol', '0.2');
    expect(made[0].terminated).toBe(true);
    expect(s.running).toBeNull();
    expect(s.state).toBe('pending');
    expect(client.counts.cancelled).toBe(1);
    await until(() => made.length === 2 && made[1].requests.length === 1, 'the second request');
    const second = made[1].requests[0];
    expect(second.op === 'simplify' && second.tol).toEqual(AT(0.2));
    made[1].release();
    await until(() => s.state !== 'pending', 'the result');
    expect(s.state).toBe('ready');
    expect(s.running).toBeNull();
    expect(Buffer.from(writeVmd(s.preview!.doc))).toEqual(expectedBytes(original, AT(0.2)));
    expect(fit.result).toBe(s.preview!.fit);
    expect(s.preview!.fit.report.extra.keysAfter).toBe(s.preview!.doc.bone.count);
    expect(s.preview!.fit.report.extra.maxPositionError).toBeGreaterThan(0);
    expect(client.counts).toMatchObject({ worker: 2, main: 0 });
  });

  it('Apply while the run goes waits for it and commits its result as one undo step', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore(), hist = useHistoryStore();
    s.start();
    await until(() => made[0]?.requests.length === 1, 'the request');
    let settled = false;
    const applied = s.apply().then((v) => ((settled = true), v));
    await new Promise((r) => setTimeout(r, 5));
    expect(settled).toBe(false);
    expect(hist.depth).toBe(0);
    made[0].release();
    expect(await applied).toBe(true);
    expect(hist.depth).toBe(1);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(expectedBytes(original, AT(DEFAULT_TOLERANCES.position)));
    expect(s.state).toBe('closed');
    expect(hist.undo()).toBe(true);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(Buffer.from(original));
  });

  it('Apply while a recompute waits for its pause starts it at once and applies what the fields say', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore(), hist = useHistoryStore();
    s.start();
    await until(() => made[0]?.requests.length === 1, 'the request');
    made[0].release();
    await until(() => s.state === 'ready', 'the first result');
    s.setTolerance('pos-tol', '0.2');
    const applied = s.apply();
    // No pause: the request is out before the debounce would have ended.
    await until(() => made[0].requests.length === 2, 'the recompute');
    const req = made[0].requests[1];
    expect(req.op === 'simplify' && req.tol).toEqual(AT(0.2));
    made[0].release();
    expect(await applied).toBe(true);
    expect(hist.depth).toBe(1);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(expectedBytes(original, AT(0.2)));
  });

  it('closing the panel stops the run and changes nothing; an Apply waiting on it gives false', async () => {
    const original = openAndSelect();
    const s = useSimplifyStore(), hist = useHistoryStore(), fit = useFitPreviewStore();
    s.start();
    await until(() => made[0]?.requests.length === 1, 'the request');
    const applied = s.apply();
    s.cancel();
    expect(made[0].terminated).toBe(true);
    expect(await applied).toBe(false);
    expect(s.state).toBe('closed');
    expect(s.running).toBeNull();
    expect(fit.result).toBeNull();
    expect(hist.depth).toBe(0);
    expect(Buffer.from(writeVmd(hist.current()!.doc))).toEqual(Buffer.from(original));
  });

  it('another run on the shared client (the Whole Motion dialog\'s) stops it: the panel closes, nothing is committed', async () => {
    openAndSelect();
    const s = useSimplifyStore(), hist = useHistoryStore();
    s.start();
    await until(() => made[0]?.requests.length === 1, 'the request');
    const other = client.run('reduce', { 'pos-tol': 0.05 }, hist.current()!.doc);
    expect(made[0].terminated).toBe(true);
    await until(() => s.state === 'closed', 'the panel to close');
    expect(s.running).toBeNull();
    expect(s.preview).toBeNull();
    await until(() => made[1]?.requests.length === 1, 'the other run');
    made[1].release();
    expect((await other).ok).toBe(true);
    expect(hist.depth).toBe(0);
  });

  it('without a worker the same result is computed on the main thread', async () => {
    const none = new FitClient(() => null);
    setFitClient(none);
    const original = openAndSelect();
    const s = useSimplifyStore();
    s.start();
    await until(() => s.state !== 'pending', 'the result');
    expect(s.state).toBe('ready');
    expect(none.counts).toMatchObject({ worker: 0, main: 1 });
    expect(Buffer.from(writeVmd(s.preview!.doc))).toEqual(expectedBytes(original, AT(DEFAULT_TOLERANCES.position)));
  });
});
