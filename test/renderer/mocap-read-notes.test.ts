// The import dialog says what the BVH reader ignored: a Frame Time of 0 read at the fps typed in the dialog
// (before: the main process's task dropped the reader's warnings, so the dialog never said the file's own
// frame time was ignored; the command line prints it). In the UI's language (en, ja), on the real task
// (electron/mocap/mocap-task.ts, what main's worker runs) behind the bridge. Without a frame rate the reader's
// refusal names the dialog's 'Capture fps' field, not the command line's --fps.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { nextTick } from 'vue';
import { setApi } from '../../renderer/src/api';
import { useMocapStore } from '../../renderer/src/stores/mocap';
import { useSettingsStore } from '../../renderer/src/stores/settings';
import { runRequest } from '../../electron/mocap/mocap-task';
import type { MocapImportJob } from '../../shared/ipc/mocap-types';
import MocapImportDialog from '../../renderer/src/components/MocapImportDialog.vue';

const BVH = 'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0\n0 0 0 0 0 0\n0 1 0 0 0 10\n';

setApi(
  new Proxy(
    {
      importMocap: async (job: MocapImportJob) => runRequest({ kind: 'import', job, model: null }),
      cancelMocap: async () => ({ ok: true, value: false }),
      onMocapProgress: () => () => {},
    },
    { get: (t, k) => (t as Record<string | symbol, unknown>)[k] ?? (async () => ({ ok: true, value: undefined })) },
  ) as never,
);

