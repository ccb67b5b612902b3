// The curve pane's channel on a click of a key (walkthrough: a key of 上半身2 in a dance opened the X
// channel, whose curve moves nothing since that bone never changes position). A bone whose keys all hold
// one position opens on Rotation; a bone that moves keeps the channel as it was (today's behaviour), and
// gets back the one Rotation replaced, unless the user picked a tab meanwhile.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { setQuietApi } from '../../helpers/quiet-api';
import CurveEditor from '../../../renderer/src/editor/CurveEditor.vue';

setQuietApi();

const q = [0, 0, 0.3826834, 0.9238795] as [number, number, number, number];
// Records in file order: 0–2 センター (moves), 3–5 上半身2 (turns at one position, not the origin), 6–7 左足 (one position at y, turns).
function open() {
  const doc = buildVmd({
    bones: [
      { name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 10, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      { name: 'センター', frame: 20, position: [0, 0.5, 0], rotation: [0, 0, 0, 1] },
      { name: '上半身2', frame: 0, position: [0, 1, 0], rotation: [0, 0, 0, 1] },
      { name: '上半身2', frame: 10, position: [0, 1, 0], rotation: q },
      { name: '上半身2', frame: 20, position: [0, 1, 0], rotation: [0, 0, 0, 1] },
      { name: '左足', frame: 0, position: [0, 0, 0], rotation: q },
      { name: '左足', frame: 30, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    ],
  });
  useSceneStore().openBytes('dance.vmd', writeVmd(doc), null);
}

describe('the curve pane’s channel when a key is clicked', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('opens Rotation for a bone whose position never changes, keeps the channel for one that moves', async () => {
    open();
    const sel = useSelectionStore();
    const w = mount(CurveEditor, { attachTo: document.body });
    const shown = () => ['x', 'y', 'z', 'r'].filter((k) => w.get(`[data-testid="curve-channel-${k}"]`).classes('on'));
    const click = async (record: number) => {
      sel.select([{ kind: 'bone', record }]);
      await w.vm.$nextTick();
    };
    await click(2); // センター moves: X, as before
    expect(shown()).toEqual(['x']);
    await click(4); // 上半身2 turns only
    expect(shown()).toEqual(['r']);
    await click(3); // another key of the same track: still Rotation
    expect(shown()).toEqual(['r']);
    await click(1); // back on a bone that moves: the channel Rotation replaced
    expect(shown()).toEqual(['x']);
    // The user's pick stays on a moving bone, is replaced on a rotation-only one, and comes back after.
    await w.get('[data-testid="curve-channel-y"]').trigger('click');
    await click(7);
    expect(shown()).toEqual(['r']);
    await click(0);
    expect(shown()).toEqual(['y']);
    // A tab picked on a rotation-only bone is the user's: it stays on the next track.
    await click(5);
    expect(shown()).toEqual(['r']);
    await w.get('[data-testid="curve-channel-z"]').trigger('click');
    expect(shown()).toEqual(['z']);
    await click(6);
    expect(shown()).toEqual(['r']);
    await click(2);
    expect(shown()).toEqual(['z']);
    w.unmount();
  });
});
