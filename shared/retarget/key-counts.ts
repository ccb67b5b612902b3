/**
 * The report's key counts by what became of the motion's bone tracks, for the CLI's summary line and the
 * editor's panel alike. The engine's totals (report.extra.boneKeysBefore/After) are whole-file counts, copied
 * and left-out tracks included: "bone keys 1041 → 87" (the panel) and the whole file's "bone keys 14,160 → 13,373"
 * (the CLI, low-poly Miku's wavefile_v2 onto Gene_light) read as if re-fitting threw away keys, when most of the
 * difference was tracks the model lacks (894 keys left out) and re-fitting added keys (its 11 bones' 4,172 → 4,279). Each bone track of the motion is copied as it is, left out, or goes into the
 * re-fitted bones (its own or folded).
 */

export interface RetargetKeyCounts {
  /** Keys of the motion's tracks that went into the re-fitted bones (folded ones included), and the keys written for them. */
  refittedBefore: number;
  refittedAfter: number;
  /** Keys of the tracks copied as they are (renamed at most). */
  copiedKeys: number;
  /** Keys of the tracks of bones the target lacks, left out. */
  leftOutKeys: number;
}

const sum = (rows: readonly { keys: number }[]) => rows.reduce((n, r) => n + r.keys, 0);

/** The rows of a retarget's details these counts read (RetargetDetails' refitted, copied and unmatched: each with its keys). */
export interface KeyRows {
  refitted: readonly { keys: number }[];
  copied: readonly { keys: number }[];
  unmatched: readonly { keys: number }[];
}

/** The counts for `details` (retarget.ts RetargetDetails), given the motion's bone keys in all (`boneKeysBefore`). */
export function retargetKeyCounts(details: KeyRows, boneKeysBefore: number): RetargetKeyCounts {
  const copiedKeys = sum(details.copied);
  const leftOutKeys = sum(details.unmatched);
  return { refittedBefore: Math.max(0, boneKeysBefore - copiedKeys - leftOutKeys), refittedAfter: sum(details.refitted), copiedKeys, leftOutKeys };
}
