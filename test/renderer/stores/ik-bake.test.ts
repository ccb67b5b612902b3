// Whole Motion → Bake IK to FK…: the form (empty fields leave the engine its defaults; a bad range, tolerance or no
// IK bone ticked is a field error), the ticks (those the motion has on in the range; Legs only = 足ＩＫ, つま先ＩＫ),
// and the store on the real engine (this page has no Worker: the job runs on this thread, as a page without one
// does) with Gene_light and wavefile_v2 from the corpus: the dialog's choices reach the engine (the result is byte
// for byte what ikBake called here with those options writes), Apply is one undo step that Undo takes back to the
// original bytes, Cancel leaves the document as it was.
import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { checkIkBakeForm, ikOnInRange, legIkBones, useIkBakeStore } from '../../../renderer/src/stores/ik-bake';
import { runCommand } from '../../../renderer/src/shell/commands';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useHistoryStore } from '../../../renderer/src/stores/history';
import { useNotifyStore, noticeLines } from '../../../renderer/src/stores/notify';
import { modelOutline } from '../../../renderer/src/model/model-outline';
import { memoryScene, dance } from './scene-fixtures';
import { ikBake } from '../../../shared/bake/ik-bake';
import { ikChainsOf } from '../../../shared/skeleton/ik-switches';
import { buildTracks, buildVmd, encodeIkRecord, ikBlockFromRecords, readVmd, withBlocks, writeVmd, type VmdDocument } from '../../../shared/vmd';
import { corpusModel, corpusPresent, readCorpus } from '../../helpers/corpus';

const c = corpusPresent ? it : it.skip;
const GENE = 'gene/Gene_light.pmx';
const WAVE = 'mmd-viewer-js/vmd/wavefile_v2.vmd';
const form = (o: Partial<Parameters<typeof checkIkBakeForm>[0]> = {}) => ({ from: '', to: '', rotTol: '', raw: false, bones: null as string[] | null, ...o });
const settle = async () => {
  for (let i = 0; i < 5; i++) await nextTick();
};

describe('Bake IK to FK form', () => {
  it('empty fields and untouched ticks leave the engine its defaults; typed values pass through', () => {
    expect(checkIkBakeForm(form())).toEqual({ settings: { raw: false, from: undefined, to: undefined }, errors: {} });
    const r = checkIkBakeForm(form({ from: ' 10', to: '90 ', rotTol: '0.5', raw: true, bones: ['左足ＩＫ', '右足ＩＫ'] }));
    expect(r.errors).toEqual({});
    expect(r.settings).toEqual({ raw: true, from: 10, to: 90, rotationToleranceDeg: 0.5, bones: ['左足ＩＫ', '右足ＩＫ'] });
  });

  it('refuses frames that are not whole numbers ≥ 0, To before From, a tolerance ≤ 0, and no IK bone ticked', () => {
    expect(checkIkBakeForm(form({ from: '-1' })).errors.from?.key).toBe('bake.err.integer');
    expect(checkIkBakeForm(form({ to: '1.5' })).errors.to?.key).toBe('bake.err.integer');
    expect(checkIkBakeForm(form({ from: '50', to: '40' })).errors.to?.key).toBe('bake.err.order');
    expect(checkIkBakeForm(form({ rotTol: '0' })).errors.rotTol?.key).toBe('bake.err.positive');
    expect(checkIkBakeForm(form({ bones: [] })).errors.bones?.key).toBe('ikBake.noneTicked');
  });

  c('Legs only on Gene: the two 足ＩＫ and the two つま先ＩＫ, not the arm’s or the cloak’s IK', () => {
    // Gene's IK bones, as `vmd-studio ik-bake --bones nope` lists them: 右腕xcIK, 左足ＩＫ, 左つま先ＩＫ, 右足ＩＫ, 右つま先ＩＫ, 前クローク2_1xcIK.
    expect(legIkBones(ikChainsOf(corpusModel(GENE).bones))).toEqual(['左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ']);
  });

  it('ticked by default: the IK bones the motion has on somewhere in the range (at From or at an IK key inside it)', () => {
    // 左足ＩＫ off at 0, on again at 50; 右足ＩＫ never named (on, as MMD).
    const ik = (frame: number, on: number) => encodeIkRecord({ frame, visible: 1, iks: [{ name: '左足ＩＫ', enabled: on }] });
    const doc: VmdDocument = withBlocks(buildVmd({ bones: [] }), { ik: ikBlockFromRecords([ik(0, 0), ik(50, 1)]) });
    const tracks = buildTracks(doc);
    expect(ikOnInRange(['左足ＩＫ', '右足ＩＫ'], doc, tracks, 0, 40)).toEqual(['右足ＩＫ']);
    expect(ikOnInRange(['左足ＩＫ', '右足ＩＫ'], doc, tracks, 0, 50)).toEqual(['左足ＩＫ', '右足ＩＫ']);
    expect(ikOnInRange(['左足ＩＫ', '右足ＩＫ'], doc, tracks, 60, 70)).toEqual(['左足ＩＫ', '右足ＩＫ']);
  });
});

