// The curve pane says what a curve does not do (the camera operator's findings 8 and 11): at a camera cut (the
// key one frame after the one before it, which plays as a jump) it says "Cut (1 frame): …" (it offered the curve
// as if it shaped a move, with nothing said); a light or self-shadow key, which has no curve, gets the channel
// tabs, Overlay/Link and the Paste on boxes greyed (they stood ready, ticked, as for a camera key).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { setQuietApi } from '../../helpers/quiet-api';
import { buildFixture } from '../../helpers/vmd-fixtures';
import CurveEditor from '../../../renderer/src/editor/CurveEditor.vue';

setQuietApi();

const cam = (frame: number, distance: number) => ({ frame, distance, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 });
// Camera keys at 0, 60 and 61 (a cut: 60 → 61), a light key and a self-shadow key.
const FILE = buildFixture({
  cameras: [cam(0, -45), cam(60, -30), cam(61, -10)],
  lights: [{ frame: 0, color: [0.6, 0.6, 0.6], direction: [-0.5, -1, 0.5] }],
  shadows: [{ frame: 0, mode: 1, distance: 0.01125 }],
});

const disabled = (w: VueWrapper, sel: string) => w.findAll(sel).map((e) => (e.element as HTMLInputElement | HTMLButtonElement).disabled);

async function settle(w: VueWrapper) {
  await w.vm.$nextTick();
  await w.vm.$nextTick();
}

describe('the curve pane at a cut and for keys without a curve', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    useSceneStore().openBytes('camera.vmd', FILE, null);
  });

  it('the key at 61 (60 → 61) is a cut and says so; the key at 60 (0 → 60) does not', async () => {
    const sel = useSelectionStore();
    sel.select([{ kind: 'camera', record: 2 }]);
    const w = mount(CurveEditor, { attachTo: document.body });
    await settle(w);
    expect(w.get('[data-testid="curve-target"]').attributes('data-frame')).toBe('61');
    expect(w.get('[data-testid="curve-cut"]').text()).toBe('Cut (1 frame): the camera jumps here, so the curve has no effect.');
    // Still editable: the fields take numbers.
    expect(disabled(w, '[data-testid="curve-x1"]')).toEqual([false]);
    sel.select([{ kind: 'camera', record: 1 }]);
    await settle(w);
    expect(w.get('[data-testid="curve-target"]').attributes('data-frame')).toBe('60');
    expect(w.find('[data-testid="curve-cut"]').exists()).toBe(false);
    w.unmount();
  });

  it('a light or self-shadow key greys the tabs, Overlay/Link and Paste on; a camera key has them', async () => {
    const sel = useSelectionStore();
    sel.select([{ kind: 'camera', record: 1 }]);
    const w = mount(CurveEditor, { attachTo: document.body });
    await settle(w);
    const all = () => [
      ...disabled(w, '[data-testid^="curve-channel-"]'),
      ...disabled(w, '[data-testid="curve-overlay"], [data-testid="curve-link"]'),
      ...disabled(w, '[data-testid^="paste-ch-"]'),
    ];
    // Six tabs, two toggles, six boxes.
    expect(all()).toEqual(new Array(14).fill(false));
    for (const kind of ['light', 'shadow'] as const) {
      sel.select([{ kind, record: 0 }]);
      await settle(w);
      expect(all(), kind).toEqual(new Array(14).fill(true));
    }
    w.unmount();
  });
});
