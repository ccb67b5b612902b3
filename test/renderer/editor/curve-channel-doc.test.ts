// The curve pane's channel tabs and Paste on list follow the active document (a camera maker's report: with the
// camera document active and no key selected, or a light key selected, they showed a bone's X Y Z Rotation; the
// camera's six, with Distance and FOV, came only once a camera key was selected).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount, type VueWrapper } from '@vue/test-utils';
import { blockFromRecords, buildVmd, encodeCameraRecord, encodeLightRecord, withBlocks, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { setQuietApi } from '../../helpers/quiet-api';
import CurveEditor from '../../../renderer/src/editor/CurveEditor.vue';

setQuietApi();

const tabs = (w: VueWrapper) => w.findAll('[data-testid^="curve-channel-"]').map((b) => b.attributes('data-testid')!.slice('curve-channel-'.length));
const pasteOn = (w: VueWrapper) => w.findAll('[data-testid^="paste-ch-"]').map((b) => b.attributes('data-testid')!.slice('paste-ch-'.length));

describe('the curve pane’s channels follow the active document', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('a camera document: six channels with no key selected and with a light key selected; a dance: four', async () => {
    const cam = withBlocks(buildVmd({}), {
      camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 })]),
      light: blockFromRecords('light', [encodeLightRecord({ frame: 0, color: [0.602, 0.602, 0.602], direction: [-0.5, -1, 0.5] })]),
    });
    useSceneStore().openBytes('camera.vmd', writeVmd(cam), null);
    const sel = useSelectionStore();
    sel.clear();
    const w = mount(CurveEditor, { attachTo: document.body });
    await w.vm.$nextTick();
    const six = ['x', 'y', 'z', 'r', 'd', 'v'];
    expect(tabs(w)).toEqual(six);
    expect(pasteOn(w)).toEqual(six);
    sel.select([{ kind: 'light', record: 0 }]);
    await w.vm.$nextTick();
    expect(tabs(w)).toEqual(six);
    expect(pasteOn(w)).toEqual(six);
    w.unmount();

    setActivePinia(createPinia());
    useSceneStore().openBytes('dance.vmd', writeVmd(buildVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }] })), null);
    const d = mount(CurveEditor, { attachTo: document.body });
    await d.vm.$nextTick();
    expect(tabs(d)).toEqual(['x', 'y', 'z', 'r']);
    expect(pasteOn(d)).toEqual(['x', 'y', 'z', 'r']);
    d.unmount();
  });
});
