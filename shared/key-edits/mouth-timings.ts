/**
 * Mouth timings from text, for lip sync made from a line's timing (keyed by keyMouthTimings, lip-sync.ts): MMD users
 * write 口パク from a timing list, or from a phoneme segmentation of the song's vocal.
 * - A plain list, one `FRAME SHAPE` per line (`12 a`, `30 お`, `45 -`): the shape a i u e o (any case), あいうえお,
 *   アイウエオ (half-width too), or `n` / `ん` / `ン` / `-` for the mouth closed; `#` starts a comment; blank lines
 *   are skipped. Frames are whole numbers 0–999,999.
 * - A Julius / HTK segmentation label file (`.lab`): `START END PHONEME` per line. Times are HTK's 100 ns units when
 *   every time is a whole number and the largest is at least 100,000 (10 ms), else seconds (Julius's segmentation
 *   kit writes `0.2350000`); `unit` says which was assumed. A line's frame is round(START × fps).
 *   Phonemes → shapes: a i u e o (long `a:`, devoiced `A`…) their vowel; `N` (ん), `q` / `cl` (っ), `pau`, `sil`,
 *   `silB`, `silE`, `sp` close the mouth; the lip consonants m b p (my by py) close it too (the lips meet); every
 *   other consonant makes no key, so the mouth holds the vowel before it until its own vowel comes. A label that
 *   repeats the shape before it makes no key either.
 * Which: by content — the first line that is not blank or a comment with three fields, the first two numbers, is a
 * .lab file; anything else a list. Two timings on one frame: the later line wins (`merged` counts the earlier).
 * Errors are values naming the file and the line (1-based) and what is wrong; `problem` (also in `params`, with the
 * line's text and the bad `value`) lets the app and the CLI's Japanese phrase it (`err.timings.<problem>`).
 */
import { MAX_DENSE_FRAMES } from '../edit-core/dense-limit';
import type { CodecError } from '../vmd/errors';
import { failure, success, type Outcome } from '../vmd/errors';

/** A vowel shape of a timing, or the mouth closed. */
export type TimingShape = 'a' | 'i' | 'u' | 'e' | 'o' | 'closed';

export interface MouthTiming {
  frame: number;
  shape: TimingShape;
  /** The 1-based line of the text it came from. */
  line: number;
}

export interface MouthTimings {
  format: 'list' | 'lab';
  /** A .lab file's time unit as assumed (see the file's comment). */
  unit?: 'htk' | 'seconds';
  /** By frame, one per frame. */
  timings: MouthTiming[];
  /** Timings dropped because a later line fell on the same frame. */
  merged: number;
}

/** What is wrong with a line (the app's string is `timings.err.<problem>`). */
export type TimingProblem = 'empty' | 'tooLong' | 'listFields' | 'frame' | 'shape' | 'labFields' | 'time' | 'timeOrder' | 'phoneme' | 'notText';

export interface TimingError extends CodecError {
  code: 'E_TIMINGS';
  problem: TimingProblem;
  params: Record<string, string | number>;
}

/** The farthest frame a timing may name (the playhead's last frame). */
export const MAX_TIMING_FRAME = MAX_DENSE_FRAMES - 1;
/** A timing file is a few thousand lines; 16 MiB is far more than any (the CLI and the app read at most this). */
export const MAX_TIMING_FILE_BYTES = 16 * 1024 * 1024;
/** A text longer than this many lines is refused (a song's timing is a few thousand). */
export const MAX_TIMING_LINES = 200_000;

const LIST_SHAPES: Record<string, TimingShape> = {
  a: 'a', i: 'i', u: 'u', e: 'e', o: 'o',
  あ: 'a', い: 'i', う: 'u', え: 'e', お: 'o',
  ア: 'a', イ: 'i', ウ: 'u', エ: 'e', オ: 'o',
  n: 'closed', ん: 'closed', ン: 'closed', '-': 'closed',
};

const CLOSERS = new Set(['N', 'q', 'cl', 'pau', 'sil', 'silB', 'silE', 'sp', 'm', 'b', 'p', 'my', 'by', 'py']);
/** Julius's (and Open JTalk's) consonants that leave the lips apart: no key of their own. */
const HOLDERS = new Set(['k', 'g', 's', 'z', 't', 'd', 'n', 'h', 'y', 'r', 'w', 'f', 'j', 'v', 'ts', 'ch', 'sh', 'ky', 'gy', 'ny', 'hy', 'ry', 'dy', 'ty', 'zy', 'kw', 'gw']);

/**
 * A .lab phoneme's shape: a vowel (any case, `:` long), 'closed', or null (a consonant that holds the mouth);
 * undefined for a phoneme this reader does not know.
 */
export function phonemeShape(p: string): TimingShape | null | undefined {
  if (CLOSERS.has(p)) return 'closed';
  if (HOLDERS.has(p)) return null;
  const v = /^([aiueoAIUEO]):?$/.exec(p);
  return v ? (v[1].toLowerCase() as TimingShape) : undefined;
}

/** Text of a timing file's bytes: UTF-8 (a BOM dropped), UTF-16 with its BOM, else Shift_JIS (Notepad on a Japanese Windows). */
export function decodeTimingText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('shift_jis').decode(bytes);
  }
}

