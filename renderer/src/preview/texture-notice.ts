/**
 * A model whose textures are mostly missing draws flat white, and the preview's folded line ("Textures not found
 * or unreadable (10)") was the only sign (new-user pass nuprefs 9: a copy of Gene without its light/ folder). When
 * at least half its textures could not be read, or every texture of one folder, one notice says so once per model
 * file in a session, naming the folder looked in: the model's folder moved, or was unpacked without that folder.
 * The preview's list keeps each texture's reason. A model dropped without its folder (the browser's drop gives no
 * path) has its own line in that list, and no notice.
 */
import type { NoticeText } from '../stores/notify';
import type { TextureProblem } from '../stores/preview';
import { fileNameOf, folderOf, isAbsoluteTyped } from '../paths';

/** Model files already told about in this session. */
const told = new Set<string>();

const folderOfTexture = (p: string) => folderOf(p.replace(/\\/g, '/'));

function joinFolder(dir: string, rel: string): string {
  if (!rel) return dir;
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/';
  return `${dir}${dir.endsWith(sep) ? '' : sep}${sep === '\\' ? rel.replace(/\//g, '\\') : rel}`;
}

/**
 * The notice for a model loaded from `modelPath` whose `textures` (as the model stores them) met `problems`, or null
 * when there is nothing to say (most textures read) or it was said before for this file.
 */
export function missingTexturesNotice(modelPath: string, textures: readonly string[], problems: readonly TextureProblem[]): NoticeText | null {
  if (!problems.length || !isAbsoluteTyped(modelPath) || told.has(modelPath)) return null;
  const all = [...new Set(textures)];
  const missing = new Set(problems.map((p) => p.path));
  // The textures by folder (as stored, relative to the model): the folder with the most missing is named.
  const byFolder = new Map<string, { all: number; missing: number }>();
  for (const t of all) {
    const f = folderOfTexture(t);
    const c = byFolder.get(f) ?? { all: 0, missing: 0 };
    c.all++;
    if (missing.has(t)) c.missing++;
    byFolder.set(f, c);
  }
  const worst = [...byFolder.entries()].sort((a, b) => b[1].missing - a[1].missing)[0];
  const mostly = missing.size * 2 >= Math.max(all.length, missing.size);
  const wholeFolder = !!worst && worst[1].missing === worst[1].all && worst[1].all >= 2;
  if (!mostly && !wholeFolder) return null;
  told.add(modelPath);
  const folder = joinFolder(folderOf(modelPath), worst ? worst[0] : '');
  return { key: 'preview.texturesMostlyMissing', params: { n: missing.size, total: Math.max(all.length, missing.size), model: fileNameOf(modelPath), folder } };
}

/** For tests: forget which models were told about. */
export function resetTexturesTold(): void {
  told.clear();
}
