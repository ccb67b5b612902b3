/**
 * What the 3D preview shows, as plain data for the UI: the loaded model's summary, the bones, morphs and
 * textures it lacks, camera/light facts of the motion, and the look-through toggle. No three.js objects
 * here (they live in preview/preview-engine.ts, outside Vue's reactivity).
 */
import type { ModelFacts } from '../model/model-facts';
import { defineStore } from 'pinia';
import type { CodecError } from '../../../shared/vmd/errors';
import type { AssetNote } from '../../../shared/ipc/contract';
import { markRaw } from 'vue';
import type { ModelOutline } from '../model/model-outline';
import type { Diagnostic } from '../../../shared/vmd';
import { useSettingsStore } from './settings';

/** The preview's fixed views (MMD's 視点 panel: 正面/背面/左/右/上) and the start view; preview/orbit.ts places them. */
export type ViewSide = 'front' | 'back' | 'left' | 'right' | 'top' | 'start';

/**
 * settings.ui keys: physics on in the preview, the rigid-body view shown, the joint dots shown (Bones), and the
 * outline (輪郭線) as the person last set it (absent until then: the preview's default, off on software GL).
 */
export const PHYSICS_SETTING = 'previewPhysics';
/** settings.ui key: the physics mode, 'play' (steps as the playhead moves), 'always' (MMD's 常に演算, also while paused) or 'trace' (MMD's トレース). */
export const PHYSICS_MODE_SETTING = 'previewPhysicsMode';
export const OUTLINE_SETTING = 'previewOutline';
export const RIGID_BODIES_SETTING = 'previewRigidBodies';
export const BONES_SETTING = 'previewBones';
/** settings.ui key of the pose handle's axes ('local' or 'global'; absent: global, as MMD). */
export const POSE_SPACE_SETTING = 'previewPoseSpace';
/** settings.ui key: the preview's Self-shadow switch (MMD's セルフシャドウ表示), off unless switched on. */
export const SELF_SHADOW_SETTING = 'previewSelfShadow';
/** settings.ui key: the preview's Ground shadow switch (MMD's 表示 → 地面影表示), on unless switched off. */
export const GROUND_SHADOW_SETTING = 'previewGroundShadow';
/** settings.ui key: the preview's "Ghost (as saved)" switch (scene-actors.ts), off unless switched on. */
export const GHOST_SETTING = 'previewGhost';

/**
 * When physics steps: 'play' as the playhead moves (playing, a frame stepped, a pose by hand and a second
 * after it), MMD's オン/オフモード; 'always' also while paused, MMD's 常に演算, so hair settles; 'trace', MMD's
 * トレース, as a bake would: the picture at a frame is the simulation from frame 0 to it, whatever way the playhead
 * came (shared/physics/trace.ts).
 */
export type PhysicsMode = 'play' | 'always' | 'trace';

/** The rigid body (or joint) under the pointer and where the pointer is in the viewport (w × h CSS px). */
/**
 * A rigid body or joint as the hover tooltip shows it (plain data for the store; the pane words it). Groups are
 * numbered 1–16 as PMX Editor and MMD show them (the file stores 0–15); `collides` lists the groups the body's
 * mask lets it collide with (PMX Editor shows the complement as 非衝突グループ).
 */
export type BodyFacts =
  | {
      kind: 'body';
      index: number;
      name: string;
      nameEn: string;
      /** The bone's name ('' for none) and its English name from the model. */
      bone: string;
      boneEn: string;
      /** RigidMode: 0 follows its bone, 1 physics, 2 physics with the bone's position. */
      mode: number;
      group: number;
      collides: number[];
      /** RigidShape and its size as stored (sphere: radius; box: half extents; capsule: radius, height). */
      shape: number;
      size: [number, number, number];
    }
  | { kind: 'joint'; index: number; name: string; nameEn: string; bodyA: string; bodyB: string };

export type HoveredBody = BodyFacts & { x: number; y: number; w: number; h: number };

/** The shown actor's physics as the status line says it. */
export type PhysicsState = 'none' | 'unreadable' | 'off' | 'loading' | 'on' | 'lost';

