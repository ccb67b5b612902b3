/**
 * Worker-thread entry of the motion capture conversions (bundled to dist/cli/mocap-worker.mjs by
 * build/build-node.mjs): one request per worker, answered with one reply; the service terminates the
 * worker to cancel.
 */
import { parentPort } from 'node:worker_threads';
import { runRequest, type MocapWorkerRequest } from './mocap-task';

const port = parentPort;
if (port) port.once('message', (r: MocapWorkerRequest) => void runRequest(r).then((reply) => port.postMessage(reply)));
