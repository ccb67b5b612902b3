/**
 * The key inspector's model when many keys are selected: each field shows the value all the selected
 * keys share, or "mixed" (—) when they differ at the precision the field shows; what the user types
 * becomes one ValueEdit for every selected key — a plain number sets the field on each, a relative
 * entry (+5, +=5, -=10°, −10 with a minus sign) adds to each key's own value.
 */
import { quaternionToEulerDegrees } from '../vmd/camera';
import { physicsOff } from '../vmd/interpolation';
import { boneInterpolation, bonePosition, boneRotation, cameraKey, frameOf, ikKey, lightKey, morphWeight, shadowKey } from '../vmd/records';
import type { VmdDocument } from '../vmd/vmd-document';
import type { EditKind, KeyRef } from './key-ref';
import { RecordSet } from './record-set';
import { LIGHT_COLOR_SCALE, SHADOW_RANGE_MAX, shadowRangeOf, storedFov, storedShadowDistance, type NumericValues, type ValueEdit } from './values';

/** The numeric field groups of the inspector (each one value or a row of components). */
export type NumericGroup = keyof NumericValues;

/** Decimal places each field shows; values equal at this precision count as the same. */
export const FIELD_DIGITS: Record<NumericGroup | 'frame', number> = {
  frame: 0, position: 4, euler: 3, quaternion: 5, weight: 4, distance: 4, target: 4, cameraRotation: 3, fov: 0, direction: 4,
  // The light colour as MMD's panel shows it: whole numbers 0–255 (LIGHT_COLOR_SCALE; 0.602 reads 154).
  color: 0,
  // The self-shadow distance as MMD's panel shows it (0–9999, shadowRangeOf); 2 places show a float32's steps
  // near the whole numbers MMD writes (0.01125 reads 8875).
  shadowDistance: 2,
};

/** One field over the selected keys: the active key's value, and whether the keys disagree. */
export interface MixedField<T = number> {
  readonly value: T;
  readonly mixed: boolean;
}

/** A number field as the inspector shows it: its value when the keys agree, empty when mixed or absent. */
export function mixedText(f: MixedField | undefined): string {
  return f && !f.mixed ? String(f.value) : '';
}

/** An IK bone's switch over the selected display/IK keys that list it. */
export interface MixedIk extends MixedField<boolean> {
  readonly name: string;
  /** How many of the selected keys list this IK bone. */
  readonly keys: number;
}

export interface KeySummary {
  readonly kind: EditKind;
  /** Selected keys of the active key's kind (the ones an edit reaches). */
  readonly count: number;
  readonly frame: MixedField;
  /** Numeric groups of this kind, one entry per component. */
  readonly numbers: Partial<Record<NumericGroup, readonly MixedField[]>>;
  readonly physics?: MixedField<boolean>;
  readonly perspective?: MixedField<boolean>;
  readonly display?: MixedField<boolean>;
  /** Self-shadow mode (0 off, 1, 2) over the selected self-shadow keys. */
  readonly shadowMode?: MixedField<number>;
  /** IK bones in the order the active key lists them, then those only other keys list. */
  readonly iks?: readonly MixedIk[];
}

/** `v` rounded to `digits` decimals (what the field shows). */
export function roundTo(v: number, digits: number): number {
  const k = 10 ** digits;
  const r = Math.round(v * k) / k;
  return r === 0 ? 0 : r; // −0 shows as 0
}

/** Per-key values of one kind, as rows of numbers per group and flags. */
interface KeyValues {
  frame: number;
  numbers: Partial<Record<NumericGroup, number[]>>;
  flags: { physics?: boolean; perspective?: boolean; display?: boolean };
  shadowMode?: number;
  iks?: { name: string; enabled: boolean }[];
}

