// Dropping many files at once (new-user pass nuprefs 7): the pose's question sat over the Merge with… dialog, both
// modal, and the only notice said "Opened camera.vmd" although walk.vmd was the dance opened. Now one question at a
// time (Merge with… opens after the pose is answered) and one notice says what went where.
import { describe, expect, it, vi } from 'vitest';
import { buildVmd, encodeSjis, writeVmd } from '../../../shared/vmd';
import { openDropped } from '../../../renderer/src/shell/app-actions';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useMergeStore } from '../../../renderer/src/stores/merge';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { cameraVmd, dance, memoryScene } from '../stores/scene-fixtures';

describe('dropping a model, a dance, a facial motion, a camera and a pose at once', () => {
  it('asks about the pose first, then offers Merge with…; one notice names what was opened where (en, ja)', async () => {
    memoryScene([]);
    const face = writeVmd(buildVmd({ morphs: [{ name: 'まばたき', frame: 0, weight: 0 }, { name: 'まばたき', frame: 5, weight: 1 }] }));
    const pose = encodeSjis('Vocaloid Pose Data file\n\nmiku.osm;\n1;\n\nBone0{センター\n  1.000000,2.000000,3.000000;\n  0.000000,0.000000,0.000000,1.000000;\n}\n\n');
    const dropped = openDropped([
      { name: 'song.txt', bytes: new Uint8Array([1]) },
      { name: 'camera.vmd', bytes: cameraVmd() },
      { name: 'walk.vmd', bytes: dance(10) },
      { name: 'face.vmd', bytes: face },
      { name: 'Gene.pmx', bytes: new Uint8Array([1, 2, 3]) },
      { name: 'lf.vpd', bytes: pose },
    ]);
    const confirm = useConfirmStore(), merge = useMergeStore();
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    // The pose's question is the only one open: Merge with… waits for it.
    expect(merge.open).toBe(false);
    confirm.answer('apply');
    await dropped;
    expect(merge.open).toBe(true);
    expect(merge.files.map((f) => ('name' in f ? f.name : f.path))).toEqual(['face.vmd']);
    expect(useSceneStore().entries.map((e) => [e.kind, e.fileName])).toEqual([['actor', 'walk.vmd'], ['camera', 'camera.vmd']]);
    const said = useNotifyStore().items.filter((n) => n.kind === 'success').map((n) => noticeLines(n, 'en').message);
    expect(said.at(-1)).toBe('Opened Gene.pmx as the model · walk.vmd on Gene.pmx · camera.vmd as the camera · lf.vpd as a pose on it · face.vmd to merge in (Merge with…)');
    const last = useNotifyStore().items.filter((n) => n.kind === 'success').at(-1)!;
    expect(noticeLines(last, 'ja').message).toBe('開きました: Gene.pmx（モデル） · walk.vmd（Gene.pmx に） · camera.vmd（カメラ） · lf.vpd（ポーズ） · face.vmd（結合… で重ねる）');
  });

  it('a lone file dropped says nothing more than its own notice (no summary of one)', async () => {
    memoryScene([]);
    await openDropped([{ name: 'walk.vmd', bytes: dance(10) }]);
    expect(useNotifyStore().items.some((n) => n.text !== undefined && noticeLines(n, 'en').message.startsWith('Opened walk.vmd ·'))).toBe(false);
    expect(useNotifyStore().items.map((n) => noticeLines(n, 'en').message).filter((m) => m.startsWith('Opened') && m.includes(' · '))).toEqual([]);
  });
});
