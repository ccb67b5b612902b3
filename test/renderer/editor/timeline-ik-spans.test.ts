/**
 * The 表示・IK row's tooltip over a shaded span (new-user pass nuik, finding 6: five identical diamonds, which IK is
 * off between which frames only seen by clicking each key): hovering where 右足ＩＫ is off names it and its frames;
 * where the model is hidden, says so; elsewhere on the row, nothing. The drawing itself: timeline-draw.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { defineComponent, h } from 'vue';
import { mount } from '@vue/test-utils';
import { encodeSjis } from '../../../shared/vmd/sjis';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { provideTimelineView, type TimelineView } from '../../../renderer/src/editor/timeline-view';
import { ROW_HEIGHT, rowsTop } from '../../../renderer/src/editor/timeline-math';
import Timeline from '../../../renderer/src/editor/Timeline.vue';
import { setQuietApi } from '../../helpers/quiet-api';
import { buildFixture } from '../../helpers/vmd-fixtures';

setQuietApi();
const sj = (s: string) => Array.from(encodeSjis(s));

describe('the 表示・IK row’s tooltip', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('names the IK off and its frames, and the display-off span, over the shading', async () => {
    // 右足ＩＫ off at 10, display off at 40, all on (and shown) at 50.
    const bytes = buildFixture({
      bones: [{ name: sj('センター'), frame: 0 }, { name: sj('センター'), frame: 100 }],
      ik: [
        { frame: 10, visible: 1, iks: [{ name: sj('右足ＩＫ'), enabled: 0 }] },
        { frame: 40, visible: 0, iks: [{ name: sj('右足ＩＫ'), enabled: 0 }] },
        { frame: 50, visible: 1, iks: [{ name: sj('右足ＩＫ'), enabled: 1 }] },
      ],
    });
    useSceneStore().openBytes('m.vmd', bytes, null);
    let tv: TimelineView | null = null;
    const Host = defineComponent({
      setup() {
        tv = provideTimelineView();
        return () => h(Timeline);
      },
    });
    const w = mount(Host, { attachTo: document.body });
    await w.vm.$nextTick();
    const view = tv!.view;
    Object.assign(view, { frameStart: 0, pxPerFrame: 4, scrollY: 0 });
    await w.vm.$nextTick();
    // The 表示・IK row is the first track row (under its group row, expanded).
    const ri = tv!.rows.value.findIndex((r) => r.type === 'track' && r.kind === 'ik');
    expect(ri).toBeGreaterThanOrEqual(0);
    const y = rowsTop(view) + ri * ROW_HEIGHT + ROW_HEIGHT / 2;
    const canvas = w.get('[data-testid="timeline-canvas"]');
    const at = async (frame: number) => {
      canvas.element.dispatchEvent(new PointerEvent('pointermove', { clientX: frame * 4, clientY: y, bubbles: true }));
      await w.vm.$nextTick();
      return canvas.attributes('title') ?? '';
    };
    expect(await at(25)).toBe('IK off: 右足ＩＫ (frames 10–49): the bones they turn play their own keys (FK)');
    expect(await at(45)).toBe('IK off: 右足ＩＫ (frames 10–49): the bones they turn play their own keys (FK)\nDisplay off: the model is hidden (frames 40–49)');
    expect(await at(70)).toBe('');
    useSettingsStore().settings.locale = 'ja';
    expect(await at(30)).toBe('IK OFF: 右足ＩＫ（フレーム 10–49）: これらの IK が動かすボーンは自身のキーで動きます（FK）');
    w.unmount();
  });
});