function valuesOf(doc: VmdDocument, ref: KeyRef): KeyValues {
  const i = ref.record;
  const frame = frameOf(doc[ref.kind], i);
  switch (ref.kind) {
    case 'bone': {
      const q = boneRotation(doc.bone, i);
      return {
        frame,
        numbers: { position: [...bonePosition(doc.bone, i)], euler: [...quaternionToEulerDegrees(q)], quaternion: [...q] },
        flags: { physics: !physicsOff(boneInterpolation(doc.bone, i)) },
      };
    }
    case 'morph':
      return { frame, numbers: { weight: [morphWeight(doc.morph, i)] }, flags: {} };
    case 'camera': {
      const c = cameraKey(doc.camera, i);
      return {
        frame,
        numbers: { distance: [c.distance], target: [...c.target], cameraRotation: c.rotation.map((r) => (r * 180) / Math.PI), fov: [c.fov] },
        flags: { perspective: c.perspective === 0 },
      };
    }
    case 'light': {
      const l = lightKey(doc.light, i);
      return { frame, numbers: { color: l.color.map((c) => c * LIGHT_COLOR_SCALE), direction: [...l.direction] }, flags: {} };
    }
    case 'shadow': {
      const s = shadowKey(doc.shadow, i);
      return { frame, numbers: { shadowDistance: [shadowRangeOf(s.distance)] }, flags: {}, shadowMode: s.mode };
    }
    case 'ik': {
      const k = ikKey(doc.ik, i);
      return { frame, numbers: {}, flags: { display: k.visible !== 0 }, iks: k.iks.map((x) => ({ name: x.name, enabled: x.enabled !== 0 })) };
    }
  }
}

function mixedFlag(values: readonly boolean[]): MixedField<boolean> {
  return { value: values[0], mixed: values.some((v) => v !== values[0]) };
}

/**
 * What the inspector shows for the selected keys of the active key's kind; values are the active
 * key's (rounded as shown), `mixed` where any selected key differs. Null when the active key is gone.
 */
export function summarizeKeys(doc: VmdDocument, refs: readonly KeyRef[], active: KeyRef): KeySummary | null {
  const set = new RecordSet();
  for (const r of refs) if (r.kind === active.kind) set.add(r.record);
  return summarizeKeySet(doc, set, active);
}

/**
 * summarizeKeys over a selection's record set of the active key's kind, in one pass with no object per
 * key kept (KeySummarizer).
 */
export function summarizeKeySet(doc: VmdDocument, set: { forEach(fn: (record: number) => void): void }, active: KeyRef): KeySummary | null {
  const s = KeySummarizer.start(doc, active);
  if (!s) return null;
  set.forEach((r) => s.add(r));
  return s.result();
}

/**
 * The inspector's summary built key by key, so a large selection can be summarised in slices between
 * frames (the editor feeds it a few thousand records per slice). Each field remembers only whether a key
 * disagreed with the active key; once every field has (and the kind lists no IK bones to count), further
 * keys are only counted. A bone key's Euler angles are computed only while an Euler field still agrees.
 */
export class KeySummarizer {
  private readonly first: KeyValues;
  private readonly kind: EditKind;
  private readonly activeRecord: number;
  private readonly n: number;
  private readonly groups: NumericGroup[];
  private readonly firstRounded: number[][];
  private readonly mixedNums: boolean[][];
  private readonly frame0: number;
  private frameMixed = false;
  private shadowMixed = false;
  private readonly flagNames: ('physics' | 'perspective' | 'display')[];
  private readonly flagMixed: Partial<Record<'physics' | 'perspective' | 'display', boolean>> = {};
  private readonly byName = new Map<string, boolean[]>();
  /** Fields still to compare; at 0 the remaining keys are only counted. */
  private open: number;
  private count = 1;

  /** A summariser for `active` (counted once, first), or null when it is not a record of `doc`. */
  static start(doc: VmdDocument, active: KeyRef): KeySummarizer | null {
    if (active.record < 0 || active.record >= doc[active.kind].count) return null;
    return new KeySummarizer(doc, active.kind, active.record);
  }

