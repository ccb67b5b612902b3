/**
 * One motion capture conversion, as the CLI's mocap commands do it (electron/cli/commands/mocap.ts), on
 * bytes: a BVH or VRM Animation onto a model → VMD bytes and the report; a VMD on a model → .vrma or .bvh
 * bytes. The mocap service runs it in a worker thread (mocap-worker.ts) or, without the bundle, in
 * process. Errors are values naming the file (the source's name, or the model's path) and, for a BVH,
 * the line.
 */
import { readModel, type ModelData } from '../../shared/pmx';
import { readVmd, writeVmd, type CodecError, type Diagnostic } from '../../shared/vmd';
import { readBvh } from '../../shared/bvh/bvh-reader';
import { importBvh, importMap, type ImportOptions } from '../../shared/bvh/import';
import { exportBvh } from '../../shared/bvh/export';
import { MMD_BONE_OF, type HumanoidPart } from '../../shared/bvh/humanoid';
import { motionToVrma, parseExpressionMap, vrmaAsCapture, vrmaToMotion } from '../../shared/bvh/vrma';
import { standardFigureModel } from '../../shared/skeleton/standard-figure';
import type { MocapExportJob, MocapExportNotes, MocapImportJob, MocapImportResult, MocapJointRow } from '../../shared/ipc/mocap-types';
import type { BvhMotion } from '../../shared/bvh/bvh-reader';
import { readVrma, writeVrma } from '../vrma/vrma-io';

export type TaskOutcome<T> = { ok: true; value: T } | { ok: false; error: CodecError };

function model(bytes: Uint8Array, file: string): TaskOutcome<ModelData> {
  const m = readModel(bytes);
  return m.ok ? { ok: true, value: m.value } : { ok: false, error: { ...m.error, file } };
}

/** The model from its bytes, or the standard MMD skeleton where there are none (the job's model is null). */
function modelOrStandard(bytes: Uint8Array | null, file: string | null): TaskOutcome<ModelData> {
  return bytes === null || file === null ? { ok: true, value: standardFigureModel() } : model(bytes, file);
}

/**
 * The driving skeleton's joints (the first root's tree) with their parts; End Sites left out, and so are a
 * VRM Animation's end nodes (head_tip, leftHand_tip, …: a node with no children that plays no part, which
 * only marks where a segment ends — the BVH End Site's counterpart).
 */
function jointRows(m: BvhMotion, parts: readonly (HumanoidPart | null)[]): MocapJointRow[] {
  const inTree = m.joints.map(() => false);
  const hasChild = m.joints.map(() => false);
  m.joints.forEach((J, j) => {
    inTree[j] = j === m.roots[0] || (J.parent >= 0 && inTree[J.parent]);
    if (J.parent >= 0) hasChild[J.parent] = true;
  });
  const endNode = (j: number) => !parts[j] && !hasChild[j];
  return m.joints.flatMap((J, j) => (J.endSite || !inTree[j] || endNode(j) ? [] : [{ joint: J.name, part: parts[j] ?? null, bone: parts[j] ? (MMD_BONE_OF[parts[j]!] ?? null) : null }]));
}

/** The import's warnings (as import-bvh prints them after the reader's), for the dialog; nothing when none. */
const importNotes = (notes: Diagnostic[]) => (notes.length ? { importNotes: notes } : {});

