/**
 * The renderer's bridge to main-process services. Under Electron: `window.vmdStudio` from the
 * preload (IPC). In a browser: the HTTP client, with the token from the page URL. Same interface.
 */
import type { VmdStudioApi } from '../../../shared/ipc/contract';
import { createHttpApi } from './http-client';

declare global {
  interface Window {
    /** Exposed by electron/preload.ts through contextBridge. */
    vmdStudio?: VmdStudioApi;
  }
}

let api: VmdStudioApi | null = null;

/** The bridge for this page (created once). */
export function useApi(): VmdStudioApi {
  if (api) return api;
  if (typeof window !== 'undefined' && window.vmdStudio) api = window.vmdStudio;
  else {
    const token = typeof location !== 'undefined' ? (new URLSearchParams(location.search).get('token') ?? '') : '';
    api = createHttpApi({ token });
  }
  return api;
}

/** Replaces the bridge (component tests pass a fake). */
export function setApi(next: VmdStudioApi | null): void {
  api = next;
}

export type { VmdStudioApi };