  private constructor(private readonly doc: VmdDocument, kind: EditKind, record: number) {
    this.kind = kind;
    this.activeRecord = record;
    this.n = doc[kind].count;
    this.first = valuesOf(doc, { kind, record });
    this.groups = Object.keys(this.first.numbers) as NumericGroup[];
    this.firstRounded = this.groups.map((g) => this.first.numbers[g]!.map((v) => roundTo(v, FIELD_DIGITS[g])));
    this.mixedNums = this.groups.map((g) => this.first.numbers[g]!.map(() => false));
    this.frame0 = roundTo(this.first.frame, FIELD_DIGITS.frame);
    this.flagNames = (['physics', 'perspective', 'display'] as const).filter((f) => this.first.flags[f] !== undefined);
    this.addIks(this.first);
    this.open = 1 + this.mixedNums.reduce((m, x) => m + x.length, 0) + this.flagNames.length + (this.first.shadowMode !== undefined ? 1 : 0);
  }

  private addIks(v: KeyValues) {
    for (const x of v.iks ?? []) {
      let a = this.byName.get(x.name);
      if (!a) this.byName.set(x.name, (a = []));
      a.push(x.enabled);
    }
  }

  /** Counts and compares one more selected record (records past the block and the active key are skipped). */
  add(r: number): void {
    if (r >= this.n || r === this.activeRecord) return;
    this.count++;
    if (this.open === 0 && this.kind !== 'ik') return;
    const v = this.kind === 'bone' ? this.boneValues(r) : valuesOf(this.doc, { kind: this.kind, record: r });
    if (!this.frameMixed && roundTo(v.frame, FIELD_DIGITS.frame) !== this.frame0) (this.frameMixed = true), this.open--;
    for (let gi = 0; gi < this.groups.length; gi++) {
      const row = v.numbers[this.groups[gi]];
      if (!row) continue;
      const m = this.mixedNums[gi], f = this.firstRounded[gi], d = FIELD_DIGITS[this.groups[gi]];
      for (let c = 0; c < m.length; c++) if (!m[c] && roundTo(row[c], d) !== f[c]) (m[c] = true), this.open--;
    }
    for (const f of this.flagNames) if (!this.flagMixed[f] && v.flags[f] !== this.first.flags[f]) (this.flagMixed[f] = true), this.open--;
    if (this.first.shadowMode !== undefined && !this.shadowMixed && v.shadowMode !== this.first.shadowMode) (this.shadowMixed = true), this.open--;
    this.addIks(v);
  }

  /** A bone key's values; its Euler angles only while an Euler field still agrees (they cost the most). */
  private boneValues(i: number): KeyValues {
    const q = boneRotation(this.doc.bone, i);
    const gi = this.groups.indexOf('euler');
    const euler = gi >= 0 && this.mixedNums[gi].some((m) => !m) ? [...quaternionToEulerDegrees(q)] : undefined;
    return {
      frame: frameOf(this.doc.bone, i),
      numbers: { position: [...bonePosition(this.doc.bone, i)], euler, quaternion: [...q] },
      flags: { physics: !physicsOff(boneInterpolation(this.doc.bone, i)) },
    };
  }

  /** The summary of the keys added so far. */
  result(): KeySummary {
    const numbers: Partial<Record<NumericGroup, MixedField[]>> = {};
    this.groups.forEach((g, gi) => (numbers[g] = this.firstRounded[gi].map((value, c) => ({ value, mixed: this.mixedNums[gi][c] }))));
    const first = this.first;
    const flag = (f: 'physics' | 'perspective' | 'display') => (first.flags[f] === undefined ? undefined : { value: first.flags[f]!, mixed: !!this.flagMixed[f] });
    return {
      kind: this.kind,
      count: this.count,
      frame: { value: this.frame0, mixed: this.frameMixed },
      numbers,
      physics: flag('physics'),
      perspective: flag('perspective'),
      display: flag('display'),
      shadowMode: first.shadowMode === undefined ? undefined : { value: first.shadowMode, mixed: this.shadowMixed },
      iks: this.kind === 'ik' ? [...this.byName].map(([name, v]) => ({ name, keys: v.length, ...mixedFlag(v) })) : undefined,
    };
  }

  /**
   * What to show while the rest is still being read: `count` keys, every field mixed (not yet known to
   * agree), the IK bones seen so far.
   */
  provisional(count: number): KeySummary {
    const r = this.result();
    const mixed = <T>(f: MixedField<T> | undefined) => (f ? { value: f.value, mixed: true } : undefined);
    const numbers: Partial<Record<NumericGroup, MixedField[]>> = {};
    for (const g of this.groups) numbers[g] = r.numbers[g]!.map((f) => ({ value: f.value, mixed: true }));
    return { ...r, count, frame: mixed(r.frame)!, numbers, physics: mixed(r.physics), perspective: mixed(r.perspective), display: mixed(r.display), shadowMode: mixed(r.shadowMode) };
  }
}

