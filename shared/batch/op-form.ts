/**
 * The Batch dialog's form state for one operation and its validation, as pure functions so the rules
 * are tested without a DOM. Form values hold what the widgets hold (number inputs may give numbers or
 * strings, flag checkboxes their checked state, channel checkboxes a list); `validateOpForm` turns them
 * into BatchJob options named like the CLI's, plus a per-field error for anything prepareOp would reject.
 */
import { parseCurveSpec } from '../motion-ops/preset';
import type { BatchStringKey } from '../i18n/batch-strings';
import type { Locale } from '../i18n/locale';
import { CHANNEL_SETS, OP_OPTION_SPECS, type OptionSpec } from './op-specs';
import type { BatchJob, BatchOp } from './types';
import { parseDecimal } from './options';

export type FormValue = string | number | boolean | string[] | null | undefined;
export type OpFormValues = Record<string, FormValue>;

/** The curve select's value for "type x1,y1,x2,y2"; the numbers live under `${name}.custom`. */
export const CUSTOM_CURVE = 'custom';

/** A field's problem: a message key and its parameters; `other` names the option a range check compared with. */
export interface FieldError {
  key: BatchStringKey;
  params?: Record<string, string | number>;
  other?: string;
}

export interface FormCheck {
  options: BatchJob['options'];
  /** By option name; empty when the form is valid. */
  errors: Record<string, FieldError>;
}

/** Whether a flag checkbox starts checked: inverted flags show "what happens without the flag". */
function initialChecked(s: OptionSpec): boolean {
  const on = s.default === true;
  return s.inverted ? !on : on;
}

/** The form's starting values for `op`: defaults filled in, every channel chosen, required fields empty. */
export function initialFormValues(op: BatchOp): OpFormValues {
  const v: OpFormValues = {};
  for (const s of OP_OPTION_SPECS[op]) {
    switch (s.kind) {
      case 'flag':
        v[s.name] = initialChecked(s);
        break;
      case 'channels':
        v[s.name] = [...CHANNEL_SETS[s.channels ?? 'bone']];
        break;
      case 'curve':
        v[s.name] = '';
        v[`${s.name}.custom`] = '';
        break;
      case 'number':
      case 'integer':
        v[s.name] = typeof s.default === 'number' ? s.default : '';
        break;
      default:
        v[s.name] = typeof s.default === 'string' ? s.default : '';
    }
  }
  return v;
}

/** Whether the option's flag (flag specs) is on, from the checkbox state. */
function flagOn(s: OptionSpec, checked: FormValue): boolean {
  return s.inverted ? checked !== true : checked === true;
}

const isBlank = (x: FormValue) => x === undefined || x === null || (typeof x === 'string' && x.trim() === '');

/** Checks the form and builds the job's options; options whose flag (enabledBy) is off are left out. */
export function validateOpForm(op: BatchOp, values: OpFormValues): FormCheck {
  const specs = OP_OPTION_SPECS[op];
  const options: BatchJob['options'] = {};
  const errors: Record<string, FieldError> = {};
  const numbers = new Map<string, number>();
  const enabled = (s: OptionSpec) => {
    if (!s.enabledBy) return true;
    const gate = specs.find((g) => g.name === s.enabledBy);
    return gate ? flagOn(gate, values[gate.name]) : true;
  };

  for (const s of specs) {
    if (!enabled(s)) continue;
    const raw = values[s.name];
    switch (s.kind) {
      case 'flag':
        if (flagOn(s, raw)) options[s.name] = true;
        break;
      case 'number':
      case 'integer': {
        if (isBlank(raw)) {
          if (s.required) errors[s.name] = { key: 'batch.err.required' };
          break;
        }
        const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseDecimal(raw) : NaN;
        if (!Number.isFinite(n)) errors[s.name] = { key: 'batch.err.number' };
        else if (s.kind === 'integer' && !Number.isInteger(n)) errors[s.name] = { key: 'batch.err.integer' };
        else if (s.min !== undefined && n < s.min) errors[s.name] = { key: 'batch.err.min', params: { min: s.min } };
        else if (s.positive && !(n > 0)) errors[s.name] = { key: 'batch.err.positive' };
        else {
          numbers.set(s.name, n);
          options[s.name] = n;
        }
        break;
      }
      case 'text':
      case 'file': {
        if (isBlank(raw)) {
          if (s.required) errors[s.name] = { key: 'batch.err.required' };
        } else options[s.name] = String(raw).trim();
        break;
      }
      case 'curve': {
        if (isBlank(raw)) {
          if (s.required) errors[s.name] = { key: 'batch.err.required' };
          break;
        }
        const spec = raw === CUSTOM_CURVE ? String(values[`${s.name}.custom`] ?? '').trim() : String(raw);
        // A custom curve must be the four numbers; parseCurveSpec would also take a preset name typed there.
        const numeric = /^\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*\d+\s*$/.test(spec);
        if ((raw === CUSTOM_CURVE && !numeric) || !parseCurveSpec(spec).ok) errors[s.name] = { key: 'batch.err.curve' };
        else options[s.name] = spec.replace(/\s+/g, '');
        break;
      }
      case 'channels': {
        const all: readonly string[] = CHANNEL_SETS[s.channels ?? 'bone'];
        const chosen = Array.isArray(raw) ? all.filter((c) => raw.includes(c)) : [];
        if (chosen.length === 0) errors[s.name] = { key: 'batch.err.channels' };
        // Every channel is what the operation does without the option; only a subset needs saying.
        else if (chosen.length < all.length) options[s.name] = chosen.join(',');
        break;
      }
    }
  }

  // Two flags that exclude each other (the form unticks one as the other is ticked): the later one is refused.
  for (const s of specs) {
    if (!s.excludes || options[s.name] !== true || options[s.excludes] !== true) continue;
    if (specs.findIndex((x) => x.name === s.excludes) < specs.indexOf(s)) errors[s.name] = { key: 'batch.err.notWith', other: s.excludes };
  }

  for (const s of specs) {
    if (!s.notBefore || errors[s.name]) continue;
    const mine = numbers.get(s.name);
    const other = numbers.get(s.notBefore);
    if (mine !== undefined && other !== undefined && mine < other) errors[s.name] = { key: 'batch.err.notBefore', other: s.notBefore };
  }
  return { options, errors };
}

/** Transfer rate and time left from a progress event; null until there is something to measure. */
export function progressFigures(p: { bytesDone: number; bytesTotal: number; elapsedMs: number }): { mbPerSecond: number | null; etaSeconds: number | null } {
  if (p.elapsedMs <= 0 || p.bytesDone <= 0) return { mbPerSecond: null, etaSeconds: null };
  const bytesPerMs = p.bytesDone / p.elapsedMs;
  return {
    mbPerSecond: (bytesPerMs * 1000) / (1024 * 1024),
    etaSeconds: Math.max(0, (p.bytesTotal - p.bytesDone) / bytesPerMs / 1000),
  };
}

/** "42 s", "3 min 05 s", "1 h 02 min" (Japanese: "42 秒", "3 分 05 秒", "1 時間 02 分"): short enough for a progress line. */
export function formatEta(seconds: number, locale: Locale = 'en'): string {
  const [h, min, sec] = locale === 'ja' ? ['時間', '分', '秒'] : ['h', 'min', 's'];
  const s = Math.round(seconds);
  if (s < 60) return `${s} ${sec}`;
  if (s < 3600) return `${Math.floor(s / 60)} ${min} ${String(s % 60).padStart(2, '0')} ${sec}`;
  return `${Math.floor(s / 3600)} ${h} ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} ${min}`;
}
