/**
 * The video dialog's free-space check before a render: a rough size of the file (the encoder's target bitrate ×
 * the video's length, the music's 192 kb/s added) beside the free space of the disk it goes to (main's statfs,
 * the diskSpace request). A render that would fill the disk used to be learnt of only when it did, minutes into
 * a long 1080p export ("the disk is full"). Rough: the encoder aims at the bitrate, a still scene comes out
 * smaller; 300 frames at 720p (5 s, no music) came out at 1.6 MB where this says 1.7 MB.
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

/**
 * The file's rough size in bytes: bitrate × seconds (and the music's), null for a PNG sequence (a picture's size
 * depends on what it shows) or when the bitrate is unknown.
 */
export function estimateExportBytes(o: { format: ExportFormat; width: number; height: number; seconds: number; withAudio: boolean }): number | null {
  if (o.format === 'png' || !(o.seconds > 0)) return null;
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
