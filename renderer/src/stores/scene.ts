/**
 * The scene file in the window (shared/scene/scene-file.ts): open a `.vmdscene` — its active actor's
 * motion into the editor, its model into the preview, its music with offset, volume and mute — and save
 * the window as one. A file the scene names that is missing or damaged is reported by role and name while
 * everything else opens.
 *
 * Scope today: one actor is edited (the scene's active one; the others, the camera document, the aspect
 * and unknown fields are kept and written back unchanged, so nothing in the file is lost by a round trip).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { useApi } from '../api';
import { useDocumentStore } from './document';
import { useMusicStore } from './music';
import { useNotifyStore } from './notify';
import { usePreviewStore } from './preview';
import { useSettingsStore } from './settings';
import { useTimeStore } from './time';
import { basenamePath, dirnamePath } from '../../../shared/scene/scene-path';
import { OUTPUT_ASPECT_SETTING, outputAspectOf, parseAspect } from '../preview/output-frame';
import {
  emptyScene,
  loadSceneFiles,
  parseScene,
  roleLabel,
  sceneBytes,
  SCENE_EXTENSION,
  type Scene,
  type SceneFileRead,
} from '../../../shared/scene/scene-file';

/** Whether a path names a scene file. */
export function isScenePath(p: string): boolean {
  return p.toLowerCase().endsWith(SCENE_EXTENSION);
}

type Loaded = { kind: 'bytes'; name: string; path: string; bytes: Uint8Array } | { kind: 'model'; path: string };

export const useSceneStore = defineStore('scene', () => {
  /** The scene file the window came from or was saved as, or null. */
  const path = ref<string | null>(null);
  /** The scene as read or last saved (kept for the parts this window does not edit). */
  let base: Scene = emptyScene();

  /** Opens a scene file: returns false when the scene itself could not be read (its files are reported one by one). */
  async function openPath(p: string): Promise<boolean> {
    const api = useApi();
    const notify = useNotifyStore();
    const r = await api.openScene(p);
    if (!r.ok) {
      notify.error(r.error);
      return false;
    }
    const parsed = parseScene(r.value.bytes, r.value.path);
    if (!parsed.ok) {
      notify.error(parsed.error);
      return false;
    }
    const scene = parsed.value;
    const actor = scene.actors[scene.activeActor] ?? null;
    // Only the active actor's files, the audio (and a camera when there is no actor motion) are read now.
    const wanted: Scene = { ...scene, actors: actor ? [actor] : [], camera: actor?.motion ? null : scene.camera };
    const load = await loadSceneFiles<Loaded>(wanted, async (ref): Promise<SceneFileRead<Loaded>> => {
      if (ref.role === 'model') {
        const m = await api.readModelFile(ref.path);
        return m.ok ? { ok: true, value: { kind: 'model', path: m.value.path } } : m;
      }
      const f = ref.role === 'audio' ? await api.readAudioFile(ref.path) : await api.openFile(ref.path);
      return f.ok ? { ok: true, value: { kind: 'bytes', name: f.value.name, path: f.value.path, bytes: f.value.bytes } } : f;
    });
    for (const pr of load.problems) {
      notify.warning({ key: 'scene.missingFile', params: { name: basenamePath(pr.ref.path), role: roleLabel(pr.ref) } }, pr.error.code === 'E_IO_NOT_FOUND' ? pr.ref.path : pr.error.message);
    }
    const doc = useDocumentStore();
    const music = useMusicStore();
    const preview = usePreviewStore();
    let motionOpened = false;
    for (const { ref, value } of load.loaded) {
      if (value.kind === 'model') preview.requestModel({ path: value.path });
      else if (ref.role === 'motion' || ref.role === 'camera') motionOpened = doc.openBytes(value.name, value.bytes, value.path) || motionOpened;
      else if (ref.role === 'audio' && scene.audio) {
        if (await music.loadBytes(value.name, value.bytes, value.path)) {
          music.setOffset(scene.audio.offsetFrames);
          music.setVolume(scene.audio.volume);
          music.setMuted(scene.audio.muted);
        }
      }
    }
    if (!scene.audio && music.loaded) music.unload();
    const frame = scene.view.frame;
    if (motionOpened && typeof frame === 'number') useTimeStore().seek(frame);
    base = scene;
    path.value = r.value.path;
    const settings = useSettingsStore();
    // The scene's output aspect is the preview's (looking through the camera letterboxes to it).
    const aspect = `${scene.aspect.width}:${scene.aspect.height}`;
    if (outputAspectOf(settings.settings.ui).text !== aspect) void settings.update({ ui: { ...settings.settings.ui, [OUTPUT_ASPECT_SETTING]: aspect } });
    void settings.refreshRecent();
    const dir = dirnamePath(r.value.path);
    if (dir && dir !== settings.settings.lastDirectory) void settings.update({ lastDirectory: dir });
    notify.success({ key: 'notify.opened', params: { name: r.value.name } });
    return true;
  }

  /** The window as a scene: the open motion and preview model as the active actor, the music, the frame. */
  function current(): Scene {
    const doc = useDocumentStore();
    const music = useMusicStore();
    const preview = usePreviewStore();
    const actors = base.actors.map((a) => ({ ...a }));
    const i = actors.length ? Math.min(base.activeActor, actors.length - 1) : 0;
    const me = { ...(actors[i] ?? { hidden: false }), model: preview.model?.path ?? null, motion: doc.path ?? null };
    if (actors.length) actors[i] = me;
    else actors.push(me);
    const a = parseAspect(outputAspectOf(useSettingsStore().settings.ui).text);
    return {
      ...base,
      aspect: a ? { width: a.width, height: a.height } : base.aspect,
      actors,
      activeActor: i,
      audio: music.loaded && music.path ? { ...base.audio, path: music.path, offsetFrames: music.offsetFrames, volume: music.volume, muted: music.muted } : null,
      view: { ...base.view, frame: Math.round(useTimeStore().frame) },
    };
  }

  /** Writes the window as a scene file at `target` (absolute); the motion itself is saved by Save. */
  async function saveTo(target: string, overwrite: boolean): Promise<boolean> {
    const scene = current();
    const r = await useApi().saveScene(target, sceneBytes(scene, target), { overwrite, backup: true });
    if (!r.ok) {
      useNotifyStore().error(r.error);
      return false;
    }
    base = scene;
    path.value = r.value.path;
    void useSettingsStore().refreshRecent();
    useNotifyStore().success({ key: 'notify.saved', params: { name: basenamePath(r.value.path) } });
    return true;
  }

  return { path, openPath, current, saveTo };
});
