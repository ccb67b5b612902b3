/**
 * Browser side of the browser-mode transport (electron/server/wire.ts is the Node side). Values without
 * bytes travel as plain JSON; a value holding Uint8Arrays travels as a binary frame (shared/ipc/wire-frame.ts)
 * with the bytes raw: parsed from `response.arrayBuffer()` into views, no base64, no per-byte loop.
 */
export { FRAME_CONTENT_TYPE, decodeFrame, encodeWire, isFrameContentType, type FrameResult, type WireBody } from '../../../shared/ipc/wire-frame';

/** Parses a JSON answer or event (values without bytes travel as plain JSON). */
export function fromWireJson(text: string): unknown {
  return JSON.parse(text);
}
