/**
 * Rename / retarget bones (and optionally morphs) from a mapping. Names are matched in decoded form
 * and re-encoded to Shift_JIS; a new name that does not fit its field (15 bytes; IK names 20) or
 * cannot be encoded is reported and the key keeps its old name — never cut. When two names map onto
 * one, keys that then share a (name, frame) collide: the first in the file is kept, the rest counted.
 *
 * Mapping files: JSON `{ "old": "new", … }`, `{ "bones": {…}, "morphs": {…} }` or `[["old", "new"], …]`
 * (the morphs section may send one morph to several, `"まばたき": ["まばたき", ["じと目", 0.8]]`, or list
 * `["old", "new", ratio]`); CSV/TSV with two columns old,new and an optional third, a ratio (lines
 * starting with # are comments, an "old,new" / "from,to" / "source,target" header, with ",ratio", is skipped, a field may be double-quoted: a quote opens one only at the field's
 * start, elsewhere it is part of the name). A line is tab-separated when it
 * holds a tab outside quotes; a quoted field may hold a comma, a tab or a line break.
 *
 * Errors name the line (CSV) or the entry (JSON) and the problem, never the text there: the mapping
 * path comes from outside, and quoting it would show a line of whatever file it names.
 */
import { encodeNameField, sjisLength } from '../vmd/sjis';
import type { ArgumentError, Outcome } from '../vmd/errors';
import { BONE, IK, MORPH, type BlockKind } from '../vmd/vmd-layout';
import { blockFromRecords, ikBlockFromRecords, viewOf, withBlocks, type FixedBlock, type VmdDocument } from '../vmd/vmd-document';
import { decodeName } from '../vmd/sjis';
import { copyRecord, frameAt, NameCache } from '../edit-core/record-util';
import { edited, editError, finishReport, newReport, type EditReport, type EditResult, warn } from '../edit-core/report';
import { count, plural, agree } from '../i18n/plural';

export interface NameMapping {
  bones: Map<string, string>;
  /** Morph name → morph name (a source listed with several targets: its first). */
  morphs: Map<string, string>;
  /**
   * Every row of the morphs section in file order, with its ratio (1 when not given): one source morph may
   * go to several targets (the retarget copies it onto each, weight × ratio). Absent: the rows of `morphs`.
   */
  morphRows?: MapRow[];
  /**
   * A map without sections (CSV, or JSON pairs): every row in file order with its ratio. Which rows are
   * bones and which morphs only the models tell (the retarget reads a row whose names are morphs as a
   * morph row); `bones` holds them all, a later row of a name winning, as before.
   */
  looseRows?: MapRow[];
}

/** One row of a name map: a name, the name it becomes, and a weight ratio (morphs: weight × ratio; 1 when the map gives none). */
export interface MapRow {
  from: string;
  to: string;
  ratio: number;
}

/** The rows of a mapping's morphs section (its `morphRows`, else its `morphs` pairs at ratio 1). */
export function morphRowsOf(m: NameMapping): MapRow[] {
  return m.morphRows ?? [...m.morphs].map(([from, to]) => ({ from, to, ratio: 1 }));
}

/** What is wrong with a mapping's text (the app's strings are `opt.<problem>`). */
export type MappingProblem = 'mapJson' | 'mapJsonAt' | 'mapShape' | 'mapEntry' | 'mapColumns' | 'mapQuote' | 'mapRatio';

export type MappingError = ArgumentError<MappingProblem>;

function mappingError(problem: MappingProblem, message: string, params: Record<string, string | number> = {}): MappingError {
  return { code: 'E_ARGUMENT', message, problem, params };
}

/** A ratio as a map gives it: a finite number (a JSON number, or a CSV field that reads as one). */
function ratioOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/**
 * A section's pairs, and its rows in order. `many` (the morphs section): an object's value may also be a
 * list of targets, each a name or [name, ratio], and a list entry may be [old, new, ratio].
 */
