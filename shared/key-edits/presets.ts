/**
 * Curve presets (0..127 control points x1, y1, x2, y2). "Linear" spans the whole square; "MMD default"
 * is what MMD writes on a new key (20, 20, 107, 107) — the same straight line, different bytes.
 * The eases are the CSS/Penner curves quantised to the file's grid.
 */
import { LINEAR_CURVE, type Curve } from '../vmd/bezier';

export interface CurvePreset {
  readonly id: string;
  /** i18n key of the display name (user presets carry their own name instead). */
  readonly label: string;
  readonly curve: Curve;
  readonly user?: boolean;
}

export const CURVE_PRESETS: readonly CurvePreset[] = [
  { id: 'linear', label: 'preset.linear', curve: [0, 0, 127, 127] },
  { id: 'mmd-default', label: 'preset.mmdDefault', curve: LINEAR_CURVE },
  { id: 'ease-in', label: 'preset.easeIn', curve: [53, 0, 127, 127] },
  { id: 'ease-out', label: 'preset.easeOut', curve: [0, 0, 74, 127] },
  { id: 'ease-in-out', label: 'preset.easeInOut', curve: [53, 0, 74, 127] },
  { id: 'ease-in-strong', label: 'preset.easeInStrong', curve: [97, 0, 127, 51] },
  { id: 'ease-out-strong', label: 'preset.easeOutStrong', curve: [0, 76, 30, 127] },
  { id: 'ease-in-out-strong', label: 'preset.easeInOutStrong', curve: [110, 0, 17, 127] },
  { id: 'snap', label: 'preset.snap', curve: [127, 0, 127, 0] },
];

export function presetById(id: string): CurvePreset | undefined {
  return CURVE_PRESETS.find((p) => p.id === id);
}

/** Same control points? */
export function sameCurve(a: readonly number[], b: readonly number[]): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}
