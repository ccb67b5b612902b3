// "Ghost (as saved)" (nupolish finding 5: no before/after comparison while polishing): the shown actor's model
// drawn a second time, posed by its motion as it was opened or last saved. After an edit of one key the ghost and
// the actor part at the edited frame and agree far from it; the ghost's pose is what the codec's sampler gives on
// the file's bytes. A save moves the ghost to the saved version; a motion never saved has none (the switch is
// disabled and says why); the ghost has no physics world. The engine's WebGL part is left out: the real scene
// actors (scene-actors.ts) drive the real companions (companion-actors.ts) of a PreviewScene, and the actor is
// posed by the engine's MotionDriver, as PreviewEngine does.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as THREE from 'three';
import { mount } from '@vue/test-utils';
import { nextTick } from 'vue';

vi.mock('../../../renderer/src/preview/use-preview', () => ({
  usePreview: () => ({ loadModel: async () => ({ ok: true, value: undefined }), clearModel: () => {}, loadCameraMotion: () => ({ ok: true, value: undefined }) }),
}));

import PreviewPane from '../../../renderer/src/preview/PreviewPane.vue';
import { buildTracks, buildVmd, readVmd, writeVmd } from '../../../shared/vmd';
import { sampleBoneInto } from '../../../shared/vmd/sample';
import { registerBoneKey } from '../../../shared/key-edits';
import { memoryScene } from '../stores/scene-fixtures';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { GHOST_SETTING, usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { PreviewScene } from '../../../renderer/src/preview/preview-scene';
import { MotionDriver } from '../../../renderer/src/preview/motion-driver';
import { FrameProfiler } from '../../../renderer/src/preview/frame-profiler';
import { CompanionActors } from '../../../renderer/src/preview/companion-actors';
import { installSceneActors } from '../../../renderer/src/preview/scene-actors';
import { buildDefaultFigure } from '../../../renderer/src/preview/figure-mesh';
import { updateRigWorld } from '../../../renderer/src/preview/rig';
import type { PreviewEngine } from '../../../renderer/src/preview/preview-engine';
import type { PreviewPhysics } from '../../../renderer/src/preview/physics-preview';

const BONE = '左腕';
/** A turn of `deg` degrees about MMD's Z (or X), as a key stores it (x, y, z, w). */
const turn = (deg: number, axis: 'x' | 'z' = 'z'): [number, number, number, number] => {
  const s = Math.sin((deg * Math.PI) / 360), c = Math.cos((deg * Math.PI) / 360);
  return axis === 'z' ? [0, 0, s, c] : [s, 0, 0, c];
};
const key = (frame: number, rotation: [number, number, number, number]) => ({ name: BONE, frame, position: [0, 0, 0] as [number, number, number], rotation });
/** The saved motion: the left arm at rest, lowered 40° at 30, at rest at 60 and 90, turned 30° about X at 120. */
const SAVED = writeVmd(buildVmd({ bones: [key(0, [0, 0, 0, 1]), key(30, turn(40)), key(60, [0, 0, 0, 1]), key(90, [0, 0, 0, 1]), key(120, turn(30, 'x'))] }));
/** The edited frame, and one far from it (between the keys at 90 and 120, which the edit does not touch). */
const EDITED = 30, FAR = 105;

/** The arm's world matrix as the codec's sampler poses it from `bytes` at `f` (the arm's parents are unkeyed: at rest). */
function expectedArm(bytes: Uint8Array, f: number): THREE.Matrix4 {
  const r = readVmd(bytes);
  if (!r.ok) throw new Error('unreadable');
  const tracks = buildTracks(r.value);
  const P = new Float64Array(3), R = new Float64Array(4);
  sampleBoneInto(tracks.bones, tracks.bones.index.get(BONE)!, f, P, R, 0);
  // A figure at rest gives the parent's world matrix and the arm's rest offset (three.js axes: MMD's with Z negated,
  // so a quaternion's x and y change sign).
  const rig = buildDefaultFigure().rig;
  updateRigWorld(rig);
  const i = rig.byKey.get(BONE)!;
  const local = new THREE.Matrix4().compose(
    new THREE.Vector3(rig.rest[3 * i] + P[0], rig.rest[3 * i + 1] + P[1], rig.rest[3 * i + 2] - P[2]),
    new THREE.Quaternion(-R[0], -R[1], R[2], R[3]),
    new THREE.Vector3(1, 1, 1),
  );
  return new THREE.Matrix4().multiplyMatrices(rig.bones[i].parent!.matrixWorld, local);
}

function expectSame(a: THREE.Matrix4, b: THREE.Matrix4) {
  a.elements.forEach((v, k) => expect(v, `element ${k}`).toBeCloseTo(b.elements[k], 5));
}
/** The largest difference between two matrices' elements. */
const apart = (a: THREE.Matrix4, b: THREE.Matrix4) => Math.max(...a.elements.map((v, k) => Math.abs(v - b.elements[k])));

/** The engine's parts the scene actors use, without WebGL: the companions on a PreviewScene, the actor's MotionDriver. */
function engineWithoutGl() {
  const world = new PreviewScene();
  const bound: string[] = [];
  const physics = { bind: (k: string) => void bound.push(k) } as unknown as PreviewPhysics;
  const companions = new CompanionActors(world, physics);
  const driver = new MotionDriver(world, new FrameProfiler());
  let frame = 0;
  const engine = {
    world,
    companions,
    setCompanions(list: Parameters<CompanionActors['set']>[0]) {
      const keys = companions.set(list);
      companions.pose(frame);
      return keys;
    },
    // Each actor's outline width (the scene's edgeWidth): no outline is drawn here.
    setEdgeWidths() {},
    setStages(_shown: unknown, byId: Map<number, { position: [number, number, number]; turn: number }>) {
      companions.place(byId);
    },
    footprints: () => new Map(),
    requestRender() {},
  };
  const ws = useWorkspaceStore();
  return {
    engine: engine as unknown as PreviewEngine,
    companions,
    bound,
    /** Both posed at f: the actor by the document's motion, as the engine binds it. */
    poseAt(f: number) {
      frame = f;
      driver.setMotion(ws.doc, ws.tracks);
      driver.rebind();
      driver.poseAt(f);
      companions.pose(f);
    },
    actorArm: () => world.rig.bones[world.rig.byKey.get(BONE)!].matrixWorld.clone(),
    ghostArm(): THREE.Matrix4 | null {
      const k = companions.keys.find((x) => x.startsWith('-2:saved:'));
      const rig = k ? companions.rig(k) : null;
      return rig ? rig.bones[rig.byKey.get(BONE)!].matrixWorld.clone() : null;
    },
  };
}

describe('Ghost (as saved)', () => {
  beforeEach(() => {
    memoryScene([['/m/arm.vmd', SAVED]]);
    document.body.innerHTML = '';
  });

  it('after an edit of one key, the ghost differs from the actor at that frame and agrees far from it, posed as the file is', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/m/arm.vmd')).toBe(true);
    const e = engineWithoutGl();
    const stop = installSceneActors(() => e.engine);
    // Off by default: no ghost.
    await nextTick();
    expect(e.ghostArm()).toBeNull();
    usePreviewStore().setGhostShown(true);
    await nextTick();
    expect(e.ghostArm()).not.toBeNull();

    // One key edited: the arm at frame 30 raised 70° the other way.
    const ws = useWorkspaceStore();
    const r = registerBoneKey(ws.doc!, ws.tracks!, { name: BONE }, EDITED, { position: [0, 0, 0], rotation: turn(-70) });
    if (!r.ok) throw new Error('refused');
    expect(r.value.replaced).toBe(true);
    expect(ws.commit(r.value)).toBe(true);
    await nextTick();
    const edited = writeVmd(ws.doc!);

    e.poseAt(FAR);
    expectSame(e.ghostArm()!, expectedArm(SAVED, FAR));
    expectSame(e.actorArm(), e.ghostArm()!);

    e.poseAt(EDITED);
    expectSame(e.ghostArm()!, expectedArm(SAVED, EDITED));
    expectSame(e.actorArm(), expectedArm(edited, EDITED));
    // 40° one way against 70° the other: far apart.
    expect(apart(e.actorArm(), e.ghostArm()!)).toBeGreaterThan(0.5);
    // The ghost has no physics world of its own.
    expect(e.bound.filter((k) => k.startsWith('-2:'))).toEqual([]);

    // Saved: the ghost is that version now, the same as the actor at the edited frame.
    expect(await ws.save()).toBe(true);
    await nextTick();
    e.poseAt(EDITED);
    expectSame(e.ghostArm()!, expectedArm(edited, EDITED));
    expectSame(e.actorArm(), e.ghostArm()!);

    // Switched off: gone.
    usePreviewStore().setGhostShown(false);
    await nextTick();
    expect(e.ghostArm()).toBeNull();
    stop();
  });

  it('a motion never saved has no ghost: the switch is disabled and says why; one read from a file has it, remembered in the settings', async () => {
    const scene = useSceneStore();
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'en' };
    scene.newMotion('new.vmd');
    const e = engineWithoutGl();
    const stop = installSceneActors(() => e.engine);
    usePreviewStore().setGhostShown(true);
    await nextTick();
    expect(e.ghostArm()).toBeNull();
    const w = mount(PreviewPane, { attachTo: document.body });
    await nextTick();
    const box = () => document.querySelector<HTMLInputElement>('[data-testid="preview-ghost"]')!;
    const label = () => document.querySelector<HTMLElement>('[data-testid="preview-ghost-label"]')!;
    expect(label().textContent).toContain('Ghost (as saved)');
    expect(box().disabled).toBe(true);
    expect(box().checked).toBe(false);
    expect(label().title).toContain('never been saved');

    // Opened from its file: the switch is there, on as it was left, and its tooltip says what it draws.
    expect(await scene.openPath('/m/arm.vmd')).toBe(true);
    await nextTick();
    expect(box().disabled).toBe(false);
    expect(box().checked).toBe(true);
    expect(label().title).toContain('as it was opened or last saved');
    expect(label().title).toContain('Physics does not run on it');
    expect(e.ghostArm()).not.toBeNull();
    box().checked = false;
    box().dispatchEvent(new Event('change'));
    await nextTick();
    expect(usePreviewStore().ghostShown).toBe(false);
    await vi.waitFor(() => expect(s.settings.ui[GHOST_SETTING]).toBe(false));
    expect(e.ghostArm()).toBeNull();

    s.settings = { ...s.settings, locale: 'ja' };
    await nextTick();
    expect(label().textContent).toContain('ゴースト（保存時）');
    w.unmount();
    stop();
  });
});
