/**
 * Simplify on selected keys (the editor): the tracks the selection touches are refitted by `reduce`
 * over the frames from the first to the last selected key, within the default tolerances; everything
 * else stays byte for byte. One call, one document: the caller makes it one undo step.
 */
import type { EditResult } from '../motion-ops/report';
import { frameAt } from '../motion-ops/record-util';
import { decodeName } from '../vmd/sjis';
import { BONE, MORPH } from '../vmd/vmd-layout';
import type { VmdDocument } from '../vmd/vmd-document';
import { reduce, type Tolerances } from './motion-fit';
import { editError } from '../motion-ops/report';

/** A selected key: its kind and record index in that block (shared/key-edits' KeyRef). */
export interface SelectedKey {
  readonly kind: 'bone' | 'morph' | 'camera' | 'light' | 'ik';
  readonly record: number;
}

export function simplifyKeys(doc: VmdDocument, keys: readonly SelectedKey[], tol: Partial<Tolerances> = {}): EditResult {
  const bones = new Set<string>(), morphs = new Set<string>();
  let camera = false, from = Infinity, to = -Infinity;
  for (const k of keys) {
    if (k.kind !== 'bone' && k.kind !== 'morph' && k.kind !== 'camera') continue;
    const block = doc[k.kind];
    if (k.record < 0 || k.record >= block.count) continue;
    if (k.kind === 'bone') bones.add(decodeName(block.bytes, k.record * BONE.SIZE, BONE.NAME_LENGTH));
    else if (k.kind === 'morph') morphs.add(decodeName(block.bytes, k.record * MORPH.SIZE, MORPH.NAME_LENGTH));
    else camera = true;
    const f = frameAt(block, k.record);
    from = Math.min(from, f);
    to = Math.max(to, f);
  }
  if (!Number.isFinite(from)) return editError('select bone, morph or camera keys to simplify', 'E_ARGUMENT');
  return reduce(doc, { ...tol, tracks: { bones, morphs, camera }, from, to });
}
