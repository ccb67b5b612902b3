// A document's tab brings its rows into view (new-user pass: with the actor's morph rows in view, clicking
// the Camera tab, the camera document already active, left the timeline there; the camera's rows were
// below, and it took ~60 wheel turns to reach them). The active document's tab clicked: its rows in view; a
// switch: the first time at its first row, then where it was left.
import { describe, expect, it } from 'vitest';
import { defineComponent, h, nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { provideTimelineView, ROW_HEIGHT, RULER_HEIGHT, type TimelineView } from '../../../renderer/src/editor/timeline-view';
import { memoryScene, cameraVmd } from '../stores/scene-fixtures';
import SceneTabs from '../../../renderer/src/editor/SceneTabs.vue';

const sceneFile = new TextEncoder().encode(JSON.stringify({ format: 'vmd-studio-scene', version: 1, actors: [{ model: null, motion: 'dance.vmd' }], camera: 'camera.vmd', activeActor: 0 }));
// センター and 40 morphs: more rows than the view's 10.
const dance = writeVmd(buildVmd({
  bones: [{ name: 'センター', frame: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] }],
  morphs: Array.from({ length: 40 }, (_, i) => ({ name: `m${i}`, frame: 0, weight: 0 })),
}));

describe('a scene tab clicked', () => {
  it('scrolls its document’s rows into view', async () => {
    memoryScene([['/s/dance.vmd', dance], ['/s/camera.vmd', cameraVmd()], ['/s/duet.vmdscene', sceneFile]]);
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    let tv!: TimelineView;
    const Host = defineComponent({
      setup() {
        tv = provideTimelineView();
        return () => h(SceneTabs);
      },
    });
    const w = mount(Host, { attachTo: document.body });
    tv.view.height = tv.view.band + RULER_HEIGHT + 10 * ROW_HEIGHT; // ruler + 10 rows, enough for either
    await nextTick();
    const cam = scene.cameraEntry!.id;
    const camFirst = () => tv.rows.value.findIndex((r) => r.doc === cam);
    expect(camFirst()).toBeGreaterThan(20);
    const tab = (kind: string) => w.get(`[data-testid="scene-tab"][data-kind="${kind}"] .pick`);
    // The camera active, the view on the actor's morphs with the camera's group row peeking in at the bottom.
    await tab('camera').trigger('click');
    await nextTick();
    expect(scene.activeId).toBe(cam);
    const visibleRows = Math.floor((tv.view.height - tv.view.band - RULER_HEIGHT) / ROW_HEIGHT);
    tv.view.scrollY = (camFirst() - visibleRows + 1) * ROW_HEIGHT;
    await tab('camera').trigger('click');
    await nextTick();
    expect(tv.view.scrollY).toBe(Math.min(camFirst() * ROW_HEIGHT, tv.rows.value.length * ROW_HEIGHT - visibleRows * ROW_HEIGHT));
    // A switch to the actor (its first time: its first row) and back: the camera comes back where it was left.
    const left = tv.view.scrollY;
    await tab('actor').trigger('click');
    await nextTick();
    expect(tv.view.scrollY).toBe(0);
    await tab('camera').trigger('click');
    await nextTick();
    expect(tv.view.scrollY).toBe(left);
    w.unmount();
  });
});
