/**
 * An edit by keyboard while playing (Mirror pose, Enter, paste, Delete, cut) stops playback first and puts the
 * playhead on the frame shown, as a click on a key does, so the key lands where the person saw the pose; the
 * notice names that frame. Before, playback went on and the key landed on a frame passed meanwhile (frame 32,
 * between the 14 seen before the key and the 54 after it: new-user pass nuchaos, finding 8).
 */
import type { KeyAction } from '../shell/keymap';
import { useNotifyStore } from '../stores/notify';
import { useTimeStore } from '../stores/time';

/** The editor's key actions that write keys at the playhead or change the selected keys. */
export const EDITS_AT_PLAYHEAD: ReadonlySet<KeyAction> = new Set<KeyAction>(['insertKey', 'deleteKeys', 'cutKeys', 'pasteKeys', 'mirrorPaste', 'pasteOtherSide', 'mirrorPose', 'pasteCurve']);

/** Stops playback before edit `id` (on the whole frame shown) and says so; false when it was not playing or `id` edits nothing. */
export function stopForEdit(id: KeyAction): boolean {
  const time = useTimeStore();
  if (!time.playing || !EDITS_AT_PLAYHEAD.has(id)) return false;
  time.pause();
  time.seek(Math.round(time.frame));
  useNotifyStore().info({ key: 'editor.stoppedForEdit', params: { frame: time.frame } });
  return true;
}
