// The app actions views call (issue 25 §2): open anything, a new motion, register a pose.
import { readFileSync } from 'node:fs';
import { corpusPath, corpusPresent } from '../../helpers/corpus';
import { describe, expect, it, vi } from 'vitest';
import { decodeName, encodeSjis, writeVmd } from '../../../shared/vmd';
import { newMotion, openAny, openDropped, registerPose } from '../../../renderer/src/shell/app-actions';
import { resetCutNames } from '../../../renderer/src/shell/cut-names';
import { useMergeStore } from '../../../renderer/src/stores/merge';
import { buildVmd } from '../../../shared/vmd';
import { useConfirmStore } from '../../../renderer/src/stores/confirm';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { noticeLines, renderText, useNotifyStore } from '../../../renderer/src/stores/notify';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { cameraVmd, dance, memoryScene } from '../stores/scene-fixtures';

const POSE = { position: [0, 0, 0] as [number, number, number], rotation: [0, 0.2588190451, 0, 0.9659258263] as [number, number, number, number] };

describe('app actions', () => {
  it('openAny: a model goes to the preview, a motion by path or by bytes opens, anything else is refused', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    expect(await openAny({ path: '/m/miku.pmx' })).toBe(true);
    // Opened by the person: read with `recent`, so it goes on the recent list as a motion does.
    expect(usePreviewStore().modelRequest).toEqual({ path: '/m/miku.pmx', recent: true });
    expect(await openAny({ path: '/s/a.vmd' })).toBe(true);
    expect(useWorkspaceStore().fileName).toBe('a.vmd');
    // Over the open motion it is asked whether it goes into the scene (shell/pose-apply.ts); on its own here.
    const dropped = openAny({ name: 'b.vmd', bytes: dance(20) });
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    expect(useConfirmStore().current!.buttons.map((b) => b.choice)).toEqual(['add', 'load', 'discard', 'cancel']);
    useConfirmStore().answer('discard');
    expect(await dropped).toBe(true);
    expect(useWorkspaceStore().fileName).toBe('b.vmd');
    expect(useWorkspaceStore().path).toBeNull();
    expect(await openAny({ name: 'notes.txt', bytes: new Uint8Array(1) })).toBe(false);
    expect(useWorkspaceStore().fileName).toBe('b.vmd');
  });

  it('openAny by path (Open…, Open Recent): a VMD renamed .mvd opens by its first bytes, as a drop does; a real .mvd is named as MikuMikuMoving’s', async () => {
    const mvd = new Uint8Array([...new TextEncoder().encode('Motion Vector Data file'), ...new Uint8Array(40)]);
    const { calls } = memoryScene([['/s/dance.mvd', dance(10)], ['/s/motion.mvd', mvd]]).fake;
    expect(await openAny({ path: '/s/dance.mvd' })).toBe(true);
    expect(useWorkspaceStore().fileName).toBe('dance.mvd');
    expect(useWorkspaceStore().path).toBe('/s/dance.mvd');
    // Its head was asked for, then the file read by path (main reads a renamed VMD by its bytes too).
    expect(calls.filter((c) => c.name === 'readFileHead' || c.name === 'openFile').map((c) => `${c.name} ${c.args[0]}`)).toEqual(['readFileHead /s/dance.mvd', 'openFile /s/dance.mvd']);
    expect(await openAny({ path: '/s/motion.mvd' })).toBe(false);
    const n = noticeLines(useNotifyStore().items.at(-1)!, 'en');
    expect(`${n.message} ${n.detail ?? ''}`).toContain('a MikuMikuMoving motion (.mvd), not a VMD');
    expect(useWorkspaceStore().fileName).toBe('dance.mvd');
  });

  it('openDropped: a model, a body motion, a facial motion and more dropped at once: the model loads, the body motion opens, the facial one is offered in Merge with… (overlay) and merges on Apply; every other file is named in a notice', async () => {
    memoryScene([]);
    const face = writeVmd(buildVmd({ morphs: [{ name: 'まばたき', frame: 0, weight: 0 }, { name: 'まばたき', frame: 5, weight: 1 }] }));
    const model = new Uint8Array([1, 2, 3]);
    await openDropped([
      { name: 'face.vmd', bytes: face },
      { name: 'miku.pmx', bytes: model },
      { name: 'body.vmd', bytes: dance(10) },
      { name: 'other.pmx', bytes: model },
      { name: 'scene.vmdscene', bytes: new Uint8Array([1]) },
    ]);
    expect(usePreviewStore().modelRequest).toEqual({ name: 'miku.pmx', bytes: model });
    // The first motion dropped opens (face.vmd, listed first); the next motion is offered for overlaying onto it.
    const ws = useWorkspaceStore();
    expect(ws.fileName).toBe('face.vmd');
    const merge = useMergeStore();
    expect(merge.open).toBe(true);
    expect(merge.mode).toBe('overlay');
    expect(merge.files).toEqual([{ name: 'body.vmd', bytes: dance(10) }]);
    // Never silent: the second model and the scene are named, with why.
    const notices = useNotifyStore().items.filter((n) => n.kind === 'warning');
    expect(notices).toHaveLength(1);
    expect(noticeLines(notices[0], 'en')).toEqual({
      message: '2 dropped files were not opened',
      detail: 'other.pmx: one model loads per drop (miku.pmx did) · scene.vmdscene: one motion, scene or capture opens per drop (face.vmd did); only more model motions (.vmd) are offered for Merge with…',
    });
    // Apply: the body motion's 3 センター keys join the 2 まばたき keys, one undo step.
    expect(await merge.apply()).toBe(true);
    expect([ws.doc!.bone.count, ws.doc!.morph.count]).toEqual([3, 2]);
    useHistoryStore().undo();
    expect([ws.doc!.bone.count, ws.doc!.morph.count]).toEqual([0, 2]);
  });

  // The new-user pass's finding 2: the first .vmd dropped was the document and every other .vmd was offered for
  // merging into it, so a camera dropped with a dance became the document (camera first, as name order gives
  // カメラ before ダンス) or was offered for merging into the dance. Now each is placed by what it holds.
  it.each([['camera first', true], ['dance first', false]])('openDropped (%s): the dance opens as the actor, the camera VMD becomes the camera document; neither holds the other’s keys', async (_n, cameraFirst) => {
    memoryScene([]);
    const cam = { name: 'カメラ.vmd', bytes: cameraVmd() }, walk = { name: 'ダンス.vmd', bytes: dance(10) };
    await openDropped(cameraFirst ? [cam, walk] : [walk, cam]);
    const scene = useSceneStore(), ws = useWorkspaceStore();
    expect(scene.entries.map((e) => [e.kind, e.fileName])).toEqual([['actor', 'ダンス.vmd'], ['camera', 'カメラ.vmd']]);
    const actor = ws.get(scene.entries[0].id)!, camera = ws.get(scene.entries[1].id)!;
    // The dance: its 3 センター keys, no camera key; the camera: its 3 camera keys, no bone key.
    expect([actor.doc.bone.count, actor.doc.camera.count]).toEqual([3, 0]);
    expect([camera.doc.bone.count, camera.doc.camera.count]).toEqual([0, 3]);
    // The dance is the active document; nothing is offered for merging, nothing is left out.
    expect(ws.fileName).toBe('ダンス.vmd');
    expect(useMergeStore().open).toBe(false);
    expect(useNotifyStore().items.filter((n) => n.kind === 'warning')).toEqual([]);
  });

  // Dropped by path (Electron gives paths): the camera VMD is read once, to tell it from the dance, and added from
  // what was read (it was read a second time to add it).
  it('openDropped by path: the camera VMD is read once and becomes the camera document with its file', async () => {
    const { fake } = memoryScene([['/d/カメラ.vmd', cameraVmd()], ['/d/ダンス.vmd', dance(10)]]);
    await openDropped([{ path: '/d/カメラ.vmd' }, { path: '/d/ダンス.vmd' }]);
    const scene = useSceneStore();
    expect(scene.entries.map((e) => [e.kind, e.path])).toEqual([['actor', '/d/ダンス.vmd'], ['camera', '/d/カメラ.vmd']]);
    expect(fake.calls.filter((c) => c.name === 'openFile' && c.args[0] === '/d/カメラ.vmd')).toHaveLength(1);
  });

  it('openDropped: a pose dropped with a dance and a camera is asked about onto the dance’s actor; a second camera is named', async () => {
    memoryScene([]);
    const pose = encodeSjis('Vocaloid Pose Data file\n\nmiku.osm;\n1;\n\nBone0{センター\n  1.000000,2.000000,3.000000;\n  0.000000,0.000000,0.000000,1.000000;\n}\n\n');
    const dropped = openDropped([
      { name: 'pose.vpd', bytes: pose },
      { name: 'cam2.vmd', bytes: cameraVmd() },
      { name: 'cam.vmd', bytes: cameraVmd() },
      { name: 'walk.vmd', bytes: dance(10) },
    ]);
    const confirm = useConfirmStore();
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    const b = confirm.current!.buttons[0];
    expect(renderText({ key: b.label, params: b.params }, 'en')).toBe('Apply the pose to walk at frame 0');
    confirm.answer('apply');
    await dropped;
    const scene = useSceneStore(), ws = useWorkspaceStore();
    expect(scene.entries.map((e) => [e.kind, e.fileName])).toEqual([['actor', 'walk.vmd'], ['camera', 'cam2.vmd']]);
    // The pose keyed センター at frame 0 of the dance: x = 1 there now (it was 0).
    expect(ws.fileName).toBe('walk.vmd');
    const b0 = ws.doc!.bone;
    const keys = Array.from({ length: b0.count }, (_, i) => [b0.view.getUint32(i * 111 + 15, true), b0.view.getFloat32(i * 111 + 19, true)]).sort((p, q) => p[0] - q[0]);
    expect(keys).toEqual([[0, 1], [10, 10], [20, 0]]);
    const notices = useNotifyStore().items.filter((n) => n.kind === 'warning');
    expect(notices.map((n) => noticeLines(n, 'en'))).toEqual([{ message: '1 dropped file was not opened', detail: 'cam.vmd: one camera per drop (cam2.vmd became the camera)' }]);
  });

  it('openDropped: motions whose first did not open (Cancel over the open motion) are named, not offered for merging', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    expect(await openAny({ path: '/s/a.vmd' })).toBe(true);
    const dropped = openDropped([{ name: 'b.vmd', bytes: dance(20) }, { name: 'c.vmd', bytes: dance(30) }]);
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    useConfirmStore().answer('cancel');
    await dropped;
    expect(useWorkspaceStore().fileName).toBe('a.vmd');
    expect(useMergeStore().open).toBe(false);
    const notices = useNotifyStore().items.filter((n) => n.kind === 'warning');
    expect(notices.map((n) => noticeLines(n, 'en'))).toEqual([{ message: '1 dropped file was not opened', detail: 'c.vmd: not offered for merging, as b.vmd did not open' }]);
  });

  it.skipIf(!corpusPresent)('openAny: a .vpd dropped over an open motion asks first to apply it to the actor at the playhead; Apply keys its bones there as one undo step (undo: the exact bytes); Cancel changes nothing', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    expect(await openAny({ path: '/s/a.vmd' })).toBe(true);
    const ws = useWorkspaceStore();
    const before = writeVmd(ws.doc!);
    useTimeStore().seek(15);
    const vpd = new Uint8Array(readFileSync(corpusPath('threejs/vpds/01.vpd')));
    const confirm = useConfirmStore();
    // Cancel: nothing changes.
    let dropped = openAny({ name: '01.vpd', bytes: vpd });
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    expect(confirm.current!.buttons.map((b) => b.choice)).toEqual(['apply', 'discard', 'cancel']);
    expect(renderText({ key: confirm.current!.buttons[0].label, params: confirm.current!.buttons[0].params }, 'en')).toBe('Apply the pose to a at frame 15');
    expect(renderText({ key: confirm.current!.buttons[1].label }, 'en')).toBe('Open it on its own (replaces the scene)');
    confirm.answer('cancel');
    expect(await dropped).toBe(false);
    expect(Buffer.from(writeVmd(ws.doc!)).equals(Buffer.from(before))).toBe(true);
    // Apply.
    dropped = openAny({ name: '01.vpd', bytes: vpd });
    await vi.waitFor(() => expect(confirm.current).not.toBeNull());
    confirm.answer('apply');
    expect(await dropped).toBe(true);
    const h = useHistoryStore();
    expect(h.depth).toBe(1);
    expect(h.undoLabel).toBe('apply pose 01.vpd at 15');
    expect(ws.fileName).toBe('a.vmd');
    const names = new Set(ws.tracks!.bones.names);
    expect(names.has('左ひじ')).toBe(true);
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').message).toBe('Applied 01.vpd to a at frame 15: 93 bones and 0 morphs keyed (one undo step)');
    h.undo();
    expect(Buffer.from(writeVmd(ws.doc!)).equals(Buffer.from(before))).toBe(true);
  });

  it('openAny: a motion dropped over an open one is added as an actor, or loaded onto the actor (one undo step, undo gives its bytes back); a camera VMD becomes the scene’s camera', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    expect(await openAny({ path: '/s/a.vmd' })).toBe(true);
    const ws = useWorkspaceStore();
    const scene = useSceneStore();
    const confirm = useConfirmStore();
    const h = useHistoryStore();
    const before = writeVmd(ws.doc!);
    const answer = async (name: string, bytes: Uint8Array, choice: 'add' | 'load' | 'camera', choices: string[]) => {
      const done = openAny({ name, bytes });
      await vi.waitFor(() => expect(confirm.current).not.toBeNull());
      expect(confirm.current!.buttons.map((b) => b.choice)).toEqual(choices);
      confirm.answer(choice);
      return done;
    };
    expect(await answer('b.vmd', dance(30), 'load', ['add', 'load', 'discard', 'cancel'])).toBe(true);
    expect(scene.entries.length).toBe(1);
    expect(Buffer.from(writeVmd(ws.doc!)).equals(Buffer.from(dance(30)))).toBe(true);
    expect(h.undoLabel).toBe('load motion b.vmd');
    expect(ws.fileName).toBe('a.vmd');
    h.undo();
    expect(Buffer.from(writeVmd(ws.doc!)).equals(Buffer.from(before))).toBe(true);
    expect(await answer('c.vmd', dance(40), 'add', ['add', 'load', 'discard', 'cancel'])).toBe(true);
    expect(scene.actors.map((e) => e.fileName)).toEqual(['a.vmd', 'c.vmd']);
    // Two actors now: an untitled scene, unsaved (Save All and Open, Open and Discard).
    expect(await answer('cam.vmd', cameraVmd(), 'camera', ['camera', 'save', 'discard', 'cancel'])).toBe(true);
    expect(scene.cameraEntry?.fileName).toBe('cam.vmd');
  });

  it('openAny: Load onto the actor keeps the actor’s model name in the header (as MMD loads a motion onto a model) and says the file’s; Save writes the loaded bytes with only that field the actor’s', async () => {
    const miku = dance(10, '初音ミク'), gene = dance(30, 'ジェネ / Gene');
    const { files } = memoryScene([['/s/a.vmd', miku]]);
    expect(await openAny({ path: '/s/a.vmd' })).toBe(true);
    const ws = useWorkspaceStore();
    const done = openAny({ name: 'stand.vmd', bytes: gene });
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    useConfirmStore().answer('load');
    expect(await done).toBe(true);
    const lines = noticeLines(useNotifyStore().items.at(-1)!, 'en');
    expect(lines.message).toBe('Loaded stand.vmd onto a: its motion is replaced (Undo gives it back; Save writes it to a.vmd)');
    expect(lines.detail).toBe('Its header named the model ジェネ / Gene; it keeps 初音ミク, the actor’s (as MMD loads a motion onto a model)');
    expect(await ws.save()).toBe(true);
    // The file written: stand's bytes, but for the model-name field (bytes 30–49), which is a.vmd's.
    const saved = files.get('/s/a.vmd')!;
    expect(saved.length).toBe(gene.length);
    const differ = [...saved.keys()].filter((i) => saved[i] !== gene[i]);
    expect(differ.length).toBeGreaterThan(0);
    expect(differ.every((i) => i >= 30 && i < 50)).toBe(true);
    expect(Buffer.from(saved.subarray(30, 50)).equals(Buffer.from(miku.subarray(30, 50)))).toBe(true);
    // Same names: nothing more said.
    const again = openAny({ name: 'b.vmd', bytes: dance(40, '初音ミク') });
    await vi.waitFor(() => expect(useConfirmStore().current).not.toBeNull());
    useConfirmStore().answer('load');
    expect(await again).toBe(true);
    expect(noticeLines(useNotifyStore().items.at(-1)!, 'en').detail).toBeUndefined();
  });

  it('openAny: an empty drop is "the file is empty (0 bytes)" as Open… says it; a dropped scene says why it cannot open; anything else names what Open… takes', async () => {
    // notes.txt is there (by path, its first bytes are read first: one that is not there is "not found").
    memoryScene([['/s/a.vmd', dance(10)], ['/s/notes.txt', new TextEncoder().encode('steps\n')]]);
    const notify = useNotifyStore();
    expect(await openAny({ name: 'empty.vmd', bytes: new Uint8Array(0) })).toBe(false);
    expect(notify.items.at(-1)!.error).toEqual({ code: 'E_FILE_EMPTY', message: 'the file is empty (0 bytes)', file: 'empty.vmd' });
    expect(await openAny({ name: 'my.vmdscene', bytes: new TextEncoder().encode('{}') })).toBe(false);
    expect(noticeLines(notify.items.at(-1)!, 'en').message).toContain('my.vmdscene: a scene names its motions, models and song relative to its own folder');
    expect(await openAny({ path: '/s/notes.txt' })).toBe(false);
    const refusal = noticeLines(notify.items.at(-1)!, 'en').message;
    expect(refusal).toContain('notes.txt: not a kind of file the app opens');
    expect(refusal).toContain('models (.pmx, .pmd)');
    expect(refusal).toContain('songs (.wav,');
  });

  it('newMotion makes an empty, unsaved document directly (no bytes), named as asked, with the model in its header', () => {
    memoryScene([]);
    usePreviewStore().setModel({ name: 'miku', path: '/m/miku.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    const id = newMotion('New motion.vmd');
    const ws = useWorkspaceStore();
    expect(ws.activeId).toBe(id);
    expect(ws.fileName).toBe('New motion.vmd');
    expect(ws.path).toBeNull();
    expect(ws.doc!.bone.count).toBe(0);
    expect(decodeName(ws.doc!.modelName)).toBe('miku');
  });

  it('newMotion for a model whose name is over the header\'s 20 bytes writes it cut at a character, as MMD does, and says so', () => {
    memoryScene([]);
    // ジェネ・ライト改変テスト版モデル: 32 bytes in Shift_JIS; the first ten characters are 20 (it used to be left empty, unsaid).
    usePreviewStore().setModel({ name: 'ジェネ・ライト改変テスト版モデル', path: '/m/long.pmx', format: 'pmx', bones: 1, morphs: 0, vertices: 1, rigidBodies: 0, notes: [] });
    newMotion('New motion.vmd');
    expect(decodeName(useWorkspaceStore().doc!.modelName)).toBe('ジェネ・ライト改変テ');
    const n = useNotifyStore().items.at(-1)!;
    expect(n.kind).toBe('warning');
    expect(noticeLines(n, 'en').message).toBe('The model’s name “ジェネ・ライト改変テスト版モデル” is 32 bytes in Shift_JIS, more than the 20 a VMD’s header holds: written as “ジェネ・ライト改変テ”, cut as MMD cuts it');
    expect(noticeLines(n, 'ja').message).toContain('「ジェネ・ライト改変テ」に切って');
  });

  it('registerPose of a bone whose name is over 15 bytes keys it cut as MMD does and says so once (it was refused)', () => {
    memoryScene([]);
    resetCutNames();
    // 前クローク2_1xcIK (Gene): 17 bytes in Shift_JIS; its first 15 are 前クローク2_1xc (5 two-byte characters and 5 ASCII).
    expect(registerPose({ name: '前クローク2_1xcIK', track: -1, pose: POSE, frame: 0 })).toBe(0);
    expect(useWorkspaceStore().tracks!.bones.names).toEqual(['前クローク2_1xc']);
    const said = () => useNotifyStore().items.filter((n) => n.kind === 'info').map((n) => noticeLines(n, 'en').message);
    expect(said()).toEqual(['Bone “前クローク2_1xcIK” (17 bytes) is stored as “前クローク2_1xc” (15 bytes of Shift_JIS, as MMD does): MMD plays it on the bone; babylon-mmd and three.js match names exactly and do not']);
    registerPose({ name: '前クローク2_1xcIK', track: -1, pose: POSE, frame: 10 });
    expect(useWorkspaceStore().tracks!.bones.names).toEqual(['前クローク2_1xc']);
    expect(said()).toHaveLength(1);
  });

  it('registerPose with nothing open starts a new motion with the key: one undo step, the key selected', () => {
    memoryScene([]);
    const record = registerPose({ name: 'センター', track: 0, pose: POSE, frame: 12 });
    const ws = useWorkspaceStore();
    expect(record).toBe(0);
    expect(ws.doc!.bone.count).toBe(1);
    expect(ws.tracks!.bones.frames[0]).toBe(12);
    expect(ws.dirty).toBe(true);
    expect(useHistoryStore().depth).toBe(1);
    expect(useSelectionStore().refs).toEqual([{ kind: 'bone', record: 0 }]);
    // The same pose again changes nothing: no step, null.
    expect(registerPose({ name: 'センター', track: 0, pose: POSE, frame: 12 })).toBeNull();
    expect(useHistoryStore().depth).toBe(1);
  });

  it('registerPose while the camera document is active keys the shown actor', async () => {
    const { files } = memoryScene([
      ['/s/a.vmd', dance(10)],
      ['/s/camera.vmd', cameraVmd()],
    ]);
    const scene = useSceneStore();
    await scene.openPath('/s/a.vmd');
    await scene.addDocument('/s/camera.vmd');
    expect(scene.active?.kind).toBe('camera');
    expect(registerPose({ name: 'センター', track: 0, pose: POSE, frame: 5 })).not.toBeNull();
    expect(scene.active?.kind).toBe('actor');
    expect(useWorkspaceStore().doc!.bone.count).toBe(4);
    expect(writeVmd(useWorkspaceStore().get(scene.cameraEntry!.id)!.doc)).toEqual(files.get('/s/camera.vmd'));
  });
});
