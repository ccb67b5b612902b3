/**
 * VPD pose files: Shift_JIS text (UTF-8 when it starts with a BOM, or when its bytes are UTF-8 and not Shift_JIS:
 * utf8Text), CRLF or LF, `//` comments.
 *
 *   Vocaloid Pose Data file
 *   model.osm;          // parent file name
 *   2;                  // bone count (often wrong in hand-edited files: sections are counted instead)
 *   Bone0{センター
 *   0.000000,1.250000,-0.500000;          // position x, y, z
 *   0.000000,0.000000,0.000000,1.000000;  // quaternion x, y, z, w
 *   }
 *   Morph0{まばたき
 *   1.000000;           // weight
 *   }
 *
 * Values are in MMD coordinates, like VMD keys. Lines are split on raw bytes (0x0A never occurs inside
 * a Shift_JIS character), so errors report exact byte offsets.
 */
import { fail, ok, type Diagnostic, type Result } from './errors';
import { decodeText, encodeSjis } from './sjis';
import type { Quat, Vec3 } from './records';
import { count, plural } from '../i18n/plural';

export const VPD_MAGIC = 'Vocaloid Pose Data file';

export interface VpdBone {
  name: string;
  position: Vec3;
  rotation: Quat;
}

export interface VpdPose {
  /** Parent model file name, e.g. "初音ミク.osm". */
  model: string;
  bones: VpdBone[];
  morphs: { name: string; weight: number }[];
  /** The count the file's header line declared (may differ from bones.length). */
  declaredBones: number | null;
  encoding: 'shift_jis' | 'utf-8';
}

/** A non-blank line without its comment: bytes [start, end) of the file, from `offset`. */
interface Line {
  offset: number;
  start: number;
  end: number;
  /** Its text when it is not ASCII (decoded at once); an ASCII line is made a string only when needed. */
  decoded: string | null;
}

/** JavaScript's trim() on ASCII: tab, LF, VT, FF, CR, space. */
const isAsciiSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** Bytes [s, e) as a string, for bytes below 0x80. */
function asciiText(b: Uint8Array, s: number, e: number): string {
  let out = '';
  if (e - s <= 24) {
    for (let i = s; i < e; i++) out += String.fromCharCode(b[i]);
    return out;
  }
  // In pieces: the argument count of one call is bounded.
  for (let i = s; i < e; i += 8192) out += String.fromCharCode.apply(null, b.subarray(i, Math.min(e, i + 8192)) as unknown as number[]);
  return out;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * Number() of the ASCII bytes [s, e), read without making a string for the usual `-12.345678`: digits
 * that fit 2^53 over a power of ten up to 10^22 are two exact doubles, and their quotient is the
 * correctly rounded value Number() gives (Clinger's fast path). Anything else (an exponent, more digits,
 * "Infinity", hex) goes to Number() itself.
 */
function decimalAt(b: Uint8Array, s: number, e: number): number {
  let i = s;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  let m = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < e; i++) {
    const c = b[i];
    if (c >= 0x30 && c <= 0x39) {
      m = m * 10 + (c - 0x30);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 0x2e && fraction < 0) fraction = 0;
    else break;
  }
  if (i !== e || digits === 0 || digits > 15 || fraction > 22) return Number(asciiText(b, s, e));
  const v = fraction > 0 ? m / POW10[fraction] : m;
  return negative ? -v : v;
}

/**
 * The file's non-blank lines without comments, one at a time, each with the byte offset where it starts.
 * Lines are split on raw bytes; an ASCII line (every number line) is cut and trimmed as bytes and never
 * passes through a decoder, and lines are not collected first. A decoder call per line made a million-bone
 * pose take half a minute (the whole text decoded at once is slower still); five million line strings in an
 * array held the memory of the whole file several times over.
 */
class LineReader {
  private at: number;
  private readonly utf8: TextDecoder | null;

