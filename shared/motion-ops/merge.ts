/**
 * Merge motions.
 * - Concatenate (default): each next document is shifted so its frame 0 lands on (last frame so far)
 *   + gap; with gap ≥ 1 no two files share a frame.
 * - Overlay: all documents on one timeline (motion + facial + camera), shift 0.
 * Either way no (name, frame) pair is written twice per block kind: the first document (and within
 * it the first record in the file) wins; the rest are counted as collisions. The header, model name
 * and trailing bytes come from the first document.
 */
import { failure, optionRefusal } from '../vmd/errors';
import { BLOCK_KINDS, type BlockKind } from '../vmd/vmd-layout';
import { blockOf, withBlocks, type Block, type VmdDocument } from '../vmd/vmd-document';
import { copyRecord, frameAt, keyProgress, KeySet, lastFrameOf, MAX_FRAME, NameCache, putFrame } from '../edit-core/record-util';
import { edited, editError, finishReport, newReport, type EditResult, warn } from '../edit-core/report';
import { count, plural, agree } from '../i18n/plural';

export interface MergeOptions {
  /** Frames between the end of one file and the start of the next (default 1). */
  gap?: number;
  /** Put every file on the same timeline instead of one after another. */
  overlay?: boolean;
  /** Told the keys merged of all the files' as it goes (the command's progress line on big files). */
  progress?: (done: number, total: number) => void;
}

export function merge(docs: readonly VmdDocument[], opts: MergeOptions = {}): EditResult {
  if (docs.length === 0) return editError('merge needs at least one document', 'E_ARGUMENT');
  const gap = opts.gap ?? 1;
  if (!Number.isInteger(gap) || gap < 0) return failure(optionRefusal('E_ARGUMENT', `--gap must be a whole number ≥ 0, got ${gap}`, 'gap', Number.isInteger(gap) ? 'min' : 'integer', { min: 0, value: gap }));
  const rep = newReport('merge');
  const names = new NameCache();
  const seen = Object.fromEntries(BLOCK_KINDS.map((k) => [k, new KeySet()])) as Record<BlockKind, KeySet>;
  const recs = Object.fromEntries(BLOCK_KINDS.map((k) => [k, [] as Uint8Array[]])) as Record<BlockKind, Uint8Array[]>;
  const offsets: number[] = [];
  let end = 0;
  let any = false;
  const tell = keyProgress(docs.reduce((n, d) => n + BLOCK_KINDS.reduce((m, k) => m + d[k].count, 0), 0), opts.progress);
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d];
    const offset = opts.overlay || d === 0 ? 0 : end + gap;
    offsets.push(offset);
    // The keys each input gave the output (its own duplicates aside): the CLI says "a.vmd 273,668 + b.vmd …".
    rep.extra[`keysFrom${d + 1}`] = 0;
    for (const kind of BLOCK_KINDS) {
      const b = doc[kind];
      const c = rep.byKind[kind];
      for (let i = 0; i < b.count; i++) {
        tell.key();
        const f = frameAt(b, i) + offset;
        if (f > MAX_FRAME) return editError(`file ${d + 1}: frame ${f} exceeds the largest frame number a VMD can hold`);
        const r = copyRecord(b, i);
        if (!seen[kind].add(names.name(kind, r), f)) {
          c.collisions++;
          continue;
        }
        putFrame(kind, r, f);
        recs[kind].push(r);
        c.kept++;
        rep.extra[`keysFrom${d + 1}`]++;
      }
      tell.block(b.count);
    }
    const last = lastFrameOf(doc) + offset;
    const hasKeys = BLOCK_KINDS.some((k) => doc[k].count > 0);
    if (hasKeys) {
      end = any ? Math.max(end, last) : last;
      any = true;
    }
  }
  const blocks: Partial<Record<BlockKind, Block>> = {};
  for (const kind of BLOCK_KINDS) blocks[kind] = blockOf(kind, recs[kind]);
  const first = docs[0];
  const blocksPresent = Math.max(...docs.map((d) => d.blocksPresent));
  const out = { ...withBlocks(first, blocks), blocksPresent, trailing: blocksPresent === first.blocksPresent ? first.trailing : new Uint8Array(0) };
  rep.extra.files = docs.length;
  rep.extra.duplicatesDropped = 0;
  for (const kind of BLOCK_KINDS) rep.extra.duplicatesDropped += rep.byKind[kind].collisions;
  offsets.forEach((o, i) => (rep.extra[`offset${i + 1}`] = o));
  if (rep.extra.duplicatesDropped) warn(rep, 'W_MERGE_DUPLICATES', `${plural(count(rep.extra.duplicatesDropped), 'key')} repeated a (name, frame) already merged and ${agree(rep.extra.duplicatesDropped, 'was', 'were')} dropped (first file wins)`, { n: rep.extra.duplicatesDropped });
  return edited(out, finishReport(rep));
}
