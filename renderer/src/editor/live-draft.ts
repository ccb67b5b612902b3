/**
 * While a handle is dragged the document is not edited yet (that happens once, on release, as one
 * undo step). To let the 3D preview follow the drag within the frame, the dragged curve is written
 * into the tracks' curve arrays in place (16 or 24 bytes per key); `restore` puts the stored values
 * back if the drag is cancelled. The next replaceDocument rebuilds the tracks anyway.
 */
import type { Curve } from '../../../shared/vmd/bezier';
import type { MotionTracks } from '../../../shared/vmd/tracks';
import { locate, type KeyRef } from '../../../shared/key-edits';

export class LiveDraft {
  /** Per target: the curve array and the byte offset of its key's curves; found once, on first use. */
  private arrs: (Uint8Array | null)[] = [];
  private at: Int32Array | null = null;
  /** The stored bytes the drag overwrote (4 per channel per target), in packed form. */
  private saved: Uint8Array | null = null;
  constructor(private readonly tracks: MotionTracks, private readonly refs: readonly KeyRef[], private readonly recordCount: number, private readonly channels: readonly number[]) {}

  /** Where each target's curves are (−1: a hidden duplicate or no curves). */
  private locateAll(): Int32Array {
    const at = new Int32Array(this.refs.length).fill(-1);
    this.arrs = new Array(this.refs.length).fill(null);
    this.refs.forEach((ref, i) => {
      const loc = locate(this.tracks, ref, this.recordCount);
      const arr = ref.kind === 'bone' ? this.tracks.bones.curves : ref.kind === 'camera' ? this.tracks.camera.curves : null;
      if (!loc || !arr) return;
      this.arrs[i] = arr;
      at[i] = (ref.kind === 'bone' ? 16 : 24) * loc.key;
    });
    return at;
  }

  /** Writes `c` on the channels of every key (saving the originals on first use). */
  apply(c: Curve): void {
    const at = (this.at ??= this.locateAll());
    const nc = this.channels.length;
    const first = this.saved === null;
    const saved = (this.saved ??= new Uint8Array(at.length * nc * 4));
    for (let i = 0; i < at.length; i++) {
      const arr = this.arrs[i];
      if (!arr) continue;
      for (let j = 0; j < nc; j++) {
        const o = at[i] + 4 * this.channels[j];
        if (first) saved.set(arr.subarray(o, o + 4), (i * nc + j) * 4);
        arr[o] = c[0];
        arr[o + 1] = c[1];
        arr[o + 2] = c[2];
        arr[o + 3] = c[3];
      }
    }
  }

  restore(): void {
    const at = this.at, saved = this.saved;
    if (!at || !saved) return;
    const nc = this.channels.length;
    for (let i = 0; i < at.length; i++) {
      const arr = this.arrs[i];
      if (!arr) continue;
      for (let j = 0; j < nc; j++) arr.set(saved.subarray((i * nc + j) * 4, (i * nc + j + 1) * 4), at[i] + 4 * this.channels[j]);
    }
    this.saved = null;
  }
}
