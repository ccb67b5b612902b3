/**
 * Why a texture could not be used, in a language, by its error code and values (readAsset's error, or the
 * texture check's `params.texture`: shared/pmx/texture-file.ts), not by main's or the browser's English text
 * (which the app keeps in the row's tooltip for bug reports).
 */
import { hasString, t, tDynamic } from './strings';
import type { Locale } from './locale';
import type { CodecError } from '../vmd/errors';

export function textureReasonLine(e: Pick<CodecError, 'code' | 'params'>, locale: Locale): string {
  const p = e.params ?? {};
  // A model dropped on a browser's window: no folder to read textures from.
  if (p.dropped) return t('preview.droppedNoFolder', locale);
  if (e.code === 'E_IO_NOT_FOUND') return typeof p.folder === 'string' ? t('tex.folderMissing', locale, { folder: p.folder }) : t('tex.notFound', locale);
  const values = { value: String(p.value ?? ''), format: String(p.format ?? ''), name: String(p.name ?? '') };
  if (p.texture === 'tga' && hasString(`tex.tga.${p.tga}`)) return tDynamic(`tex.tga.${p.tga}`, locale, values);
  if (typeof p.texture === 'string' && hasString(`tex.${p.texture}`)) return tDynamic(`tex.${p.texture}`, locale, values);
  return tDynamic(`err.${e.code}`, locale);
}