function pairsFromJson(v: unknown, where: string, many = false): { pairs: Map<string, string>; rows: MapRow[] } | MappingError {
  const m = new Map<string, string>();
  const rows: MapRow[] = [];
  const add = (from: string, to: string, ratio = 1) => {
    if (!m.has(from) || !many) m.set(from, to);
    rows.push({ from, to, ratio });
  };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p: unknown = v[i];
      const triple = many && Array.isArray(p) && p.length === 3 && ratioOf(p[2]) !== null && typeof p[2] === 'number';
      if (!Array.isArray(p) || !(p.length === 2 || triple) || typeof p[0] !== 'string' || typeof p[1] !== 'string') {
        return mappingError('mapEntry', `${where}: entry ${i + 1} must be ["old", "new"]${many ? ' or ["old", "new", ratio]' : ''}`, { entry: i + 1, section: where });
      }
      add(p[0], p[1], triple ? (p[2] as number) : 1);
    }
    return { pairs: m, rows };
  }
  if (v && typeof v === 'object') {
    let i = 0;
    for (const [k, x] of Object.entries(v)) {
      i++;
      if (typeof x === 'string') {
        add(k, x);
        continue;
      }
      // One morph onto several: ["まばたき", ["じと目", 0.8]].
      const targets = many && Array.isArray(x) && x.length > 0 ? x : null;
      const ok = targets?.every((t: unknown) => typeof t === 'string' || (Array.isArray(t) && t.length === 2 && typeof t[0] === 'string' && typeof t[1] === 'number' && Number.isFinite(t[1])));
      if (!targets || !ok) {
        const shape = many ? 'a string, or a list of names and [name, ratio] pairs' : 'a string';
        return mappingError('mapEntry', `${where}: entry ${i} must map a name to ${shape}`, { entry: i, section: where });
      }
      for (const t of targets as (string | [string, number])[]) typeof t === 'string' ? add(k, t) : add(k, t[0], t[1]);
    }
    return { pairs: m, rows };
  }
  return mappingError('mapShape', `${where}: expected an object or a list of pairs`, { section: where });
}

/** One CSV record as readRecord reads it: its fields (not trimmed), where the next begins, and what it met. */
interface CsvRecord {
  fields: string[];
  next: number;
  /** A tab stood outside quotes (with ',' as the separator: the record is then tab-separated). */
  tab: boolean;
  /** A quoted field ran to the end of the text. */
  open: boolean;
}

/**
 * The record of `text` that begins at `at`, fields separated by `sep`, to the line break that ends it.
 * A field whose first character (after blanks) is a double quote is quoted: it ends at the next lone
 * quote ("" inside stands for one) and may hold the separator, a tab or a line break. Anywhere else a
 * quote is a character like any other (`12" arm` is a name), as RFC 4180 and spreadsheets read it.
 * Characters between a closing quote and the separator are kept.
 */
function readRecord(text: string, at: number, sep: string): CsvRecord {
  const fields: string[] = [];
  let cur = '', tab = false, quoted = false, blank = true;
  // A tab counts only between two non-blank parts of the record: one at either end is trimmed away.
  let content = false, tabAfterContent = false;
  let i = at;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch !== '"') {
        if (!(ch === '\r' && text[i + 1] === '\n')) cur += ch;
      } else if (text[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = false;
      continue;
    }
    if (ch === '\n') break;
    if (ch === sep) {
      fields.push(cur);
      cur = '';
      blank = true;
      continue;
    }
    const space = ch === ' ' || ch === '\t' || ch === '\r';
    if (ch === '\t' && content) tabAfterContent = true;
    if (!space) {
      if (tabAfterContent) tab = true;
      content = true;
    }
    if (blank && ch === '"') {
      quoted = true;
      blank = false;
      continue;
    }
    if (!space) blank = false;
    cur += ch;
  }
  fields.push(cur);
  return { fields, next: i + 1, tab, open: quoted };
}

