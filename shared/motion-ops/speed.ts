/**
 * Change speed by a factor k: frame' = round(frame / k), half away from zero. Curves are normalised
 * to their segment, so they stay as they are. Keys that land on a (name, frame) already taken collide:
 * the first in the file is kept, the rest are counted per kind (speeding up merges neighbouring keys;
 * slowing down never collides). A camera cut (two keys one frame apart) stays a cut: its second key goes
 * one frame after its first, wherever that lands (cameraFrames). Camera keys that end up one frame apart
 * without having been a cut become cuts in MMD; they are counted as a warning.
 *
 * Morph tracks collide otherwise (morphFrames): a blink 0@100, 1@101, 0@102 twice as fast lands on 50,
 * 51, 51, and keeping the first in the file left 1@51 and the next 0 a hundred frames later (the eyes
 * half shut at 100), or at ×1.5 0@67, 0@68 (no blink at all; new-user pass numorph 1). Of the keys
 * that land on one frame, the one that differs from its neighbours stays there, and the key just before
 * and just after it go to the frames beside it when nothing else lands there, so peaks and the keys
 * around them survive; the rest are left out and named in a warning.
 */
import { failure, optionRefusal } from '../vmd/errors';
import { BLOCK_KINDS, MORPH } from '../vmd/vmd-layout';
import { blockOf, recordBytes, viewOf, withBlocks, type Block, type VmdDocument } from '../vmd/vmd-document';
import { copyRecord, frameAt, KeySet, MAX_FRAME, NameCache, putFrame } from '../edit-core/record-util';
import { edited, editError, finishReport, newReport, type EditReport, type EditResult, warn } from '../edit-core/report';
import { morphExtremes } from '../fit/morph-peaks';
import { count, plural, agree } from '../i18n/plural';

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

/** A morph key being re-timed: record index, input frame, weight, output frame wanted. */
interface MorphKey {
  i: number;
  f: number;
  v: number;
  want: number;
}

/** What morphFrames did to one track: keys moved beside the key they landed on, keys left out. */
interface MorphMoves {
  name: string;
  moved: { f: number; at: number }[];
  lost: { f: number; at: number; kept: number }[];
}

/**
 * Each morph record's output frame, or −1 where it is left out. Per track (keys by frame, then file order):
 * keys that want one frame form a group; the one kept there is a strict local extreme of the track if one
 * is (above or below the nearest key of another value on both sides), the one farthest from the line
 * between its neighbours among those, the first in the file on a tie. The key before it in the group goes
 * to the frame before when no key wants that frame and none was put there; the key after it to the frame
 * after when no key wants that one. Keys move one frame at most: a group does not spread over the frames
 * a speed-up took from it. A frame the file repeats for one morph keeps its first key, as other kinds do.
 */
function morphFrames(b: Block, k: number, names: NameCache): { frames: Int32Array; tracks: MorphMoves[] } {
  const frames = new Int32Array(b.count).fill(-1);
  const byName = new Map<string, MorphKey[]>();
  for (let i = 0; i < b.count; i++) {
    const r = recordBytes(b, i);
    const name = names.name('morph', r);
    const f = frameAt(b, i);
    const key = { i, f, v: viewOf(r).getFloat32(MORPH.WEIGHT, true), want: speedFrame(f, k) };
    const list = byName.get(name);
    if (list) list.push(key);
    else byName.set(name, [key]);
  }
  const tracks: MorphMoves[] = [];
  for (const [name, all] of byName) {
    all.sort((x, y) => x.f - y.f || x.i - y.i);
    const moves: MorphMoves = { name, moved: [], lost: [] };
    // A frame the file repeats for one morph: the first in the file, as everywhere else (never moved).
    const list = all.filter((x, p) => {
      if (p === 0 || all[p - 1].f !== x.f) return true;
      moves.lost.push({ f: x.f, at: x.want, kept: x.f });
      return false;
    });
    const weights = list.map((x) => x.v);
    const extreme = new Set(morphExtremes(weights, 0, list.length));
    // How far a key is from the line between its neighbours (from its one neighbour at an end).
    const off = (p: number) => {
      const prev = list[p - 1], next = list[p + 1], v = list[p].v;
      if (!prev && !next) return 0;
      if (!prev || !next) return Math.abs(v - (prev ?? next).v);
      const span = next.f - prev.f;
      return Math.abs(v - (span > 0 ? prev.v + ((next.v - prev.v) * (list[p].f - prev.f)) / span : prev.v));
    };
    let used = -1;
    for (let a = 0; a < list.length; ) {
      let e = a + 1;
      while (e < list.length && list[e].want === list[a].want) e++;
      const g = list[a].want, nextWant = e < list.length ? list[e].want : Infinity;
      let best = a;
      for (let p = a + 1; p < e; p++) {
        const better = Number(extreme.has(p)) - Number(extreme.has(best)) || off(p) - off(best) || list[best].i - list[p].i;
        if (better > 0) best = p;
      }
      frames[list[best].i] = g;
      let last = g;
      for (let p = a; p < e; p++) {
        if (p === best) continue;
        const at = p === best - 1 && g - 1 > used ? g - 1 : p === best + 1 && g + 1 < nextWant && g + 1 <= MAX_FRAME ? g + 1 : -1;
        if (at >= 0) {
          frames[list[p].i] = at;
          moves.moved.push({ f: list[p].f, at });
          last = Math.max(last, at);
        } else moves.lost.push({ f: list[p].f, at: g, kept: list[best].f });
      }
      used = last;
      a = e;
    }
    if (moves.moved.length || moves.lost.length) tracks.push(moves);
  }
  return { frames, tracks };
}

