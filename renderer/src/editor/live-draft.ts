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
  private saved: { arr: Uint8Array; at: number; bytes: number[] }[] = [];
  constructor(private readonly tracks: MotionTracks, private readonly refs: readonly KeyRef[], private readonly recordCount: number, private readonly channels: readonly number[]) {}

  /** Writes `c` on the channels of every key (saving the originals on first use). */
  apply(c: Curve): void {
    const first = this.saved.length === 0;
    for (const ref of this.refs) {
      const loc = locate(this.tracks, ref, this.recordCount);
      if (!loc) continue;
      const arr = ref.kind === 'bone' ? this.tracks.bones.curves : ref.kind === 'camera' ? this.tracks.camera.curves : null;
      if (!arr) continue;
      const stride = ref.kind === 'bone' ? 16 : 24;
      for (const ch of this.channels) {
        const at = stride * loc.key + 4 * ch;
        if (first) this.saved.push({ arr, at, bytes: [arr[at], arr[at + 1], arr[at + 2], arr[at + 3]] });
        arr[at] = c[0];
        arr[at + 1] = c[1];
        arr[at + 2] = c[2];
        arr[at + 3] = c[3];
      }
    }
  }

  restore(): void {
    for (const s of this.saved) for (let i = 0; i < 4; i++) s.arr[s.at + i] = s.bytes[i];
    this.saved = [];
  }
}
