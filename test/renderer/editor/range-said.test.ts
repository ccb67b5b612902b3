// Range select says what it picked (curve-polish pass: R, 201–291, Active track, Select left the bar's own line
// empty — the only feedback was "15 selected" in the toolbar — and with the Arms group, 75 keys on 8 bones, the
// Key panel's header named one bone, 右手首, while the track list highlighted 左腕). Now the bar's line says
// "15 keys on 左腕, 0–100" / "4 keys on 2 bones, 0–100" (en/ja), and the Key panel's header for keys of several
// bones says "4 keys (2 bones)".
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, h } from 'vue';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { provideTimelineView } from '../../../renderer/src/editor/timeline-view';
import { setQuietApi } from '../../helpers/quiet-api';
import RangeBar from '../../../renderer/src/editor/RangeBar.vue';
import KeyInspector from '../../../renderer/src/editor/KeyInspector.vue';

setQuietApi();

const I = [0, 0, 0, 1] as [number, number, number, number];
/** 左腕 at 0, 50, 100, 150; 右腕 at 20, 80; 表情 "あ" at 10 (a morph). */
function open() {
  const doc = buildVmd({
    bones: [
      { name: '左腕', frame: 0, position: [0, 0, 0], rotation: I },
      { name: '左腕', frame: 50, position: [0, 0, 0], rotation: I },
      { name: '左腕', frame: 100, position: [0, 0, 0], rotation: I },
      { name: '左腕', frame: 150, position: [0, 0, 0], rotation: I },
      { name: '右腕', frame: 20, position: [0, 0, 0], rotation: I },
      { name: '右腕', frame: 80, position: [0, 0, 0], rotation: I },
    ],
    morphs: [{ name: 'あ', frame: 10, weight: 1 }],
  });
  useSceneStore().openBytes('dance.vmd', writeVmd(doc), null);
}

/** The range bar and the Key panel under one timeline view, as the editor has them. */
const Host = defineComponent({
  setup() {
    const tv = provideTimelineView();
    return { tv };
  },
  render() {
    return h('div', [h(RangeBar), h(KeyInspector)]);
  },
});

describe('range select says what it picked', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('one track, two bones, every track; the Key panel header counts bones; a later selection clears the line', async () => {
    open();
    const tracks = useWorkspaceStore().tracks!;
    const sel = useSelectionStore();
    sel.setActiveTrack({ kind: 'bone', track: tracks.bones.index.get('左腕')! });
    const w = mount(Host);
    const tv = (w.vm as unknown as { tv: ReturnType<typeof provideTimelineView> }).tv;
    const msg = () => w.get('[data-testid="range-message"]').text();
    tv.nav.rangeFrom = 0;
    tv.nav.rangeTo = 100;
    tv.nav.rangeTracks = 'active';
    await w.get('[data-testid="range-select"]').trigger('click');
    expect(sel.count).toBe(3);
    expect(msg()).toBe('3 keys on 左腕, 0–100');
    await w.vm.$nextTick();
    // One bone's keys: the header names the bone.
    expect(w.get('[data-testid="inspector-name"]').text()).toBe('左腕');

    tv.nav.rangeTracks = 'all';
    tv.nav.rangeTo = 90;
    await w.get('[data-testid="range-select"]').trigger('click');
    // 左腕 0, 50; 右腕 20, 80; あ 10: five keys on three tracks, one a morph.
    expect(sel.count).toBe(5);
    expect(msg()).toBe('5 keys on 3 tracks, 0–90');
    await w.vm.$nextTick();
    // The active key is a bone key; the header counts the bone keys' bones.
    expect(w.get('[data-testid="inspector-name"]').text()).toBe('4 keys (2 bones)');
    expect(w.find('[data-testid="inspector-name-en"]').exists()).toBe(false);

    // Bones only: the group of both arms, as "Arms" would be (the selected tracks: both are selected now).
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 4 }]);
    tv.nav.rangeTracks = 'selected';
    tv.nav.rangeTo = 100;
    await w.get('[data-testid="range-select"]').trigger('click');
    expect(msg()).toBe('5 keys on 2 bones, 0–100');

    useSettingsStore().settings = { ...useSettingsStore().settings, locale: 'ja' };
    await w.get('[data-testid="range-select"]').trigger('click');
    expect(msg()).toBe('2 ボーンのキー 5 個、0〜100');
    await w.vm.$nextTick();
    expect(w.get('[data-testid="inspector-name"]').text()).toBe('5 個のキー（2 ボーン）');

    // A click elsewhere picks other keys: the line no longer speaks for the selection.
    sel.select([{ kind: 'bone', record: 1 }]);
    await w.vm.$nextTick();
    expect(msg()).toBe('');
    expect(w.get('[data-testid="inspector-name"]').text()).toBe('左腕');
    w.unmount();
  });
});
