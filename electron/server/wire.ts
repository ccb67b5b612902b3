/**
 * JSON for the browser-mode transport: Uint8Array values travel as `{ "$bytes": "<base64>" }`
 * (IPC clones them natively; HTTP needs text). Node side; the renderer has its mirror in renderer/src/api.
 */
export function toWireJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => {
    if (v instanceof Uint8Array) return { $bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
    return v;
  });
}

export function fromWireJson(text: string): unknown {
  return JSON.parse(text, (_k, v) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof v.$bytes === 'string' && Object.keys(v).length === 1) {
      const b = Buffer.from(v.$bytes, 'base64');
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    }
    return v;
  });
}
