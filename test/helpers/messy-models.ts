/**
 * Messy model folders as downloads arrive, made at test time from the corpus's Gene_light.pmx (its texture
 * table and material fields rewritten: pmx-textures.ts) and a copy of its `light/` textures in a temp folder.
 * Gene's textures, in table order: hair2 arm bottoms face eye extra eye2 top pale iraira (all `light/*.png`);
 * material k uses texture k for 髪 手肌 アンダー 顔 目 星目 ぐるぐる目 トップス, 頬薄赤/頬斜線/頬照り use extra.
 */
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { corpusPath } from './corpus';
import { rewritePmxTextures, type MaterialTextures } from './pmx-textures';

export const GENE_DIR = corpusPath('gene');
export const GENE_TEXTURES = ['light/hair2.png', 'light/arm.png', 'light/bottoms.png', 'light/face.png', 'light/eye.png', 'light/extra.png', 'light/eye2.png', 'light/top.png', 'light/pale.png', 'light/iraira.png'];

/**
 * Writes `dir/Gene_light.pmx` with the given texture table (Gene's own when left out) and material edits, and
 * copies Gene's light/ pictures into `dir/<into>` (`null`: none; '.': beside the model). Returns the model's path.
 */
export function geneFolder(dir: string, o: { textures?: string[]; edit?: (m: MaterialTextures) => void; into?: string | null } = {}): string {
  mkdirSync(dir, { recursive: true });
  const into = o.into === undefined ? 'light' : o.into;
  if (into === '.') for (const f of readdirSync(path.join(GENE_DIR, 'light'))) copyFileSync(path.join(GENE_DIR, 'light', f), path.join(dir, f));
  else if (into !== null) cpSync(path.join(GENE_DIR, 'light'), path.join(dir, into), { recursive: true });
  const model = path.join(dir, 'Gene_light.pmx');
  writeFileSync(model, rewritePmxTextures(new Uint8Array(readFileSync(path.join(GENE_DIR, 'Gene_light.pmx'))), o.textures, o.edit));
  return model;
}

/** The table with entry `i` replaced for each [i, name]. */
export function withTextures(...changes: [number, string][]): string[] {
  const t = [...GENE_TEXTURES];
  for (const [i, name] of changes) t[i] = name;
  return t;
}
