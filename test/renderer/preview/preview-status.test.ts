// The preview's status lines over the picture: the frame in whole frames as the frame field and the status bar
// show it (before: "Frame 416.5 / 2809" while playing), and the physics line saying how many physics bones
// follow their keys at this frame (short; the tooltip in full: physics off in the motion, as a bake writes
// them), in English and Japanese.
// The three.js engine (use-preview.ts) is left out: the pane's text comes from the stores. The unit project shares
// one module graph between files (isolate off): the engine is stubbed on a fresh graph here, and the graph is
// reset again afterwards (a plain vi.mock came too late when an earlier file in the worker had loaded the real
// PreviewPane: the real engine ran, trying WebGL, in every test here).
import { beforeEach, describe, expect, it } from 'vitest';
import { stubPreviewEngine } from '../../helpers/stub-preview-engine';

/** How many panes the stub engine served (the stub, not the real engine, is what the pane uses here). */
const stub = stubPreviewEngine();

const { createPinia, setActivePinia } = await import('pinia');
const { mount } = await import('@vue/test-utils');
const { setQuietApi } = await import('../../helpers/quiet-api');
const { default: PreviewPane } = await import('../../../renderer/src/preview/PreviewPane.vue');
const { usePreviewStore } = await import('../../../renderer/src/stores/preview');
const { useSettingsStore } = await import('../../../renderer/src/stores/settings');
const { useTimeStore } = await import('../../../renderer/src/stores/time');
const { useSceneStore } = await import('../../../renderer/src/stores/scene');
const { provideOrbitView } = await import('../../../renderer/src/preview/register-view');
const { useWorkspaceStore } = await import('../../../renderer/src/stores/workspace');
const { buildVmd, writeVmd, withBlocks, blockFromRecords, encodeCameraRecord } = await import('../../../shared/vmd');

setQuietApi();

const q = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

function pane(locale: 'en' | 'ja') {
  const s = useSettingsStore();
  s.settings = { ...s.settings, locale };
  const panes = stub.panes;
  const w = mount(PreviewPane, { attachTo: document.body });
  expect(stub.panes).toBe(panes + 1);
  return w;
}

