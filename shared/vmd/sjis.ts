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

/**
 * What the platform decoder gives each Shift_JIS unit, as one UTF-16 code unit, or 0 where it gives
 * anything else (an unmapped pair, a byte that is no character): single bytes at [byte], pairs at
 * [lead · 256 + trail]. Built on the first non-ASCII name by one decode of every unit, so a name
 * decodes by table (the platform decoder costs a microsecond or two a call, and a motion can hold
 * thousands of distinct names) to exactly what the decoder gives it; a name with any unit not in
 * the table goes to the decoder itself.
 */
let units: Uint16Array | null = null;

function unitTable(): Uint16Array {
  const t = new Uint16Array(65536);
  // Single bytes (ASCII and half-width katakana): one decode, one character per byte (else left out).
  // The decoder need not give ASCII back as it is: some map control codes (0x1A, 0x1C, 0x7F) elsewhere.
  const singles: number[] = [];
  for (let b = 1; b <= 0xdf; b++) if (b < 0x80 || b >= 0xa1) singles.push(b);
  const ss = decoder.decode(Uint8Array.from(singles));
  if (ss.length === singles.length) singles.forEach((b, i) => ss.charCodeAt(i) !== 0xfffd && (t[b] = ss.charCodeAt(i)));
  // The pairs below are told apart by line feeds.
  if (t[0x0a] !== 0x0a) return new Uint16Array(65536);
  // Pairs: every lead with every trail, each pair followed by a line feed; a pair that decodes to one
  // character leaves a piece of length 1 (an unmapped one leaves U+FFFD, and its trail when that is ASCII).
  const leads: number[] = [];
  for (let b = 0x81; b <= 0xfc; b++) if (b <= 0x9f || b >= 0xe0) leads.push(b);
  const buf = new Uint8Array(leads.length * (0xfc - 0x40 + 1) * 3);
  let o = 0;
  for (const lead of leads) for (let trail = 0x40; trail <= 0xfc; trail++) {
    buf[o++] = lead;
    buf[o++] = trail;
    buf[o++] = 0x0a;
  }
  const pieces = decoder.decode(buf).split('\n');
  let k = 0;
  for (const lead of leads) for (let trail = 0x40; trail <= 0xfc; trail++, k++) {
    const piece = pieces[k];
    if (piece !== undefined && piece.length === 1 && piece.charCodeAt(0) !== 0xfffd) t[(lead << 8) | trail] = piece.charCodeAt(0);
  }
  // Every piece accounted for, or none trusted (then every name goes to the decoder).
  if (pieces.length !== k + 1) return new Uint16Array(65536);
  return t;
}

/**
 * The name's bytes by table (see units), or null where some unit is not in it. The units are gathered
 * first and made into one flat string: appending a character at a time made a chain of cons strings,
 * which the track index's Map then had to flatten to hash (a tenth of the read of a 3,000-name motion).
 */
function decodeByTable(bytes: Uint8Array, start: number, n: number): string | null {
  const t = (units ??= unitTable());
  const out = unitsOf(n);
  let k = 0;
  for (let i = start, end = start + n; i < end; i++) {
    const b = bytes[i];
    let c: number;
    if (b < 0x80 || (b >= 0xa1 && b <= 0xdf)) c = t[b];
    else if (i + 1 < end) c = t[(b << 8) | bytes[++i]];
    else return null; // a lead byte cut by the field's end: the decoder's U+FFFD, then stripCut
    if (c === 0) return null; // not in the table
    out[k++] = c;
  }
  return stringOfUnits(out, k);
}

/** Scratch for the UTF-16 units of one name: fields are 20 bytes at most (a longer text gets an array of its own). */
const unitScratch = new Uint16Array(32);

function unitsOf(n: number): Uint16Array {
  return n <= unitScratch.length ? unitScratch : new Uint16Array(n);
}

/**
 * The string of u[0..k). Short names, most of them, as a call with that many arguments: V8 makes that
 * a flat string at once, where building an array for `apply` cost half again as much (a motion with
 * thousands of names decodes each once, and this was a tenth of its read).
 */
function stringOfUnits(u: Uint16Array, k: number): string {
  switch (k) {
    case 0: return '';
    case 1: return String.fromCharCode(u[0]);
    case 2: return String.fromCharCode(u[0], u[1]);
    case 3: return String.fromCharCode(u[0], u[1], u[2]);
    case 4: return String.fromCharCode(u[0], u[1], u[2], u[3]);
    case 5: return String.fromCharCode(u[0], u[1], u[2], u[3], u[4]);
    case 6: return String.fromCharCode(u[0], u[1], u[2], u[3], u[4], u[5]);
    case 7: return String.fromCharCode(u[0], u[1], u[2], u[3], u[4], u[5], u[6]);
    case 8: return String.fromCharCode(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7]);
    default: {
      const out: number[] = [];
      for (let i = 0; i < k; i++) out.push(u[i]);
      return String.fromCharCode.apply(null, out);
    }
  }
}

