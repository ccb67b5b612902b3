/**
 * How the Morphs tab cuts a name too wide for its column (MorphPanel.vue): its start, then "…" (CSS), then its
 * last characters. A long name (NAME_SPLIT characters or more) keeps its tail, so eye_wink_geo_L and
 * eye_wink_geo_R differ ("eye_…eo_L", "eye_…eo_R"). The tail also reaches back past the end it shares with
 * another name of the list, by one character, so names that differ only in the middle stay apart:
 * eye_surprise_geo_L and eye_sad_geo_L share "_geo_L" and show "…e_geo_L" and "…d_geo_L" (both read
 * "eye_s…eo_L" before). A short name is not split: ウィンク右 cut as "ウ" + "ィンク右" lost its first character
 * when the column left the head no room (1280×720), with no "…" to say so. The tail is at most TAIL_MAX
 * characters, so the start keeps room in a narrow column.
 */
const NAME_TAIL = 4;
const NAME_SPLIT = 10;
const TAIL_MAX = 9;

/** Characters at the end `a` and `b` share. */
function sharedEnd(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** Each name's [head, tail] ('' tail: not split), given the other names shown with it. */
export function morphNameParts(names: readonly string[]): Map<string, [head: string, tail: string]> {
  const chars = names.map((n) => [...n]);
  const out = new Map<string, [string, string]>();
  chars.forEach((c, i) => {
    if (c.length < NAME_SPLIT) {
      out.set(names[i], [names[i], '']);
      return;
    }
    let shared = 0;
    chars.forEach((o, j) => {
      if (j !== i) shared = Math.max(shared, sharedEnd(c, o));
    });
    // The shared end and one character more, when that leaves some of the start ahead of it.
    const tail = Math.min(TAIL_MAX, Math.max(NAME_TAIL, shared + 1), c.length - 3);
    out.set(names[i], [c.slice(0, c.length - tail).join(''), c.slice(c.length - tail).join('')]);
  });
  return out;
}
