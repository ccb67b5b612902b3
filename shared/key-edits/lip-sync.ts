/**
 * Lip sync as MMD users key it: at each syllable of the song, one mouth shape (あ い う え お, ん, ワ, ω) keyed at its
 * weight and every other mouth shape of the model keyed 0 at that frame, so the mouth moves from one vowel to the next
 * without an earlier one lingering (a vowel left unkeyed would slide on toward its next key).
 * - `findMouthShapes`: the model's morphs for each shape, by MMD's standard names (あ い う え お ん ワ ω, NFKC-folded
 *   so half-width ﾜ counts), else by the usual English names (a / i / u / e / o, aa / ih / ou / e / oh as VRChat's
 *   visemes, Fcl_MTH_A as VRoid's, mouth_a) in the morph's name or its English name; and which of the five vowels it
 *   lacks.
 * - `keyMouthShape`: one tap, as one edit (one undo step).
 * - `keyMouthTimings`: a timing list's keys (mouth-timings.ts), each made as a tap makes its key, as one edit.
 */
import type { MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import { registerMorphKeys, type MorphKeyEntry } from './morph-key';
import { refuse, type EditOutcome, type KeyEdit } from './diff';
import { trackRange } from './key-ref';
import { matchKey } from '../pmx/model-inspect';
import { success } from '../vmd/errors';

/** The mouth shapes the lip-sync mode keys; `closed` is every one of them at 0. */
export const MOUTH_SHAPES = ['a', 'i', 'u', 'e', 'o', 'n', 'wa', 'omega'] as const;
export type MouthShape = (typeof MOUTH_SHAPES)[number];
/** The five vowels every MMD model is expected to have (the others are keyed only where the model has them). */
export const VOWELS: readonly MouthShape[] = ['a', 'i', 'u', 'e', 'o'];
/** MMD's standard Japanese name of each shape (what the UI shows on its button). */
export const MOUTH_SHAPE_LABEL: Record<MouthShape, string> = { a: 'あ', i: 'い', u: 'う', e: 'え', o: 'お', n: 'ん', wa: 'ワ', omega: 'ω' };

/** Names that count as each shape: Japanese first (MMD's standard morph names), then English, compared NFKC, case-folded. */
const NAMES: Record<MouthShape, { ja: string[]; en: string[] }> = {
  a: { ja: ['あ'], en: ['a', 'aa', 'ah', 'mouth_a', 'fcl_mth_a', 'vrc.v_aa', 'v_aa'] },
  i: { ja: ['い'], en: ['i', 'ih', 'mouth_i', 'fcl_mth_i', 'vrc.v_ih', 'v_ih'] },
  u: { ja: ['う'], en: ['u', 'ou', 'mouth_u', 'fcl_mth_u', 'vrc.v_ou', 'v_ou'] },
  e: { ja: ['え'], en: ['e', 'eh', 'mouth_e', 'fcl_mth_e', 'vrc.v_e', 'v_e'] },
  o: { ja: ['お'], en: ['o', 'oh', 'mouth_o', 'fcl_mth_o', 'vrc.v_oh', 'v_oh'] },
  n: { ja: ['ん'], en: ['n', 'nn', 'mouth_n'] },
  wa: { ja: ['ワ', 'わ'], en: ['wa'] },
  omega: { ja: ['ω', 'ω□'], en: ['omega'] },
};

const fold = (s: string) => s.normalize('NFKC').trim().toLowerCase();

/** The model's morph for each mouth shape it has, and the vowels (of あ い う え お) it has none for. */
export interface MouthShapes {
  found: Partial<Record<MouthShape, string>>;
  missing: MouthShape[];
}

/**
 * The model's morphs for each mouth shape (`morphs`: the model's, in its order; the first that matches wins): a
 * Japanese standard name on the morph's name, else an English one on its name, else on its English name. One
 * morph stands for one shape only.
 */
export function findMouthShapes(morphs: readonly { name: string; nameEn?: string }[]): MouthShapes {
  const found: Partial<Record<MouthShape, string>> = {};
  const used = new Set<string>();
  const names = morphs.map((m) => ({ name: m.name, n: fold(m.name), en: fold(m.nameEn ?? '') }));
  for (const shape of MOUTH_SHAPES) {
    const want = NAMES[shape];
    const ja = new Set(want.ja.map(fold)), en = new Set(want.en);
    const pick =
      names.find((m) => !used.has(m.name) && ja.has(m.n)) ??
      names.find((m) => !used.has(m.name) && en.has(m.n)) ??
      names.find((m) => !used.has(m.name) && m.en !== '' && en.has(m.en));
    if (pick) {
      found[shape] = pick.name;
      used.add(pick.name);
    }
  }
  return { found, missing: VOWELS.filter((v) => !found[v]) };
}

/**
 * The keys of one mouth shape at `frame`, as a tap and a timing key it: `pick` (a shape the model has, or 'closed')
 * at `weight`, every other shape in `found` at 0 there; the picked shape's key first. `unkeyedBefore(name)`: whether
 * the picked shape's track has no key before `frame`; then (frame > 0, weight not 0) it also gets a key of 0 at frame
 * 0, since a VMD holds a track's first weight from frame 0 on and the mouth would stand open from the start.
 */
function mouthShapeEntries(
  frame: number,
  found: Partial<Record<MouthShape, string>>,
  pick: MouthShape | 'closed',
  weight: number,
  unkeyedBefore: (name: string) => boolean,
): MorphKeyEntry[] {
  const entries: MorphKeyEntry[] = [];
  const picked = pick === 'closed' ? undefined : found[pick];
  if (picked !== undefined) {
    entries.push({ name: picked, frame, weight });
    if (frame > 0 && weight !== 0 && unkeyedBefore(picked)) entries.push({ name: picked, frame: 0, weight: 0 });
  }
  for (const shape of MOUTH_SHAPES) {
    const name = found[shape];
    if (name !== undefined && name !== picked) entries.push({ name, frame, weight: 0 });
  }
  return entries;
}

/**
 * One lip-sync tap at `frame`: `pick` (a shape the model has, or 'closed') keyed at `weight`, every other shape in
 * `found` keyed 0 there, as one edit labelled 'lip sync'. A picked shape with no key before `frame` (a track the tap
 * starts, or one whose keys all come later) also gets a key of 0 at frame 0: a VMD holds a track's first weight from
 * frame 0 on, so the mouth would otherwise stand open from the start to the first tap. `records`: the picked shape's
 * key at `frame` first (none when closed), then the others.
 */
export function keyMouthShape(
  doc: VmdDocument,
  tracks: MotionTracks,
  frame: number,
  found: Partial<Record<MouthShape, string>>,
  pick: MouthShape | 'closed',
  weight: number,
): EditOutcome<KeyEdit & { records: number[] }> {
  frame = Math.round(frame);
  const entries = mouthShapeEntries(frame, found, pick, weight, (name) => !keyedBefore(tracks, name, frame));
  const out = registerMorphKeys(doc, tracks, entries, 'lip sync');
  if (!out.ok) return out;
  // The keys at `frame` only (the frame-0 key of a started track is the second entry when there is one).
  const records = out.value.records.filter((_, i) => entries[i].frame === frame);
  return success({ ...out.value, records });
}

/**
 * The keys a timing list makes (mouth-timings.ts; by frame, one per frame), each timing keyed as a tap keys its shape
 * (mouthShapeEntries); a vowel the model lacks closes the mouth there (every shape 0). Only the first timing can start
 * a track (every timing keys every shape), so only it may add the frame-0 key. The Import dialog counts these before
 * Apply; keyMouthTimings writes them.
 */
export function mouthTimingKeys(
  tracks: MotionTracks,
  timings: readonly { frame: number; shape: MouthShape | 'closed' }[],
  found: Partial<Record<MouthShape, string>>,
  weight: number,
): MorphKeyEntry[] {
  const entries: MorphKeyEntry[] = [];
  timings.forEach((t, i) => {
    const pick = t.shape !== 'closed' && found[t.shape] !== undefined ? t.shape : 'closed';
    entries.push(...mouthShapeEntries(t.frame, found, pick, weight, (name) => i === 0 && !keyedBefore(tracks, name, t.frame)));
  });
  return entries;
}

/** A timing list's keys (mouthTimingKeys) as one edit labelled 'lip sync' (one undo step); `keys`: how many. */
export function keyMouthTimings(
  doc: VmdDocument,
  tracks: MotionTracks,
  timings: readonly { frame: number; shape: MouthShape | 'closed' }[],
  found: Partial<Record<MouthShape, string>>,
  weight: number,
): EditOutcome<KeyEdit & { records: number[] }> {
  if (!timings.length || !Object.keys(found).length) return refuse('E_EMPTY', 'no timing, or no mouth-shape morph to key', 'editor.refusal.poseNothingToKey');
  return registerMorphKeys(doc, tracks, mouthTimingKeys(tracks, timings, found, weight), 'lip sync');
}

/** Whether the motion's track of morph `name` (matched as registerMorphKey matches it) has a key before `frame`. */
function keyedBefore(tracks: MotionTracks, name: string, frame: number): boolean {
  const m = tracks.morphs;
  let t = m.index.get(name) ?? -1;
  if (t < 0) {
    const key = matchKey(name);
    t = m.names.findIndex((n) => matchKey(n) === key);
  }
  if (t < 0) return false;
  const [a, b] = trackRange(m, t);
  return b > a && m.frames[a] < frame;
}
