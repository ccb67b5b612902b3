/**
 * Where a long Latin morph or bone name may wrap: between the words a model maker joined (browOuterUp|Right,
 * eye_|surprise_|geo_|L, mouthSmile|2). The panel puts a <wbr> at each, so a name wraps at a word and is
 * broken inside one only where a single word is wider than the line; a wrap anywhere split browOuterUpRight as
 * browOuterU / pRight, and two near-identical names read alike. Japanese text wraps between characters as it did.
 */
export function nameParts(name: string): string[] {
  return name.split(/(?<=[a-z])(?=[A-Z])|(?<=[_\-.])(?=[^_\-.])|(?<=[A-Za-z])(?=[0-9])/);
}
