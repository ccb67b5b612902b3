// Keys applied from a VPD are selected afterwards (new-user pass nuscratch, finding 7: "Applied wave45.vpd to Gene_light
// at frame 150: 5 bones and 2 morphs keyed", yet the Key panel said "No key selected"; a redo of the same step selected
// them). As after a paste in MMD, the keys written at the frame are the selection, ready to move or adjust. The records
// expected are found here by name and frame in the document after the apply.
import { describe, expect, it, vi } from 'vitest';
import { BONE, MORPH, decodeName, encodeSjis } from '../../../shared/vmd';
import { openAny } from '../../../renderer/src/shell/app-actions';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { dance, memoryScene } from '../stores/scene-fixtures';

/** センター moved and 左腕 turned, and the morph あ at 0.5. */
const VPD = encodeSjis(
  'Vocaloid Pose Data file\n\nmiku.osm;\n2;\n\n' +
    'Bone0{センター\n  1.000000,2.000000,3.000000;\n  0.000000,0.000000,0.000000,1.000000;\n}\n\n' +
    'Bone1{左腕\n  0.000000,0.000000,0.000000;\n  0.000000,0.000000,0.258819,0.965926;\n}\n\n' +
    'Morph0{あ\n  0.500000;\n}\n',
);

/** The records of `kind` keyed at `frame`, as [name, record], by name. */
function keysAt(kind: 'bone' | 'morph', frame: number): [string, number][] {
  const b = useWorkspaceStore().doc![kind];
  const size = kind === 'bone' ? BONE.SIZE : MORPH.SIZE;
  const out: [string, number][] = [];
  for (let r = 0; r < b.count; r++) {
    if (b.view.getUint32(r * size + 15, true) === frame) out.push([decodeName(b.bytes.subarray(r * size, r * size + 15)), r]);
  }
  return out.sort((p, q) => p[0].localeCompare(q[0]));
}

describe('Apply the pose… selects the keys it wrote', () => {
  it('after the apply (as its redo does): the two bone keys and the morph key at the frame', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    expect(await openAny({ path: '/s/a.vmd' })).toBe(true);
    useTimeStore().seek(15);
    const sel = useSelectionStore();
    sel.clear();
    const applied = openAny({ name: 'wave.vpd', bytes: VPD });
    const confirm = useConfirmStore();
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    confirm.answer('apply');
    expect(await applied).toBe(true);
    expect(useHistoryStore().depth).toBe(1);
    const bones = keysAt('bone', 15), morphs = keysAt('morph', 15);
    expect(bones.map(([n]) => n)).toEqual(['センター', '左腕'].sort((p, q) => p.localeCompare(q)));
    expect(morphs.map(([n]) => n)).toEqual(['あ']);
    const expected = [...bones.map(([, r]) => ({ kind: 'bone', record: r })), ...morphs.map(([, r]) => ({ kind: 'morph', record: r }))];
    const key = (x: { kind: string; record: number }) => `${x.kind}:${x.record}`;
    expect(sel.refs.map(key).sort()).toEqual(expected.map(key).sort());
    expect(sel.count).toBe(3);
  });
});
