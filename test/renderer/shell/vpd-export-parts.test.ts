// New-user pass (nupose 2): Export VPD at Frame… wrote every bone and every morph of the motion (222 bones and 178
// morphs for a stand motion on Gene), whatever was selected: a hand pose or a face preset could not be saved. Now a
// first step asks what goes in — the selected bones and morphs (the default when there are some, as MMD's
// ポーズデータ保存), the whole pose, bones only, morphs only — with the counts each writes, and the file holds that
// part. The written file is read back with readVpd, the reader the CLI's load.ts uses.
import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import { buildVmd, readVpd, writeVmd } from '../../../shared/vmd';
import { runCommand } from '../../../renderer/src/shell/commands';
import { fileDialogState } from '../../../renderer/src/shell/file-dialog';
import { vpdPartsState } from '../../../renderer/src/shell/vpd-export';
import VpdExportDialog from '../../../renderer/src/shell/VpdExportDialog.vue';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { memoryScene } from '../stores/scene-fixtures';

const q = (deg: number): [number, number, number, number] => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];
// Four bones and two morphs keyed at 0 and 20; at frame 10 each is half way (linear curves).
const bones = ['センター', '上半身', '左人指１', '左人指２'].flatMap((name) => [
  { name, frame: 0, position: [0, 0, 0] as [number, number, number], rotation: q(0) },
  { name, frame: 20, position: [name === 'センター' ? 2 : 0, 0, 0] as [number, number, number], rotation: q(40) },
]);
const morphs = ['まばたき', '笑い'].flatMap((name) => [{ name, frame: 0, weight: 0 }, { name, frame: 20, weight: 0.5 }]);
const pose = writeVmd(buildVmd({ model: 'Gene_light', bones, morphs }));

const settle = async () => {
  for (let i = 0; i < 5; i++) await nextTick();
};

/** Runs Export VPD, answers the first step with `part` and the file dialog with `path`; the request seen. */
async function exportAs(part: 'selected' | 'all' | 'bones' | 'morphs', path: string) {
  void runCommand('exportVpd');
  await settle();
  const req = vpdPartsState.request!;
  expect(req).not.toBeNull();
  vpdPartsState.resolve!(part);
  await settle();
  expect(fileDialogState.request?.filter).toBe('vpd');
  fileDialogState.resolve!({ path, overwrite: false });
  await settle();
  return req;
}

/** The records of the keys of `names`' bone tracks. */
function boneKeys(names: string[]) {
  const t = useWorkspaceStore().tracks!;
  return names.flatMap((n) => {
    const tr = t.bones.index.get(n)!;
    const out = [];
    for (let k = t.bones.start[tr]; k < t.bones.start[tr + 1]; k++) out.push({ kind: 'bone' as const, record: t.bones.record[k] });
    return out;
  });
}

describe('Export VPD at Frame…: what goes in', () => {
  it('selected finger keys → a hand pose; nothing selected → the whole pose by default; morphs only → a face preset', async () => {
    const { files } = memoryScene([['/s/stand.vmd', pose]]);
    expect(await useSceneStore().openPath('/s/stand.vmd')).toBe(true);
    useTimeStore().seek(10);
    useSelectionStore().select(boneKeys(['左人指１', '左人指２']));

    const hand = await exportAs('selected', '/s/hand.vpd');
    expect(hand.frame).toBe(10);
    expect(hand.initial).toBe('selected');
    expect(hand.counts).toEqual({ selected: { bones: 2, morphs: 0 }, all: { bones: 4, morphs: 2 }, bones: { bones: 4, morphs: 0 }, morphs: { bones: 0, morphs: 2 } });
    const h = readVpd(files.get('/s/hand.vpd')!);
    expect(h.ok).toBe(true);
    if (!h.ok) return;
    expect(h.value.bones.map((b) => b.name)).toEqual(['左人指１', '左人指２']);
    expect(h.value.declaredBones).toBe(2);
    expect(h.value.morphs).toEqual([]);
    // Half of 40° about Z at frame 10.
    expect(h.value.bones[0].rotation.map((v) => +v.toFixed(6))).toEqual(q(20).map((v) => +v.toFixed(6)));

    useSelectionStore().clear();
    useSelectionStore().setActiveTrack(null);
    const face = await exportAs('morphs', '/s/face.vpd');
    expect(face.initial).toBe('all');
    expect(face.counts.selected).toEqual({ bones: 0, morphs: 0 });
    const f = readVpd(files.get('/s/face.vpd')!);
    expect(f.ok).toBe(true);
    if (!f.ok) return;
    expect(f.value.bones).toEqual([]);
    expect(f.value.declaredBones).toBe(0);
    expect(f.value.morphs).toEqual([{ name: 'まばたき', weight: 0.25 }, { name: '笑い', weight: 0.25 }]);

    const whole = await exportAs('all', '/s/whole.vpd');
    expect(whole.initial).toBe('all');
    const w = readVpd(files.get('/s/whole.vpd')!);
    expect(w.ok && [w.value.bones.length, w.value.morphs.length]).toEqual([4, 2]);
  });

  it('the first step says how many bones and morphs each choice writes, the selection checked; Cancel writes nothing', async () => {
    const { fake } = memoryScene([['/s/stand.vmd', pose]]);
    expect(await useSceneStore().openPath('/s/stand.vmd')).toBe(true);
    useSelectionStore().select(boneKeys(['上半身']));
    const w = mount(VpdExportDialog, { attachTo: document.body });
    void runCommand('exportVpd');
    await settle();
    const rows = () => Object.fromEntries(w.findAll('[data-testid="vpd-part"]').map((r) => [r.attributes('data-part'), r.get('[data-testid="vpd-part-count"]').text()]));
    expect(rows()).toEqual({ selected: '1 bone, 0 morphs', all: '4 bones, 2 morphs', bones: '4 bones, 0 morphs', morphs: '0 bones, 2 morphs' });
    expect((w.get('[data-part="selected"] input').element as HTMLInputElement).checked).toBe(true);
    // Which readers take each choice: three.js's VPD reader (mmd-parser) has no Morph section and refuses a file
    // with one, so only the choices without morphs say it reads them.
    const readers = Object.fromEntries(w.findAll('[data-testid="vpd-part"]').map((r) => [r.attributes('data-part'), r.find('[data-testid="vpd-part-readers"]').text()]));
    const bonesOnly = 'MMD, babylon-mmd and three.js (mmd-parser) read it';
    const withMorphs = 'MMD and babylon-mmd read it; three.js (mmd-parser) reads bones only and refuses a file with morphs: choose Bones only for it';
    expect(readers).toEqual({ selected: bonesOnly, all: withMorphs, bones: bonesOnly, morphs: withMorphs });
    await w.get('[data-testid="vpd-parts-cancel"]').trigger('click');
    await settle();
    expect(vpdPartsState.request).toBeNull();
    expect(fileDialogState.request).toBeNull();
    expect(fake.calls.some((c) => c.name === 'saveFile')).toBe(false);
    w.unmount();
  });
});