function refuse(problem: TimingProblem, file: string, line: number, text: string, message: string, more: Record<string, string | number> = {}): Outcome<never, TimingError> {
  // The file and the line are the error's own fields (formatError: "song.txt: … (line 3)").
  return failure({ code: 'E_TIMINGS', problem, message, file, ...(line > 0 ? { line } : {}), params: { problem, line, text, ...more } });
}

const numberLike = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Reads a timing list or a .lab file (`text`; `file`: its name, for the errors), a .lab's times at `fps` frames a
 * second (MMD's 30). Timings by frame; the later of two on one frame wins.
 */
export function parseMouthTimings(text: string, file: string, fps = 30): Outcome<MouthTimings, TimingError> {
  if (text.includes('\u0000')) return refuse('notText', file, 0, '', 'this is not a text file (it holds NUL bytes): a timing list or a .lab file is text');
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > MAX_TIMING_LINES) return refuse('tooLong', file, 0, '', `more than ${MAX_TIMING_LINES.toLocaleString('en-US')} lines: not a timing file`, { max: MAX_TIMING_LINES });
  // Each line without its comment, split on white space (a full-width space too).
  const rows = lines.map((l, i) => ({ line: i + 1, raw: l.trim(), fields: l.replace(/#.*$/, '').trim().split(/[\s\u3000]+/).filter(Boolean) }));
  const data = rows.filter((r) => r.fields.length > 0);
  if (!data.length) return refuse('empty', file, 0, '', 'holds no timing (one "FRAME VOWEL" per line, as "12 a", or a .lab file\'s "START END PHONEME")');
  const first = data[0].fields;
  const lab = first.length === 3 && numberLike.test(first[0]) && numberLike.test(first[1]);
  const out: MouthTiming[] = [];
  let unit: MouthTimings['unit'];
  if (!lab) {
    for (const r of data) {
      if (r.fields.length !== 2) return refuse('listFields', file, r.line, r.raw, `"${r.raw}": one frame and one vowel are needed, as "12 a" (a i u e o, あいうえお, or n ん - for closed)`);
      const [f, s] = r.fields;
      if (!/^\d+$/.test(f) || Number(f) > MAX_TIMING_FRAME) return refuse('frame', file, r.line, r.raw, `"${f}" is not a frame (a whole number 0–${MAX_TIMING_FRAME.toLocaleString('en-US')})`, { value: f });
      const shape = LIST_SHAPES[s.normalize('NFKC').toLowerCase()];
      if (!shape) return refuse('shape', file, r.line, r.raw, `"${s}" is not a vowel (a i u e o, あいうえお, アイウエオ, or n ん - for the mouth closed)`, { value: s });
      out.push({ frame: Number(f), shape, line: r.line });
    }
  } else {
    const times: { start: number; end: number; text: [string, string]; phoneme: string; line: number; raw: string }[] = [];
    for (const r of data) {
      if (r.fields.length !== 3) return refuse('labFields', file, r.line, r.raw, `"${r.raw}": a .lab line is "START END PHONEME"`);
      const [a, b, p] = r.fields;
      for (const v of [a, b]) if (!numberLike.test(v) || !(Number(v) >= 0)) return refuse('time', file, r.line, r.raw, `"${v}" is not a time (seconds, or HTK's 100 ns units)`, { value: v });
      if (Number(b) < Number(a)) return refuse('timeOrder', file, r.line, r.raw, `it ends (${b}) before it starts (${a})`, { start: a, end: b });
      times.push({ start: Number(a), end: Number(b), text: [a, b], phoneme: p, line: r.line, raw: r.raw });
    }
    const whole = times.every((t) => /^\d+$/.test(t.text[0]) && /^\d+$/.test(t.text[1]));
    unit = whole && Math.max(...times.map((t) => t.end)) >= 100_000 ? 'htk' : 'seconds';
    const perSecond = unit === 'htk' ? 1e7 : 1;
    let prev: TimingShape | undefined;
    for (const t of times) {
      const shape = phonemeShape(t.phoneme);
      if (shape === undefined) return refuse('phoneme', file, t.line, t.raw, `"${t.phoneme}" is not a phoneme this reader knows (a i u e o, N, q, cl, pau, sil, sp, or a consonant as Julius writes it: k s t n h m y r w g z d b p …)`, { value: t.phoneme });
      if (shape === null || shape === prev) continue;
      prev = shape;
      const frame = Math.round((t.start / perSecond) * fps);
      if (frame > MAX_TIMING_FRAME) return refuse('time', file, t.line, t.raw, `${t.text[0]} is past frame ${MAX_TIMING_FRAME.toLocaleString('en-US')}`, { value: t.text[0] });
      out.push({ frame, shape, line: t.line });
    }
  }
  // By frame, the later line winning a shared frame.
  const byFrame = new Map<number, MouthTiming>();
  for (const t of out) byFrame.set(t.frame, t);
  const timings = [...byFrame.values()].sort((x, y) => x.frame - y.frame);
  return success({ format: lab ? 'lab' : 'list', ...(unit ? { unit } : {}), timings, merged: out.length - timings.length });
}
