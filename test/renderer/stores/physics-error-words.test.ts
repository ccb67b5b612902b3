// A model whose physics cannot be read (a PMD with a NaN mass, a PMX with an unknown joint type): the app's
// Japanese line names the rigid body or joint and the field, as the English does, and says nothing of PMX for a
// PMD. Before: "PMX にない種類の剛体またはジョイント…（69179 バイト目）" for miku_nan.pmd, without which body or
// field. The preview's "Physics: unreadable" tooltip and list say it in the UI's language (they ended in English).
import { describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { readModel } from '../../../shared/pmx';
import { describeError } from '../../../renderer/src/stores/notify';
import { corpusPresent, readCorpus, corpusModel } from '../../helpers/corpus';

const c = corpusPresent ? it : it.skip;

/** The corpus model with `damage` done to a copy of its bytes, read: its physics error. */
function broken(rel: string, damage: (dv: DataView, bytes: Uint8Array) => void) {
  const bytes = readCorpus(rel).slice();
  damage(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes);
  const r = readModel(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return { ...r.value.physicsError!, file: `/m/${rel.split('/').pop()}` };
}

describe('broken physics, said in Japanese with the body or joint and the field', () => {
  c('a PMD rigid body with a NaN mass: 剛体 0「頭」: 質量が NaN…, no "PMX"; English as the reader says it', () => {
    setActivePinia(createPinia());
    const rel = 'mmd-viewer-js/model/low_miku/miku.pmd';
    const m = corpusModel(rel);
    // PMD body (83 bytes): name 20 | bone 2 | group, mask, shape (4) | size | position | rotation | mass …
    const e = broken(rel, (dv) => dv.setFloat32(m.rigidBodies[0].offset + 62, NaN, true));
    const name = m.rigidBodies[0].name;
    expect(describeError(e, 'en').message).toBe(`miku.pmd: rigid body 0 "${name}": mass is NaN, not a number Bullet can take (at byte ${m.rigidBodies[0].offset})`);
    const ja = describeError(e, 'ja').message;
    expect(ja).toBe(`miku.pmd: 剛体 0「${name}」: 質量が NaN で、Bullet で扱える数値ではありません（壊れたファイル）（${m.rigidBodies[0].offset} バイト目）`);
    expect(ja).not.toContain('PMX');
  });

  c('a PMX joint with an infinite spring and a body past 1e7: the joint or body, the field and its axis, in Japanese', () => {
    setActivePinia(createPinia());
    const rel = 'gene/Gene_light.pmx';
    const m = corpusModel(rel);
    const b = readCorpus(rel);
    const spring = broken(rel, (dv) => dv.setFloat32(m.joints[5].offset + 1 + 2 * b[9 + 7] + 84 + 8, Infinity, true));
    expect(describeError(spring, 'ja').message).toContain(`ジョイント 5「${m.joints[5].name}」: 回転ばねの z 成分が Infinity で、Bullet で扱える数値ではありません`);
    const size = broken(rel, (dv) => dv.setFloat32(m.rigidBodies[0].offset + b[9 + 5] + 4 + 4, 1e10, true));
    expect(describeError(size, 'ja').message).toContain(`剛体 0「${m.rigidBodies[0].name}」: 大きさの y 成分が 1.00e+10 で、±10,000,000 を超えています`);
  });
});
