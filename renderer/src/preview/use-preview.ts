/**
 * usePreview(canvas): the 3D preview's Vue side. Creates the PreviewEngine when the canvas mounts (outside
 * reactivity), follows the document (version counter) and the shared time store, runs the playback loop
 * only while playing (30 fps timeline, interpolated sub-frames at the display rate), and disposes the
 * engine and its WebGL context on unmount.
 *
 * Measurement switches are URL options read at mount: `?present=sync` (no software-GL presenter, see
 * async-present.ts), `?syncGpu=1` (wait for the GPU after each render and time it, see frame-profiler.ts)
 * and `?adaptive=off` (no adaptive resolution while playing, see adaptive-scale.ts). The mounted preview
 * (its canvas, engine and model line) is readable through `mountedPreview()`, for what inspects the
 * picture from outside the pane (the e2e build's hooks, src/e2e/).
 *
 * On software GL the engine shows its frames through async-present.ts: asynchronously while paused (a
 * curve-handle drag, orbiting, scrubbing), blocking while playing (startLoop/stopLoop switch it).
 *
 * Clicking a joint on the canvas picks its bone (installPicking): the mark, the active track and the key
 * at the current frame follow; the mark also follows the active track set in the track list.
 *
 * Physics (physics-preview.ts): the pane's switch (P), its mode (while playing, or Always: also while paused),
 * Reset (Shift+P) and "Show rigid bodies", the switches and the mode remembered in the settings; the status line
 * follows the shown actor's state. Playing or not is told to the engine, since a forward move while playing is
 * time passing and, paused, a seek. With the rigid bodies shown, the body under the pointer is named in a
 * tooltip (installBodyHover).
 *
 * The picked bone shows its pose handle (pose-gizmo.ts: rings to turn it, arrows to move a bone the model
 * lets move; stores/preview.ts poseMode), not while playing. Releasing a drag registers the pose as the
 * bone's key at the current frame, one undo step (commitPose: shared/key-edits/bone-key.ts); with no motion
 * open, a new one is started for it.
 */
import { failure, formatError, success, type Outcome } from '../../../shared/vmd/errors';
import { nextTick, onBeforeUnmount, onMounted, watch, type Ref } from 'vue';
import { useVideoExportStore } from '../stores/video-export';
import { OfflineFrameSource } from './offline-render';
import { isRepairNote, readModel } from '../../../shared/pmx/model-reader';
import { modelFacts } from '../model/model-facts';
import { readVmd } from '../../../shared/vmd/vmd-reader';
import { buildTracks } from '../../../shared/vmd/tracks';
import { useCurveEditorStore } from '../stores/curve-editor';
import { useWorkspaceStore } from '../stores/workspace';
import { useMocapStore } from '../stores/mocap';
import { useSceneStore } from '../stores/scene';
import { useSettingsStore } from '../stores/settings';
import { useRetargetStore } from '../stores/retarget';
import { registerPose } from '../shell/app-actions';
import { installSceneActors } from './scene-actors';
import { BONES_SETTING, GHOST_SETTING, GROUND_SHADOW_SETTING, OUTLINE_SETTING, PHYSICS_MODE_SETTING, PHYSICS_SETTING, POSE_SPACE_SETTING, RIGID_BODIES_SETTING, SELF_SHADOW_SETTING, usePreviewStore } from '../stores/preview';
import { useNotifyStore } from '../stores/notify';
import { SHOWN_KEY } from './physics-preview';
import { playStep, useTimeStore } from '../stores/time';
import { useMusicStore } from '../stores/music';
import { PreviewEngine } from './preview-engine';
import type { MotionBindingInfo } from './motion-driver';
import { AdaptiveScale } from './adaptive-scale';
import { DrawRate } from './draw-rate';
import { buildModelMesh } from './model-mesh';
import { applyTextures, type ReadAsset } from './textures';
import { missingTexturesNotice } from './texture-notice';
import { useSelectionStore, type TrackRef } from '../stores/selection';
import { keyRecordAt } from './bone-pick';
import { bindKeyActions } from '../shell/keymap';
import { provideOrbitView } from './register-view';
import { installCameraFollow } from './camera-follow-source';
import { letterbox } from './output-frame';
import { fileNameOf } from '../paths';
import { BONE_FLAG } from '../../../shared/pmx/model-types';
import type { PoseCommit } from './pose-gizmo';
import { modelOutline } from '../model/model-outline';
import type { ViewSide } from './orbit';

