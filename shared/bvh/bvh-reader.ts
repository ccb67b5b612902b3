/**
 * BVH (Biovision Hierarchy) motion capture, read from text.
 *
 * Layout:
 *   HIERARCHY
 *   ROOT name { OFFSET x y z  CHANNELS n ch1 … chn  JOINT name { … }  End Site { OFFSET x y z } }
 *   (more ROOTs may follow)
 *   MOTION
 *   Frames: N
 *   Frame Time: seconds
 *   N lines of numbers, one value per channel in the order the hierarchy declares them.
 *
 * Any channel order per joint (the rotation channels compose in the order written: the first is the
 * outermost), any number of roots, End Sites, any frame time. Errors are values naming the line
 * in `line` (E_BVH_SYNTAX, E_BVH_TRUNCATED, E_BVH_CHANNELS, E_BVH_NUMBER, E_BVH_TOO_LARGE; formatError
 * prints it); the reader never throws
 * for bad input. Memory is bounded before anything is allocated: the frames a file declares must fit in
 * the text that follows (each value takes at least two characters) and under MAX_BVH_VALUES.
 */
import type { CodecError, Diagnostic, ErrorCode, Result } from '../vmd/errors';
import type { Vec3 } from '../vmd/records';

export type BvhChannel = 'Xposition' | 'Yposition' | 'Zposition' | 'Xrotation' | 'Yrotation' | 'Zrotation';
const CHANNEL_NAMES: ReadonlySet<string> = new Set(['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation']);

export interface BvhJoint {
  name: string;
  /** Parent joint index, −1 for a root. */
  parent: number;
  /** Offset from the parent joint in the rest pose (BVH units, right-handed). */
  offset: Vec3;
  /** Channels in file order (empty for an End Site). */
  channels: BvhChannel[];
  /** Index of the joint's first channel in a frame's values. */
  channelStart: number;
  /** True for an End Site (a segment's tip: no channels, no children). */
  endSite: boolean;
  /** Line of the ROOT/JOINT/End Site keyword (1-based). */
  line: number;
}

export interface BvhMotion {
  /** Joints in file order: every parent before its children. End Sites are joints named `<parent>_End`. */
  joints: BvhJoint[];
  /** Root joint indices in file order (the first drives a model). */
  roots: number[];
  /** Values per frame (sum of the joints' channels). */
  channelCount: number;
  frameCount: number;
  /** Seconds per frame. */
  frameTime: number;
  /** frameCount × channelCount values, frame after frame (degrees for rotations). */
  values: Float64Array;
}

/** Largest frame count × channel count the reader allocates (80 MB of float64): an hour at 120 fps of a 100-channel skeleton… times two and a half. */
export const MAX_BVH_VALUES = 10_000_000;
/** Joints (End Sites included) a hierarchy may declare. */
export const MAX_BVH_JOINTS = 10_000;
/** Nesting depth of the hierarchy. */
const MAX_DEPTH = 256;
/**
 * Largest magnitude of an OFFSET or a frame value: 10⁷ (100 km in centimetres, 27,000 turns in
 * degrees), far past any capture. A value such as 1e308 is finite, but the import scales and sums
 * offsets and positions, and float32 keys of a VMD overflow to Infinity there.
 */
export const MAX_BVH_MAGNITUDE = 1e7;

class BvhFailure {
  constructor(readonly error: CodecError) {}
}

function failAt(code: ErrorCode, line: number, message: string, refusal?: Pick<CodecError, 'option' | 'problem' | 'params'>): never {
  throw new BvhFailure({ code, message, line, ...refusal });
}

/** A cursor over the text's whitespace-separated tokens, tracking the line of each. */
class Tokens {
  pos = 0;
  line = 1;
  /** Line of the token last returned. */
  tokLine = 1;
  constructor(readonly s: string) {}

  private skipSpace(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 10) this.line++;
      else if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11 && c !== 0xfeff) break;
      this.pos++;
    }
  }

  /** Next token, or null at the end. */
  next(): string | null {
    this.skipSpace();
    const s = this.s;
    if (this.pos >= s.length) return null;
    const start = this.pos;
    this.tokLine = this.line;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11) break;
      this.pos++;
    }
    return s.slice(start, this.pos);
  }

  /** Next token; the file ending here is E_BVH_TRUNCATED saying what was expected. */
  need(what: string): string {
    const t = this.next();
    if (t === null) failAt('E_BVH_TRUNCATED', this.line, `the file ends where ${what} should be`);
    return t;
  }

  /** The rest of the current line (after the token just read), trimmed. */
  restOfLine(): string {
    const s = this.s;
    let e = s.indexOf('\n', this.pos);
    if (e < 0) e = s.length;
    const r = s.slice(this.pos, e).trim();
    this.pos = e;
    return r;
  }
}