/** A parsed entry: set every key to `value`, add `value` to each key's own, or multiply each key's own by it. */
export interface Entry {
  readonly mode: 'set' | 'offset' | 'scale';
  readonly value: number;
}

/**
 * Reads what was typed in a field. Full-width digits and signs (an IME's) count as ASCII; a trailing
 * ° is allowed. `+5`, `+=5`, `-=5` and `−5` (U+2212, the minus sign) are offsets; `-5` and `5` set.
 * `*0.8`, `×0.8`, `*=0.8` scale each key's own value by 0.8, `/2` and `/=2` by ½ (a smile toned down over
 * many keys: new-user pass numorph 8); a scale of 0 by division is refused. Null for an empty or unreadable
 * entry (the field then keeps its value).
 */
export function parseEntry(text: string): Entry | null {
  let s = text.normalize('NFKC').trim().replace(/\s*(°|度)$/, '').trim();
  let mode: Entry['mode'] = 'set';
  let sign = 1;
  const scale = /^([*×/])=?\s*/.exec(s);
  if (scale) {
    const by = s.slice(scale[0].length).trim();
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(by)) return null;
    const v = Number(by);
    if (!Number.isFinite(v) || (scale[1] === '/' && v === 0)) return null;
    return { mode: 'scale', value: scale[1] === '/' ? 1 / v : v };
  }
  const op = /^([+-])=\s*/.exec(s);
  if (op) {
    mode = 'offset';
    sign = op[1] === '-' ? -1 : 1;
    s = s.slice(op[0].length);
  } else if (s.startsWith('+')) {
    mode = 'offset';
    s = s.slice(1);
  } else if (s.startsWith('\u2212')) {
    mode = 'offset';
    sign = -1;
    s = s.slice(1);
  }
  s = s.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return null;
  const v = Number(s);
  return Number.isFinite(v) ? { mode, value: sign * v } : null;
}

/**
 * Whether a scale entry (`*0.5`) means something in `group`: a morph weight (0.8 of a smile) and a bone position
 * (an offset from the bone's rest place, so ×0.5 halves the move). Not a rotation (an Euler angle scaled alone
 * turns the key about another axis than its own; a quaternion scaled is no rotation), nor the camera's, light's
 * or self-shadow's fields, nor a frame (no time stretch): there the Key panel refuses it and says where it works.
 */
export function scalable(group: NumericGroup): boolean {
  return group === 'weight' || group === 'position';
}

/**
 * The edit for an entry in one field: component `c` of `group` (0 for single-value fields). Every
 * other component stays each key's own. A scale entry is for the groups `scalable` names.
 */
export function entryEdit(group: NumericGroup, c: number, entry: Entry): ValueEdit {
  // The self-shadow field is in MMD's units (shadowRangeOf): a range typed becomes the stored distance, an
  // offset of the range the stored one's (a larger range is a smaller stored number).
  // A range set stops at MMD's slider (0–9999, shadowDistanceClamp says so); editRecord keeps a sum there too.
  // MMD's 影範囲 is a whole number: what is typed is rounded (wholeNumberRounding says so).
  if (group === 'shadowDistance') {
    const r = Math.round(entry.value);
    return entry.mode === 'set' ? { shadowDistance: storedShadowDistance(clampShadowRange(r)) } : { offset: { shadowDistance: -r / 100000 } };
  }
  // The light colour is typed as MMD's panel shows it, whole numbers 0–255, rounded and kept in its range (lightColorClamp).
  if (group === 'color') {
    const r = Math.round(entry.value);
    entry = { mode: entry.mode, value: entry.mode === 'set' ? clampLightColor(r) / LIGHT_COLOR_SCALE : r / LIGHT_COLOR_SCALE };
  }
  // MMD's 照明 direction runs −1…+1 (directionClamp says so when a typed value leaves it; editRecord keeps a sum there).
  if (group === 'direction' && entry.mode === 'set') entry = { mode: 'set', value: clampDirection(entry.value) };
  const single = group === 'weight' || group === 'distance' || group === 'fov';
  const values: NumericValues = {};
  if (single) (values as Record<string, number>)[group] = entry.value;
  else {
    const v: (number | undefined)[] = [undefined, undefined, undefined, undefined];
    v[c] = entry.value;
    (values as Record<string, (number | undefined)[]>)[group] = v;
  }
  return entry.mode === 'set' ? values : entry.mode === 'scale' ? { scale: values as ValueEdit['scale'] } : { offset: values };
}

