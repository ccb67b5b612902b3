// What a scene names that is missing, at open (nuscene §5): one notice lists every file that could not be read —
// each actor's model and motion, the camera, the song — and stays until dismissed (before: one warning per file,
// gone in 8 s, and only the shown actor's model was checked); a tab whose motion is missing reads "walk.vmd
// (missing)"; an actor whose model is missing shows the figure when its tab is chosen, never the model shown
// before (the model panel showed the other actor's model as if it were this one's).
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { setApi } from '../../../renderer/src/api';
import SceneTabs from '../../../renderer/src/editor/SceneTabs.vue';
import { provideTimelineView } from '../../../renderer/src/editor/timeline-view';
import { defineComponent, h } from 'vue';
import { noticeLines, NOTICE_TIMEOUT_MS, useNotifyStore } from '../../../renderer/src/stores/notify';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { withFakeAudio } from '../../helpers/fake-audio';
import { cameraVmd, dance, memoryApi, sceneFile } from './scene-fixtures';

const model = (p: string) => ({ name: 'm', path: p, format: 'pmx' as const, bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });

let files: Map<string, Uint8Array>;
withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/p/motions/33_angry.vmd', dance(10)],
    ['/p/models/matcap.pmx', new Uint8Array([1])],
    ['/p/motions/cam.vmd', cameraVmd()],
    [
      '/p/broken.vmdscene',
      sceneFile({
        actors: [
          { model: 'models/gene/Gene_light.pmx', motion: 'motions/33_angry.vmd' },
          { model: 'models/low_miku/miku.pmd', motion: 'motions/wavefile_v2.vmd' },
          { model: 'models/matcap.pmx', motion: 'motions/walk.vmd' },
        ],
        camera: 'motions/wavefile_camera.vmd',
        audio: { path: 'music/song.wav', offsetFrames: 0, volume: 1, muted: false },
        activeActor: 2,
      }),
    ],
    ['/p/whole.vmdscene', sceneFile({ actors: [{ model: null, motion: 'motions/33_angry.vmd' }], camera: 'motions/cam.vmd' })],
  ]);
  setApi(memoryApi(files).api);
});

describe('missing files at scene open', () => {
  it('one notice names every missing file — models of every actor, motions, camera, song — in scene order, and stays until dismissed', async () => {
    const scene = useSceneStore();
    const notify = useNotifyStore();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(await scene.openPath('/p/broken.vmdscene')).toBe(true);
    const warnings = notify.items.filter((n) => n.kind === 'warning');
    expect(warnings).toHaveLength(1);
    const en = noticeLines(warnings[0], 'en');
    expect(en.message).toBe(
      'Not found: 6 files the scene names; the rest of the scene opened: Gene_light.pmx (actor 1 model) · miku.pmd (actor 2 model) · wavefile_v2.vmd (actor 2 motion) · walk.vmd (actor 3 motion) · wavefile_camera.vmd (camera) · song.wav (audio). ' +
        'To relink — a motion: select its tab, Open… the file where it is now, and choose Load onto the actor; the camera: select its tab, Open… its file, and choose Use as the scene’s camera; a model: Model… in the preview, with its actor shown; the music: ♪ Music…',
    );
    expect(en.detail).toBe(
      ['/p/models/gene/Gene_light.pmx', '/p/models/low_miku/miku.pmd', '/p/motions/wavefile_v2.vmd', '/p/motions/walk.vmd', '/p/motions/wavefile_camera.vmd', '/p/music/song.wav'].join(' · '),
    );
    expect(noticeLines(warnings[0], 'ja').message).toBe(
      'シーンにある 6 個のファイルが見つかりません。シーンの残りは開きました: Gene_light.pmx（アクター 1 のモデル） · miku.pmd（アクター 2 のモデル） · wavefile_v2.vmd（アクター 2 のモーション） · walk.vmd（アクター 3 のモーション） · wavefile_camera.vmd（カメラ） · song.wav（音楽）。' +
        '指定し直すには — モーション: そのタブを選び、「開く…」で今の場所にあるファイルを開いて「（アクター）に読み込む」を選ぶ。カメラ: そのタブを選び、「開く…」でファイルを開いて「シーンのカメラとして使う」を選ぶ。モデル: そのアクターを表示してプレビューの「モデル…」。音楽: 「♪ 音楽…」',
    );
    // It stays: a warning's usual time passes, twice over, and it is still there.
    const id = warnings[0].id;
    vi.advanceTimersByTime(2 * NOTICE_TIMEOUT_MS.warning);
    vi.useRealTimers();
    expect(notify.items.some((n) => n.id === id)).toBe(true);
    // Every actor whose model is missing is known as such, the shown one and the others.
    expect(scene.actors.map((a) => !!a.missingModel)).toEqual([true, true, false]);

    // Another scene opened: the list of the first goes.
    expect(await scene.openPath('/p/whole.vmdscene')).toBe(true);
    expect(notify.items.some((n) => n.id === id)).toBe(false);
    expect(notify.items.filter((n) => n.kind === 'warning')).toEqual([]);
  });

  it('a tab whose motion is missing reads "walk.vmd (missing)", and an actor with neither model nor motion is called by the missing motion', async () => {
    const scene = useSceneStore();
    files.set('/p/nomodel.vmdscene', sceneFile({ actors: [{ model: null, motion: 'motions/33_angry.vmd' }, { model: null, motion: 'motions/walk.vmd' }] }));
    expect(await scene.openPath('/p/nomodel.vmdscene')).toBe(true);
    const w = mount(defineComponent({ setup: () => (provideTimelineView(), () => h(SceneTabs)) }));
    const tabs = w.findAll('[data-testid="scene-tab"]').map((t) => t.text().replace(/\s+/g, ' '));
    expect(tabs[0]).toContain('33_angry.vmd');
    expect(tabs[1]).toContain('walk');
    expect(tabs[1]).toContain('walk.vmd (missing)');
    expect(tabs[1]).not.toContain('no motion file');
    useSettingsStore().settings.locale = 'ja';
    await w.vm.$nextTick();
    expect(w.findAll('[data-testid="scene-tab"]')[1].text()).toContain('walk.vmd（見つかりません）');
    useSettingsStore().settings.locale = 'en';
    w.unmount();
  });

  it('choosing the tab of an actor whose model is missing shows the figure, not the model shown before', async () => {
    const scene = useSceneStore();
    const preview = usePreviewStore();
    expect(await scene.openPath('/p/broken.vmdscene')).toBe(true);
    // The shown actor (3) is on matcap.pmx: the preview loads it.
    expect(preview.modelRequest).toEqual({ path: '/p/models/matcap.pmx' });
    preview.modelRequest = null;
    preview.setModel(model('/p/models/matcap.pmx'));
    scene.activate(scene.actors[1].id);
    expect(preview.modelRequest).toEqual({ figure: true });
    preview.setModel(null);
    await new Promise((r) => setTimeout(r, 0));
    // The actor keeps its (missing) model: Save Scene still names it.
    expect(scene.actors[1].model).toBe('/p/models/low_miku/miku.pmd');
    expect(scene.current(false).actors[1].model).toBe('/p/models/low_miku/miku.pmd');
  });
});

describe('a scene with nothing missing', () => {
  it('says nothing of missing files', async () => {
    setActivePinia(createPinia());
    setApi(memoryApi(files).api);
    expect(await useSceneStore().openPath('/p/whole.vmdscene')).toBe(true);
    expect(useNotifyStore().items.filter((n) => n.kind === 'warning')).toEqual([]);
  });
});