/** A BVH or VRM Animation onto the model: the VMD's bytes, the report, the map table. */
export async function runImport(job: MocapImportJob, modelBytes: Uint8Array | null, progress?: (done: number, total: number) => void): Promise<TaskOutcome<MocapImportResult>> {
  const t0 = performance.now();
  const mo = modelOrStandard(modelBytes, job.model);
  if (!mo.ok) return mo;
  const opts: ImportOptions = { ...(job.options ?? {}), progress };
  if (job.format === 'bvh') {
    const bvh = readBvh(job.bytes, { fps: opts.fps });
    if (!bvh.ok) return { ok: false, error: { ...bvh.error, file: job.name } };
    const rows = job.map?.length ? new Map(job.map) : undefined;
    const r = importBvh(bvh.value, mo.value, { ...opts, map: rows });
    if (!r.ok) return { ok: false, error: { ...r.error, file: job.name } };
    const joints = jointRows(bvh.value, importMap(bvh.value, rows).map.parts);
    // The reader's warnings go with the result, as import-bvh prints them (the dialog says them).
    const readNotes = bvh.diagnostics.length ? { readNotes: bvh.diagnostics } : {};
    return { ok: true, value: { vmd: writeVmd(r.value.doc), report: r.value.report, joints, ms: performance.now() - t0, ...readNotes, ...importNotes(r.value.notes) } };
  }
  const v = await readVrma(job.bytes);
  if (!v.ok) return { ok: false, error: { ...v.error, file: job.name } };
  const { fps: _fps, ...vo } = opts;
  void _fps;
  const r = vrmaToMotion(v.value, mo.value, { ...vo, expressions: parseExpressionMap(job.morphs?.length ? new Map(job.morphs) : undefined) });
  if (!r.ok) return { ok: false, error: { ...r.error, file: job.name } };
  const cap = vrmaAsCapture(v.value);
  const joints = cap.ok ? jointRows(cap.value.motion, cap.value.parts) : [];
  const modelMorphs = [...new Set(mo.value.morphs.map((x) => x.name))];
  return { ok: true, value: { vmd: writeVmd(r.value.doc), report: r.value.report, joints, ms: performance.now() - t0, expressions: Object.keys(v.value.expressions), modelMorphs, ...importNotes(r.value.notes) } };
}

/** A VMD played on the model (IK solved) as .vrma or .bvh bytes. */
export async function runExport(job: MocapExportJob, modelBytes: Uint8Array | null): Promise<TaskOutcome<MocapExportResult>> {
  const mo = modelOrStandard(modelBytes, job.model);
  if (!mo.ok) return mo;
  const doc = readVmd(job.vmd);
  if (!doc.ok) return { ok: false, error: doc.error };
  if (job.format === 'bvh') {
    const r = exportBvh(doc.value, mo.value);
    return r.ok ? { ok: true, value: { bytes: new TextEncoder().encode(r.value.text), leftOutBones: r.value.report.leftOutBones, unusedMorphs: [] } } : r;
  }
  const r = motionToVrma(doc.value, mo.value, { expressions: parseExpressionMap(job.morphs?.length ? new Map(job.morphs) : undefined) });
  if (!r.ok) return r;
  return { ok: true, value: { bytes: await writeVrma(r.value.vrma), leftOutBones: r.value.report.leftOutBones, unusedMorphs: r.value.report.unusedMorphs } };
}

/** An export's bytes and what it says of the motion (MocapExportNotes). */
export type MocapExportResult = MocapExportNotes & { bytes: Uint8Array };

/** What the worker is asked and answers. */
export type MocapWorkerRequest = { kind: 'import'; job: MocapImportJob; model: Uint8Array | null } | { kind: 'export'; job: MocapExportJob; model: Uint8Array | null };
export type MocapWorkerReply = { ok: true; value: MocapImportResult | MocapExportResult } | { ok: false; error: CodecError };
/** What a worker posts: progress while it works, then its one reply. */
export type MocapWorkerMessage = { kind: 'progress'; done: number; total: number } | { kind: 'reply'; reply: MocapWorkerReply };

/** Runs a request; an import's fit reports tracks done of total through `progress`. */
export async function runRequest(r: MocapWorkerRequest, progress?: (done: number, total: number) => void): Promise<MocapWorkerReply> {
  try {
    return r.kind === 'import' ? await runImport(r.job, r.model, progress) : await runExport(r.job, r.model);
  } catch (e) {
    return { ok: false, error: { code: 'E_INTERNAL', message: (e as Error)?.message ?? String(e) } };
  }
}