/**
 * 1 at each unit of `units` (same indices) that no other spelling can stand in for: the table gives it
 * a character that it gives no other unit, and for an ASCII byte that character is the byte itself (a
 * name of ASCII bytes only is decoded without the table) and printable. CP932 maps some pairs to one
 * character (NEC and IBM extensions), and control codes may be mapped elsewhere: those units are 0.
 */
let lone: Uint8Array | null = null;

function loneTable(): Uint8Array {
  const t = (units ??= unitTable());
  const givers = new Uint8Array(65536); // units giving each character, counted up to 2
  for (let u = 1; u < 65536; u++) if (t[u] !== 0 && givers[t[u]] < 2) givers[t[u]]++;
  const l = new Uint8Array(65536);
  for (let u = 1; u < 65536; u++) if (t[u] !== 0 && givers[t[u]] === 1 && (u >= 0x80 || (u >= 0x20 && u <= 0x7e && t[u] === u))) l[u] = 1;
  return l;
}

/**
 * Whether a field's name (its bytes up to the first NUL) is spelt in lone units only (see `lone`), so
 * that decodeName gives two different such spellings two different names: each unit decodes to one
 * character of its own, and the name is those characters in turn. A spelling with any other unit (a
 * character cut by the field's end, an unmapped or doubly mapped pair, a control code) may decode as
 * another one does, a lone one included ("A" and "A" followed by a cut lead byte): this vouches only
 * for two lone spellings against each other.
 */
export function isLoneSpelling(bytes: Uint8Array, start: number, fieldLength: number): boolean {
  const l = (lone ??= loneTable());
  for (let i = start, end = start + fieldLength; i < end; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    let u = b;
    if (b >= 0x80 && (b < 0xa1 || b > 0xdf)) {
      if (i + 1 >= end || bytes[i + 1] === 0) return false; // a lead byte cut by the field's end or the NUL
      u = (b << 8) | bytes[++i];
    }
    if (l[u] === 0) return false;
  }
  return true;
}

/**
 * decodeName of a field whose name is a lone spelling (isLoneSpelling), or null for any other (then
 * decodeName it): both in one pass over the bytes, for a grouping that decodes each new name and needs to
 * know whether it may decode as another spelling does. A lone unit's character is the table's (for an
 * ASCII byte, the byte itself, which is what the table gives it too), so the string is decodeName's.
 * Against isLoneSpelling, then decodeName, this reads each byte once: 2,974 Japanese names took 169
 * instead of 265 µs (issue 31, a loaded machine).
 */
export function decodeLoneName(bytes: Uint8Array, start: number, fieldLength: number): string | null {
  const t = (units ??= unitTable());
  const l = (lone ??= loneTable());
  const out = unitsOf(fieldLength);
  let k = 0;
  for (let i = start, end = start + fieldLength; i < end; i++) {
    const b = bytes[i];
    if (b === 0) break;
    let u = b;
    if (b >= 0x80 && (b < 0xa1 || b > 0xdf)) {
      if (i + 1 >= end || bytes[i + 1] === 0) return null; // a lead byte cut by the field's end or the NUL
      u = (b << 8) | bytes[++i];
    }
    if (l[u] === 0) return null;
    out[k++] = t[u];
  }
  return stringOfUnits(out, k);
}

/** Decodes a fixed-length Shift_JIS field, dropping U+FFFD left by a cut character at the end. */
export function decodeName(bytes: Uint8Array, start = 0, fieldLength = bytes.length - start): string {
  const n = nameLength(bytes, start, fieldLength);
  if (n === 0) return '';
  let ascii = true;
  for (let i = 0; i < n; i++) if (bytes[start + i] >= 0x80) { ascii = false; break; }
  let s: string;
  if (ascii) {
    const u = unitsOf(n);
    for (let i = 0; i < n; i++) u[i] = bytes[start + i];
    s = stringOfUnits(u, n);
  } else {
    s = decodeByTable(bytes, start, n) ?? decoder.decode(bytes.subarray(start, start + n));
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

/**
 * A name in a zero-padded field of `fieldLength` bytes, cut at a character boundary when its Shift_JIS is
 * longer (as MMD writes a long name: the field's bytes are the name's first ones, never half a character),
 * for a name the tool writes on its own behalf (a model's name in a motion's header) rather than one a user
 * typed (encodeNameField refuses those). Characters Shift_JIS lacks become '?'. `written` is the name as
 * the field now holds it.
 */
export function fitNameField(name: string, fieldLength: number): { field: Uint8Array; written: string } {
  const field = new Uint8Array(fieldLength);
  let used = 0, written = '';
  for (const ch of name) {
    const enc = encodeSjis(ch);
    if (used + enc.length > fieldLength) break;
    field.set(enc, used);
    used += enc.length;
    written += decoder.decode(enc);
  }
  return { field, written };
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