export interface PreviewModelSummary {
  name: string;
  path: string;
  format: 'pmx' | 'pmd';
  bones: number;
  /** The morphs a user sees (a PMD's base morph left out), as the File panel counts them. */
  morphs: number;
  vertices: number;
  rigidBodies: number;
  /** What the reader repaired or left out (its diagnostics), but the physics section's: physicsProblem says that. */
  notes: Diagnostic[];
  /** The File tab's Model section (PMX Editor's 情報): absent in summaries made up by tests. */
  facts?: ModelFacts;
}

/** What a model maker checks before publishing: the reader's facts about the file (shared/pmx modelInfo). */

/** A texture the preview could not read or decode (preview/textures.ts). */
export interface TextureProblem {
  /** As the model stores it. */
  path: string;
  /** Main's or the decoder's text, in English: the row's tooltip (for bug reports). */
  reason: string;
  /** The error's code and values: the row's reason in the app's language (shared/i18n/texture-reason.ts). */
  code?: CodecError['code'];
  params?: CodecError['params'];
  /** The materials using it (colour texture, sphere map, toon); absent in problems made up by tests. */
  materials?: string[];
}

/** A texture used though it was not where the model names it (preview/textures.ts): how main found it. */
export interface TextureNote {
  /** As the model stores it. */
  path: string;
  note: AssetNote;
  materials?: string[];
}

/** A bone's pose during a handle drag: its name and the pose the drag shows (see livePose). */
export interface LivePose {
  readonly name: string;
  readonly position: readonly number[];
  /** Unit quaternion x, y, z, w. */
  readonly rotation: readonly number[];
}

