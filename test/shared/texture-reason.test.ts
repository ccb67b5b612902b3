/**
 * Texture problems worded by their error code in the app's language (shared/i18n/texture-reason.ts), not by
 * main's or the browser's English text. The expected lines are the string table's, written out here.
 */
import { describe, expect, it } from 'vitest';
import { textureReasonLine } from '../../shared/i18n/texture-reason';
import { checkTextureBytes } from '../../shared/pmx/texture-file';

describe('textureReasonLine', () => {
  it('Japanese lines for the reasons the texture list shows', () => {
    expect(textureReasonLine({ code: 'E_IO_NOT_FOUND' }, 'ja')).toBe('ファイルまたはフォルダがありません');
    expect(textureReasonLine({ code: 'E_IO_NOT_FOUND', params: { folder: 'light/' } }, 'ja')).toBe('フォルダ light/ がありません');
    expect(textureReasonLine({ code: 'E_UNSUPPORTED', params: { texture: 'dds-gpu', format: 'DXT5', name: 'top.dds' } }, 'ja')).toBe('DDS（DXT5）テクスチャはここでは表示できません。top.dds を PNG に変換してください');
    expect(textureReasonLine({ code: 'E_UNSUPPORTED', params: { texture: 'decode', format: 'PNG' } }, 'ja')).toBe('PNG 画像を読み込めませんでした（ファイルの破損？）');
    expect(textureReasonLine({ code: 'E_IO_DENIED' }, 'ja')).toBe('ファイルを読み書きする権限がありません');
  });

  it('the texture check’s refusals carry what the line needs (a Huffman TGA, a cut one, bytes of no picture)', () => {
    const huffman = checkTextureBytes(Uint8Array.from([0, 1, 32, 0, 0, 0, 1, 24, 0, 0, 0, 0, 4, 0, 4, 0, 8, 0]), 'face.tga');
    expect(!huffman.ok && textureReasonLine(huffman.error, 'ja')).toBe('TGA の画像タイプ 32 には対応していません（カラーマップ・フルカラー・グレーのみ）');
    expect(!huffman.ok && textureReasonLine(huffman.error, 'en')).toBe('TGA image type 32 is not supported (colour-mapped, true colour and grey only)');
    const cut = checkTextureBytes(Uint8Array.from([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0, 1, 2, 3]), 'face.tga');
    expect(!cut.ok && textureReasonLine(cut.error, 'ja')).toBe('TGA ファイルが途中で切れています（破損）');
    const text = checkTextureBytes(new TextEncoder().encode('not a picture at all, plain text'), 'face.png');
    expect(!text.ok && textureReasonLine(text.error, 'ja')).toBe('VMD Studio が読める画像ではありません（PNG・JPEG・BMP・GIF・WebP・DDS・TGA）');
  });
});
