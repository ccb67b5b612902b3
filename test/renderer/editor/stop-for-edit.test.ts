// New-user pass nuchaos, finding 8: Ctrl+Shift+M while playing kept playing and keyed a frame never seen. An edit
// by keyboard while playing stops playback first, on the whole frame shown, and the notice names it.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { stopForEdit } from '../../../renderer/src/editor/stop-for-edit';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';

beforeEach(() => setActivePinia(createPinia()));

describe('a keyboard edit while playing', () => {
  it('stops playback on the frame shown (31.6 → 32) and says so, for Mirror pose, Enter, paste and Delete', () => {
    const time = useTimeStore();
    for (const id of ['mirrorPose', 'insertKey', 'pasteKeys', 'deleteKeys'] as const) {
      time.seek(31.6);
      time.play();
      expect(stopForEdit(id)).toBe(true);
      expect(time.playing).toBe(false);
      expect(time.frame).toBe(32);
      const n = useNotifyStore().items.at(-1)!;
      expect(noticeLines(n, 'en').message).toBe('Playback stopped at frame 32: the edit is made there');
      expect(noticeLines(n, 'ja').message).toBe('再生をフレーム 32 で止め、そのフレームで編集しました');
    }
  });

  it('leaves playback alone for keys that edit nothing (step, play) and says nothing when stopped', () => {
    const time = useTimeStore();
    time.seek(10.4);
    time.play();
    expect(stopForEdit('step')).toBe(false);
    expect(time.playing).toBe(true);
    time.pause();
    expect(stopForEdit('mirrorPose')).toBe(false);
    expect(time.frame).toBe(10.4);
    expect(useNotifyStore().items).toHaveLength(0);
  });
});