export const usePreviewStore = defineStore('preview', {
  state: () => ({
    /** null: the default figure is shown. */
    model: null as PreviewModelSummary | null,
    loading: false,
    /** Motion bones the shown figure/model lacks. */
    missingBones: [] as string[],
    /** Motion morphs the model lacks (the figure has no morphs, so none are listed for it). */
    missingMorphs: [] as string[],
    /** Textures that were not found or did not decode; the model shows without them. */
    missingTextures: [] as TextureProblem[],
    /** Textures found under another name or in another folder than the model names, and used. */
    textureNotes: [] as TextureNote[],
    hasCamera: false,
    cameraKeys: 0,
    cameraCuts: [] as number[],
    hasLight: false,
    /** The file whose light keys drive the light (the scene's camera document, a camera/light VMD), or null. */
    lightFile: null as string | null,
    lookThrough: false,
    /** Name of a camera/light VMD loaded into the preview beside the document, or null. */
    cameraFile: null as string | null,
    /** Where that VMD was read from (the follow panel offers it as the scene's camera), or null. */
    cameraPath: null as string | null,
    /** Drawing-buffer scale while playing: below 1 when adaptive resolution stepped down (shown in the pane). */
    renderScale: 1,
    /** While playing, the pictures drawn over the last second when well below 30 (preview/draw-rate.ts), else null. */
    slowDraws: null as number | null,
    /** MMD's outline around a loaded model (the preview sets the default: off on software GL). */
    outline: false,
    /**
     * A model to show, asked for from outside the pane (a .pmx/.pmd dropped on the window): by path when the
     * shell knows it (Electron), else the bytes alone (the browser gives no path, so no textures); or back
     * to the built-in figure (a scene's actor on the figure made active).
     */
    /** `recent`: a model the person opened (openAny), which goes on the recent list. */
    modelRequest: null as ({ path: string; recent?: boolean } | { name: string; bytes: Uint8Array } | { figure: true }) | null,
    /**
     * A model (or the figure) was asked for and is not in the picture yet (setModel clears it, and the pane when
     * the latest ask failed): the shown model is about to change. The saved ghost waits for it (scene-actors.ts), so a scene
     * opened with the ghost on builds the ghost once, of the actor's model, instead of once for the model shown
     * before and again when the actor's arrives (a second sync of every actor).
     */
    modelPending: false,
    /**
     * Models dropped on a browser's window (no path): their bytes by the name that stands for their path
     * (the summary's `path`, an actor's `model`), so what would read the model by path — a capture's import
     * onto it, the scene drawing its actor beside another — uses the model in memory. Not reactive.
     */
    droppedModels: markRaw(new Map<string, Uint8Array>()),
    /** The motion hides the model at the current frame (its IK block's show flag is off). */
    hiddenByMotion: false,
    /**
     * The self-shadow in force at the current frame: its mode (0 off) and whether a self-shadow key rules it (it does
     * whatever the switch says; the switch gives MMD's default where no key rules). Its toonless note reads it.
     */
    selfShadowInForce: { mode: 0, byKey: false },
    /** WebGL could not start. */
    unavailable: false,
    /**
     * The bone marked in the preview (clicked on its joint, or its track made active), as the rig names
     * it; `tracked` is false for a bone the motion has no keys for (then only its name is shown).
     */
    picked: null as { name: string; tracked: boolean; rotatable?: boolean; movable?: boolean } | null,
    /**
     * The picked bone's pose handle: rings (rotate) or arrows (translate) to drag in the view, each drag
     * registering the bone's key at the current frame; or off. Rotate when the bone can only turn.
     */
    poseMode: 'rotate' as 'rotate' | 'translate' | 'off',
    /**
     * The axes of the rings and arrows (persisted: POSE_SPACE_SETTING): the model's (global), as MMD by default, or
     * the bone's own (local), MMD's ローカル toggle: raising an arm in world Y or twisting it along itself.
     */
    poseSpace: 'global' as 'global' | 'local',
    /**
     * While a ring or arrow is dragged: the bone's pose the drag shows (MMD coordinates, as a key stores it),
     * for the key inspector to follow live; null otherwise. Nothing is edited until the release.
     */
    livePose: null as LivePose | null,
    /**
     * While a morph slider is dragged (the morph panel): the morph and the weight the preview shows in place of
     * the motion's, as MMD's 表情操作 moves the face before 登録; null otherwise. Nothing is edited until the release.
     */
    morphDraft: null as { name: string; weight: number } | null,
    /** The shown model's bones by display frame and morphs by panel (the bone list, the morph panel). */
    modelOutline: null as ModelOutline | null,
    /** The camera path drawn in the free view (the pane's Path switch). */
    cameraPathShown: true,
    /** The output frame's borders drawn over the free view while a shot is framed (PreviewOverlays.vue). */
    shotGuide: true,
    /** A bone picked by name outside the view (the bone list): the preview applies it as a joint click. */
    pickRequest: null as { name: string; seq: number } | null,
    /** Physics in the preview (persisted: PHYSICS_SETTING): each actor with rigid bodies simulated. */
    physics: false,
    /** When physics steps (persisted: PHYSICS_MODE_SETTING); P switches physics, not this. */
    physicsMode: 'play' as PhysicsMode,
    /**
     * The rigid body or joint under the pointer while "Show rigid bodies" is on, and where the pointer is in
     * the preview's viewport of w × h (CSS px), for the tooltip naming it; null otherwise.
     */
    hoveredBody: null as HoveredBody | null,
    /** MMD's self-shadow with the default distance where no self-shadow key rules (persisted: SELF_SHADOW_SETTING). */
    selfShadow: false,
    /** MMD's ground shadow (地面影) under the models, in the preview and the video (persisted: GROUND_SHADOW_SETTING). */
    groundShadow: true,
    /** "Show rigid bodies" (persisted: RIGID_BODIES_SETTING). */
    rigidBodiesShown: false,
    /**
     * "Bones": the clickable joints drawn as dots while paused (persisted: BONES_SETTING; on unless switched
     * off). Off, a click on a joint still picks its bone; only the dots are not drawn (MMD's C).
     */
    bonesShown: true,
    /**
     * "Ghost (as saved)": the shown actor's model drawn a second time, see-through, at its place, posed by its
     * motion as it was opened or last saved (preview/scene-actors.ts), to compare the edits with (MikuMikuMoving's
     * onion skin).
     */
    ghostShown: false,
    /**
     * The joint dots were hidden because the 表情 tab opened (setFaceWork): they come back when it closes. A
     * face maker sees the face, not dozens of dots over it (nupose 7); C or the Bones switch meanwhile is the
     * user's own choice and stays.
     */
    bonesHiddenForFace: false,
    /** The shown actor's physics for the status line, with its model's counts. */
    physicsState: 'none' as PhysicsState,
    physicsCounts: { bodies: 0, joints: 0 },
    /**
     * Every actor drawn (the shown one and those beside it, not hidden) whose model has rigid bodies: 'shown', or
     * the scene actor's id (physics-preview.ts withBodies). The video dialog's Physics line names them all.
     */
    physicsActors: [] as ('shown' | number)[],
    /** Why the shown model's physics could not be read ('unreadable'), as formatError prints it; '' otherwise. */
    physicsProblem: '',
    /** The same as the error value (the pane phrases it in the UI's language: describeError); null otherwise. */
    physicsFault: null as CodecError | null,
    /** The rigid body Bullet lost to NaN in the shown actor's world ('lost'); '' otherwise. */
    physicsLostBody: '',
    /** The shown actor's physics bones that follow their keys at the current frame (keys with physics off). */
    physicsKeyFollowing: 0,
    /**
     * Trace mode's run on its way to a frame a jump asked for (physics-preview.ts catchUpProgress: the frame and
     * how far, 0…1), null when none: the pane says "Physics: catching up to frame 5000 (37 %)".
     */
    physicsCatchUp: null as { frame: number; done: number } | null,
    /** Bumped by Reset (button, Shift+P): the preview restarts physics at the current frame. */
    physicsResetSeq: 0,
    /** Bumped when an actor was placed beside the others (a capture imported): the free view widens to show them all. */
    frameActorsSeq: 0,
    /**
     * The last "frame the actors" asked for (scene-actors.ts frameActors): 'fit' (Frame All Actors in the view menu ▾,
     * key A) fits the free view to every shown actor, nearer too; 'open' (a scene opened) fits it only when an actor
     * stands outside it.
     */
    frameRequest: null as { mode: 'fit' | 'open'; seq: number } | null,
    /** The last side view asked for (the View buttons, keys 2 8 4 6 5 0, a double-click on empty space). */
    viewRequest: null as { side: ViewSide; seq: number } | null,
  }),
  actions: {
    requestModel(r: { path: string; recent?: boolean } | { name: string; bytes: Uint8Array }) {
      // A dropped model's name (an actor's model made active again) is shown from its kept bytes.
      const dropped = 'path' in r ? this.droppedModels.get(r.path) : undefined;
      if (dropped && 'path' in r) r = { name: r.path, bytes: dropped };
      this.modelRequest = 'bytes' in r ? { name: r.name, bytes: markRaw(r.bytes) } : r;
      this.modelPending = true;
    },
    /** Keeps a dropped model's bytes under its name (droppedModels): the latest of that name wins. */
    keepDropped(name: string, bytes: Uint8Array) {
      this.droppedModels.set(name, markRaw(bytes));
    },
    /** Forgets a dropped model's bytes that did not load (unless a later drop of that name replaced them). */
    forgetDropped(name: string, bytes: Uint8Array) {
      if (this.droppedModels.get(name) === bytes) this.droppedModels.delete(name);
    },
    /** The bytes of the dropped model a model path stands for, or null (a real path: read it). */
    droppedBytes(path: string | null): Uint8Array | null {
      return path === null ? null : (this.droppedModels.get(path) ?? null);
    },
    /** Shows the built-in figure instead of a model (the settings' remembered model stays). */
    requestFigure() {
      this.modelRequest = { figure: true };
      this.modelPending = true;
    },
    setBinding(info: { missingBones: string[]; missingMorphs: string[]; hasCamera: boolean; hasLight: boolean; cameraCuts: number[] }, cameraKeys = 0, lightFile: string | null = null) {
      this.missingBones = info.missingBones;
      this.missingMorphs = info.missingMorphs;
      this.hasCamera = info.hasCamera;
      this.hasLight = info.hasLight;
      this.lightFile = info.hasLight ? lightFile : null;
      this.cameraCuts = info.cameraCuts;
      this.cameraKeys = cameraKeys;
      if (!info.hasCamera) this.lookThrough = false;
    },
    setModel(summary: PreviewModelSummary | null, missingTextures: TextureProblem[] = [], textureNotes: TextureNote[] = []) {
      this.model = summary;
      this.missingTextures = missingTextures;
      this.textureNotes = textureNotes;
      // The model asked for is in the picture (its textures may still load): nothing is pending any more.
      this.modelPending = false;
    },
    toggleLookThrough(on?: boolean) {
      this.lookThrough = on ?? !this.lookThrough;
    },
    setPicked(picked: { name: string; tracked: boolean; rotatable?: boolean; movable?: boolean } | null) {
      this.picked = picked;
    },
    setLivePose(p: LivePose | null) {
      this.livePose = p;
    },
    setMorphDraft(d: { name: string; weight: number } | null) {
      this.morphDraft = d;
    },
    setPoseMode(mode: 'rotate' | 'translate' | 'off') {
      this.poseMode = mode;
    },
    /** The pose handle's axes; remembered in the settings unless `persist` is false (restoring them). */
    setPoseSpace(space: 'global' | 'local', persist = true) {
      this.poseSpace = space;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [POSE_SPACE_SETTING]: space } });
      }
    },
    setOutline(o: ModelOutline | null) {
      this.modelOutline = o ? markRaw(o) : null;
    },
    /** Physics on or off; remembered in the settings unless `persist` is false (restoring them). */
    setPhysics(on: boolean, persist = true) {
      this.physics = on;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [PHYSICS_SETTING]: on } });
      }
    },
    setPhysicsMode(mode: PhysicsMode, persist = true) {
      this.physicsMode = mode;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [PHYSICS_MODE_SETTING]: mode } });
      }
    },
    setHoveredBody(h: HoveredBody | null) {
      this.hoveredBody = h;
    },
    setSelfShadow(on: boolean, persist = true) {
      this.selfShadow = on;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [SELF_SHADOW_SETTING]: on } });
      }
    },
    setGroundShadow(on: boolean, persist = true) {
      this.groundShadow = on;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [GROUND_SHADOW_SETTING]: on } });
      }
    },
    setRigidBodiesShown(on: boolean, persist = true) {
      this.rigidBodiesShown = on;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [RIGID_BODIES_SETTING]: on } });
      }
    },
    /** The outline on or off; the person's choice is remembered in the settings unless `persist` is false. */
    setOutlineShown(on: boolean, persist = true) {
      this.outline = on;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [OUTLINE_SETTING]: on } });
      }
    },
    /** The saved-motion ghost on or off; remembered in the settings unless `persist` is false. */
    setGhostShown(on: boolean, persist = true) {
      this.ghostShown = on;
      if (persist) {
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [GHOST_SETTING]: on } });
      }
    },
    setBonesShown(on: boolean, persist = true) {
      this.bonesShown = on;
      if (persist) {
        this.bonesHiddenForFace = false;
        const settings = useSettingsStore();
        void settings.update({ ui: { ...settings.settings.ui, [BONES_SETTING]: on } });
      }
    },
    /**
     * The 表情 (morph) tab opened (true) or closed: the joint dots hidden while it is open, as if C was pressed
     * (not saved as the setting), and shown again after unless the user switched them meanwhile.
     */
    setFaceWork(on: boolean) {
      if (on) {
        if (this.bonesShown && !this.bonesHiddenForFace) {
          this.setBonesShown(false, false);
          this.bonesHiddenForFace = true;
        }
      } else {
        if (this.bonesHiddenForFace && !this.bonesShown) this.setBonesShown(true, false);
        this.bonesHiddenForFace = false;
      }
    },
    requestPhysicsReset() {
      this.physicsResetSeq++;
    },
    /** The free view widened to show every actor where it stands (scene-actors.ts frameActors). */
    requestFrameActors() {
      this.frameActorsSeq++;
    },
    /**
     * Frame All Actors (mode 'fit'; looking through the camera ends, as the view meant is the free one), or a scene
     * just opened ('open': its actors placed apart stood outside the start view, found only by zooming out).
     */
    requestFrameAll(mode: 'fit' | 'open' = 'fit') {
      if (mode === 'fit' && this.lookThrough) this.toggleLookThrough(false);
      this.frameRequest = { mode, seq: (this.frameRequest?.seq ?? 0) + 1 };
    },
    /**
     * Turns the free view to a side or the start view (the preview answers through its watcher); looking
     * through the camera ends, as the view asked for is the free one.
     */
    requestView(side: ViewSide) {
      if (this.lookThrough) this.toggleLookThrough(false);
      this.viewRequest = { side, seq: (this.viewRequest?.seq ?? 0) + 1 };
    },
    /** Picks a bone by name as a click on its joint does (the preview answers through its watcher). */
    requestPick(name: string) {
      this.pickRequest = { name, seq: (this.pickRequest?.seq ?? 0) + 1 };
    },
  },
});
