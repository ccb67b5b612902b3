/**
 * A friend's scene whose paths are not where it names them (absolute paths from another machine, a name in
 * another case) opens from the files beside it: main's scene open finds them (scene-service.ts, by
 * shared/scene/scene-locate.ts) and the access list grants each as the written path would be granted — for its
 * role only, links resolved, regular files only — and only inside the scene's folder: a link there pointing out,
 * or a path found with `..`, reaches nothing. Before, every such file was "not found".
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { okValue, REQUEST_NAMES, type RequestHandlers } from '../../shared/ipc/contract';
import { createAccessList, guardHandlers } from '../../electron/services/access';
import { createSceneService } from '../../electron/services/scene-service';

const root = mkdtempSync(path.join(os.tmpdir(), 'vmd-scene-locate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Handlers that answer 'handled' (a request that gets there was allowed), with `openScene` given. */
function handlersWith(openScene: RequestHandlers['openScene']): RequestHandlers {
  const h: Record<string, unknown> = {};
  for (const name of REQUEST_NAMES) h[name] = async () => okValue('handled');
  h.openScene = openScene;
  return h as unknown as RequestHandlers;
}

/** A guard over a fresh access list on this machine, the scene granted as a dialog's answer. */
function guarded(scene: string, openScene: RequestHandlers['openScene']) {
  const access = createAccessList({ platform: process.platform });
  access.grantFile(scene);
  return guardHandlers(handlersWith(openScene), access, { platform: process.platform });
}

const write = (p: string, body = 'x') => {
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, body);
};
const sceneText = (o: Record<string, unknown>) => JSON.stringify({ format: 'vmd-studio-scene', version: 1, ...o });
const handled = okValue('handled');

