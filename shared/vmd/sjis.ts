/**
 * Shift_JIS names. Decoding uses the platform's TextDecoder (WHATWG shift_jis, i.e. code page 932);
 * encoding uses encoding-japanese, as no platform has a Shift_JIS encoder.
 *
 * Names in VMD are fixed-length fields: bytes up to the first NUL are the name, the rest is padding
 * (sometimes garbage, which is kept in the raw bytes). A field may cut a 2-byte character in half;
 * decoding then ends in U+FFFD, which is dropped for display and matching.
 */
import Encoding from 'encoding-japanese';
import type { Outcome } from './errors';

const decoder = new TextDecoder('shift_jis');

/** Length of the name in a fixed field: bytes before the first NUL. */
export function nameLength(bytes: Uint8Array, start: number, fieldLength: number): number {
  for (let i = 0; i < fieldLength; i++) if (bytes[start + i] === 0) return i;
  return fieldLength;
}

/** Decodes a fixed-length Shift_JIS field, dropping U+FFFD left by a cut character at the end. */
export function decodeName(bytes: Uint8Array, start = 0, fieldLength = bytes.length - start): string {
  const n = nameLength(bytes, start, fieldLength);
  if (n === 0) return '';
  let ascii = true;
  for (let i = 0; i < n; i++) if (bytes[start + i] >= 0x80) { ascii = false; break; }
  let s: string;
  if (ascii) {
    s = String.fromCharCode.apply(null, bytes.subarray(start, start + n) as unknown as number[]);
  } else {
    s = decoder.decode(bytes.subarray(start, start + n));
  }
  return stripCut(s);
}

/** Drops trailing U+FFFD (a character cut by the field end). */
export function stripCut(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0xfffd) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Decodes a whole Shift_JIS text (VPD files). */
export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Encodes text to Shift_JIS bytes. Characters Shift_JIS lacks become '?' (0x3F) and are reported by `encodable`. */
export function encodeSjis(text: string): Uint8Array {
  const codes = Encoding.convert(Encoding.stringToCode(text), { to: 'SJIS', from: 'UNICODE' }) as number[];
  return Uint8Array.from(codes);
}

/** True when `text` survives a Shift_JIS round trip. */
export function encodable(text: string): boolean {
  return decoder.decode(encodeSjis(text)) === text;
}

/**
 * Encodes a name into a zero-padded fixed field, or returns the error when it does not fit
 * (E_NAME_TOO_LONG) or has characters Shift_JIS cannot hold (E_NAME_ENCODING). Never cuts a name silently.
 */
export function encodeNameField(name: string, fieldLength: number): Outcome<Uint8Array> {
  const enc = encodeSjis(name);
  if (!encodable(name)) return { ok: false, error: { code: 'E_NAME_ENCODING', message: `name "${name}" has characters Shift_JIS cannot encode` } };
  if (enc.length > fieldLength) {
    return { ok: false, error: { code: 'E_NAME_TOO_LONG', message: `name "${name}" is ${enc.length} bytes in Shift_JIS; the field holds ${fieldLength}` } };
  }
  const out = new Uint8Array(fieldLength);
  out.set(enc);
  return { ok: true, value: out };
}

const fieldCache = new Map<string, ReturnType<typeof encodeNameField>>();

/**
 * encodeNameField with a cache: motions repeat a few hundred names over many thousands of keys, and
 * Shift_JIS encoding is the slow part. Returns fresh bytes each call (callers may write into them).
 */
export function encodeNameFieldCached(name: string, fieldLength: number): Outcome<Uint8Array> {
  const key = `${fieldLength}:${name}`;
  let r = fieldCache.get(key);
  if (!r) {
    r = encodeNameField(name, fieldLength);
    if (fieldCache.size > 10_000) fieldCache.clear();
    fieldCache.set(key, r);
  }
  return r.ok ? { ok: true, value: r.value.slice() } : r;
}

/** Byte length of `name` in Shift_JIS. */
export function sjisLength(name: string): number {
  return encodeSjis(name).length;
}
