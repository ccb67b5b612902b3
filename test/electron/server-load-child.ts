/**
 * The browser-mode server alone in a child process, for server-load.test.ts: its memory is then the
 * server's own, not the test runner's. Bundled by that test with esbuild and started with an IPC channel.
 *
 *   node --expose-gc child.mjs DIR HEADERS_TIMEOUT_MS REQUEST_TIMEOUT_MS [OPTIONS_JSON]
 *
 * OPTIONS_JSON: more startServer options (server-bounds.test.ts: the body budget, the socket pools).
 *
 * Sends {port, token} once listening. Answers 'rss' with {rss, peak} (after a GC when exposed): the
 * current resident size and the largest seen by a 5 ms sampler since start, so a spike between two
 * questions is not missed; 'reset' starts the peak again from now (answered like 'rss'). Exits when the
 * parent goes away.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServices } from '../../electron/services';
import { noDialogs } from '../../electron/services/dialog-service';
import { startServer } from '../../electron/server/server';

const [dir, headersMs, requestMs, extra] = process.argv.slice(2);
const staticDir = path.join(dir, 'static');
mkdirSync(staticDir, { recursive: true });
writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);

const services = createServices({
  settingsDir: path.join(dir, 'settings'),
  dialogs: noDialogs,
  emit: () => undefined,
  runBatch: async () => ({ ok: true, value: { jobId: '', total: 0, ok: 0, failed: 0, skipped: 0, cancelled: false, results: [], ms: 0 } }),
  appInfo: { name: 'VMD Studio', version: '0', mode: 'browser', versions: { node: process.versions.node } },
});

const gc = (globalThis as { gc?: () => void }).gc;

void startServer({
  staticDir,
  handlers: services.handlers,
  headersTimeoutMs: Number(headersMs),
  requestTimeoutMs: Number(requestMs),
  ...(extra ? (JSON.parse(extra) as object) : {}),
}).then((server) => {
  process.on('message', (m) => {
    if (m !== 'rss' && m !== 'reset') return;
    gc?.();
    const rss = process.memoryUsage().rss;
    peak = m === 'reset' ? rss : Math.max(peak, rss);
    const mu = process.memoryUsage();
    process.send?.({ rss, peak, heapUsed: mu.heapUsed, external: mu.external, arrayBuffers: mu.arrayBuffers });
  });
  process.on('disconnect', () => {
    clearInterval(sampler);
    void server.close().then(() => process.exit(0));
  });
  process.send?.({ port: server.port, token: server.token });
});