describe('preview status lines', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    document.body.innerHTML = '';
  });

  it('shows whole frames while playing between two frames, as the status bar does', async () => {
    const w = pane('en');
    const time = useTimeStore();
    time.lastFrame = 2809;
    time.seek(416.5);
    time.playing = true;
    await w.vm.$nextTick();
    expect(q('preview-frame')!.textContent).toBe(`Frame ${Math.round(416.5)} / 2809`);
    time.seek(416.4);
    await w.vm.$nextTick();
    expect(q('preview-frame')!.textContent).toBe('Frame 416 / 2809');
    w.unmount();
  });

  it('adds the physics bones following their keys to the physics line (short) and its tooltip (full); nothing for none', async () => {
    const w = pane('en');
    const p = usePreviewStore();
    p.physicsState = 'on';
    p.physicsCounts = { bodies: 87, joints: 92 };
    p.physicsKeyFollowing = 62;
    await w.vm.$nextTick();
    const line = q('preview-physics-state')!;
    expect(line.textContent).toBe('Physics: on (87 rigid bodies, 92 joints) · 62 bones follow their keys');
    expect(line.getAttribute('title')).toContain('62 bones follow their keys (physics off in the motion)');
    expect(line.getAttribute('title')).toContain('物理OFF');
    p.physicsKeyFollowing = 1;
    await w.vm.$nextTick();
    expect(line.textContent).toBe('Physics: on (87 rigid bodies, 92 joints) · 1 bone follows its keys');
    expect(line.getAttribute('title')).toContain('1 bone follows its keys (physics off in the motion)');
    p.physicsKeyFollowing = 0;
    await w.vm.$nextTick();
    expect(line.textContent).toBe('Physics: on (87 rigid bodies, 92 joints)');
    expect(line.getAttribute('title')).toBeNull();
    // Physics off: every bone plays its keys anyway, nothing added.
    p.physicsKeyFollowing = 62;
    p.physicsState = 'off';
    await w.vm.$nextTick();
    // Off on a model with rigid bodies ('none' is a model without): the line says how to turn it on (before: "Physics: off").
    expect(line.textContent).toBe('Physics: off — P turns it on');
    // Drawing too slowly: with physics off the line says only that frames are skipped.
    p.slowDraws = 2;
    await w.vm.$nextTick();
    expect(q('preview-slow-draws')!.textContent).toBe('Preview 2 fps — frames skipped (the motion keeps its speed)');
    // With physics on, at 2 pictures a second (15 frames each, physics steps at most 8) the hair lags: said.
    p.physicsState = 'on';
    await w.vm.$nextTick();
    expect(q('preview-slow-draws')!.textContent).toBe('Preview 2 fps — frames skipped (the motion keeps its speed; physics runs slower than the dance)');
    // At 4 (7.5 frames a picture) physics keeps up: not said.
    p.slowDraws = 4;
    await w.vm.$nextTick();
    expect(q('preview-slow-draws')!.textContent).toBe('Preview 4 fps — frames skipped (the motion keeps its speed)');
    p.slowDraws = 2;
    p.physicsState = 'off';
    useSettingsStore().settings = { ...useSettingsStore().settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(line.textContent).toBe('物理演算: オフ — P でオン');
    p.physicsState = 'on';
    await w.vm.$nextTick();
    expect(q('preview-slow-draws')!.textContent).toBe('プレビュー 2 fps（コマ落ち。モーションの速さはそのまま、物理演算はダンスより遅れます）');
    p.slowDraws = null;
    useSettingsStore().settings = { ...useSettingsStore().settings, locale: 'en' };
    // Japanese.
    p.physicsState = 'on';
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(line.textContent).toBe('物理演算: オン（剛体 87、ジョイント 92） · 62 本のボーンがキーに従う');
    expect(line.getAttribute('title')).toContain('62 本のボーンがキーに従います（モーションで物理OFF）');
    w.unmount();
  });

  it('says the physics mode when it is not While playing (nufollow finding 6: Trace showed only in the small select)', async () => {
    const w = pane('en');
    const p = usePreviewStore();
    p.physicsState = 'on';
    p.physicsCounts = { bodies: 44, joints: 27 };
    await w.vm.$nextTick();
    const line = q('preview-physics-state')!;
    // While playing (the default): as before, no mode.
    expect(line.textContent).toBe('Physics: on (44 rigid bodies, 27 joints)');
    p.physicsMode = 'trace';
    await w.vm.$nextTick();
    expect(line.textContent).toBe('Physics: on · Trace (44 rigid bodies, 27 joints)');
    p.physicsMode = 'always';
    await w.vm.$nextTick();
    expect(line.textContent).toBe('Physics: on · Always (44 rigid bodies, 27 joints)');
    // With the bones that follow their keys after it, and on a lost body too.
    p.physicsKeyFollowing = 3;
    await w.vm.$nextTick();
    expect(line.textContent).toBe('Physics: on · Always (44 rigid bodies, 27 joints) · 3 bones follow their keys');
    p.physicsKeyFollowing = 0;
    p.physicsState = 'lost';
    p.physicsMode = 'trace';
    await w.vm.$nextTick();
    expect(line.textContent).toBe('Physics: on · Trace, a body lost (44 rigid bodies, 27 joints)');
    // Physics off: no mode (nothing runs).
    p.physicsState = 'off';
    await w.vm.$nextTick();
    expect(line.textContent).toBe('Physics: off — P turns it on');
    // Japanese: the mode as the select names it.
    p.physicsState = 'on';
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(line.textContent).toBe('物理演算: オン・トレース（剛体 44、ジョイント 27）');
    p.physicsMode = 'always';
    await w.vm.$nextTick();
    expect(line.textContent).toBe('物理演算: オン・常に演算（剛体 44、ジョイント 27）');
    p.physicsMode = 'play';
    await w.vm.$nextTick();
    expect(line.textContent).toBe('物理演算: オン（剛体 44、ジョイント 27）');
    w.unmount();
  });

  it('says which view the picture is (Camera view / Free view) when a camera exists, and nothing without one', async () => {
    const w = pane('en');
    const p = usePreviewStore();
    await w.vm.$nextTick();
    expect(q('preview-view-mode')).toBeNull();
    p.hasCamera = true;
    await w.vm.$nextTick();
    expect(q('preview-view-mode')!.textContent).toBe('Free view');
    p.lookThrough = true;
    await w.vm.$nextTick();
    expect(q('preview-view-mode')!.textContent).toBe('Camera view');
    expect(q('preview-view-mode')!.getAttribute('title')).toContain('Looking through the camera');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(q('preview-view-mode')!.textContent).toBe('カメラ視点');
    p.lookThrough = false;
    await w.vm.$nextTick();
    expect(q('preview-view-mode')!.textContent).toBe('自由視点');
    // The header's name is labelled as the model, not the view.
    expect(q('preview-model-label')!.textContent).toBe('モデル');
    w.unmount();
  });

  it('greys Register view while looking through the camera and says why in its tooltip', async () => {
    const cam = withBlocks(buildVmd({}), { camera: blockFromRecords('camera', [encodeCameraRecord({ frame: 0, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 })]) });
    useSceneStore().openBytes('camera.vmd', writeVmd(cam), null);
    expect(useWorkspaceStore().isOpen).toBe(true);
    // A running preview's orbit view to register from (use-preview.ts gives it while its engine lives).
    const withdraw = provideOrbitView(() => ({ position: [0, 10, -45], target: [0, 10, 0], up: [0, 1, 0], fov: 30 }));
    const w = pane('en');
    const p = usePreviewStore();
    p.hasCamera = true;
    p.lookThrough = true;
    await w.vm.$nextTick();
    const b = q('preview-register-view') as HTMLButtonElement;
    expect(b.disabled).toBe(true);
    // The reason, naming the switch as it reads under the preview (the same text K's notice gives).
    expect(b.getAttribute('title')).toBe('Off while looking through the camera: untick “Through camera”, orbit the free view, then register it');
    p.lookThrough = false;
    await w.vm.$nextTick();
    expect(b.disabled).toBe(false);
    w.unmount();
    withdraw();
  });

  it('names the document whose light keys drive the light', async () => {
    const w = pane('en');
    const p = usePreviewStore();
    p.setBinding({ missingBones: [], missingMorphs: [], hasCamera: true, hasLight: true, cameraCuts: [] }, 1, 'camera.vmd');
    await w.vm.$nextTick();
    expect(q('preview-light-info')!.textContent).toBe('Light keys of camera.vmd drive the light');
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(q('preview-light-info')!.textContent).toBe('camera.vmd の照明キーで照明を動かしています');
    w.unmount();
  });
});
