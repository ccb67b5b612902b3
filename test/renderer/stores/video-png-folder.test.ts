// Render → Video… as a PNG sequence named by a folder that is already there (report nulight, finding 8): the pictures
// go into it as NAME_000000.png …, NAME the scene's, where they went beside it as folder_000000.png. A name that is
// no folder, one typed with .png, and an MP4 keep their old meaning. Main is a fake that lists one folder only.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { okValue } from '../../../shared/ipc/contract';
import { setApi } from '../../../renderer/src/api';
import { useVideoExportStore } from '../../../renderer/src/stores/video-export';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { buildFixture } from '../../helpers/vmd-fixtures';

const FOLDER = '/work/shots/vid1';
const listed: string[] = [];

beforeEach(() => {
  setActivePinia(createPinia());
  listed.length = 0;
  setApi(new Proxy({} as Record<string, unknown>, {
    get: (_t, name: string) => async (...args: unknown[]) => {
      if (name === 'listDirectory') {
        listed.push(args[0] as string);
        return args[0] === FOLDER ? okValue({ path: FOLDER, entries: [] }) : { ok: false, error: { code: 'E_IO_NOT_FOUND', message: 'no such folder' } };
      }
      return okValue(undefined);
    },
  }) as never);
  expect(useSceneStore().openBytes('stage.vmd', buildFixture({ lights: [{ frame: 0, color: [0.6, 0.6, 0.6], direction: [0, -1, 0] }] }), '/work/shots/stage.vmd')).toBe(true);
});

describe('a PNG sequence named by a folder', () => {
  it('writes into the folder, named after the scene', async () => {
    const v = useVideoExportStore();
    v.format = 'png';
    v.path = FOLDER;
    await v.settlePath();
    expect(v.path).toBe(`${FOLDER}/stage.png`); // the pictures: vid1/stage_000000.png …
    expect(listed).toEqual([FOLDER]);
    // Settled again (Render after the field's change): stays.
    await v.settlePath();
    expect(v.path).toBe(`${FOLDER}/stage.png`);
  });

  it('a name that is no folder, a name typed with .png and an MP4 are names, as before', async () => {
    const v = useVideoExportStore();
    v.format = 'png';
    v.path = '/work/shots/take2';
    await v.settlePath();
    expect(v.path).toBe('/work/shots/take2.png');
    v.path = `${FOLDER}.png`;
    await v.settlePath();
    expect(v.path).toBe(`${FOLDER}.png`);
    v.format = 'mp4';
    v.path = FOLDER;
    await v.settlePath();
    expect(v.path).toBe(`${FOLDER}.mp4`);
    expect(listed).toEqual(['/work/shots/take2']);
  });
});