/** A decimal number as BVH writes them (`-0.5`, `.0083333`, `1e-3`); NaN for anything else. */
function parseNumber(t: string): number {
  // Number('') is 0 and Number('0x10') is 16: only decimal text counts.
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return NaN;
  return Number(t);
}

function number(tok: Tokens, what: string): number {
  const t = tok.need(what);
  const n = parseNumber(t);
  if (!Number.isFinite(n)) failAt('E_BVH_NUMBER', tok.tokLine, `${what} must be a number, got "${t.slice(0, 24)}"`);
  if (Math.abs(n) > MAX_BVH_MAGNITUDE) failAt('E_BVH_NUMBER', tok.tokLine, `${what} is ${t.slice(0, 24)}, beyond the ±${MAX_BVH_MAGNITUDE.toLocaleString('en-US')} a capture can hold`);
  return n;
}

function expect(tok: Tokens, word: string, ctx: string): void {
  const t = tok.need(`"${word}" ${ctx}`);
  if (t !== word) failAt('E_BVH_SYNTAX', tok.tokLine, `expected "${word}" ${ctx}, got "${t.slice(0, 24)}"`);
}

function parseJoint(tok: Tokens, joints: BvhJoint[], parent: number, kind: 'ROOT' | 'JOINT' | 'End', depth: number, channelCount: { n: number }): void {
  const line = tok.tokLine;
  if (depth > MAX_DEPTH) failAt('E_BVH_TOO_LARGE', line, `the hierarchy nests deeper than ${MAX_DEPTH} joints`);
  if (joints.length >= MAX_BVH_JOINTS) failAt('E_BVH_TOO_LARGE', line, `more than ${MAX_BVH_JOINTS} joints`);
  let name: string;
  if (kind === 'End') {
    expect(tok, 'Site', 'after "End"');
    name = `${joints[parent].name}_End`;
  } else {
    // Names may hold spaces in some exporters: the rest of the line is the name.
    name = tok.restOfLine();
    if (!name) failAt('E_BVH_SYNTAX', line, `${kind} without a name`);
    if (name.endsWith('{')) failAt('E_BVH_SYNTAX', line, `"{" must be on its own line after ${kind} ${name.slice(0, -1).trim()}`);
  }
  expect(tok, '{', `after ${kind === 'End' ? 'End Site' : `${kind} ${name}`}`);
  const index = joints.length;
  const joint: BvhJoint = { name, parent, offset: [0, 0, 0], channels: [], channelStart: channelCount.n, endSite: kind === 'End', line };
  joints.push(joint);
  let sawOffset = false;
  for (;;) {
    const t = tok.need(`the closing "}" of ${name}`);
    if (t === '}') break;
    if (t === 'OFFSET') {
      joint.offset = [number(tok, `${name}'s OFFSET x`), number(tok, `${name}'s OFFSET y`), number(tok, `${name}'s OFFSET z`)];
      sawOffset = true;
    } else if (t === 'CHANNELS' && kind !== 'End') {
      const cl = tok.tokLine;
      const nt = tok.need(`${name}'s channel count`);
      const n = parseNumber(nt);
      if (!Number.isInteger(n) || n < 0 || n > 6) failAt('E_BVH_CHANNELS', cl, `${name}: CHANNELS must be a count from 0 to 6, got "${nt.slice(0, 24)}"`);
      // The names are the rest of the line: a count that disagrees with them is the error, not the next line.
      const rest = tok.restOfLine();
      const names = rest ? rest.split(/\s+/) : [];
      if (names.length !== n) failAt('E_BVH_CHANNELS', cl, `${name}: CHANNELS says ${n} but names ${names.length}`);
      for (const c of names) {
        if (!CHANNEL_NAMES.has(c)) failAt('E_BVH_CHANNELS', cl, `${name}: unknown channel "${c.slice(0, 24)}"`);
        if (joint.channels.includes(c as BvhChannel)) failAt('E_BVH_CHANNELS', cl, `${name}: channel ${c} given twice`);
        joint.channels.push(c as BvhChannel);
      }
      joint.channelStart = channelCount.n;
      channelCount.n += n;
    } else if (t === 'JOINT' && kind !== 'End') {
      parseJoint(tok, joints, index, 'JOINT', depth + 1, channelCount);
    } else if (t === 'End' && kind !== 'End') {
      parseJoint(tok, joints, index, 'End', depth + 1, channelCount);
    } else {
      failAt('E_BVH_SYNTAX', tok.tokLine, `unexpected "${t.slice(0, 24)}" in ${kind === 'End' ? 'End Site' : name}`);
    }
  }
  if (!sawOffset) failAt('E_BVH_SYNTAX', line, `${kind === 'End' ? 'End Site of ' + joints[parent].name : name} has no OFFSET`);
}

