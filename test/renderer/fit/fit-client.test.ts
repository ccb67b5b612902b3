// The fitting client's message handling with fake workers: a worker that runs the real worker code
// (fit-worker-core.ts) in this thread and answers through the protocol; one whose script never starts
// (error before `started`) and a factory that throws, which both fall back to the main thread; Cancel,
// which terminates the worker and makes a new one for the next run; a worker dying mid-run. The
// expected documents come from shared/fit run directly, not from the client.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareFitEdit } from '../../../shared/batch/fit-ops';
import { readVmd, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { FitClient } from '../../../renderer/src/fit/fit-client';
import { handleFitRequest } from '../../../renderer/src/fit/fit-worker-core';
import type { FitMessage } from '../../../renderer/src/fit/fit-protocol';
import { JOB_PROGRESS_MS as PROGRESS_INTERVAL_MS } from '../../../renderer/src/workers/job-client';
import { corpusDir, corpusPresent } from '../../helpers/corpus';
import { fakeFitWorker, type FakeFitWorker } from '../../helpers/fake-fit-worker';

function drink(): VmdDocument {
  const r = readVmd(new Uint8Array(readFileSync(path.join(corpusDir, 'mc-mmd-rust/default_anim/Drink.vmd'))));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const OPTIONS = { 'pos-tol': 0.05, 'rot-tol': 0.5 };

/** The edit's output bytes as shared/fit gives them, run directly. */
function expectedBytes(doc: VmdDocument): Uint8Array {
  const out = prepareFitEdit('reduce', OPTIONS)(doc);
  if (!out.ok) throw new Error(out.error.message);
  return writeVmd(out.value.doc);
}

/** A fake running the real worker code, with a clock that advances 20 ms per call (so some progress is throttled). */
function realWorker(): FakeFitWorker {
  let t = 0;
  return fakeFitWorker((w, req) => handleFitRequest(req, (m) => w.deliver(m), () => (t += 20)));
}

describe.skipIf(!corpusPresent)('the fitting client', () => {
  it('runs the edit in the worker: transfers the motion, forwards progress, gives the same document as shared/fit', async () => {
    const doc = drink();
    const made: FakeFitWorker[] = [];
    const client = new FitClient(() => {
      const w = realWorker();
      made.push(w);
      return w;
    });
    const seen: [number, number][] = [];
    const out = await client.run('reduce', OPTIONS, doc, (d, n) => seen.push([d, n]));
    if (!out.ok) throw new Error('failed');
    expect(out.value.via).toBe('worker');
    expect(Buffer.from(writeVmd(out.value.doc))).toEqual(Buffer.from(expectedBytes(doc)));
    expect(out.value.report.extra.keysAfter).toBeLessThan(out.value.report.extra.keysBefore);
    // The request carried the motion's bytes; progress came in order and ended at the last track.
    expect(made).toHaveLength(1);
    expect(Buffer.from(made[0].requests[0].bytes)).toEqual(Buffer.from(writeVmd(doc)));
    expect(seen.length).toBeGreaterThan(1);
    const total = seen[0][1];
    expect(seen.at(-1)).toEqual([total, total]);
    for (let i = 1; i < seen.length; i++) expect(seen[i][0]).toBeGreaterThan(seen[i - 1][0]);
    // Throttled: at 20 ms per track, about one message per 50 ms, so fewer messages than tracks.
    expect(seen.length).toBeLessThan(total);
    expect(seen.length).toBeGreaterThanOrEqual(Math.floor((total * 20) / PROGRESS_INTERVAL_MS / 2));
    // The worker is kept for the next run.
    const again = await client.run('reduce', OPTIONS, doc);
    expect(again.ok).toBe(true);
    expect(made).toHaveLength(1);
    expect(client.counts).toMatchObject({ worker: 2, main: 0, startFailures: 0 });
  });

  it('falls back to the main thread when the worker never starts, and when it cannot be made', async () => {
    const doc = drink();
    const want = Buffer.from(expectedBytes(doc));
    // Its script fails to load: an error event before any message.
    let made = 0;
    const broken = new FitClient(() => {
      made++;
      return fakeFitWorker((w) => w.onerror?.(new Event('error')));
    });
    const a = await broken.run('reduce', OPTIONS, doc);
    if (!a.ok) throw new Error('failed');
    expect(a.value.via).toBe('main');
    expect(Buffer.from(writeVmd(a.value.doc))).toEqual(want);
    // Later runs go to the main thread at once: no new worker is tried.
    const b = await broken.run('reduce', OPTIONS, doc);
    expect(b.ok && b.value.via).toBe('main');
    expect(made).toBe(1);
    expect(broken.counts).toMatchObject({ worker: 0, main: 2, startFailures: 1 });
    // The constructor throws (a page that refuses module workers).
    const refused = new FitClient(() => {
      throw new DOMException('refused', 'SecurityError');
    });
    const c = await refused.run('reduce', OPTIONS, doc);
    if (!c.ok) throw new Error('failed');
    expect(c.value.via).toBe('main');
    expect(Buffer.from(writeVmd(c.value.doc))).toEqual(want);
    // No Worker at all.
    const none = await new FitClient(() => null).run('reduce', OPTIONS, doc);
    expect(none.ok && none.value.via).toBe('main');
  });

  it('Cancel terminates the worker and resolves as cancelled; the next run makes a new worker', async () => {
    const doc = drink();
    const made: FakeFitWorker[] = [];
    // The first worker starts and reports progress, then goes quiet (a long fit).
    const client = new FitClient(() => {
      const w = made.length === 0 ? fakeFitWorker((w, req) => {
        w.deliver({ type: 'started', id: req.id });
        w.deliver({ type: 'progress', id: req.id, done: 3, total: 40 });
      }) : realWorker();
      made.push(w);
      return w;
    });
    const ctl = new AbortController();
    const seen: number[] = [];
    const running = client.run('reduce', OPTIONS, doc, (d) => {
      seen.push(d);
      ctl.abort();
    }, ctl.signal);
    const out = await running;
    expect(out).toEqual({ ok: false, error: { code: 'E_CANCELLED', message: 'cancelled' } });
    expect(seen).toEqual([3]);
    expect(made[0].terminated).toBe(true);
    const next = await client.run('reduce', OPTIONS, doc);
    expect(next.ok && next.value.via).toBe('worker');
    expect(made).toHaveLength(2);
    // A signal aborted before the run: nothing runs.
    const pre = new AbortController();
    pre.abort();
    expect(await client.run('reduce', OPTIONS, doc, undefined, pre.signal)).toEqual({ ok: false, error: { code: 'E_CANCELLED', message: 'cancelled' } });
    expect(made[1].requests).toHaveLength(1);
  });

  it('a worker that dies after starting is an error value, and a failed edit comes back as its error', async () => {
    const doc = drink();
    const dying = new FitClient(() => fakeFitWorker((w, req) => {
      w.deliver({ type: 'started', id: req.id });
      w.onerror?.(Object.assign(new Event('error'), { message: 'out of memory' }));
    }));
    const out = await dying.run('reduce', OPTIONS, doc);
    expect(out).toMatchObject({ ok: false, error: { code: 'E_INTERNAL', message: 'out of memory' } });
    expect(dying.counts.main).toBe(0);
    // Bytes that are not a VMD: the worker answers `failed` with the codec's error.
    const posted: FitMessage[] = [];
    handleFitRequest({ id: 7, op: 'reduce', options: OPTIONS, bytes: new Uint8Array(10) }, (m) => posted.push(m));
    expect(posted.map((m) => m.type)).toEqual(['started', 'failed']);
    expect(posted[1]).toMatchObject({ id: 7, error: { code: 'E_VMD_MAGIC' } });
    // A bad option is an E_ARGUMENT naming it.
    const bad: FitMessage[] = [];
    handleFitRequest({ id: 8, op: 'speed', options: {}, bytes: writeVmd(doc) }, (m) => bad.push(m));
    expect(bad[1]).toMatchObject({ type: 'failed', error: { code: 'E_ARGUMENT', option: 'factor' } });
  });
});
