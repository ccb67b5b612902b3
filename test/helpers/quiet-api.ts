/**
 * For renderer tests whose stores call main but whose subject does not depend on the answers: an API where
 * every call succeeds with no value (settings saves, recent-file updates and the like).
 */
import { setApi } from '../../renderer/src/api';

export const okVoid = async () => ({ ok: true as const, value: undefined });

/** Installs the API above. */
export function setQuietApi(): void {
  setApi(new Proxy({}, { get: () => okVoid }) as never);
}