export interface BvhReadOptions {
  /**
   * The capture's frame rate, given because the file's Frame Time may be wrong (import-bvh --fps): a Frame
   * Time that is not a number of seconds in (0, 60] is then no error but ignored (a W_BVH_FRAME_TIME
   * diagnostic), frameTime being 1/fps. A valid Frame Time is kept as read (the import takes the rate given),
   * with a W_BVH_FPS_OVERRIDE diagnostic when the rate given is another (--fps 30 on a 120 fps file plays it 4×
   * slower: --fps is for a wrong Frame Time, and one that is right may have been overridden by mistake).
   */
  fps?: number;
}

/** Frames per second of a Frame Time, snapped to a whole number within 0.01 of one (.0083333 → 120), else to 2 decimals. */
function rateOf(frameTime: number): number {
  const r = 1 / frameTime;
  return Math.abs(r - Math.round(r)) < 0.01 ? Math.round(r) : Number(r.toFixed(2));
}

/** Reads a BVH file's text (or bytes, as UTF-8). Errors name the line; nothing is allocated for frames a file cannot hold. */
export function readBvh(input: string | Uint8Array, opts: BvhReadOptions = {}): Result<BvhMotion> {
  const text = typeof input === 'string' ? input : new TextDecoder('utf-8').decode(input);
  const tok = new Tokens(text);
  try {
    const first = tok.next();
    if (first !== 'HIERARCHY') failAt('E_BVH_SYNTAX', tok.tokLine, first === null ? 'empty file: a BVH starts with HIERARCHY' : `a BVH starts with HIERARCHY, got "${first.slice(0, 24)}"`);
    const joints: BvhJoint[] = [];
    const roots: number[] = [];
    const channelCount = { n: 0 };
    let t = tok.need('ROOT');
    while (t === 'ROOT') {
      roots.push(joints.length);
      parseJoint(tok, joints, -1, 'ROOT', 0, channelCount);
      t = tok.need('MOTION');
    }
    if (roots.length === 0) failAt('E_BVH_SYNTAX', tok.tokLine, `expected ROOT after HIERARCHY, got "${t.slice(0, 24)}"`);
    if (t !== 'MOTION') failAt('E_BVH_SYNTAX', tok.tokLine, `expected ROOT or MOTION after the hierarchy, got "${t.slice(0, 24)}"`);
    expect(tok, 'Frames:', 'after MOTION');
    const fl = tok.tokLine;
    const framesTok = tok.need('the frame count');
    const frameCount = parseNumber(framesTok);
    if (!Number.isInteger(frameCount) || frameCount < 0) failAt('E_BVH_NUMBER', fl, `Frames: must be a whole number, got "${framesTok.slice(0, 24)}"`);
    expect(tok, 'Frame', 'after the frame count');
    expect(tok, 'Time:', 'after "Frame"');
    const ftText = tok.need('Frame Time');
    const tl = tok.tokLine;
    const ft = parseNumber(ftText);
    const diagnostics: Diagnostic[] = [];
    let frameTime = ft;
    if (!(ft > 0 && ft <= 60)) {
      const fps = opts.fps;
      const bad = Number.isFinite(ft) ? `Frame Time must be more than 0 and at most 60 seconds, got ${ftText.slice(0, 24)}` : `Frame Time must be a number, got "${ftText.slice(0, 24)}"`;
      // An option refusal (shared/vmd/errors.ts optionRefusal's shape): the app names its own fps field.
      if (fps === undefined || !(fps > 0) || !Number.isFinite(fps)) failAt('E_BVH_NUMBER', tl, `${bad}; give the capture's frame rate (--fps N) to read it anyway`, { option: 'fps', problem: 'frameTime', params: { frameTime: ftText.slice(0, 24) } });
      frameTime = 1 / fps;
      diagnostics.push({ code: 'W_BVH_FRAME_TIME', message: `${bad} (line ${tl}): ignored, the frames taken at the ${fps} fps given`, params: { frameTime: ftText.slice(0, 24), line: tl, fps, whyWord: Number.isFinite(ft) ? 'range' : 'number' } });
    } else if (opts.fps !== undefined && opts.fps > 0 && Number.isFinite(opts.fps)) {
      // A rate given over a Frame Time that is one: kept (the import takes the rate given), said.
      const fileFps = rateOf(ft);
      if (Math.abs(opts.fps - fileFps) > 0.01 * fileFps) {
        const ratio = opts.fps < fileFps ? fileFps / opts.fps : opts.fps / fileFps;
        const times = `${Number(ratio.toFixed(2))}×`;
        diagnostics.push({
          code: 'W_BVH_FPS_OVERRIDE',
          message: `--fps ${opts.fps} overrides the file's Frame Time (${fileFps} fps): it plays ${times} ${opts.fps < fileFps ? 'slower' : 'faster'} than captured (--fps is for a Frame Time that is wrong)`,
          params: { fps: opts.fps, fileFps, frameTime: ftText.slice(0, 24), line: tl, times, slower: opts.fps < fileFps ? 1 : 0 },
        });
      }
    }
    const cc = channelCount.n;
    const total = frameCount * cc;
    // Refused before allocating: more values than the importer takes, or than the rest of the text can
    // hold (every value is at least one character and a separator).
    const room = Math.floor((text.length - tok.pos + 1) / 2);
    if (total > MAX_BVH_VALUES) failAt('E_BVH_TOO_LARGE', fl, `${frameCount} frames of ${cc} channels is more than the ${MAX_BVH_VALUES} values the importer reads`);
    if (total > room) failAt('E_BVH_TRUNCATED', fl, `Frames: ${frameCount} declares ${total} values but the rest of the file holds at most ${room}`);
    const values = new Float64Array(total);
    // Frame rows: one line each, exactly cc values.
    const s = text;
    let pos = tok.pos;
    let line = tok.line;
    let f = 0;
    while (f < frameCount) {
      if (pos >= s.length) failAt('E_BVH_TRUNCATED', line, `the file ends after ${f} of ${frameCount} frames`);
      let e = s.indexOf('\n', pos);
      if (e < 0) e = s.length;
      const row = s.slice(pos, e).trim();
      if (row !== '') {
        const parts = row.split(/\s+/);
        if (parts.length !== cc) failAt('E_BVH_CHANNELS', line, `frame ${f} has ${parts.length} values, the hierarchy has ${cc} channels`);
        const o = f * cc;
        for (let i = 0; i < cc; i++) {
          const v = parseNumber(parts[i]);
          if (!Number.isFinite(v)) failAt('E_BVH_NUMBER', line, `frame ${f}, channel ${i + 1}: "${parts[i].slice(0, 24)}" is not a number`);
          if (Math.abs(v) > MAX_BVH_MAGNITUDE) failAt('E_BVH_NUMBER', line, `frame ${f}, channel ${i + 1}: ${parts[i].slice(0, 24)} is beyond the ±${MAX_BVH_MAGNITUDE.toLocaleString('en-US')} a capture can hold`);
          values[o + i] = v;
        }
        f++;
      }
      pos = e + 1;
      line++;
    }
    // Anything but blank lines after the frames means the count was wrong.
    while (pos < s.length) {
      let e = s.indexOf('\n', pos);
      if (e < 0) e = s.length;
      if (s.slice(pos, e).trim() !== '') failAt('E_BVH_CHANNELS', line, `more frame lines than Frames: ${frameCount} declares`);
      pos = e + 1;
      line++;
    }
    return { ok: true, value: { joints, roots, channelCount: cc, frameCount, frameTime, values }, diagnostics };
  } catch (e) {
    if (e instanceof BvhFailure) return { ok: false, error: e.error };
    throw e;
  }
}