/** A field as parseMapping reads it back: quoted (inner quotes doubled) where it holds a comma, a quote, a tab or a line break. */
function csvField(s: string): string {
  const quoted = /[",\t\r\n]/.test(s);
  return quoted ? '"' + s.replaceAll('"', '""') + '"' : s;
}

/**
 * Pairs as a CSV mapping file, `old,new` per line, which parseMapping reads back as the same pairs
 * (the --map file the capture import's dialog saves). The reader trims each field's ends.
 */
export function mappingCsv(rows: readonly (readonly [string, string])[]): string {
  return rows.map(([a, b]) => `${csvField(a)},${csvField(b)}`).join('\n') + '\n';
}

/** 1-based line of character `at` in `text`. */
function lineOf(text: string, at: number): number {
  let n = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** How parseMapping reads a mapping file's text: as `format` when given, else JSON when it starts with { or [. */
export function mappingTextFormat(text: string, format?: 'json' | 'csv'): 'json' | 'csv' {
  return format ?? (/^\s*[[{]/.test(text.replace(/^\uFEFF/, '')) ? 'json' : 'csv');
}

/**
 * A mapping error as said of the file `name` (the command line's words): "bad.csv line 1: expected two columns…",
 * "bad.json is not valid JSON (…)", "bad.json: bones: entry 2 …" (parseMapping says "mapping", naming no file).
 */
export function mappingErrorIn(name: string, e: MappingError): MappingError {
  const message = /^mapping\b/.test(e.message) ? name + e.message.slice('mapping'.length) : `${name}: ${e.message}`;
  return { ...e, message };
}

/** Parses a mapping file's text; `format` defaults to JSON when the text starts with { or [. */
export function parseMapping(text: string, format?: 'json' | 'csv'): Outcome<NameMapping, MappingError> {
  const t = text.replace(/^\uFEFF/, '');
  const fmt = mappingTextFormat(t, format);
  if (fmt === 'json') {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      // Only the position: the engine's message quotes the text around it.
      const at = /position (\d+)/.exec((e as Error)?.message ?? '');
      if (!at) return { ok: false, error: mappingError('mapJson', 'mapping is not valid JSON') };
      const line = lineOf(t, Number(at[1]));
      return { ok: false, error: mappingError('mapJsonAt', `mapping is not valid JSON (at line ${line}, character ${at[1]})`, { line, char: Number(at[1]) }) };
    }
    if (v && typeof v === 'object' && !Array.isArray(v) && ('bones' in v || 'morphs' in v)) {
      const o = v as { bones?: unknown; morphs?: unknown };
      const bones = o.bones === undefined ? { pairs: new Map<string, string>(), rows: [] } : pairsFromJson(o.bones, 'bones');
      const morphs = o.morphs === undefined ? { pairs: new Map<string, string>(), rows: [] } : pairsFromJson(o.morphs, 'morphs', true);
      if (!('pairs' in bones)) return { ok: false, error: bones };
      if (!('pairs' in morphs)) return { ok: false, error: morphs };
      return { ok: true, value: { bones: bones.pairs, morphs: morphs.pairs, morphRows: morphs.rows } };
    }
    const bones = pairsFromJson(v, 'mapping');
    if (!('pairs' in bones)) return { ok: false, error: bones };
    return { ok: true, value: { bones: bones.pairs, morphs: new Map(), looseRows: bones.rows } };
  }
  const bones = new Map<string, string>();
  const rows: MapRow[] = [];
  for (let at = 0, first = 1; at < t.length; ) {
    const nl = t.indexOf('\n', at);
    const lineEnd = nl < 0 ? t.length : nl;
    const lineText = t.slice(at, lineEnd);
    if (/^\s*#/.test(lineText) || !lineText.trim()) {
      at = lineEnd + 1;
      first++;
      continue;
    }
    // Comma-separated unless a tab stands outside quotes (then read again, tab-separated).
    let rec = readRecord(t, at, ',');
    if (rec.tab) rec = readRecord(t, at, '\t');
    if (rec.open) return { ok: false, error: mappingError('mapQuote', `mapping line ${first}: a quoted name is not closed`, { line: first }) };
    const cols = rec.fields.map((f) => f.trim());
    const startLine = first;
    // A quoted field may hold line breaks: the next record's line counts them.
    for (let k = at; k < rec.next && k < t.length; k++) if (t.charCodeAt(k) === 10) first++;
    at = rec.next;
    // A third column, a ratio (vmd_sizing's morph maps: じと目 at 0.8 of まばたき), may be left empty.
    if (cols.length === 3 && cols[2] === '') cols.pop();
    if ((cols.length !== 2 && cols.length !== 3) || !cols[0] || !cols[1]) {
      const got = cols.length !== 2 && cols.length !== 3 ? plural(cols.length, 'column') : 'an empty column';
      return { ok: false, error: mappingError('mapColumns', `mapping line ${startLine}: expected two columns old,new, got ${got}`, { line: startLine, columns: cols.length }) };
    }
    if (bones.size === 0 && /^(old|from|source)$/i.test(cols[0]) && /^(new|to|target)$/i.test(cols[1]) && (cols.length === 2 || /^(ratio|rate|weight)$/i.test(cols[2]))) continue;
    const ratio = cols.length === 3 ? ratioOf(cols[2]) : 1;
    if (ratio === null) return { ok: false, error: mappingError('mapRatio', `mapping line ${startLine}: the third column, a ratio, must be a number`, { line: startLine }) };
    bones.set(cols[0], cols[1]);
    rows.push({ from: cols[0], to: cols[1], ratio });
  }
  return { ok: true, value: { bones, morphs: new Map(), looseRows: rows } };
}

export interface RenameOptions {
  /** Apply the bone mapping to morph names too (when the mapping has no morph section). */
  morphsToo?: boolean;
}

export function rename(doc: VmdDocument, mapping: NameMapping, opts: RenameOptions = {}): EditResult {
  if (mapping.bones.size === 0 && mapping.morphs.size === 0) return editError('the mapping is empty', 'E_ARGUMENT');
  const rep = newReport('rename');
  const names = new NameCache();
  const used = new Set<string>();
  const badNames = new Set<string>(); // (name, field length) already warned about
  const tooLong = new Set<string>();
  const encoded = new Map<string, Uint8Array | null>();
  const encode = (name: string, len: number): Uint8Array | null => {
    const key = name + '\u0000' + len;
    let e = encoded.get(key);
    if (e === undefined) {
      const r = encodeNameField(name, len);
      e = r.ok ? r.value : null;
      if (!r.ok && !badNames.has(key)) {
        badNames.add(key);
        tooLong.add(name);
        // Coded by why (too long for the field, or a character Shift_JIS lacks), for the user's language.
        const long = r.error.code === 'E_NAME_TOO_LONG';
        warn(rep, long ? 'W_RENAME_TOO_LONG' : 'W_RENAME_UNENCODABLE', `not renamed to "${name}": ${r.error.message}`, long ? { name, bytes: sjisLength(name), limit: len } : { name });
      }
      encoded.set(key, e);
    }
    return e;
  };

  const named = (kind: 'bone' | 'morph', block: FixedBlock, map: Map<string, string>): Uint8Array[] => {
    const c = rep.byKind[kind];
    const holder = new Map<string, boolean>(); // (name, frame) -> whether that key was renamed
    const out: Uint8Array[] = [];
    const len = kind === 'bone' ? BONE.NAME_LENGTH : MORPH.NAME_LENGTH;
    for (let i = 0; i < block.count; i++) {
      const r = copyRecord(block, i);
      const old = names.name(kind, r);
      const target = map.get(old);
      let renamed = false;
      if (target !== undefined) {
        used.add(kind + ':' + old);
        const bytes = encode(target, len);
        if (bytes && target !== old) {
          r.set(bytes, 0);
          renamed = true;
        }
      }
      const key = (renamed ? target! : old) + '\u0000' + frameAt(block, i);
      const prev = holder.get(key);
      if (prev !== undefined && (prev || renamed)) {
        c.collisions++;
        continue;
      }
      if (prev === undefined) holder.set(key, renamed);
      if (renamed) c.changed++;
      c.kept++;
      out.push(r);
    }
    return out;
  };

  const morphMap = mapping.morphs.size ? mapping.morphs : opts.morphsToo ? mapping.bones : new Map<string, string>();
  const bones = named('bone', doc.bone, mapping.bones);
  const morphs = named('morph', doc.morph, morphMap);

  const iks: Uint8Array[] = [];
  for (let i = 0; i < doc.ik.count; i++) {
    const r = copyRecord(doc.ik, i);
    const n = viewOf(r).getUint32(IK.COUNT, true);
    let changed = false;
    for (let j = 0; j < n; j++) {
      const p = IK.HEADER + j * IK.ITEM;
      const old = decodeName(r, p, IK.ITEM_NAME_LENGTH);
      const target = mapping.bones.get(old);
      if (target === undefined || target === old) continue;
      used.add('bone:' + old);
      const bytes = encode(target, IK.ITEM_NAME_LENGTH);
      if (bytes) {
        r.set(bytes, p);
        changed = true;
      }
    }
    if (changed) rep.byKind.ik.changed++;
    iks.push(r);
  }
  rep.byKind.ik.kept = iks.length;
  for (const k of ['camera', 'light', 'shadow'] as BlockKind[]) rep.byKind[k].kept = doc[k].count;
  noteCollisions(rep);
  let unused = 0;
  for (const k of mapping.bones.keys()) if (!used.has('bone:' + k)) unused++;
  for (const k of morphMap.keys()) if (!used.has('morph:' + k) && morphMap !== mapping.bones) unused++;
  rep.extra.unusedMappings = unused;
  rep.extra.namesTooLong = tooLong.size;
  const out = withBlocks(doc, {
    bone: blockFromRecords('bone', bones),
    morph: blockFromRecords('morph', morphs),
    ik: ikBlockFromRecords(iks),
  });
  return edited(out, finishReport(rep));
}

function noteCollisions(rep: EditReport): void {
  for (const k of ['bone', 'morph'] as const) {
    const n = rep.byKind[k].collisions;
    if (n) warn(rep, 'W_RENAME_COLLISIONS', `${plural(count(n), `${k} key`)} now ${agree(n, 'shares', 'share')} a (name, frame) with an earlier key and ${agree(n, 'was', 'were')} left out (the first in the file kept)`, { n, kind: k });
  }
}