  constructor(private readonly bytes: Uint8Array, utf8: boolean) {
    this.at = utf8 && hasBom(bytes) ? 3 : 0;
    this.utf8 = utf8 ? new TextDecoder('utf-8') : null;
  }

  next(): Line | null {
    const b = this.bytes;
    while (this.at <= b.length) {
      const offset = this.at;
      const nl = b.indexOf(0x0a, offset);
      let e = nl < 0 ? b.length : nl;
      this.at = nl < 0 ? b.length + 1 : nl + 1;
      if (e > offset && b[e - 1] === 0x0d) e--;
      let ascii = true;
      let comment = -1;
      for (let i = offset; i < e; i++) {
        const c = b[i];
        if (c >= 0x80) ascii = false;
        // 0x2F is never part of a Shift_JIS or UTF-8 character: "//" in the bytes is a comment.
        else if (c === 0x2f && i + 1 < e && b[i + 1] === 0x2f) {
          comment = i;
          break;
        }
      }
      if (!ascii) {
        const raw = this.bytes.subarray(offset, e);
        let text = this.utf8 ? this.utf8.decode(raw) : decodeText(raw);
        const c = text.indexOf('//');
        text = (c >= 0 ? text.slice(0, c) : text).trim();
        if (text) return { offset, start: offset, end: e, decoded: text };
        continue;
      }
      let s = offset;
      if (comment >= 0) e = comment;
      while (s < e && isAsciiSpace(b[s])) s++;
      while (e > s && isAsciiSpace(b[e - 1])) e--;
      if (e > s) return { offset, start: s, end: e, decoded: null };
    }
    return null;
  }

  /** Whether the line is a section's closing "}". */
  isClose(l: Line): boolean {
    return l.decoded === null ? l.end - l.start === 1 && this.bytes[l.start] === 0x7d : l.decoded === '}';
  }

  text(l: Line): string {
    return l.decoded ?? asciiText(this.bytes, l.start, l.end);
  }

  /** Where numbers() puts what it reads. */
  readonly scratch = new Float64Array(4);

  /**
   * `n` (at most 4) comma-separated numbers ending in an optional ";" (`1.5,0,-2;`) into `scratch`: null,
   * or why not. An ASCII line is never made a string as a whole, nor each number (decimalAt).
   */
  numbers(l: Line, n: number, kind: 'bone' | 'morph', name: string, field: string): string | null {
    const what = () => `${kind} "${name}" ${field}`;
    if (l.decoded !== null) {
      const r = parseNumbers(l.decoded, n, what());
      if (typeof r === 'string') return r;
      this.scratch.set(r);
      return null;
    }
    const b = this.bytes;
    let end = l.end;
    if (b[end - 1] === 0x3b) end--; // the line is trimmed: ";" is last if there
    let k = 0;
    let start = l.start;
    for (let i = start; i <= end; i++) {
      if (i < end && b[i] !== 0x2c) continue;
      if (k === n) return `${what()}: expected ${n} numbers, found "${this.text(l)}"`;
      let s = start;
      let e = i;
      while (s < e && isAsciiSpace(b[s])) s++;
      while (e > s && isAsciiSpace(b[e - 1])) e--;
      const x = e === s ? NaN : decimalAt(b, s, e);
      if (!Number.isFinite(x)) {
        // Count first, as a line with too many fields says so whatever they hold.
        let fields = 1;
        for (let j = l.start; j < end; j++) if (b[j] === 0x2c) fields++;
        return fields !== n ? `${what()}: expected ${n} numbers, found "${this.text(l)}"` : `${what()}: not a number in "${this.text(l)}"`;
      }
      this.scratch[k++] = x;
      start = i + 1;
    }
    if (k !== n) return `${what()}: expected ${n} numbers, found "${this.text(l)}"`;
    return null;
  }
}