/** The mounted preview: its canvas, its engine and the pane's model line. */
export interface MountedPreview {
  readonly canvas: HTMLCanvasElement;
  readonly engine: PreviewEngine;
  info(): { model: string | null; missingBones: number };
}

let mounted: MountedPreview | null = null;

/** The preview mounted now (null while none is). */
export function mountedPreview(): MountedPreview | null {
  return mounted;
}

/** A press that moves further than this (CSS px) before release drags the view instead of picking. */
const CLICK_SLOP_PX = 4;

/** The side view keys (KeyboardEvent.key: the numpad and the number row give the same). */
const SIDE_KEYS: Record<string, ViewSide> = { '2': 'front', '8': 'back', '4': 'left', '6': 'right', '5': 'top', '0': 'start' };

export function usePreview(canvas: Ref<HTMLCanvasElement | null>) {
  const docStore = useWorkspaceStore();
  const time = useTimeStore();
  const music = useMusicStore();
  const store = usePreviewStore();
  const curveEditor = useCurveEditorStore();
  const sel = useSelectionStore();
  let engine: PreviewEngine | null = null;
  let resize: ResizeObserver | null = null;
  let loop = 0;
  let last = 0;
  const adaptive = new AdaptiveScale();
  const drawRate = new DrawRate();
  let uiStart = 0;
  const uiDone = () => engine?.profiler.ui.push(performance.now() - uiStart);
  const stops: (() => void)[] = [];

  /** The scene's camera document is in the engine as its extra camera (not one loaded in the pane). */
  let sceneCamera = false;
  /** The file of the motion the model plays (syncMotion), for naming where light keys come from. */
  let bodyName: string | null = null;

  /** Tells the store what the engine binds now, naming the file whose light keys drive the light. */
  function bind(info: MotionBindingInfo) {
    const lightFile = info.lightFrom === 'extra' ? (store.cameraFile ?? useSceneStore().cameraEntry?.fileName ?? null) : info.lightFrom === 'motion' ? bodyName : null;
    store.setBinding(info, engine?.cameraTrack?.frames.length ?? 0, lightFile || null);
  }

  /**
   * The document's motion on the model, as before; in a scene (stores/scene.ts) the model keeps the
   * last active actor's motion while the camera document is edited, and the camera document plays as
   * the camera while an actor is edited. A camera VMD loaded in the pane itself (cameraFile) is there only while
   * the scene has no camera document (the cameraEntry watch below takes it away when one comes).
   */
  function syncMotion() {
    if (!engine) return;
    const scene = useSceneStore();
    let body = docStore.doc ? { doc: docStore.doc, tracks: docStore.tracks } : null;
    bodyName = docStore.doc ? docStore.fileName : null;
    let camera: typeof docStore.tracks = null;
    let cameraDoc: typeof docStore.doc = null;
    const cam = scene.cameraEntry;
    if (cam && scene.activeId === cam.id) {
      const actor = scene.lastActorId !== null ? useWorkspaceStore().get(scene.lastActorId) : null;
      if (actor) {
        body = { doc: actor.doc, tracks: actor.tracks };
        bodyName = actor.fileName;
        camera = docStore.tracks;
        cameraDoc = docStore.doc;
      }
    } else if (cam) {
      const d = useWorkspaceStore().get(cam.id);
      camera = d?.tracks ?? null;
      cameraDoc = d?.doc ?? null;
    }
    // The retarget panel's result plays on its actor until Apply or Cancel (the ghost beside it plays the motion as it is).
    const rt = useRetargetStore();
    const shownActor = cam && scene.activeId === cam.id ? scene.lastActorId : scene.activeId;
    if (rt.shown && rt.actorId === shownActor) body = { doc: rt.shown.doc, tracks: rt.shown.tracks };
    // A capture being imported (stores/mocap.ts) plays on the model in place of the document until Import or Close.
    const capture = useMocapStore().previewMotion;
    if (capture) body = capture;
    let info = engine.setMotion(body?.doc ?? null, body?.tracks ?? null);
    if (!store.cameraFile && (camera || sceneCamera)) {
      info = engine.setCameraMotion(camera, cameraDoc);
      sceneCamera = !!camera;
    }
    bind(info);
    syncPicked();
    syncPhysicsState();
  }

  /** The shown actor's model hidden by its tab's eye. */
  function syncHidden() {
    const scene = useSceneStore();
    const a = scene.entries.find((e) => e.id === scene.lastActorId);
    engine?.setModelHidden(!!a?.hidden);
  }

  /** The status line's physics state, from the shown actor's. */
  function syncPhysicsState() {
    if (!engine) return;
    store.physicsState = engine.physics.state(SHOWN_KEY);
    const m = engine.world.model?.model;
    store.physicsCounts = { bodies: m?.rigidBodies.length ?? 0, joints: m?.joints.length ?? 0 };
    store.physicsProblem = m?.physicsError ? formatError(m.physicsError) : '';
    store.physicsFault = m?.physicsError ? { ...m.physicsError } : null;
    store.physicsLostBody = engine.physics.lostBody(SHOWN_KEY);
    syncKeyFollowing();
  }

  /**
   * The actors drawn with rigid bodies (the video dialog's Physics line): the shown one, and companions by their
   * scene id (scene-actors.ts keys them `id:model`; the retarget ghost's key names no actor and is left out).
   */
  function syncPhysicsActors() {
    if (!engine) return;
    const out: ('shown' | number)[] = [];
    for (const k of engine.physics.withBodies()) {
      if (k === SHOWN_KEY) out.push('shown');
      else if (/^\d+:/.test(k)) out.push(Number(k.slice(0, k.indexOf(':'))));
    }
    store.physicsActors = out;
  }

  /** The status line's count of physics bones following their keys (physics off in the motion) at this frame. */
  function syncKeyFollowing() {
    if (engine) store.physicsKeyFollowing = engine.physics.keyFollowing(SHOWN_KEY, time.frame);
  }

  /** The pane's picked-bone line from the engine's mark (after a pick, a new motion or a new rig). */
  function syncPicked() {
    const m = engine?.marked ?? null;
    const flags = m && engine ? (engine.rig.info[engine.marker.markedIndex]?.flags ?? 0) : 0;
    store.setPicked(m ? { name: m.name, tracked: m.track >= 0, rotatable: !!(flags & BONE_FLAG.ROTATABLE), movable: !!(flags & BONE_FLAG.TRANSLATABLE) } : null);
    syncPoseHandle();
  }

  /**
   * The engine's pose handle from the pane's choice: arrows only for a bone the model lets move (rings
   * otherwise), none while playing or when switched off.
   */
  function syncPoseHandle() {
    if (!engine) return;
    const mode = store.poseMode, p = store.picked;
    const eff = mode === 'translate' && p?.movable ? 'translate' : 'rotate';
    // Not while the retarget panel shows its result on the model: a drag would key the motion behind it.
    engine.setPoseHandle(mode !== 'off' && !time.playing && !useRetargetStore().open, eff, store.poseSpace);
    engine.setJointDots(!time.playing && store.bonesShown);
  }

  /**
   * A released pose drag: the bone's key at the current frame (added, or the one there replaced), one undo
   * step, then that key selected on the bone's track. In a scene whose camera document is active, the
   * shown actor's document takes it; with no motion open a new, unsaved one is started (named by the UI,
   * the model's name in its header).
   */
  async function commitPose(c: PoseCommit) {
    if (!engine) return;
    const frame = Math.max(0, Math.round(engine.currentFrame));
    // Refused, or no change at all (a ring dragged back to where it started): the document stays as it
    // was, so nothing rebinds the preview; the drag's stand-in pose goes here. Otherwise the new document
    // replaces the binding, and the stand-in with it.
    if (registerPose({ name: c.name, track: c.track, pose: c.pose, frame }) === null) engine.gizmo.cancel();
  }

  function clearMark() {
    engine?.setMarker(null);
    syncPicked();
  }

  /**
   * A click on a joint (bone-pick.ts): mark the bone; a bone the motion keys becomes the active track,
   * with its key at the current frame selected when there is one (else no key is selected, so the
   * inspector does not keep showing some other key beside the mark). A bone without keys only shows its
   * name: no track to make active. A click on empty space clears the mark and leaves the selection.
   */
  function applyPick(hit: { name: string; track: number } | null) {
    if (!engine) return;
    if (!hit) return clearMark();
    // The model shown is the last active actor's: picking its joint while the camera document is edited
    // makes that actor active again (its tracks are the ones the pick's track index is into).
    const scene = useSceneStore();
    if (scene.active?.kind === 'camera' && scene.lastActorId !== null) scene.activate(scene.lastActorId);
    engine.setMarker(hit.name);
    syncPicked();
    const tracks = docStore.tracks;
    if (hit.track < 0 || !tracks) {
      sel.setActiveTrack(null);
      sel.clear();
      return;
    }
    sel.setActiveTrack({ kind: 'bone', track: hit.track });
    const record = keyRecordAt(tracks.bones, hit.track, time.frame);
    if (record >= 0) sel.select([{ kind: 'bone', record }], 'replace');
    else sel.clear();
  }

  /**
   * "Show rigid bodies": the body (or joint) under the pointer highlighted and named by the pane's tooltip
   * (stores/preview.ts hoveredBody), as PMX Editor names the body one points at. Not while a button is held
   * (the view is being dragged) or with the view off; leaving the canvas clears it.
   */
  function installBodyHover(el: HTMLCanvasElement, e: PreviewEngine): () => void {
    const clear = () => {
      if (store.hoveredBody) store.setHoveredBody(null);
      e.hoverBody(-1, -1, 0, 0);
    };
    const onMove = (ev: PointerEvent) => {
      if (!store.rigidBodiesShown || ev.buttons !== 0) return clear();
      const r = el.getBoundingClientRect();
      const hit = e.hoverBody(ev.clientX - r.left, ev.clientY - r.top, r.width, r.height);
      if (!hit) return clear();
      // Where the tooltip goes: the pointer in the viewport (the canvas is letterboxed in it through the camera).
      const box = (el.parentElement ?? el).getBoundingClientRect();
      store.setHoveredBody({ ...hit.facts, x: ev.clientX - box.left, y: ev.clientY - box.top, w: box.width, h: box.height });
    };
    el.addEventListener('pointermove', onMove);
    el.addEventListener('pointerleave', clear);
    const stop = watch(() => store.rigidBodiesShown, (on) => on || clear());
    return () => {
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerleave', clear);
      stop();
    };
  }

  /**
   * Click-to-pick on the canvas. The orbit controls drag the view with the same button: a press that
   * moves more than CLICK_SLOP_PX before its release is a drag, not a pick. Escape clears the mark.
   */
  function installPicking(el: HTMLCanvasElement, e: PreviewEngine): () => void {
    let down: { id: number; x: number; y: number } | null = null;
    const onDown = (ev: PointerEvent) => {
      // A press on the pose handle's ring or arrow drags it (pose-gizmo.ts), not a pick.
      down = ev.button === 0 && ev.isPrimary && !e.gizmo.engaged ? { id: ev.pointerId, x: ev.clientX, y: ev.clientY } : null;
    };
    const onUp = (ev: PointerEvent) => {
      const d = down;
      down = null;
      // After the handle's own listener: a press it sat out (onDownFirst) is over.
      e.gizmo.controls.enabled = true;
      if (!d || ev.pointerId !== d.id || Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > CLICK_SLOP_PX) return;
      // The retarget panel's result (or its ghost) is drawn, not the document's motion: no pick into it.
      if (useRetargetStore().open) return;
      const r = el.getBoundingClientRect();
      const x = ev.clientX - r.left, y = ev.clientY - r.top;
      // The nearest joint of any actor's model: another actor's makes that actor active (its model becomes
      // the shown one; the track index is into its motion, now the editor's document).
      const hit = e.pickScene(x, y, r.width, r.height);
      if (hit?.key && !useSceneStore().activate(Number(hit.key.split(':')[0]))) return;
      applyPick(hit);
    };
    // Before the pose handle's own listener (capture runs first): a press on another joint is a pick.
    const onDownFirst = (ev: PointerEvent) => {
      const r = el.getBoundingClientRect();
      e.preferJoint(ev.clientX - r.left, ev.clientY - r.top, r.width, r.height);
    };
    // A double-click on empty space (no joint under it, no handle held) puts the view back where it started.
    const onDouble = (ev: MouseEvent) => {
      if (ev.button !== 0 || e.gizmo.engaged) return;
      const r = el.getBoundingClientRect();
      if (e.pickScene(ev.clientX - r.left, ev.clientY - r.top, r.width, r.height)) return;
      store.requestView('start');
    };
    el.addEventListener('pointerdown', onDownFirst, { capture: true });
    el.addEventListener('pointerdown', onDown);
    el.addEventListener('pointerup', onUp);
    el.addEventListener('dblclick', onDouble);
    // Escape (the keymap's dropHandle row, which also drops the curve handle) clears the mark; an open
    // dialog or menu keeps its Escape (keymap.ts).
    const unbind = bindKeyActions({
      dropHandle: () => !!store.picked && (clearMark(), true),
      // T: rings ↔ arrows on a bone that can move (a bone that can only turn keeps its rings).
      togglePoseMode: (ev) => {
        if (ev.repeat || !store.picked?.movable) return false;
        store.setPoseMode(store.poseMode === 'translate' ? 'rotate' : 'translate');
        return true;
      },
      // P: physics on / off; Shift+P: Reset (restart from the pose at this frame).
      togglePhysics: (ev) => {
        if (ev.repeat) return false;
        store.setPhysics(!store.physics);
        return true;
      },
      // 2 8 4 6 5 (MMD's numpad views: front, back, left, right, top) and 0 (the start view), on the numpad or
      // the number row.
      sideView: (ev) => {
        const side = SIDE_KEYS[ev.key];
        if (!side) return false;
        store.requestView(side);
        return true;
      },
      // A: Frame All Actors (scene-actors.ts frameActors), as the view menu's item.
      frameAll: (ev) => {
        if (ev.repeat) return false;
        store.requestFrameAll();
        return true;
      },
      // C: the joint dots shown or hidden (MMD's C shows and hides its bones the same way).
      toggleBones: (ev) => {
        if (ev.repeat) return false;
        store.setBonesShown(!store.bonesShown);
        return true;
      },
      resetPhysics: (ev) => {
        if (ev.repeat || !store.physics) return false;
        store.requestPhysicsReset();
        return true;
      },
    });
    return () => {
      el.removeEventListener('pointerdown', onDownFirst, { capture: true });
      el.removeEventListener('pointerdown', onDown);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('dblclick', onDouble);
      unbind();
    };
  }

  /**
   * The active track set elsewhere (a track-list row): mark that bone. Another kind of track clears the
   * mark; no active track (a new document, a pick of an unkeyed bone) leaves it.
   */
  function followActiveTrack(a: TrackRef | null) {
    if (!engine || !a) return;
    if (a.kind !== 'bone') return clearMark();
    const name = docStore.tracks?.bones.names[a.track];
    if (name === undefined) return;
    engine.setMarker(name);
    syncPicked();
  }

  function tick(now: number) {
    loop = 0;
    if (!engine || !time.playing) return;
    // Software GL: the frame in flight when playback started is shown before the first played one.
    if (engine.presenting) {
      loop = requestAnimationFrame(tick);
      return;
    }
    const dt = last ? Math.min((now - last) / 1000, 0.25) : 0;
    if (last) {
      engine.frameTimes.push(now - last);
      const scaled = adaptive.frame(now - last);
      if (scaled !== null) {
        engine.setRenderScale(scaled);
        store.renderScale = scaled;
      }
    }
    last = now;
    // With music loaded, the AudioContext's clock says where playback is (stores/music.ts, at ×1 only); else the
    // display clock, at the chosen speed.
    const step = playStep(time.frame, dt, time.rate, time.bounds, time.loop, time.rate === 1 ? music.playbackFrame(time.frame) : null);
    const f = step.frame;
    if (step.stop) {
      time.seek(f);
      time.pause();
      return;
    }
    time.seek(f);
    engine.playFrame(f);
    // Drawing well below the motion's 30 frames a second: said in the pane (draw-rate.ts), taken back once it keeps up.
    const slow = drawRate.draw(now);
    if (slow !== store.slowDraws) store.slowDraws = slow;
    // Vue flushes the frame's time.seek (frame counter, scrub bar, timeline) in a microtask queued before
    // this one: timing up to here tells how much of the frame the rest of the UI takes.
    uiStart = performance.now();
    queueMicrotask(uiDone);
    loop = requestAnimationFrame(tick);
  }

  function startLoop() {
    if (loop) return;
    engine?.setBlockingPresent(true);
    last = 0;
    drawRate.reset();
    loop = requestAnimationFrame(tick);
  }
  function stopLoop() {
    if (loop) cancelAnimationFrame(loop);
    loop = 0;
    drawRate.reset();
    store.slowDraws = null;
    engine?.setBlockingPresent(false);
    // A paused frame is looked at closely: full resolution again.
    if (adaptive.reset() !== null) {
      engine?.setRenderScale(1);
      store.renderScale = 1;
    }
  }

  onMounted(() => {
    const el = canvas.value;
    if (!el) return;
    try {
      const options = new URLSearchParams(globalThis.location?.search ?? '');
      engine = new PreviewEngine(el, { present: options.get('present') === 'sync' ? 'sync' : 'auto' });
      engine.profiler.syncGpu = options.get('syncGpu') === '1';
      adaptive.enabled = options.get('adaptive') !== 'off';
    } catch {
      store.unavailable = true;
      return;
    }
    // Render → Video… draws this scene offline with a renderer of its own (offline-render.ts).
    const live = engine;
    stops.push(useVideoExportStore().attachSource((width, height, throughCamera, look, sim) => new OfflineFrameSource(live, width, height, throughCamera, look, sim)));
    const box = el.parentElement ?? el;
    const scene = useSceneStore();
    const aspect = () => scene.outputAspect.ratio;
    engine.setOutputAspect(aspect());
    // Looking through the camera the canvas is the output frame, letterboxed in the pane (output-frame.ts);
    // else it fills the pane.
    const fit = () => {
      const w = box.clientWidth || 1, h = box.clientHeight || 1;
      const r = store.lookThrough && store.hasCamera ? letterbox(w, h, aspect()) : { x: 0, y: 0, width: w, height: h };
      const full = r.width === w && r.height === h;
      el.style.left = full ? '' : `${r.x}px`;
      el.style.top = full ? '' : `${r.y}px`;
      el.style.width = full ? '' : `${r.width}px`;
      el.style.height = full ? '' : `${r.height}px`;
      engine?.resize(r.width, r.height);
    };
    fit();
    if (typeof ResizeObserver !== 'undefined') {
      resize = new ResizeObserver(fit);
      resize.observe(box);
    }
    store.outline = engine.outline;
    // Physics: the remembered switches once the settings are in; Bullet's failure turns it off and says why.
    const settings = useSettingsStore();
    const restorePhysics = () => {
      if (!settings.loaded) return;
      store.setPhysics(settings.settings.ui[PHYSICS_SETTING] === true, false);
      const mode = settings.settings.ui[PHYSICS_MODE_SETTING];
      store.setPhysicsMode(mode === 'always' || mode === 'trace' ? mode : 'play', false);
      store.setRigidBodiesShown(settings.settings.ui[RIGID_BODIES_SETTING] === true, false);
      store.setBonesShown(settings.settings.ui[BONES_SETTING] !== false, false);
      store.setPoseSpace(settings.settings.ui[POSE_SPACE_SETTING] === 'local' ? 'local' : 'global', false);
      store.setSelfShadow(settings.settings.ui[SELF_SHADOW_SETTING] === true, false);
      store.setGroundShadow(settings.settings.ui[GROUND_SHADOW_SETTING] !== false, false);
      store.setGhostShown(settings.settings.ui[GHOST_SETTING] === true, false);
      time.restoreLoop();
      // The outline: the person's last choice when there is one, else the engine's default (off on software GL).
      const outline = settings.settings.ui[OUTLINE_SETTING];
      if (typeof outline === 'boolean') store.setOutlineShown(outline, false);
    };
    restorePhysics();
    engine.physics.onError = (err) => {
      store.setPhysics(false, false);
      useNotifyStore().error({ code: 'E_UNSUPPORTED', message: settings.t('preview.physicsFailed', { message: err instanceof Error ? err.message : String(err) }) });
    };
    const repose = engine.physics.onChange;
    engine.physics.onChange = () => {
      repose?.();
      syncPhysicsState();
    };
    engine.physics.onLost = () => syncPhysicsState();
    engine.physics.onCatchUp = (p) => {
      store.physicsCatchUp = p && { frame: p.frame, done: p.done };
    };
    engine.physics.onActors = () => syncPhysicsActors();
    syncPhysicsActors();
    engine.onHiddenChange = (hidden) => {
      store.hiddenByMotion = hidden;
    };
    // A new engine starts with none in force and tells each change from there.
    store.selfShadowInForce = { mode: 0, byKey: false };
    engine.onSelfShadowChange = (s) => {
      store.selfShadowInForce = { ...s };
    };
    syncMotion();
    engine.setFrame(time.frame);
    engine.setLookThrough(store.lookThrough);
    const anotherMotion = () => {
      engine?.physics.restartAll();
      syncMotion();
      engine?.setFrame(time.frame);
    };
    stops.push(
      watch(() => docStore.version, () => {
        syncMotion();
        syncHidden();
      }),
      // Another motion shown on the model, not time passing: the capture's result (or its going), another
      // document (a file opened in place of the last, another actor shown), the retarget panel's result.
      // Physics restarts from the pose shown, as at a seek: one step from the pose before flung Gene's hair
      // and cloak 57–66 units at the same frame.
      watch(() => useMocapStore().previewVersion, anotherMotion),
      // One camera at a time, as in MMD: the camera you edit is the one you look through and register into. A
      // reference shown with Camera… stands in only while the scene has no camera document; when one comes (+ New
      // camera, K, Use as the scene's camera, a scene with its camera) the reference goes, and the notice says so.
      watch(() => useSceneStore().cameraEntry?.id ?? null, (id) => {
        const name = store.cameraFile;
        if (id === null || name === null || !engine) return;
        loadCameraMotion(null);
        syncMotion();
        engine.setFrame(time.frame);
        useNotifyStore().info({ key: 'preview.cameraRefGone', params: { name } });
      }, { immediate: true }),
      watch(() => useRetargetStore().version, anotherMotion),
      // (The document's own motion is synced by the version watch above; here only the restart and the pose.)
      watch(() => useSceneStore().lastActorId, () => {
        engine?.physics.restartAll();
        engine?.setFrame(time.frame);
      }),
      watch(() => useSceneStore().entries.find((e) => e.id === useSceneStore().lastActorId)?.hidden, syncHidden),
      // While playing the loop poses each display frame itself; other changes (scrub, editor) follow here.
      watch(() => time.frame, (f) => {
        if (!time.playing) engine?.setFrame(f);
        syncKeyFollowing();
      }),
      watch(() => time.playing, (p) => {
        engine?.setPlaying(p);
        if (p) startLoop();
        else stopLoop();
      }, { immediate: true }),
      watch(() => settings.loaded, restorePhysics),
      watch(() => store.physics, (on) => {
        engine?.setPhysics(on);
        syncPhysicsState();
      }, { immediate: true }),
      watch(() => store.physicsMode, (m) => {
        engine?.setPhysicsAlways(m === 'always');
        engine?.physics.setTrace(m === 'trace');
      }, { immediate: true }),
      watch(() => store.rigidBodiesShown, (on) => engine?.setRigidBodiesShown(on), { immediate: true }),
      watch(() => store.selfShadow, (on) => engine?.setSelfShadowByDefault(on), { immediate: true }),
      watch(() => store.groundShadow, (on) => engine?.setGroundShadow(on), { immediate: true }),
      watch(() => store.physicsResetSeq, () => engine?.physics.reset()),
      watch(() => store.viewRequest, (r) => r && engine?.setSideView(r.side)),
      watch(() => [time.playing, store.poseMode, store.poseSpace, store.bonesShown], syncPoseHandle),
      watch(() => store.lookThrough, (on) => {
        engine?.setLookThrough(on);
        fit();
      }),
      watch(() => store.hasCamera, fit),
      watch(aspect, (a) => {
        engine?.setOutputAspect(a);
        fit();
      }),
      watch(() => store.outline, (on) => engine?.setOutline(on)),
      watch(() => store.cameraPathShown, (on) => engine?.setCameraPathShown(on), { immediate: true }),
      // A curve-handle drag writes the draft curve into the tracks' arrays in place (editor/live-draft.ts)
      // without a new document version: re-pose, and render when the figure (or camera) actually moved.
      watch(() => curveEditor.draftVersion, () => {
        if (!time.playing) engine?.setFrameIfChanged(time.frame);
      }),
      // A morph slider dragged: the face follows it (the key is registered on release).
      watch(() => store.morphDraft, (d) => engine?.setMorphDraft(d)),
    );
    const e = engine;
    e.gizmo.onCommit = (c) => void commitPose(c);
    // The key inspector follows a drag live (stores/preview.ts livePose); the key is registered on release.
    e.gizmo.onLive = (c) => store.setLivePose(c ? { name: c.name, position: [...c.pose.position], rotation: [...c.pose.rotation] } : null);
    syncPoseHandle();
    stops.push(installPicking(el, e), installBodyHover(el, e), watch(() => sel.activeTrack, followActiveTrack), provideOrbitView(() => e.orbitView()));
    // The scene's other actors, each posed by its own motion beside the shown model (scene-actors.ts).
    stops.push(installSceneActors(() => engine));
    // Camera follows a bone (the Stage panel's camera row): its position added to the camera's target (camera-follow-source.ts).
    stops.push(installCameraFollow(() => engine));
    // A bone picked by name (the bone list): as a click on its joint.
    stops.push(watch(() => store.pickRequest, (r) => {
      if (!r) return;
      const names = docStore.tracks?.bones.names ?? [];
      applyPick({ name: r.name, track: names.indexOf(r.name) });
    }));
    const shown: MountedPreview = { canvas: el, engine: e, info: () => ({ model: store.model?.name ?? null, missingBones: store.missingBones.length }) };
    mounted = shown;
    stops.push(() => {
      if (mounted === shown) mounted = null;
    });
  });

  onBeforeUnmount(() => {
    stopLoop();
    stops.forEach((s) => s());
    resize?.disconnect();
    engine?.dispose();
    engine = null;
    store.setLivePose(null);
    store.setMorphDraft(null);
  });

  /**
   * Renders and resolves once that picture is on the screen: at once where the canvas is drawn in the page
   * (a GPU), else when the asynchronous presenter has shown it (after a frame still on its way, if one is).
   * Never later than 30 s, or once the preview is gone.
   */
  function renderShown(e: PreviewEngine): Promise<void> {
    const p = e.presenter;
    if (p.presentation === 'page') {
      e.requestRender();
      return Promise.resolve();
    }
    const target = p.presentedFrames + (p.presenting ? 2 : 1);
    const t0 = performance.now();
    e.requestRender();
    return new Promise((resolve) => {
      const check = () => (engine !== e || p.presentedFrames >= target || performance.now() - t0 > 30_000 ? resolve() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
  }

  /**
   * Parses model bytes and shows the model (textures load after it appears). Returns an error message
   * when the bytes are not a readable model; the current figure or model then stays.
   */
  async function loadModel(bytes: Uint8Array, path: string, readAsset: ReadAsset): Promise<Outcome<null>> {
    if (!engine) return failure({ code: 'E_UNSUPPORTED', message: 'the preview is not running' });
    // The path's name: a PMX named .pmd (or the reverse) loads as what it is, with a note to rename it.
    const r = readModel(bytes, path);
    if (!r.ok) return r;
    const m = r.value;
    store.loading = true;
    try {
      const built = buildModelMesh(m);
      const info = engine.setModel(built);
      bind(info);
      syncPicked();
      const facts = modelFacts(m);
      store.setModel({
        // A model whose name field is empty (tools write such files) is called by its file name.
        name: m.name.trim() || fileNameOf(path), path, format: m.format, bones: m.bones.length,
        // The morphs a user sees, as the File panel and MMD count them: a PMD's base morph is not one.
        morphs: facts.morphs, vertices: m.vertexCount, rigidBodies: m.rigidBodyCount,
        notes: r.diagnostics.filter(isRepairNote),
        facts,
      });
      store.setOutline(modelOutline(m));
      syncPhysicsState();
      const tex = await applyTextures(built, readAsset);
      // Another model (or the figure) may have replaced this one while its textures loaded.
      if (engine && !built.disposed) {
        store.missingTextures = tex.problems;
        store.textureNotes = tex.notes;
        // Mostly missing (the model's folder moved): said once in a notice too, naming the folder looked in.
        const told = missingTexturesNotice(path, m.textures, tex.problems);
        if (told) useNotifyStore().warning(told);
        // "Loading" stays until the textured picture is on screen: on software GL its first draw (every
        // texture uploaded, mipmaps made) can take seconds, and the page showed the white model meanwhile.
        await renderShown(engine);
      }
      return success(null);
    } finally {
      store.loading = false;
    }
  }

  /**
   * Shows a camera/light VMD beside the document's motion (null removes it). Returns an error when the
   * bytes are not a VMD.
   */
  function loadCameraMotion(bytes: Uint8Array | null, name = '', path: string | null = null): Outcome<null> {
    if (!engine) return failure({ code: 'E_UNSUPPORTED', message: 'the preview is not running' });
    if (!bytes) {
      store.cameraFile = null;
      store.cameraPath = null;
      bind(engine.setCameraMotion(null));
      return success(null);
    }
    const r = readVmd(bytes);
    if (!r.ok) return r;
    const tracks = buildTracks(r.value);
    store.cameraFile = name;
    store.cameraPath = path;
    bind(engine.setCameraMotion(tracks, r.value));
    return success(null);
  }

  /** Back to the default figure. */
  function clearModel() {
    if (!engine) return;
    bind(engine.setModel(null));
    syncPicked();
    store.setModel(null);
    store.setOutline(null);
    syncPhysicsState();
  }

  return { loadModel, clearModel, loadCameraMotion };
}
