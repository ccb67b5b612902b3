/**
 * Bounds for the operations that sample a motion on every frame (reduce, speed --refit and bake fit each
 * track on its frames; physics-bake, export-bvh/-vrma and retarget hold frames × bones at once). A VMD's
 * frame numbers go to 4,294,967,295, so one stray key far past the rest asked these for terabytes, and they
 * ended in "internal error: Invalid typed array length". They now refuse before allocating, saying which
 * frames and which track.
 *
 * A 4-minute dance is 7,200 frames; on Gene_light's 87 physics bones that is 626,000 frames × bones (MMD
 * itself stops at 600,000 keys). A two-hour concert is 216,000 frames.
 */
import { optionRefusal, type CodecError } from '../vmd/errors';

/** Most frames one track is sampled over: 1,000,000 (9 hours at 30 fps). */
export const MAX_DENSE_FRAMES = 1_000_000;
/** Most frames × tracks (bones) held at once, or baked into keys: 10,000,000. */
export const MAX_DENSE_VALUES = 10_000_000;

/**
 * E_SPAN when `what` would sample frames from..to of `tracks` tracks (`track`: the longest one's name,
 * when they are named) past MAX_DENSE_FRAMES or MAX_DENSE_VALUES; null within them. `ranged`: the operation
 * takes --from and --to, so the refusal carries them as its options (optionRefusal, problem `span`): the app
 * names its own fields, the CLI's message is the same. Without: `params` from and to, which the app words
 * as its own advice (trim the motion), not the CLI's flags.
 */
export function denseRefusal(what: string, from: number, to: number, tracks: number, track?: string, ranged = false): CodecError | null {
  const frames = to - from + 1;
  const n = (x: number) => x.toLocaleString('en-US');
  const where = `${track !== undefined ? `"${track}"` : 'the motion'} runs from frame ${n(from)} to ${n(to)}`;
  const hint = 'a key far past the rest? Trim the motion, or give --from and --to where the command takes them';
  // The message is the CLI's; the app words E_SPAN by its params (a ranged one with its own From/To fields).
  const refusal = (message: string): CodecError =>
    ranged ? optionRefusal('E_SPAN', message, 'from', 'span', { from: n(from), to: n(to), other: 'to' }) : { code: 'E_SPAN', message, params: { from: n(from), to: n(to) } };
  if (frames > MAX_DENSE_FRAMES) return refusal(`${what}: ${where} (${n(frames)} frames), more than the ${n(MAX_DENSE_FRAMES)} it samples a track over: ${hint}`);
  if (frames * tracks > MAX_DENSE_VALUES) {
    return refusal(`${what}: ${where}: ${n(frames)} frames × ${n(tracks)} tracks, more than the ${n(MAX_DENSE_VALUES)} it holds at once: ${hint}`);
  }
  return null;
}
