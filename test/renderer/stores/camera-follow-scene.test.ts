// Camera follows a bone, in the scene store: choosing and clearing are undo steps ("camera follow"), the scene
// file keeps it by the actor's index, and a scene naming a bone or an actor that is gone opens with a notice
// and no follow (the built-in figure has センター and 頭, not ネクタイ). A camera motion made the scene's camera while a
// follow is set says the follow still applies, with "Turn follow off" on the notice (nufollow §3).
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import NotificationList from '../../../renderer/src/components/NotificationList.vue';
import { openOntoScene } from '../../../renderer/src/shell/pose-apply';
import { setApi } from '../../../renderer/src/api';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { noticeLines, useNotifyStore } from '../../../renderer/src/stores/notify';
import { editLabel } from '../../../shared/i18n/edit-labels';
import { t } from '../../../shared/i18n/strings';
import { blockFromRecords, emptyVmd, encodeCameraRecord, withBlocks, writeVmd } from '../../../shared/vmd';
import { withFakeAudio } from '../../helpers/fake-audio';
import { answerNext, cameraVmd, dance, memoryApi, sceneFile } from './scene-fixtures';

let files: Map<string, Uint8Array>;
/** Another camera file (as a bake writes one: a key every frame, 0…3). */
const bakedLike = () => writeVmd(withBlocks(emptyVmd(), { camera: blockFromRecords('camera', [0, 1, 2, 3].map((frame) => encodeCameraRecord({ frame, distance: -30, target: [0, 10 + frame, 0], rotation: [0, 0, 0], fov: 30 }))) }));
const actors = [
  { name: 'Miku', model: null, motion: 'a.vmd' },
  { name: 'Luka', model: null, motion: 'b.vmd' },
];

withFakeAudio(undefined, () => {
  files = new Map<string, Uint8Array>([
    ['/s/a.vmd', dance(10)],
    ['/s/b.vmd', dance(20)],
    ['/s/cam.vmd', cameraVmd()],
    ['/s/cam_follow.vmd', bakedLike()],
    ['/s/duet.vmdscene', sceneFile({ actors, camera: 'cam.vmd' })],
    ['/s/follow.vmdscene', sceneFile({ actors, camera: 'cam.vmd', cameraFollow: { actor: 1, bone: '頭' } })],
    ['/s/nobone.vmdscene', sceneFile({ actors, camera: 'cam.vmd', cameraFollow: { actor: 1, bone: 'ネクタイ' } })],
    ['/s/noactor.vmdscene', sceneFile({ actors, camera: 'cam.vmd', cameraFollow: { actor: 5, bone: '頭' } })],
  ]);
  setApi(memoryApi(files).api);
});

const saved = (p: string) => JSON.parse(new TextDecoder().decode(files.get(p)!));
const warnings = () => useNotifyStore().items.filter((n) => n.kind === 'warning').map((n) => noticeLines(n, 'en').message);

describe('camera follow in the scene', () => {
  it('choosing and clearing are one undo step each; the file keeps the actor by index and the bone', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/duet.vmdscene')).toBe(true);
    const history = useHistoryStore();
    const luka = scene.actors[1];
    expect(scene.cameraFollow).toBeNull();
    expect(scene.setCameraFollow({ actorId: luka.id, bone: 'センター' })).toBe(true);
    expect(history.undoLabel).toBe('camera follow');
    expect(editLabel(history.undoLabel, (k) => t(k, 'ja'))).toBe('カメラ追従');
    expect(scene.sceneChanged).toBe(true);
    expect(scene.setCameraFollow({ actorId: luka.id, bone: 'センター' })).toBe(false);
    expect(scene.setCameraFollow(null)).toBe(true);
    expect(scene.cameraFollow).toBeNull();
    history.undo();
    expect(scene.cameraFollow).toEqual({ actorId: luka.id, bone: 'センター' });
    history.undo();
    expect(scene.cameraFollow).toBeNull();
    expect(scene.sceneChanged).toBe(false);
    history.redo();
    expect(await scene.saveTo('/s/duet.vmdscene', true)).toBe(true);
    expect(saved('/s/duet.vmdscene').cameraFollow).toEqual({ actor: 1, bone: 'センター' });
  });

  it('a scene with a follow opens with it; one naming a bone or an actor that is gone opens without, and says so', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/follow.vmdscene')).toBe(true);
    expect(scene.cameraFollow).toEqual({ actorId: scene.actors[1].id, bone: '頭' });
    expect(scene.sceneChanged).toBe(false);
    expect(await scene.openPath('/s/nobone.vmdscene')).toBe(true);
    expect(scene.cameraFollow).toBeNull();
    expect(warnings()).toContain('The camera followed the bone ネクタイ, which the built-in figure does not have: it plays as its keys say (no follow)');
    expect(await scene.openPath('/s/noactor.vmdscene')).toBe(true);
    expect(scene.cameraFollow).toBeNull();
    expect(warnings()).toContain('The camera followed 頭 of actor 6, which the scene no longer has: it plays as its keys say (no follow)');
  });

  it('a camera loaded onto the scene’s camera while a follow is set says the follow still applies; “Turn follow off” clears it', async () => {
    const scene = useSceneStore();
    expect(await scene.openPath('/s/follow.vmdscene')).toBe(true);
    const luka = scene.actors[1];
    expect(scene.cameraFollow).toEqual({ actorId: luka.id, bone: '頭' });
    const done = openOntoScene({ path: '/s/cam_follow.vmd' });
    expect(await answerNext('camera')).toMatch(/^cam_follow\.vmd is a camera motion/);
    expect(await done).toBe(true);
    const notify = useNotifyStore();
    const said = notify.items.find((n) => n.kind === 'warning' && n.action)!;
    expect(noticeLines(said, 'en').message).toBe('The camera still follows 頭 of Luka: a camera with the follow baked in counts the bone twice');
    expect(noticeLines(said, 'ja').message).toBe('カメラは引き続き Luka の 頭 に追従しています。追従を焼き込んだカメラではボーンの動きが二重にかかります');
    expect(scene.cameraFollow).toEqual({ actorId: luka.id, bone: '頭' });
    // The notice's button, as the list shows it.
    const w = mount(NotificationList, { attachTo: document.body });
    const button = w.get(`[data-id="${said.id}"] [data-testid="notice-action"]`);
    expect(button.text()).toBe('Turn follow off');
    await button.trigger('click');
    expect(scene.cameraFollow).toBeNull();
    expect(useHistoryStore().undoLabel).toBe('camera follow');
    expect(notify.items.some((n) => n.id === said.id)).toBe(false);
    w.unmount();
  });
});
