/**
 * "Register view as camera key": MMD's way of authoring a camera — orbit the preview's free view, then
 * register it. The orbit view (eye, target, up, fov from the OrbitControls and the orbit camera,
 * PreviewEngine.orbitView) becomes the camera key at the current frame through the exact inverse of the
 * placement that looking through the camera uses (shared/vmd/camera.ts cameraKeyFromView), its angles
 * unwrapped against the neighbouring key; the edit (shared/key-edits/camera-key.ts) is one undo step.
 *
 * The key goes to the scene's camera document. While an actor's motion is shown, registering switches to
 * the camera document first (scene.activate), making an empty one when the scene has none yet
 * (scene.addCamera), so that orbiting the view over the dance and pressing K authors the camera as in MMD.
 * A document outside a scene that is not a camera motion (no camera keys, some bone or morph keys) is
 * refused. Also refused while looking through, and while a reference camera VMD (Camera…) is shown in a scene
 * with no camera document (looking through shows that one's camera): the notice then has "Edit this camera",
 * which makes that file the scene's camera document (editReferenceCamera), after which K registers. The preview's button (shown when the camera document is
 * active or the scene has one) and the K key (the keymap: shell/shortcuts.ts, keymap.ts) run it.
 */
import { computed, onBeforeUnmount, onMounted, shallowRef } from 'vue';
import { cameraKeyFromView, type CameraView } from '../../../shared/vmd/camera';
import { neighbourCameraRotation, registerCameraKey } from '../../../shared/key-edits';
import type { CameraStringKey } from '../../../shared/i18n/camera-strings';
import { bindKeyActions } from '../shell/keymap';
import { useWorkspaceStore } from '../stores/workspace';
import { useHistoryStore } from '../stores/history';
import { useNotifyStore, type NoticeAction } from '../stores/notify';
import { makeSceneCamera } from '../shell/pose-apply';
import { usePreviewStore } from '../stores/preview';
import { useSceneStore } from '../stores/scene';
import { useSelectionStore } from '../stores/selection';
import { useTimeStore } from '../stores/time';

/** The reference camera's file (PreviewPane's Camera…): a path, or bytes and a name; null when none is shown. */
const referenceSource = shallowRef<{ path: string } | { name: string; bytes: Uint8Array } | null>(null);

/** PreviewPane: the file Camera… shows as the reference camera (null: removed). */
export function setReferenceCamera(source: { path: string } | { name: string; bytes: Uint8Array } | null): void {
  referenceSource.value = source;
}

/**
 * "Edit this camera": the reference camera's file becomes the scene's camera document (shell/pose-apply.ts
 * makeSceneCamera, Open… → "Use as the scene's camera"); the reference then goes (use-preview.ts: one camera at a time).
 */
export async function editReferenceCamera(): Promise<boolean> {
  const source = referenceSource.value;
  if (!source || !usePreviewStore().cameraFile) return false;
  const done = await makeSceneCamera(source);
  if (done) referenceSource.value = null;
  return done;
}

/** The notice's button that does it, where a reference camera is shown (null otherwise). */
export function editReferenceAction(): NoticeAction | null {
  return referenceSource.value && usePreviewStore().cameraFile ? { label: 'preview.editCamera', run: () => void editReferenceCamera() } : null;
}

/** The mounted preview's orbit view (set by use-preview.ts while its engine lives). */
const viewSource = shallowRef<(() => CameraView) | null>(null);

/** Makes `fn` the orbit view to register; returns the function that withdraws it. */
export function provideOrbitView(fn: () => CameraView): () => void {
  viewSource.value = fn;
  return () => {
    if (viewSource.value === fn) viewSource.value = null;
  };
}

export function useRegisterView(opts: { keyboard?: boolean } = {}) {
  const docStore = useWorkspaceStore();
  const preview = usePreviewStore();
  const hist = useHistoryStore();
  const sel = useSelectionStore();
  const time = useTimeStore();
  const scene = useSceneStore();

  /** The shown document is a camera motion: camera keys, or no bone or morph keys at all. */
  const onCamera = computed(() => {
    const doc = docStore.doc;
    return !!doc && !(doc.camera.count === 0 && (doc.bone.count > 0 || doc.morph.count > 0));
  });
  /** Why the command is not available now (a string key), or null when it is. */
  const blocked = computed<CameraStringKey | null>(() => {
    const doc = docStore.doc;
    if (!doc) return 'camera.register.noDocument';
    // An actor's motion in a scene: the key goes to the scene's camera document (made if need be).
    if (!onCamera.value && !(scene.active?.kind === 'actor')) return 'camera.register.notCamera';
    if (!viewSource.value) return 'camera.register.noPreview';
    if (preview.lookThrough) return 'camera.register.lookingThrough';
    // A reference camera stands in only while the scene has no camera document (use-preview.ts): K would make
    // one and take it away, so it is asked for by name (✕ beside Camera…, or Open… it as the scene's camera).
    if (preview.cameraFile && !scene.cameraEntry) return 'camera.register.otherCamera';
    return null;
  });
  /** There is somewhere for the key to go (K works; the other reasons are said when it is pressed). */
  const possible = computed(() => blocked.value !== 'camera.register.noDocument' && blocked.value !== 'camera.register.notCamera');
  /** The button is shown: the camera document is the one shown, or the scene has one. */
  const relevant = computed(() => possible.value && (onCamera.value || !!scene.cameraEntry));

  /** Registers the orbit view at the current frame. Returns whether a key was written. */
  function register(): boolean {
    const source = viewSource.value;
    if (blocked.value || !source) {
      const edit = blocked.value === 'camera.register.otherCamera' ? editReferenceAction() : null;
      if (edit) useNotifyStore().offer('info', { key: blocked.value! }, edit);
      else if (blocked.value) useNotifyStore().info({ key: blocked.value });
      return false;
    }
    const view = source();
    const frame = Math.round(time.frame);
    let made = false;
    if (!onCamera.value) {
      // From the actor's view: on to the camera document (addCamera makes the scene's one active, or a
      // new, empty one when it has none).
      made = scene.addCamera();
      if (!onCamera.value) return false;
      time.seek(frame);
    }
    let record = -1;
    let replaced = false;
    const r = hist.run((doc, tracks) => {
      replaced = tracks.camera.frames.includes(frame);
      const out = registerCameraKey(doc, tracks, frame, cameraKeyFromView(view, neighbourCameraRotation(tracks, frame)));
      if (out.ok) record = out.value.record;
      return out;
      // A camera made for this key is undone with it: one K, one Ctrl+Z.
    }, { joined: made });
    if (!r) return false;
    sel.setActiveTrack({ kind: 'camera', track: 0 });
    if (record >= 0) sel.select([{ kind: 'camera', record }], 'replace');
    // Said of the key's step: Ctrl+Z of the key (and of the camera made for it) takes the notice away too.
    useWorkspaceStore().editNotice('success', { key: replaced ? 'camera.registerReplaced' : 'camera.registerDone', params: { frame } });
    return true;
  }

  if (opts.keyboard) {
    // The K key (the keymap's registerView row); a held key does not register again and again.
    let unbind = () => {};
    onMounted(() => {
      unbind = bindKeyActions({ registerView: (e) => !e.repeat && possible.value && (register(), true) });
    });
    onBeforeUnmount(() => unbind());
  }

  return { blocked, relevant, register };
}