function clampDirection(v: number): number {
  return Math.min(1, Math.max(-1, v));
}

/**
 * A light direction entry (−1…1, as MMD's 照明 panel) that leaves the range for the key shown (`shown`): the value
 * it stops at, −1 or 1. Null when the entry stays in range. The edit keeps every key in range (entryEdit, editRecord).
 */
export function directionClamp(entry: Entry, shown: number | undefined): number | null {
  const v = entry.mode === 'set' ? entry.value : shown === undefined ? null : shown + entry.value;
  if (v === null || (v >= -1 && v <= 1)) return null;
  return clampDirection(v);
}

/**
 * A light colour or self-shadow range entry that is not a whole number (MMD's panels take whole numbers): the
 * whole number it is stored as, as typed (+0.6 → "+1", 127.6 → "128"). Null when it is whole.
 */
export function wholeNumberRounding(entry: Entry): string | null {
  const r = Math.round(entry.value);
  if (r === entry.value) return null;
  return entry.mode === 'offset' ? (r < 0 ? `−${-r}` : `+${r}`) : String(r);
}

function clampLightColor(v: number): number {
  return Math.min(LIGHT_COLOR_SCALE, Math.max(0, v));
}

/**
 * A light colour entry (0–255, as MMD's panel) that leaves the range for the key shown (`shown`, its
 * channel on the panel's scale): the value it stops at, 0 or 255. Null when the entry stays in range.
 * The edit itself keeps every key in range (entryEdit clamps a set value, editRecord a sum).
 */
export function lightColorClamp(entry: Entry, shown: number | undefined): number | null {
  const r = Math.round(entry.value);
  const v = entry.mode === 'set' ? r : shown === undefined ? null : shown + r;
  if (v === null || (v >= 0 && v <= LIGHT_COLOR_SCALE)) return null;
  return clampLightColor(v);
}

function clampShadowRange(v: number): number {
  return Math.min(SHADOW_RANGE_MAX, Math.max(0, v));
}

/**
 * A self-shadow range entry (0–9999, as MMD's panel) that leaves the range for the key shown (`shown`, its
 * range on the panel): the value it stops at, 0 or 9999. Null when the entry stays in range. The edit itself
 * keeps every key in range (entryEdit clamps a set value, editRecord a sum).
 */
export function shadowDistanceClamp(entry: Entry, shown: number | undefined): number | null {
  const r = Math.round(entry.value);
  const v = entry.mode === 'set' ? r : shown === undefined ? null : shown + r;
  // The shown range is rounded to 2 places (FIELD_DIGITS): a hair past an end is the float32's step, no entry's.
  if (v === null || (v >= -0.005 && v <= SHADOW_RANGE_MAX + 0.005)) return null;
  return clampShadowRange(v);
}

/**
 * A FOV entry that is not stored as typed (MMD's 視野角 is a whole number, 1–179 here): the whole number it
 * becomes (45.6 → 46). Null when the entry (or, for an offset, the key shown plus it) is stored as it is.
 */
export function fovRounding(entry: Entry, shown: number | undefined): number | null {
  const v = entry.mode === 'set' ? entry.value : shown === undefined ? null : shown + entry.value;
  if (v === null) return null;
  const stored = storedFov(v);
  return stored === v ? null : stored;
}

/** How far to move the selected keys for a frame entry, given the active key's frame. */
export function frameDelta(entry: Entry, activeFrame: number): number {
  return Math.round(entry.mode === 'offset' ? entry.value : entry.value - activeFrame);
}