const hasBom = (b: Uint8Array) => b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/**
 * Whether a VPD without a BOM is UTF-8 text: it has bytes of 0x80 or more, they are strict UTF-8, and they are not
 * Shift_JIS text — read as Shift_JIS some character is not one, or read as UTF-8 they hold kana or kanji (3-byte
 * characters). Many text editors save UTF-8 without a BOM; read as Shift_JIS such a pose was refused with garbled
 * names (new-user pass nuprefs 3). Shift_JIS kana and most kanji start with 0x81–0x9F, which never starts a UTF-8
 * character, so MMD's poses are not UTF-8 and read as they always did; what could be both (a few half-width
 * katakana, read as UTF-8 Latin letters) stays Shift_JIS, as MMD reads it.
 */
function utf8Text(b: Uint8Array): boolean {
  let high = false;
  for (let i = 0; i < b.length && !high; i++) high = b[i] >= 0x80;
  if (!high) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return false;
  }
  return /[\u0800-\uffff]/.test(text) || decodeText(b).includes('\uFFFD');
}

/** Whether the bytes start like a pose file: the first line of their first 4 KiB (no more is read). */
export function looksLikeVpd(bytes: Uint8Array): boolean {
  const utf8 = hasBom(bytes);
  const r = new LineReader(bytes.subarray(0, Math.min(bytes.length, 4096)), utf8);
  const first = r.next();
  return first !== null && r.text(first).startsWith(VPD_MAGIC);
}

/** parseNumbers on a decoded line (one that is not ASCII). */
function parseNumbers(t: string, n: number, what: string): number[] | string {
  const parts = t.replace(/;\s*$/, '').split(',').map((p) => p.trim());
  if (parts.length !== n) return `${what}: expected ${n} numbers, found "${t}"`;
  const nums = parts.map(Number);
  if (nums.some((x, i) => parts[i] === '' || !Number.isFinite(x))) return `${what}: not a number in "${t}"`;
  return nums;
}