describe('a scene whose files lie beside it, not where it names them', () => {
  it('main finds them and grants each for its role only', async () => {
    const proj = path.join(root, 'other', 'deeper', 'place', 'proj2');
    write(path.join(proj, 'models', 'ジェネ', 'Gene_light.pmx'));
    write(path.join(proj, 'models', 'low_miku', 'miku.pmd'));
    write(path.join(proj, 'motions', '33_angry.vmd'));
    write(path.join(proj, 'motions', 'wavefile_v2.vmd'));
    write(path.join(proj, 'music', 'song.wav'));
    const scene = path.join(proj, 'win_abs.vmdscene');
    writeFileSync(
      scene,
      sceneText({
        actors: [
          { model: 'C:\\Users\\友達\\Documents\\MMD\\proj\\models\\ジェネ\\Gene_light.pmx', motion: 'C:\\Users\\友達\\Documents\\MMD\\proj\\motions\\33_angry.vmd' },
          { model: 'Models\\Low_Miku\\Miku.pmd', motion: 'motions\\WaveFile_v2.VMD' },
        ],
        camera: '/home/other/proj/motions/gone.vmd',
        audio: { path: 'Music\\Song.wav' },
      }),
    );
    const svc = createSceneService();
    const r = await svc.openScene(scene);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const at = (...p: string[]) => path.join(proj, ...p);
    expect(r.value.located).toEqual([
      { path: 'C:\\Users\\友達\\Documents\\MMD\\proj\\models\\ジェネ\\Gene_light.pmx', found: at('models', 'ジェネ', 'Gene_light.pmx') },
      { path: 'C:\\Users\\友達\\Documents\\MMD\\proj\\motions\\33_angry.vmd', found: at('motions', '33_angry.vmd') },
      { path: at('Models', 'Low_Miku', 'Miku.pmd'), found: at('models', 'low_miku', 'miku.pmd') },
      { path: at('motions', 'WaveFile_v2.VMD'), found: at('motions', 'wavefile_v2.vmd') },
      { path: at('Music', 'Song.wav'), found: at('music', 'song.wav') },
    ]);

    const g = guarded(scene, svc.openScene);
    // Before the scene is opened, none of them is granted.
    expect(await g.readModelFile(at('models', 'ジェネ', 'Gene_light.pmx'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    expect((await g.openScene(scene)).ok).toBe(true);
    expect(await g.readModelFile(at('models', 'ジェネ', 'Gene_light.pmx'))).toEqual(handled);
    expect(await g.readModelFile(at('models', 'low_miku', 'miku.pmd'))).toEqual(handled);
    expect(await g.openFile(at('motions', '33_angry.vmd'))).toEqual(handled);
    expect(await g.openFile(at('motions', 'wavefile_v2.vmd'))).toEqual(handled);
    expect(await g.readAudioFile(at('music', 'song.wav'))).toEqual(handled);
    // Each for its role only, as the written path would be.
    for (const refused of [
      await g.openFile(at('models', 'ジェネ', 'Gene_light.pmx')),
      await g.readAudioFile(at('models', 'low_miku', 'miku.pmd')),
      await g.readModelFile(at('motions', '33_angry.vmd')),
      await g.openFile(at('music', 'song.wav')),
      await g.listDirectory(at('models')),
    ]) {
      expect(refused).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    }
  });

  it('a link in the scene folder pointing out of it is not found, and not granted even when claimed found', async () => {
    const outside = path.join(root, 'outside');
    write(path.join(outside, 'models', 'x.pmx'));
    write(path.join(outside, 'secret.vmd'));
    const proj = path.join(root, 'linked');
    mkdirSync(proj, { recursive: true });
    symlinkSync(path.join(outside, 'models'), path.join(proj, 'models'));
    symlinkSync(path.join(outside, 'secret.vmd'), path.join(proj, 'dance.vmd'));
    const scene = path.join(proj, 's.vmdscene');
    writeFileSync(scene, sceneText({ actors: [{ model: 'C:\\friend\\models\\x.pmx', motion: 'D:\\friend\\Dance.vmd' }] }));
    const svc = createSceneService();
    const r = await svc.openScene(scene);
    expect(r.ok && r.value.located).toBeFalsy();
    // A service that claimed them found (or found a path with `..` out of the folder): the guard checks for itself.
    const claims = [
      { path: 'C:\\friend\\models\\x.pmx', found: path.join(proj, 'models', 'x.pmx') },
      { path: 'D:\\friend\\Dance.vmd', found: path.join(proj, 'dance.vmd') },
    ];
    const g = guarded(scene, async (p) => {
      const o = await svc.openScene(p);
      return o.ok ? okValue({ ...o.value, located: claims }) : o;
    });
    expect((await g.openScene(scene)).ok).toBe(true);
    for (const p of [path.join(proj, 'models', 'x.pmx'), path.join(outside, 'models', 'x.pmx')]) expect(await g.readModelFile(p), p).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
    for (const p of [path.join(proj, 'dance.vmd'), path.join(outside, 'secret.vmd')]) expect(await g.openFile(p), p).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });

    const dotdot = path.join(root, 'dotdot');
    write(path.join(dotdot, 'in', 'keep.vmd'));
    const scene2 = path.join(dotdot, 'in', 's.vmdscene');
    writeFileSync(scene2, sceneText({ actors: [{ model: null, motion: 'C:\\friend\\secret.vmd' }] }));
    const g2 = guarded(scene2, async (p) => okValue({ path: p, name: 's.vmdscene', bytes: new TextEncoder().encode(sceneText({ actors: [{ model: null, motion: 'C:\\friend\\secret.vmd' }] })), located: [{ path: 'C:\\friend\\secret.vmd', found: path.join(dotdot, 'in', '..', '..', 'outside', 'secret.vmd') }] }));
    expect((await g2.openScene(scene2)).ok).toBe(true);
    expect(await g2.openFile(path.join(outside, 'secret.vmd'))).toMatchObject({ ok: false, error: { code: 'E_IO_DENIED' } });
  });

  it('only a regular file is found: a folder with the name is not', async () => {
    const proj = path.join(root, 'special');
    mkdirSync(path.join(proj, 'motions', 'dance.vmd'), { recursive: true }); // a folder named like the motion
    const scene = path.join(proj, 's.vmdscene');
    writeFileSync(scene, sceneText({ actors: [{ model: null, motion: 'C:\\friend\\motions\\dance.vmd' }] }));
    const r = await createSceneService().openScene(scene);
    expect(r.ok && r.value.located).toBeFalsy();
  });
});
