/**
 * The video dialog's free-space check before a render: a rough size of the file (the encoder's target bitrate ×
 * the video's length, the music's 192 kb/s added) beside the free space of the disk it goes to (main's statfs,
 * the diskSpace request). A render that would fill the disk used to be learnt of only when it did, minutes into
 * a long 1080p export ("the disk is full"). Rough: the encoder aims at the bitrate, a still scene comes out
 * smaller; 300 frames at 720p (5 s, no music) came out at 1.6 MB where this says 1.7 MB.
 * A PNG sequence (no bitrate: a picture's size is what it shows) is a sample frame's bytes per pixel, from one
 * picture of the export's look encoded once before rendering, × each frame's pixels, each file taking whole
 * blocks of the disk; it had no figure, and a long 4K sequence filled the disk unannounced.
 */
import { QUALITY_HIGH, type VideoCodec } from 'mediabunny';
import type { ExportFormat } from './video-export';

/** The music's bitrate (video-export.ts AUDIO_CONFIG). */
const AUDIO_BITS_PER_SECOND = 192_000;
/** The muxer's index and boxes: a few hundred bytes a frame at most, said as a margin. */
const CONTAINER_MARGIN = 1.02;

/** What the encoder aims at for this codec and size (mediabunny's QUALITY_HIGH, which the export asks for); null when unknown. */
export function videoBitrate(codec: VideoCodec, width: number, height: number): number | null {
  // Quality keeps its bitrate rule inside (_toVideoBitrate, the one the encoder is configured with): asked, not copied.
  const q = QUALITY_HIGH as unknown as { _toVideoBitrate?: (c: VideoCodec, w: number, h: number) => number };
  try {
    const b = q._toVideoBitrate?.(codec, width, height);
    return typeof b === 'number' && Number.isFinite(b) && b > 0 ? b : null;
  } catch {
    return null;
  }
}

/** A file of a PNG sequence takes whole blocks of the disk: 4 KiB, the common block size (ext4, NTFS, APFS). */
export const DISK_BLOCK = 4096;

/** A PNG sequence's rough size: `frames` files of `bytesPerPixel` × width × height bytes, each rounded up to DISK_BLOCK. */
export function estimatePngSequenceBytes(bytesPerPixel: number, width: number, height: number, frames: number): number | null {
  if (!(bytesPerPixel > 0) || !Number.isFinite(bytesPerPixel) || !(frames > 0) || !(width > 0) || !(height > 0)) return null;
  return frames * Math.ceil((bytesPerPixel * width * height) / DISK_BLOCK) * DISK_BLOCK;
}

/**
 * The file's rough size in bytes: bitrate × seconds (and the music's); for a PNG sequence, its frames at the
 * sample's bytes per pixel (`pngBytesPerPixel`; null without a sample); null when the bitrate is unknown.
 */
export function estimateExportBytes(o: { format: ExportFormat; width: number; height: number; seconds: number; withAudio: boolean; frames?: number; pngBytesPerPixel?: number | null }): number | null {
  if (!(o.seconds > 0)) return null;
  if (o.format === 'png') return o.pngBytesPerPixel ? estimatePngSequenceBytes(o.pngBytesPerPixel, o.width, o.height, o.frames ?? 0) : null;
  const video = videoBitrate(o.format === 'mp4' ? 'avc' : 'vp9', o.width, o.height);
  if (video === null) return null;
  return Math.ceil(((video + (o.withAudio ? AUDIO_BITS_PER_SECOND : 0)) * o.seconds * CONTAINER_MARGIN) / 8);
}

/**
 * When the estimate is more than the disk has free: both in whole MB (needed rounded up, free down) for the
 * dialog's warning; null when it fits or either figure is unknown (then nothing is said).
 */
export function spaceShortfall(estimateBytes: number | null, freeBytes: number | null): { neededMb: number; freeMb: number } | null {
  if (estimateBytes === null || freeBytes === null || !(estimateBytes > freeBytes)) return null;
  return { neededMb: Math.ceil(estimateBytes / 1048576), freeMb: Math.floor(freeBytes / 1048576) };
}