export function speed(doc: VmdDocument, opts: SpeedOptions): EditResult {
  const k = opts.factor;
  if (!Number.isFinite(k) || k <= 0) return failure(optionRefusal('E_ARGUMENT', `--factor must be a number greater than 0, got ${k}`, 'factor', 'positive', { value: k }));
  const rep = newReport('speed');
  const names = new NameCache();
  // Where each camera key goes (cuts kept); the cut warning below reads the same.
  const cameraMoves = cameraFrames(doc.camera, k);
  const morphs = morphFrames(doc.morph, k, names);
  const blocks: Partial<Record<(typeof BLOCK_KINDS)[number], Block>> = {};
  for (const kind of BLOCK_KINDS) {
    const b = doc[kind];
    const seen = new KeySet();
    const recs: Uint8Array[] = [];
    const c = rep.byKind[kind];
    const cam = kind === 'camera' ? cameraMoves : null;
    for (let i = 0; i < b.count; i++) {
      const nf = cam ? cam[i] : kind === 'morph' ? morphs.frames[i] : speedFrame(frameAt(b, i), k);
      if (nf > MAX_FRAME) return editError(`frame ${frameAt(b, i)} slowed down by ${k} exceeds the largest frame number a VMD can hold`);
      if (nf < 0) {
        c.collisions++;
        continue;
      }
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
    if (kind === 'morph') {
      morphWarnings(rep, morphs.tracks);
      continue;
    }
    if (n) warn(rep, 'W_SPEED_COLLISIONS', `${plural(count(n), `${kind} key`)} landed on a frame already taken and ${agree(n, 'was', 'were')} left out (the first in the file kept)`, { n, kind });
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
    if (cuts) warn(rep, 'W_SPEED_CAMERA_CUTS', `${plural(count(cuts), 'camera segment')} became one frame long and will play as ${agree(cuts, 'a camera cut', 'camera cuts')}`, { n: cuts });
    rep.extra.newCameraCuts = cuts;
  }
  rep.extra.factor = k;
  rep.extra.morphKeysMoved = morphs.tracks.reduce((n, t) => n + t.moved.length, 0);
  return edited(withBlocks(doc, blocks), finishReport(rep));
}

/** Morph tracks whose keys collided: keys left out, named per morph (a blink's lost key), and keys moved a frame. */
function morphWarnings(rep: EditReport, tracks: MorphMoves[]): void {
  for (const t of tracks) {
    const n = t.lost.length;
    if (!n) continue;
    const first = t.lost[0];
    warn(rep, 'W_SPEED_MORPH_LEFT_OUT', `morph “${t.name}”: ${plural(count(n), 'key')} landed on a frame already taken and ${agree(n, 'was', 'were')} left out (first: frame ${first.f} → ${first.at}, which keeps the key from frame ${first.kept})`, { name: t.name, n, frame: first.f, at: first.at, keptFrame: first.kept });
  }
  const moved = tracks.filter((t) => t.moved.length);
  const n = moved.reduce((s, t) => s + t.moved.length, 0);
  if (n) {
    const first = moved[0];
    warn(rep, 'W_SPEED_MORPH_MOVED', `${plural(count(n), 'morph key')} landed on the frame of a key that stays there and ${agree(n, 'was', 'were')} moved to the free frame beside it, so peaks keep the keys around them (first: “${first.name}” frame ${first.moved[0].f} → ${first.moved[0].at})`, { n, name: first.name, frame: first.moved[0].f, at: first.moved[0].at });
  }
}