describe('the import dialog shows the BVH reader\'s warnings', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('Frame Time 0 read at 30 fps: said in the report (en, ja); a good Frame Time says nothing', async () => {
    const m = useMocapStore();
    await m.begin({ name: 'zero.bvh', path: null, format: 'bvh', bytes: new TextEncoder().encode(BVH) }, null);
    // Without a frame rate the file is refused (the reader's error); with one it converts.
    expect(m.error?.code).toBe('E_BVH_NUMBER');
    // The refusal names the dialog's field, not the command line's --fps (en, ja).
    const e = mount(MocapImportDialog, { attachTo: document.body });
    await nextTick();
    const said = () => e.get('[data-testid="mocap-error"]').text();
    expect(said()).toContain('zero.bvh: The file\'s Frame Time “0” is not a usable frame time: give “Capture fps” to read it anyway (line 13)');
    useSettingsStore().setLocale('ja');
    await nextTick();
    expect(said()).toContain('「キャプチャ fps」');
    expect(said()).not.toContain('--fps');
    useSettingsStore().setLocale('en');
    e.unmount();
    m.options.fps = 30;
    expect(await m.convert()).toBe(true);
    const w = mount(MocapImportDialog, { attachTo: document.body });
    await nextTick();
    const notes = () => w.findAll('[data-testid="mocap-report-note"]').map((n) => n.text());
    expect(notes()).toEqual(['Frame Time “0” (line 13) is not a usable frame time: ignored, the frames are read at the 30 fps given']);
    useSettingsStore().setLocale('ja');
    await nextTick();
    expect(notes()).toEqual(['Frame Time「0」（13 行目）はフレーム時間として使えないため無視し、指定の 30 fps で読み込みました']);
    useSettingsStore().setLocale('en');
    await m.begin({ name: 'ok.bvh', path: null, format: 'bvh', bytes: new TextEncoder().encode(BVH.replace('Frame Time: 0', 'Frame Time: 0.033333')) }, null);
    await nextTick();
    expect(m.result).not.toBeNull();
    expect(notes()).toEqual([]);
    // A Capture fps over a Frame Time that is right (1/30 s) is taken, and said: 4× slower at 7.5.
    m.options.fps = 7.5;
    expect(await m.convert()).toBe(true);
    await nextTick();
    expect(notes()).toEqual(['Capture fps 7.5 overrides the file\'s Frame Time (30 fps): the motion plays 4× slower than captured (the field is for a file whose Frame Time is wrong; leave it empty to use the file\'s)']);
    useSettingsStore().setLocale('ja');
    await nextTick();
    expect(notes()).toEqual(['キャプチャ fps 7.5 をファイルの Frame Time（30 fps）に代えて使いました。撮影より 4× ゆっくり再生されます（この欄は Frame Time が誤っているファイル用です。空欄にするとファイルの値を使います）']);
    useSettingsStore().setLocale('en');
    w.unmount();
  });

  it('a one-frame capture says "1 frame … frame 0" (it said "1 frames … frames 0–0"), in English and Japanese', async () => {
    const m = useMocapStore();
    const one = BVH.replace('Frames: 2', 'Frames: 1').replace('Frame Time: 0', 'Frame Time: 0.033333').replace('0 1 0 0 0 10\n', '');
    await m.begin({ name: 'one.bvh', path: null, format: 'bvh', bytes: new TextEncoder().encode(one) }, null);
    expect(m.result).not.toBeNull();
    const w = mount(MocapImportDialog, { attachTo: document.body });
    await nextTick();
    const said = () => w.get('[data-testid="mocap-report-frames"]').text();
    expect(said()).toBe('1 frame at 30 fps → frame 0 at 30 fps');
    useSettingsStore().setLocale('ja');
    await nextTick();
    expect(said()).toBe('1 フレーム（30 fps）→ 30 fps のフレーム 0');
    useSettingsStore().setLocale('en');
    w.unmount();
  });

  it('the import\'s own warnings (map rows naming nothing) follow the reader\'s, in the UI\'s language', async () => {
    // Before: the dialog showed the reader's notes only; import-bvh prints these after them (captureWarnings).
    const m = useMocapStore();
    await m.begin({ name: 'ok.bvh', path: null, format: 'bvh', bytes: new TextEncoder().encode(BVH.replace('Frame Time: 0', 'Frame Time: 0.033333')) }, null);
    expect(m.result).not.toBeNull();
    // As a map file may give them: a joint the capture lacks, a part that is none.
    m.rows = { NoSuchJoint: 'hips', Hips: 'notAPart' };
    expect(await m.convert()).toBe(true);
    // (This one-joint capture is no body either: that warning comes after, and has its own line in the dialog.)
    expect(m.result!.report.warnings.slice(0, 2)).toEqual(['map rows naming no joint of the capture (left out): NoSuchJoint', 'map rows naming no humanoid part or bone (left out): notAPart']);
    expect(m.result!.report.warnings.slice(2).every((x) => x.includes('barely move'))).toBe(true);
    const w = mount(MocapImportDialog, { attachTo: document.body });
    await nextTick();
    const notes = () => w.findAll('[data-testid="mocap-report-note"]').map((n) => n.text());
    expect(notes()).toEqual(['Map rows naming no joint of the capture (left out): NoSuchJoint', 'Map rows naming no humanoid part or bone (left out): notAPart']);
    useSettingsStore().setLocale('ja');
    await nextTick();
    expect(notes()).toEqual(['キャプチャのどの関節にも当たらないマップの行（使いません）：NoSuchJoint', 'どのヒューマノイド部位にもボーンにも当たらないマップの行（使いません）：notAPart']);
    useSettingsStore().setLocale('en');
    w.unmount();
  });

  it('a capture that is not a body: the report says the model will barely move (en, ja); a body says nothing', async () => {
    // Before: "1 joints mapped, 1 not" and no word of it. A tail: Base → Seg1.
    const tail = BVH.replace('ROOT Hips', 'ROOT Base').replace('Frame Time: 0', 'Frame Time: 0.033333').replace('  End Site\n  {\n    OFFSET 0 1 0\n  }\n', '  JOINT Seg1\n  {\n    OFFSET 0 5 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n      OFFSET 0 5 0\n    }\n  }\n').replace('0 0 0 0 0 0\n0 1 0 0 0 10\n', '0 0 0 0 0 0 0 0 0\n0 1 0 0 0 10 5 0 0\n');
    const m = useMocapStore();
    m.options.fps = undefined;
    await m.begin({ name: 'tail.bvh', path: null, format: 'bvh', bytes: new TextEncoder().encode(tail) }, null);
    expect(m.error).toBeNull();
    expect(m.result).not.toBeNull();
    const w = mount(MocapImportDialog, { attachTo: document.body });
    await nextTick();
    const line = () => w.find('[data-testid="mocap-report-barely"]');
    expect(line().text()).toBe('Only 1 of the capture\'s 2 joints match a humanoid part (Base → 下半身), none of the spine, head or limbs: the model will barely move. If the joints are a body\'s, set their parts in the map table below.');
    useSettingsStore().setLocale('ja');
    await nextTick();
    expect(line().text()).toBe('キャプチャの 2 関節のうち人型の部位に対応するのは 1 個だけで（Base → 下半身）、背骨・頭・手足はありません。モデルはほとんど動きません。体の関節なら、下のマップ表で部位を指定してください。');
    useSettingsStore().setLocale('en');
    // The same two joints mapped to the hips and the spine: a body, nothing said.
    m.setRow('Seg1', 'spine');
    expect(await m.convert()).toBe(true);
    await nextTick();
    expect(w.find('[data-testid="mocap-report-barely"]').exists()).toBe(false);
    w.unmount();
  });
});
