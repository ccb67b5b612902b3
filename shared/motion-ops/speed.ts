/**
 * Change speed by a factor k: frame' = round(frame / k), half away from zero. Curves are normalised
 * to their segment, so they stay as they are. Keys that land on a (name, frame) already taken collide:
 * the first in the file is kept, the rest are counted per kind (speeding up merges neighbouring keys;
 * slowing down never collides). A camera cut (two keys one frame apart) stays a cut: its second key goes
 * one frame after its first, wherever that lands (cameraFrames). Camera keys that end up one frame apart
 * without having been a cut become cuts in MMD; they are counted as a warning.
 */
import { failure, optionRefusal } from '../vmd/errors';
import { BLOCK_KINDS } from '../vmd/vmd-layout';
import { blockOf, withBlocks, type Block, type VmdDocument } from '../vmd/vmd-document';
import { copyRecord, frameAt, KeySet, MAX_FRAME, NameCache, putFrame } from '../edit-core/record-util';
import { edited, editError, finishReport, newReport, type EditResult, warn } from '../edit-core/report';
import { plural, agree } from '../i18n/plural';

export interface SpeedOptions {
  factor: number;
}

/** Half away from zero (Math.round goes half up, which differs below zero). */
export function roundHalfAway(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

export function speedFrame(frame: number, factor: number): number {
  return roundHalfAway(frame / factor);
}

/**
 * The new frame of each camera record: speedFrame, except that a key one frame after the one before it
 * (a cut) lands one frame after that key's new frame, so the cut plays as a cut at any factor.
 */
function cameraFrames(b: Block, k: number): Int32Array {
  const out = new Int32Array(b.count);
  const order = Array.from({ length: b.count }, (_, i) => i).sort((x, y) => frameAt(b, x) - frameAt(b, y) || x - y);
  let prevOld = -2, prevNew = -2;
  for (const i of order) {
    const f = frameAt(b, i);
    const nf = f === prevOld + 1 ? prevNew + 1 : f === prevOld ? prevNew : speedFrame(f, k);
    out[i] = nf;
    prevOld = f;
    prevNew = nf;
  }
  return out;
}

export function speed(doc: VmdDocument, opts: SpeedOptions): EditResult {
  const k = opts.factor;
  if (!Number.isFinite(k) || k <= 0) return failure(optionRefusal('E_ARGUMENT', `--factor must be a number greater than 0, got ${k}`, 'factor', 'positive', { value: k }));
  const rep = newReport('speed');
  const names = new NameCache();
  // Where each camera key goes (cuts kept); the cut warning below reads the same.
  const cameraMoves = cameraFrames(doc.camera, k);
  const blocks: Partial<Record<(typeof BLOCK_KINDS)[number], Block>> = {};
  for (const kind of BLOCK_KINDS) {
    const b = doc[kind];
    const seen = new KeySet();
    const recs: Uint8Array[] = [];
    const c = rep.byKind[kind];
    const cam = kind === 'camera' ? cameraMoves : null;
    for (let i = 0; i < b.count; i++) {
      const nf = cam ? cam[i] : speedFrame(frameAt(b, i), k);
      if (nf > MAX_FRAME) return editError(`frame ${frameAt(b, i)} slowed down by ${k} exceeds the largest frame number a VMD can hold`);
      const r = copyRecord(b, i);
      if (!seen.add(names.name(kind, r), nf)) {
        c.collisions++;
        continue;
      }
      putFrame(kind, r, nf);
      recs.push(r);
      c.kept++;
    }
    blocks[kind] = blockOf(kind, recs);
  }
  for (const kind of BLOCK_KINDS) {
    const n = rep.byKind[kind].collisions;
    if (n) warn(rep, 'W_SPEED_COLLISIONS', `${plural(n, `${kind} key`)} landed on a frame already taken and ${agree(n, 'was', 'were')} left out (the first in the file kept)`, { n, kind });
  }
  // Camera keys that are now exactly one frame apart (but were not a cut before) play as cuts.
  const cam = blocks.camera!;
  if (cam.count > 1) {
    const before = new Set<number>();
    const old = Array.from({ length: doc.camera.count }, (_, i) => [frameAt(doc.camera, i), cameraMoves[i]]).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < old.length; i++) if (old[i][0] - old[i - 1][0] === 1) before.add(old[i][1]);
    const nf = Array.from({ length: cam.count }, (_, i) => frameAt(cam, i)).sort((a, b) => a - b);
    let cuts = 0;
    for (let i = 1; i < nf.length; i++) if (nf[i] - nf[i - 1] === 1 && !before.has(nf[i])) cuts++;
    if (cuts) warn(rep, 'W_SPEED_CAMERA_CUTS', `${plural(cuts, 'camera segment')} became one frame long and will play as ${agree(cuts, 'a camera cut', 'camera cuts')}`, { n: cuts });
    rep.extra.newCameraCuts = cuts;
  }
  rep.extra.factor = k;
  return edited(withBlocks(doc, blocks), finishReport(rep));
}
