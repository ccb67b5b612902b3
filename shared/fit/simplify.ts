/**
 * Simplify on selected keys (the editor): the tracks the selection touches are refitted by `reduce`
 * over the frames from the first to the last selected key, within the default tolerances; everything
 * else stays byte for byte. One call, one document: the caller makes it one undo step.
 */
import type { EditResult } from '../edit-core/report';
import { frameAt } from '../edit-core/record-util';
import { boneName, morphName } from '../vmd/records';
import type { VmdDocument } from '../vmd/vmd-document';
import { reduce, type FitProgress, type Tolerances } from './motion-fit';
import { editError } from '../edit-core/report';

/** A selected key: its kind and record index in that block (shared/key-edits' KeyRef). */
export interface SelectedKey {
  readonly kind: 'bone' | 'morph' | 'camera' | 'light' | 'shadow' | 'ik';
  readonly record: number;
}

/** The kinds Simplify refits (light, self-shadow and display/IK keys are steps or have no curves: skipped). */
export const SIMPLIFY_KINDS = ['bone', 'morph', 'camera'] as const satisfies readonly SelectedKey['kind'][];

export function isSimplifyKind(kind: string): kind is (typeof SIMPLIFY_KINDS)[number] {
  return (SIMPLIFY_KINDS as readonly string[]).includes(kind);
}

/** What Simplify refits for these keys: the tracks they are on and the frames from the first to the last. */
export interface SimplifyScope {
  tracks: { bones: Set<string>; morphs: Set<string>; camera: boolean };
  from: number;
  to: number;
}

/** The scope of these keys (records out of range skipped); null when none is a key Simplify refits. */
export function simplifyScope(doc: VmdDocument, keys: readonly SelectedKey[]): SimplifyScope | null {
  const bones = new Set<string>(), morphs = new Set<string>();
  let camera = false, from = Infinity, to = -Infinity;
  for (const k of keys) {
    if (!isSimplifyKind(k.kind)) continue;
    const block = doc[k.kind];
    if (k.record < 0 || k.record >= block.count) continue;
    if (k.kind === 'bone') bones.add(boneName(block, k.record));
    else if (k.kind === 'morph') morphs.add(morphName(block, k.record));
    else camera = true;
    const f = frameAt(block, k.record);
    from = Math.min(from, f);
    to = Math.max(to, f);
  }
  return Number.isFinite(from) ? { tracks: { bones, morphs, camera }, from, to } : null;
}

/** Simplify on these keys; `progress` hears the tracks refitted (reduce's; it changes nothing in the result). */
export function simplifyKeys(doc: VmdDocument, keys: readonly SelectedKey[], tol: Partial<Tolerances> = {}, progress?: FitProgress): EditResult {
  const scope = simplifyScope(doc, keys);
  if (!scope) return editError('select bone, morph or camera keys to simplify', 'E_ARGUMENT');
  return reduce(doc, { ...tol, ...scope, progress });
}
