/**
 * Node side of the browser-mode transport. Values without bytes travel as plain JSON; a value holding
 * Uint8Arrays (openFile's answer, saveFile's request) travels as a binary frame (shared/ipc/wire-frame.ts)
 * with the bytes raw, never as base64. Server-sent events carry plain JSON (no event holds bytes).
 */
import { encodeWire } from '../../shared/ipc/wire-frame';

export { FRAME_CONTENT_TYPE, decodeFrame, encodeWire, isFrameContentType, joinChunks, type FrameResult, type WireBody } from '../../shared/ipc/wire-frame';

/** JSON text of a value without bytes (events). A Uint8Array in it is a programming error: it needs a frame. */
export function toWireJson(value: unknown): string {
  const body = encodeWire(value);
  if (body.kind !== 'json') throw new TypeError('toWireJson: the value holds bytes; send it as a frame (encodeWire)');
  return body.text;
}

/** Parses JSON sent without bytes. */
export function fromWireJson(text: string): unknown {
  return JSON.parse(text);
}
