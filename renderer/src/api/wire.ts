/** Browser-side mirror of electron/server/wire.ts: Uint8Array ↔ `{ "$bytes": "<base64>" }` in JSON. */

export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  // Chunks keep String.fromCharCode's argument list within engine limits for multi-MB files.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(s);
}

export function base64ToBytes(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function toWireJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v instanceof Uint8Array ? { $bytes: bytesToBase64(v) } : v));
}

export function fromWireJson(text: string): unknown {
  return JSON.parse(text, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && typeof v.$bytes === 'string' && Object.keys(v).length === 1 ? base64ToBytes(v.$bytes) : v,
  );
}
