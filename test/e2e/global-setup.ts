/**
 * Runs once in vitest's main process before the e2e files: builds what is out of date (the Node bundles and
 * the e2e renderer) and settles the Chromium binary. With two e2e workers (`npm test`) both would otherwise
 * reach them at once in their first file: the build is behind a lock, but the packaged Chromium is unpacked
 * into the temp folder by whoever asks first and found there by the other before it is whole.
 */
import { ensureBuilt } from '../helpers/build';
import { chromiumBinary } from './harness';

export default async function setup(): Promise<void> {
  await ensureBuilt();
  const chromium = await chromiumBinary();
  console.log(`[e2e] Chromium: ${chromium.kind} (${chromium.path})`);
}
