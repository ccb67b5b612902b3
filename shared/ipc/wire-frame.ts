/**
 * The browser-mode transport's binary frame: a JSON value whose Uint8Arrays travel as raw bytes next to
 * it (base64 in JSON made a 36 MB motion 48 MB of text and cost seconds to decode in the page). Used by
 * electron/server (Node) and renderer/src/api (browser) alike; Electron's IPC clones Uint8Array natively.
 *
 *   offset  size  field
 *   0       4     magic "VMW1" (ASCII)
 *   4       4     u32 LE  J = byte length of the JSON
 *   8       J     UTF-8 JSON of the value; the i-th Uint8Array met (depth first) is written {"$bytes": i}
 *   8+J     …     for i = 0, 1, …: u32 LE length L_i, then L_i bytes; the last part ends the frame exactly
 *
 * Decoding checks every length against the frame before touching it and returns Uint8Array views into
 * the frame (no copy). There are exactly as many parts as placeholders in the JSON, and none is empty
 * (an empty Uint8Array cannot cross in a frame). A malformed frame is an error value with a one-line
 * reason, never a throw.
 * An object that is exactly `{"$bytes": <number>}` is reserved for the placeholders.
 */
import { failure, success, type Outcome } from '../vmd/errors';
import { plural } from '../i18n/plural';

/** Content-Type of a request or response body that is a frame. */
export const FRAME_CONTENT_TYPE = 'application/vnd.vmd-studio.frame';

const MAGIC = [0x56, 0x4d, 0x57, 0x31]; // "VMW1"
const HEAD = 8;
const PREFIX = 4;

/** What to send: plain JSON text when the value holds no bytes, else the frame as chunks in order. */
export type WireBody = { kind: 'json'; text: string } | { kind: 'frame'; chunks: Uint8Array[]; byteLength: number };

/** A parsed frame: its value, or why it is not one (an `E_IO` error: what came over the wire is broken). */
export type FrameResult = Outcome<unknown>;

/** True for a Content-Type header naming the frame (parameters after `;` ignored). */
export function isFrameContentType(contentType: string | null | undefined): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === FRAME_CONTENT_TYPE;
}

function isPlaceholder(v: unknown): v is { $bytes: unknown } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === '$bytes';
}

/**
 * Serialises `value` for the wire. The bytes are not copied: the frame's chunks are a small head
 * (magic, JSON, first length) followed by the caller's own arrays and 4-byte length prefixes.
 */
export function encodeWire(value: unknown): WireBody {
  const parts: Uint8Array[] = [];
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    // The holder's own value: a Node Buffer's toJSON has already run by the time `v` arrives.
    const raw = this[key];
    if (raw instanceof Uint8Array) {
      parts.push(raw);
      return { $bytes: parts.length - 1 };
    }
    return v;
  });
  if (parts.length === 0) return { kind: 'json', text: text ?? 'null' };
  const json = new TextEncoder().encode(text);
  const head = new Uint8Array(HEAD + json.length);
  head.set(MAGIC, 0);
  new DataView(head.buffer).setUint32(4, json.length, true);
  head.set(json, HEAD);
  const chunks: Uint8Array[] = [head];
  let byteLength = head.length;
  for (const p of parts) {
    const prefix = new Uint8Array(PREFIX);
    new DataView(prefix.buffer).setUint32(0, p.byteLength, true);
    chunks.push(prefix, p);
    byteLength += PREFIX + p.byteLength;
  }
  return { kind: 'frame', chunks, byteLength };
}

/** Joins a frame's chunks into one array (tests, and callers that need a single buffer). */
export function joinChunks(chunks: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const c of chunks) n += c.byteLength;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Where a placeholder sits in the parsed JSON, so its part can be put in once the parts are read. */
interface Slot {
  holder: Record<string, unknown> | null;
  key: string;
  index: unknown;
}

/**
 * Parses a frame. The Uint8Arrays in the value are views into `frame`'s buffer.
 *
 * The JSON is parsed first and says how many parts there may be (one per placeholder): a frame with
 * more parts, or with an empty part, is refused before any part is kept. So the work done and the
 * memory held are bounded by the JSON, never by a run of zero-length prefixes (4 bytes each).
 */
export function decodeFrame(frame: Uint8Array): FrameResult {
  const fail = (message: string): FrameResult => failure({ code: 'E_IO', message });
  if (frame.byteLength < HEAD) return fail(`frame of ${frame.byteLength} bytes is shorter than its ${HEAD}-byte head`);
  for (let i = 0; i < MAGIC.length; i++) if (frame[i] !== MAGIC[i]) return fail('frame does not start with "VMW1"');
  const dv = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const jsonLength = dv.getUint32(4, true);
  if (jsonLength > frame.byteLength - HEAD) return fail(`JSON length ${jsonLength} runs past the end of the ${frame.byteLength}-byte frame`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(frame.subarray(HEAD, HEAD + jsonLength));
  } catch {
    return fail('JSON is not valid UTF-8');
  }
  const slots: Slot[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text, function (this: unknown, key: string, v: unknown) {
      if (isPlaceholder(v)) slots.push({ holder: this as Record<string, unknown>, key, index: v.$bytes });
      return v;
    });
  } catch (e) {
    return fail(`bad JSON (${(e as Error)?.message ?? e})`);
  }
  const asked = slots.length;
  const parts: Uint8Array[] = [];
  let at = HEAD + jsonLength;
  while (at < frame.byteLength) {
    if (parts.length >= asked) {
      return fail(`part ${parts.length} is not referenced by the JSON (it asks for ${plural(asked, 'part')}; offset ${at})`);
    }
    if (frame.byteLength - at < PREFIX) return fail(`part ${parts.length}: length prefix cut short at offset ${at}`);
    const n = dv.getUint32(at, true);
    if (n === 0) return fail(`part ${parts.length} at offset ${at} is empty`);
    at += PREFIX;
    if (n > frame.byteLength - at) return fail(`part ${parts.length}: length ${n} at offset ${at - PREFIX} runs past the end of the frame`);
    parts.push(new Uint8Array(frame.buffer, frame.byteOffset + at, n));
    at += n;
  }
  const used = new Uint8Array(parts.length);
  for (const s of slots) {
    const i = s.index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= parts.length) {
      return fail(`placeholder {"$bytes": ${JSON.stringify(i)}} names no part (the frame has ${parts.length})`);
    }
    if (used[i]) return fail(`part ${i} is referenced twice`);
    used[i] = 1;
    // The root's holder is JSON.parse's own wrapper object: the value itself is replaced below.
    if (s.key === '' && s.holder && s.holder[''] === value) value = parts[i];
    // Defined, not assigned: a key "__proto__" stays an own property instead of setting the prototype.
    else if (s.holder) Object.defineProperty(s.holder, s.key, { value: parts[i], writable: true, enumerable: true, configurable: true });
  }
  const unused = used.indexOf(0);
  if (unused >= 0) return fail(`part ${unused} is not referenced by the JSON`);
  return success(value);
}