const BONE_HEAD = /^Bone\d*\{(.*)$/;
const MORPH_HEAD = /^Morph\d*\{(.*)$/;

export function readVpd(bytes: Uint8Array): Result<VpdPose> {
  const bom = hasBom(bytes);
  const utf8 = bom || utf8Text(bytes);
  const lines = new LineReader(bytes, utf8);
  const first = lines.next();
  if (first === null || !lines.text(first).startsWith(VPD_MAGIC)) {
    return fail('E_VPD_MAGIC', `not a VPD file: it does not start with "${VPD_MAGIC}"`, 0);
  }
  const diagnostics: Diagnostic[] = [];
  // Said once, with the pose: MMD would read these names garbled.
  if (utf8 && !bom) diagnostics.push({ code: 'W_VPD_UTF8', message: 'read as UTF-8 text; MMD reads VPD as Shift_JIS: Export VPD writes Shift_JIS', params: {} });
  let model = '';
  let declaredBones: number | null = null;
  let l = lines.next();
  if (l && !/^(Bone|Morph)\d*\{/.test(lines.text(l))) {
    model = lines.text(l).replace(/;\s*$/, '');
    l = lines.next();
  }
  if (l && /^\d+;?$/.test(lines.text(l))) {
    declaredBones = parseInt(lines.text(l), 10);
    l = lines.next();
  }
  const bones: VpdBone[] = [];
  const morphs: VpdPose['morphs'] = [];
  while (l) {
    const head = lines.text(l);
    const bone = BONE_HEAD.exec(head);
    const morph = bone ? null : MORPH_HEAD.exec(head);
    if (bone) {
      const pl = lines.next();
      const pe = pl ? lines.numbers(pl, 3, 'bone', bone[1], 'position') : 'missing position';
      if (pe !== null) return fail('E_VPD_SYNTAX', pe, pl?.offset ?? l.offset);
      const sc = lines.scratch;
      // Literals, not arrays grown by push: those keep room for 17 numbers each.
      const position: Vec3 = [sc[0], sc[1], sc[2]];
      const rl = lines.next();
      const re = rl ? lines.numbers(rl, 4, 'bone', bone[1], 'rotation') : 'missing rotation';
      if (re !== null) return fail('E_VPD_SYNTAX', re, rl?.offset ?? l.offset);
      bones.push({ name: bone[1].trim(), position, rotation: [sc[0], sc[1], sc[2], sc[3]] });
      const close = lines.next();
      if (close && lines.isClose(close)) l = lines.next();
      else return fail('E_VPD_SYNTAX', `bone section "${bone[1]}" has no closing "}"`, close?.offset ?? bytes.length);
    } else if (morph) {
      const wl = lines.next();
      const we = wl ? lines.numbers(wl, 1, 'morph', morph[1], 'weight') : 'missing weight';
      if (we !== null) return fail('E_VPD_SYNTAX', we, wl?.offset ?? l.offset);
      morphs.push({ name: morph[1].trim(), weight: lines.scratch[0] });
      const close = lines.next();
      if (close && lines.isClose(close)) l = lines.next();
      else return fail('E_VPD_SYNTAX', `morph section "${morph[1]}" has no closing "}"`, close?.offset ?? bytes.length);
    } else {
      return fail('E_VPD_SYNTAX', `unexpected line "${head.slice(0, 40)}"`, l.offset);
    }
  }
  if (declaredBones !== null && declaredBones !== bones.length) {
    diagnostics.push({
      code: 'W_VPD_COUNT',
      message: `header declares ${plural(count(declaredBones), 'bone')} but the file has ${plural(count(bones.length), 'bone section')}; the sections are used`,
      params: { declared: declaredBones, n: bones.length },
    });
  }
  return ok({ model, bones, morphs, declaredBones, encoding: utf8 ? 'utf-8' : 'shift_jis' }, diagnostics);
}

/**
 * A number as MMD writes it: C's printf("%f"), six decimals. toFixed(6) is that, except for −0, which
 * printf writes "-0.000000" (MMD's own poses, the KEITEL ones in the corpus, hold it) and toFixed "0.000000".
 */
const fix6 = (x: number) => (Object.is(x, -0) ? '-0.000000' : x.toFixed(6));

/** A bone section's two value lines and a morph's weight line, as MMD writes them (without indent and comment). */
const positionText = (p: readonly number[]) => `${p.map(fix6).join(',')};`;
const rotationText = (q: readonly number[]) => `${q.map(fix6).join(',')};`;
const weightText = (w: number) => `${fix6(w)};`;

/** A section's lines as MMD writes them, numbered `i`. */
function boneLines(b: VpdBone, i: number): string[] {
  return [`Bone${i}{${b.name}`, `  ${positionText(b.position)}\t\t\t\t// trans x,y,z`, `  ${rotationText(b.rotation)}\t\t// Quaternion x,y,z,w`, '}'];
}
function morphLines(m: { name: string; weight: number }, i: number): string[] {
  return [`Morph${i}{${m.name}`, `  ${weightText(m.weight)}\t\t\t\t// weight`, '}'];
}

/** Writes a VPD the way MMD does: Shift_JIS, CRLF, six decimals, a blank line after each section (the last one too). */
export function writeVpd(pose: Pick<VpdPose, 'model' | 'bones' | 'morphs'>): Uint8Array {
  const L: string[] = [];
  L.push(VPD_MAGIC, '');
  L.push(`${pose.model || 'model.osm'};\t\t// 親ファイル名`);
  L.push(`${pose.bones.length};\t\t\t\t// 総ポーズボーン数`, '');
  pose.bones.forEach((b, i) => L.push(...boneLines(b, i), ''));
  pose.morphs.forEach((m, i) => L.push(...morphLines(m, i), ''));
  return encodeSjis(L.join('\r\n') + '\r\n');
}

/** What a pose holds, for updateVpd: its bones and morphs by name. */
export type PoseValues = Pick<VpdPose, 'bones' | 'morphs'>;

/** A line of the file by bytes: where it starts, where its text ends (before CR LF or LF) and where the next starts. */
interface RawLine {
  offset: number;
  eol: number;
  next: number;
}

function rawLine(b: Uint8Array, offset: number): RawLine {
  const nl = b.indexOf(0x0a, offset);
  const next = nl < 0 ? b.length : nl + 1;
  let eol = nl < 0 ? b.length : nl;
  if (eol > offset && b[eol - 1] === 0x0d) eol--;
  return { offset, eol, next };
}

/** The bytes of a line's values: its text before any "//", without the spaces around it (indent and comment stay). */
function valueSpan(b: Uint8Array, l: RawLine): [number, number] {
  let e = l.eol;
  for (let i = l.offset; i + 1 < l.eol; i++) {
    if (b[i] === 0x2f && b[i + 1] === 0x2f) {
      e = i;
      break;
    }
  }
  let s = l.offset;
  while (s < e && isAsciiSpace(b[s])) s++;
  while (e > s && isAsciiSpace(b[e - 1])) e--;
  return [s, e];
}

/** A section of a VPD file found by updateVpd: its kind, name, number and lines. */
interface Section {
  kind: 'bone' | 'morph';
  name: string;
  head: RawLine;
  /** Position and rotation lines of a bone; the weight line of a morph. */
  values: RawLine[];
  close: RawLine;
}

const sameValues = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * `original` (a VPD file's bytes) with the pose `after` in place of `before`, the pose the original's text was
 * read as (by name; as the editor holds it: see convert.ts saveVpd). Only what changed is written: a value line
 * whose values changed gets new numbers (six decimals, as MMD writes them; its indent and comment stay), a
 * section whose bone or morph `after` lacks is taken out, bones and morphs new in `after` are added after the
 * file's last bone or morph section (MMD writes bones, then morphs) and, where sections came or went, the
 * header's bone count says how many there are. Every other byte stays as it was: −0.000000 as written, the line endings (LF or CR LF), comments,
 * spacing, section numbers, the text after the last section. A section whose name `before` lacks (a name a VMD
 * cannot hold) is kept as it is. Null when `original` is not a VPD readVpd reads.
 */
export function updateVpd(original: Uint8Array, before: PoseValues, after: PoseValues): Uint8Array | null {
  const parsed = readVpd(original);
  if (!parsed.ok) return null;
  const b = original;
  const utf8 = parsed.value.encoding === 'utf-8';
  const encode = (t: string) => (utf8 ? new TextEncoder().encode(t) : encodeSjis(t));
  const firstNl = b.indexOf(0x0a);
  const eolText = firstNl > 0 && b[firstNl - 1] === 0x0d ? '\r\n' : firstNl < 0 ? '\r\n' : '\n';
  // The file's structure, read as readVpd reads it (that succeeded): header lines, then sections.
  const lines = new LineReader(b, utf8);
  const raw = (l: Line) => rawLine(b, l.offset);
  const magic = lines.next()!;
  let headerEnd = raw(magic);
  let countLine: RawLine | null = null;
  let l = lines.next();
  if (l && !/^(Bone|Morph)\d*\{/.test(lines.text(l))) {
    headerEnd = raw(l);
    l = lines.next();
  }
  if (l && /^\d+;?$/.test(lines.text(l))) {
    countLine = headerEnd = raw(l);
    l = lines.next();
  }
  const sections: Section[] = [];
  const numbers = { bone: -1, morph: -1 };
  while (l) {
    const head = lines.text(l);
    const m = BONE_HEAD.exec(head) ?? MORPH_HEAD.exec(head)!;
    const kind = head.startsWith('Bone') ? 'bone' : 'morph';
    const n = /^(?:Bone|Morph)(\d+)/.exec(head);
    if (n) numbers[kind] = Math.max(numbers[kind], Number(n[1]));
    const values: RawLine[] = [];
    for (let k = kind === 'bone' ? 2 : 1; k > 0; k--) values.push(raw(lines.next()!));
    sections.push({ kind, name: m[1].trim(), head: raw(l), values, close: raw(lines.next()!) });
    l = lines.next();
  }

  const byName = <T extends { name: string }>(xs: readonly T[]) => new Map(xs.map((x) => [x.name, x]));
  const bonesBefore = byName(before.bones), bonesAfter = byName(after.bones);
  const morphsBefore = byName(before.morphs), morphsAfter = byName(after.morphs);
  /** Replacements of byte ranges of the original, applied in order of where they start. */
  const edits: { at: number; end: number; text: string }[] = [];
  const setValues = (line: RawLine, text: string) => {
    const [s, e] = valueSpan(b, line);
    edits.push({ at: s, end: e, text });
  };
  const inFile = { bone: new Set<string>(), morph: new Set<string>() };
  let lastBone: Section | null = null, lastMorph: Section | null = null;
  let boneSections = 0, bonesRemoved = 0;
  for (const sec of sections) {
    inFile[sec.kind].add(sec.name);
    if (sec.kind === 'bone') boneSections++;
    const was = sec.kind === 'bone' ? bonesBefore.get(sec.name) : morphsBefore.get(sec.name);
    const now = sec.kind === 'bone' ? bonesAfter.get(sec.name) : morphsAfter.get(sec.name);
    if (was && !now) {
      // Taken out with the blank line after it, so the sections around keep their one blank line between.
      let end = sec.close.next;
      const following = end < b.length ? rawLine(b, end) : null;
      if (following && isBlank(b, following)) end = following.next;
      edits.push({ at: sec.head.offset, end, text: '' });
      if (sec.kind === 'bone') bonesRemoved++;
      continue;
    }
    if (sec.kind === 'bone') lastBone = sec;
    else lastMorph = sec;
    if (!was || !now) continue;
    if (sec.kind === 'bone') {
      const w = was as VpdBone, x = now as VpdBone;
      if (!sameValues(w.position, x.position)) setValues(sec.values[0], positionText(x.position));
      if (!sameValues(w.rotation, x.rotation)) setValues(sec.values[1], rotationText(x.rotation));
    } else {
      const w = was as { weight: number }, x = now as { weight: number };
      if (w.weight !== x.weight) setValues(sec.values[0], weightText(x.weight));
    }
  }
  // New ones go after the last bone (morph) section that stays, as MMD writes bones first, then morphs.
  const newBones = after.bones.filter((x) => !inFile.bone.has(x.name));
  const newMorphs = after.morphs.filter((x) => !inFile.morph.has(x.name));
  const insertAfter = (line: RawLine, blocks: string[][]) => {
    if (blocks.length) edits.push({ at: line.eol, end: line.eol, text: blocks.map((x) => eolText + eolText + x.join(eolText)).join('') });
  };
  const boneAnchor = lastBone?.close ?? headerEnd;
  insertAfter(boneAnchor, newBones.map((x, i) => boneLines(x, numbers.bone + 1 + i)));
  insertAfter(lastMorph?.close ?? (newBones.length ? boneAnchor : headerEnd), newMorphs.map((x, i) => morphLines(x, numbers.morph + 1 + i)));
  const count = boneSections - bonesRemoved + newBones.length;
  // Rewritten only when bone sections came or went (a wrong count in a file otherwise stays as written).
  if (countLine && (bonesRemoved || newBones.length) && count !== parsed.value.declaredBones) {
    const [s] = valueSpan(b, countLine);
    let e = s;
    while (e < countLine.eol && b[e] >= 0x30 && b[e] <= 0x39) e++;
    edits.push({ at: s, end: e, text: String(count) });
  }
  if (!edits.length) return original;
  // Stable: a bone block and a morph block added at one place keep that order.
  const order = edits.map((e, i) => ({ e, i })).sort((x, y) => x.e.at - y.e.at || x.i - y.i);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const { e } of order) {
    parts.push(b.subarray(at, e.at), encode(e.text));
    at = e.end;
  }
  parts.push(b.subarray(at));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Whether a line holds nothing but spaces. */
function isBlank(b: Uint8Array, l: RawLine): boolean {
  for (let i = l.offset; i < l.eol; i++) if (!isAsciiSpace(b[i])) return false;
  return true;
}
