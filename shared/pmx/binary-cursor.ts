/**
 * A little-endian cursor over model bytes for the PMX and PMD readers. Every read checks its bounds
 * and fails with a typed error naming the byte offset and what was being read; the readers catch
 * that at their API boundary and return it as a value.
 */
import { CodecFailure } from '../vmd/errors';
import { viewOf } from '../vmd/vmd-document';
import { plural } from '../i18n/plural';

export class Cursor {
  readonly view: DataView;
  off = 0;
  /** What is being read now, for error messages ("vertex 12", "bone 3 name"). */
  what = '';

  constructor(readonly bytes: Uint8Array) {
    this.view = viewOf(bytes);
  }

  get remaining(): number {
    return this.bytes.length - this.off;
  }

  /** Fails unless n more bytes are there. */
  need(n: number): void {
    if (n < 0 || this.off + n > this.bytes.length) {
      throw new CodecFailure({
        code: 'E_PMX_TRUNCATED',
        // The byte is `offset` (every reader of the error says it once: the CLI's "(at byte N)", the app's line).
        message: `truncated model: ${this.what || 'data'} needs ${plural(n, 'byte')}, the file has ${this.bytes.length}`,
        offset: this.off,
      });
    }
  }

  /**
   * Fails when `count` records of at least `minSize` bytes each cannot fit in what is left —
   * checked before allocating anything for them, so a corrupt count never allocates gigabytes.
   */
  needRecords(count: number, minSize: number, what: string): void {
    if (count < 0 || !Number.isFinite(count) || count * minSize > this.remaining) {
      throw new CodecFailure({
        code: 'E_PMX_TRUNCATED',
        message: `${what}: count ${count} needs at least ${count * minSize} bytes, ${this.remaining} left`,
        offset: this.off,
      });
    }
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.off++];
  }
  i8(): number {
    this.need(1);
    return this.view.getInt8(this.off++);
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.off, true);
    this.off += 2;
    return v;
  }
  i16(): number {
    this.need(2);
    const v = this.view.getInt16(this.off, true);
    this.off += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.off, true);
    this.off += 4;
    return v;
  }
  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.off, true);
    this.off += 4;
    return v;
  }
  f32(): number {
    this.need(4);
    const v = this.view.getFloat32(this.off, true);
    this.off += 4;
    return v;
  }
  vec3(): [number, number, number] {
    this.need(12);
    const v = this.view, o = this.off;
    this.off += 12;
    return [v.getFloat32(o, true), v.getFloat32(o + 4, true), v.getFloat32(o + 8, true)];
  }
  vec4(): [number, number, number, number] {
    this.need(16);
    const v = this.view, o = this.off;
    this.off += 16;
    return [v.getFloat32(o, true), v.getFloat32(o + 4, true), v.getFloat32(o + 8, true), v.getFloat32(o + 12, true)];
  }
  /** n raw bytes (a view, not a copy). */
  take(n: number): Uint8Array {
    this.need(n);
    const b = this.bytes.subarray(this.off, this.off + n);
    this.off += n;
    return b;
  }
  skip(n: number): void {
    this.need(n);
    this.off += n;
  }
}