/** Gene in the preview (its outline as the preview builds it) and wavefile_v2 open as the active actor's motion. */
async function geneDancing() {
  const wave = readCorpus(WAVE);
  const { files } = memoryScene([['/s/wavefile_v2.vmd', wave], ['/m/Gene_light.pmx', readCorpus(GENE)]]);
  const p = usePreviewStore();
  p.setModel({ name: 'ジェネ / Gene', path: '/m/Gene_light.pmx', format: 'pmx', bones: 0, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
  p.setOutline(modelOutline(corpusModel(GENE)));
  await useSceneStore().openPath('/s/wavefile_v2.vmd');
  return { wave, files };
}
const docBytes = () => writeVmd(useWorkspaceStore().doc as VmdDocument);

describe('Bake IK to FK store on the engine', () => {
  c('Legs only, 300–340, 0.2°: the result is the engine’s with those options; Apply is one undo step; Undo gives the bytes back', async () => {
    const { wave } = await geneDancing();
    const bake = useIkBakeStore();
    void runCommand('bakeIk');
    await settle();
    expect(bake.open).toBe(true);
    // Every IK bone of Gene listed; wavefile_v2 has no IK keys, so all are on and all ticked.
    expect(bake.ikBones()).toEqual(['右腕xcIK', '左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ', '前クローク2_1xcIK']);
    expect(bake.ticked()).toEqual(bake.ikBones());
    bake.tickLegs();
    bake.tick('右つま先ＩＫ', false);
    bake.tick('右つま先ＩＫ', true);
    bake.form.from = '300';
    bake.form.to = '340';
    bake.form.rotTol = '0.2';
    expect(await bake.bake()).toBe(true);
    const legs = ['左足ＩＫ', '左つま先ＩＫ', '右足ＩＫ', '右つま先ＩＫ'];
    const expected = ikBake(corpusModel(GENE), (readVmd(wave) as { ok: true; value: VmdDocument }).value, { from: 300, to: 340, bones: legs, rotationToleranceDeg: 0.2 });
    if (!expected.ok) throw new Error(expected.error.message);
    const r = bake.result!;
    expect(r.report.ikOff).toEqual(legs);
    expect([r.report.from, r.report.to]).toEqual([300, 340]);
    expect(r.report).toEqual(expected.value.report);
    expect(Buffer.from(writeVmd(r.output)).equals(Buffer.from(writeVmd(expected.value.doc)))).toBe(true);
    // Nothing changed before Apply.
    expect(Buffer.from(docBytes()).equals(Buffer.from(wave))).toBe(true);
    const ws = useWorkspaceStore();
    const undoBefore = ws.undoStack.length;
    expect(bake.apply()).toBe(true);
    expect(ws.undoStack.length).toBe(undoBefore + 1);
    expect(bake.open).toBe(false);
    expect(Buffer.from(docBytes()).equals(Buffer.from(writeVmd(expected.value.doc)))).toBe(true);
    const success = useNotifyStore().items.filter((n) => n.kind === 'success').map((n) => noticeLines(n, 'en').message);
    expect(success.at(-1)).toBe(`IK baked to FK in wavefile_v2.vmd: ${expected.value.report.keptKeys} keys for 6 bones, 左足ＩＫ, 左つま先ＩＫ, 右足ＩＫ, 右つま先ＩＫ off (Ctrl+Z undoes it)`);
    await useHistoryStore().undoSliced();
    expect(ws.undoStack.length).toBe(undoBefore);
    expect(Buffer.from(docBytes()).equals(Buffer.from(wave))).toBe(true);
  }, 120_000);

  c('Cancel of a running bake leaves the document as it was, says so, and leaves nothing to apply', async () => {
    const { wave } = await geneDancing();
    const bake = useIkBakeStore();
    void runCommand('bakeIk');
    await settle();
    bake.form.to = '200';
    const run = bake.bake();
    expect(bake.running).not.toBeNull();
    bake.cancel();
    expect(await run).toBe(false);
    expect(bake.result).toBeNull();
    expect(bake.cancelled).toBe(true);
    expect(useWorkspaceStore().undoStack.length).toBe(0);
    expect(Buffer.from(docBytes()).equals(Buffer.from(wave))).toBe(true);
    expect(bake.apply()).toBe(false);
    expect(useWorkspaceStore().undoStack.length).toBe(0);
  }, 120_000);

  c('an IK the motion has off over the whole range is refused in words, naming the motion (en, ja)', async () => {
    const ik = encodeIkRecord({ frame: 0, visible: 1, iks: [{ name: '左足ＩＫ', enabled: 0 }] });
    const off = writeVmd(withBlocks((readVmd(dance(5)) as { ok: true; value: VmdDocument }).value, { ik: ikBlockFromRecords([ik]) }));
    memoryScene([['/s/off.vmd', off], ['/m/Gene_light.pmx', readCorpus(GENE)]]);
    const p = usePreviewStore();
    p.setModel({ name: 'ジェネ / Gene', path: '/m/Gene_light.pmx', format: 'pmx', bones: 0, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
    p.setOutline(modelOutline(corpusModel(GENE)));
    await useSceneStore().openPath('/s/off.vmd');
    const bake = useIkBakeStore();
    void runCommand('bakeIk');
    await settle();
    bake.form.bones = ['左足ＩＫ'];
    expect(bake.ticked()).toEqual(['左足ＩＫ']);
    expect(await bake.bake()).toBe(false);
    expect(bake.failure?.code).toBe('E_IK');
    expect(bake.failure?.file).toBe('/s/off.vmd');
    expect(noticeLines({ kind: 'error', error: bake.failure!, id: 0 } as never, 'ja').message).toBe('off.vmd: モーションは 0–20 フレームのすべてで 左足ＩＫ を OFF にしています。焼き込む IK がありません');
    expect(noticeLines({ kind: 'error', error: bake.failure!, id: 0 } as never, 'en').message).toBe('off.vmd: the motion has its IK bone 左足ＩＫ off over all of frames 0–20: there is no IK to bake');
    expect(useWorkspaceStore().undoStack.length).toBe(0);
  }, 60_000);
});

describe('Bake IK to FK availability', () => {
  it('no model file, or a model without IK bones: the command says why and opens no dialog (en, ja)', async () => {
    memoryScene([['/s/a.vmd', dance(10)]]);
    await useSceneStore().openPath('/s/a.vmd');
    const warnings = (locale: 'en' | 'ja') => useNotifyStore().items.filter((n) => n.kind === 'warning').map((n) => noticeLines(n, locale).message);
    void runCommand('bakeIk');
    await settle();
    expect(useIkBakeStore().open).toBe(false);
    expect(warnings('en')).toEqual(['Bake IK to FK is off: the active actor has no model file (open a .pmx or .pmd in the preview first)']);
    memoryScene([['/s/a.vmd', dance(10)]]);
    const p = usePreviewStore();
    p.setModel({ name: 'bone_flag_test.pmx', path: '/m/bone_flag_test.pmx', format: 'pmx', bones: 3, morphs: 0, vertices: 0, rigidBodies: 0, notes: [] });
    p.setOutline({ groups: [], morphs: [], physicsBones: [], ikBones: [], ikChains: [] });
    await useSceneStore().openPath('/s/a.vmd');
    expect(useIkBakeStore().modelPath()).toBe('/m/bone_flag_test.pmx');
    void runCommand('bakeIk');
    await settle();
    expect(useIkBakeStore().open).toBe(false);
    expect(warnings('en')).toEqual(['Bake IK to FK is off: bone_flag_test.pmx has no IK bones, so there is no IK to bake']);
    expect(warnings('ja')).toEqual(['IKをFKに焼き込みはできません: bone_flag_test.pmx には IK ボーンがなく、焼き込む IK がありません']);
  });
});
