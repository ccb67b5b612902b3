// Save As with a .vpd name of a motion (the new-user pass's finding 1): it wrote the pose at frame 0 without a word,
// made the .vpd the document's file and marked it saved, so the keys at other frames were in no file and closing
// did not ask. Now a pose is an export of one frame: asked first, naming the frame (the current one, as Export VPD
// at Frame… takes it) and what stays out; the document keeps its file and stays unsaved. A one-frame pose saved as a
// pose is as before (vpd-save.test.ts: the unedited Save As writes the file byte for byte, without a question).
import { describe, expect, it } from 'vitest';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { answerNext, cameraVmd, dance, editShown, memoryScene } from './scene-fixtures';

const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
const lines = () => useNotifyStore().items.flatMap((n) => (n.text ? [renderText(n.text, 'en')] : []));

describe('Save As a .vpd of a motion', () => {
  it('asks first, writes the pose at the current frame, and leaves the motion its file and its unsaved mark', async () => {
    // センター at frames 0, 10 and 20, at x = 0, 4, 0: three keys, two of them at frames other than 10.
    const { files } = memoryScene([['/m/walk.vmd', dance(4)]]);
    const ws = useWorkspaceStore();
    expect(await useSceneStore().openPath('/m/walk.vmd')).toBe(true);
    editShown();
    useTimeStore().seek(10);
    const saving = ws.saveAs('/m/pose.vpd');
    const line = await answerNext('save');
    expect(line).toBe(
      'A pose (.vpd) holds one frame: pose.vpd gets the pose at frame 10, the current frame (as Export VPD at Frame… takes it); 2 keys at other frames are not saved. The motion itself stays unsaved: save it as a .vmd to keep them.',
    );
    // False: the motion is still in no file (a close that asked Save does not go on).
    expect(await saving).toBe(false);
    // The pose at frame 10: センター at x = 4 (the key there), one bone.
    const text = latin1(files.get('/m/pose.vpd')!);
    expect(text).toMatch(/^Vocaloid Pose Data file/);
    expect(text).toMatch(/\n1;\s/);
    expect(text).toMatch(/\n\s*4\.000000,0\.000000,0\.000000;/);
    expect(ws.path).toBe('/m/walk.vmd');
    expect(ws.fileName).toBe('walk.vmd');
    expect(ws.format).toBe('vmd');
    expect(ws.dirty).toBe(true);
    expect(lines()).toContain('Saved the pose at frame 10 as pose.vpd. The motion itself is not saved: save it as a .vmd to keep every key.');
    // The motion's own file is untouched; Save still writes it (a .vmd) and then it is saved.
    expect(await ws.save()).toBe(true);
    expect(latin1(files.get('/m/walk.vmd')!)).toMatch(/^Vocaloid Motion Data/);
    expect(ws.dirty).toBe(false);
  });

  it('Cancel writes nothing and changes nothing', async () => {
    const { files } = memoryScene([['/m/walk.vmd', dance(4)]]);
    const ws = useWorkspaceStore();
    expect(await useSceneStore().openPath('/m/walk.vmd')).toBe(true);
    editShown();
    const saving = ws.saveAs('/m/pose.vpd');
    expect(await answerNext('cancel')).toContain('gets the pose at frame 0, the current frame');
    expect(await saving).toBe(false);
    expect(files.has('/m/pose.vpd')).toBe(false);
    expect(ws.path).toBe('/m/walk.vmd');
    expect(ws.dirty).toBe(true);
  });

  it('a camera motion has no pose: refused as Export VPD refuses it, nothing written, no question', async () => {
    const { files } = memoryScene([['/m/cam.vmd', cameraVmd()]]);
    const ws = useWorkspaceStore();
    expect(await useSceneStore().openPath('/m/cam.vmd')).toBe(true);
    expect(await ws.saveAs('/m/cam.vpd')).toBe(false);
    expect(useConfirmStore().current).toBeNull();
    expect(files.has('/m/cam.vpd')).toBe(false);
    expect(ws.path).toBe('/m/cam.vmd');
    expect(useNotifyStore().items.some((n) => n.kind === 'error')).toBe(true);
  });

  it('a one-frame pose saved as a .vpd: no question, the file becomes its own and it is saved', async () => {
    const pose = new TextEncoder().encode('Vocaloid Pose Data file\n\nmiku.osm;\n1;\n\nBone0{センター\n  1.000000,2.000000,3.000000;\n  0.000000,0.000000,0.000000,1.000000;\n}\n\n');
    const { files } = memoryScene([['/m/a.vpd', pose]]);
    const ws = useWorkspaceStore();
    expect(await useSceneStore().openPath('/m/a.vpd')).toBe(true);
    useTimeStore().seek(30);
    expect(await ws.saveAs('/m/b.vpd')).toBe(true);
    expect(useConfirmStore().current).toBeNull();
    expect(files.get('/m/b.vpd')).toEqual(pose);
    expect(ws.path).toBe('/m/b.vpd');
    expect(ws.dirty).toBe(false);
  });
});
