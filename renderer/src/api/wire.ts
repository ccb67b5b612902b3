/**
 * Browser side of the browser-mode transport (electron/server/wire.ts is the Node side). Values without
 * bytes travel as plain JSON; a value holding Uint8Arrays travels as a binary frame (shared/ipc/wire-frame.ts)
 * with the bytes raw: parsed from `response.arrayBuffer()` into views, no base64, no per-byte loop.
 */
export { FRAME_CONTENT_TYPE, decodeFrame, encodeWire, isFrameContentType, type FrameResult, type WireBody } from '../../../shared/ipc/wire-frame';

/**
 * Legacy text form `{ "$bytes": "<base64>" }`, from before bytes travelled in frames. The server no longer
 * sends it; fromWireJson still understands it so a JSON answer from an older server keeps working.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  // Chunks keep String.fromCharCode's argument list within engine limits for multi-MB files.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(s);
}

/** Legacy: see bytesToBase64. */
export function base64ToBytes(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** JSON with Uint8Arrays as legacy base64 objects (tests and fakes; real requests with bytes use frames). */
export function toWireJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v instanceof Uint8Array ? { $bytes: bytesToBase64(v) } : v));
}

/** Parses a JSON answer or event; a legacy `{ "$bytes": "<base64>" }` becomes a Uint8Array. */
export function fromWireJson(text: string): unknown {
  return JSON.parse(text, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && typeof v.$bytes === 'string' && Object.keys(v).length === 1 ? base64ToBytes(v.$bytes) : v,
  );
}
