/**
 * Worker-thread entry of the motion capture conversions (bundled to dist/cli/mocap-worker.mjs by
 * build/build-node.mjs): one request per worker, answered with one reply (the fit's progress posted before
 * it); the service terminates the worker to cancel.
 */
import { parentPort } from 'node:worker_threads';
import { runRequest, type MocapWorkerMessage, type MocapWorkerRequest } from './mocap-task';

const port = parentPort;
if (port) {
  const post = (m: MocapWorkerMessage) => port.postMessage(m);
  port.once('message', (r: MocapWorkerRequest) => void runRequest(r, (done, total) => post({ kind: 'progress', done, total })).then((reply) => post({ kind: 'reply', reply })));
}
