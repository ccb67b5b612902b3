// A model whose textures are mostly missing (new-user pass nuprefs 9: Gene without its light/ folder drew flat
// white, and a folded line under the preview was the only sign): one notice, once per model file, naming the folder
// looked in. A model missing a texture or two, or dropped without its folder (no path), gets none.
import { beforeEach, describe, expect, it } from 'vitest';
import { missingTexturesNotice, resetTexturesTold } from '../../../renderer/src/preview/texture-notice';
import { renderText } from '../../../renderer/src/stores/notify';

const gone = (paths: string[]) => paths.map((path) => ({ path, reason: 'no such file or folder' }));
const GENE = ['light\\body.png', 'light\\face.png', 'light\\hair.png', 'light\\eye.png', 'toon01.bmp'];

beforeEach(() => resetTexturesTold());

describe('the notice of textures mostly missing', () => {
  it("Gene without light/: names the count and the folder looked in (en, ja), once per model file", () => {
    const text = missingTexturesNotice('/m/gene/Gene_light.pmx', GENE, gone(GENE.slice(0, 4)));
    expect(text).not.toBeNull();
    expect(renderText(text!, 'en')).toBe('Gene_light.pmx: 4 of its 5 textures could not be read from /m/gene/light, so it draws white: was the model’s folder moved, or unpacked without that folder?');
    expect(renderText(text!, 'ja')).toBe('Gene_light.pmx: テクスチャ 5 個のうち 4 個を /m/gene/light から読めないため白く表示されます。モデルのフォルダを移動したか、そのフォルダを展開し忘れていませんか？');
    // The same file again (a reload, the next actor on it): said already.
    expect(missingTexturesNotice('/m/gene/Gene_light.pmx', GENE, gone(GENE.slice(0, 4)))).toBeNull();
    // A copy elsewhere is another model file.
    expect(missingTexturesNotice('/tmp/copy/Gene_light.pmx', GENE, gone(GENE))).not.toBeNull();
  });

  it('a Windows path: the folder in its own separators', () => {
    const text = missingTexturesNotice('C:\\MMD\\Gene\\Gene_light.pmx', GENE, gone(GENE.slice(0, 4)));
    expect(renderText(text!, 'en')).toContain('from C:\\MMD\\Gene\\light,');
  });

  it('every texture of one folder, fewer than half in all: said, naming that folder', () => {
    const many = ['a.png', 'b.png', 'c.png', 'd.png', 'e.png', 'sph/s1.spa', 'sph/s2.spa'];
    const text = missingTexturesNotice('/m/x/x.pmx', many, gone(['sph/s1.spa', 'sph/s2.spa']));
    expect(renderText(text!, 'en')).toBe('x.pmx: 2 of its 7 textures could not be read from /m/x/sph, so it draws white: was the model’s folder moved, or unpacked without that folder?');
  });

  it('one texture of five missing, none missing, or a model dropped without a path: no notice', () => {
    expect(missingTexturesNotice('/m/gene/Gene_light.pmx', GENE, gone(['light\\eye.png']))).toBeNull();
    expect(missingTexturesNotice('/m/gene/Gene_light.pmx', GENE, [])).toBeNull();
    expect(missingTexturesNotice('Gene_light.pmx', GENE, gone(GENE))).toBeNull();
  });
});
