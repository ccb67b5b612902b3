/**
 * What the morph panel's number box reads (new-user pass numorph 9: "0,5" registered 1.0 and 1.5 / −0.3 were clamped
 * without a word). A decimal comma is a decimal point ("0,5" is 0.5: a European keyboard's habit, and the box holds one
 * number, so a comma there separates nothing else); full-width digits (an IME's) count as ASCII. A weight outside 0–1
 * is clamped, as MMD's 表情操作 panel keeps its slider and box to 0–1, and the caller says so (a key may still hold
 * another value: a VMD stores any float, and the Key panel's Weight field writes one as typed).
 */
export type WeightEntry = { ok: true; weight: number; clampedFrom?: number } | { ok: false; empty: boolean };

export function parseWeight(text: string): WeightEntry {
  let s = text.normalize('NFKC').trim().replace(/\u2212/g, '-');
  if (!s) return { ok: false, empty: true };
  if (/^[-+]?\d*,\d+$/.test(s)) s = s.replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return { ok: false, empty: false };
  const v = Number(s);
  if (!Number.isFinite(v)) return { ok: false, empty: false };
  const weight = Math.max(0, Math.min(1, v));
  return weight === v ? { ok: true, weight } : { ok: true, weight, clampedFrom: v };
}
