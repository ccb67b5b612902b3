/** Corpus models with damage written into their bytes, for the tests of what the reader repairs and says. */
import { readModel } from '../../shared/pmx';
import { encodeSjis } from '../../shared/vmd/sjis';
import { readCorpus } from './corpus';

/** Byte offset of the one PMD bone record whose 20-byte name field starts with `name` and a NUL. */
function pmdBoneRecord(bytes: Uint8Array, name: string): number {
  const field = [...encodeSjis(name), 0];
  const hits: number[] = [];
  for (let k = 0; k + field.length <= bytes.length; k++) if (field.every((x, j) => bytes[k + j] === x)) hits.push(k);
  if (hits.length !== 1) throw new Error(`bone "${name}" found ${hits.length} times`);
  return hits[0];
}

/**
 * The low-poly Miku (PMD) with two bones damaged: ﾈｸﾀｲ１'s parent made bone 28672 (the model has 83), and
 * 上半身's parent made 首, its own child (a loop of two). The reader makes ﾈｸﾀｲ１ a root and cuts the loop at
 * 上半身 (bone 2), each with a note.
 */
export function mikuWithBadBones(): Uint8Array {
  const bytes = readCorpus('mmd-viewer-js/model/low_miku/miku.pmd').slice();
  const m = readModel(bytes);
  if (!m.ok) throw new Error(m.error.message);
  const neck = m.value.bones.findIndex((b) => b.name === '首');
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  // PMD bone record: name 20 | parent u16 | …
  view.setUint16(pmdBoneRecord(bytes, 'ﾈｸﾀｲ１') + 20, 0x7000, true);
  view.setUint16(pmdBoneRecord(bytes, '上半身') + 20, neck, true);
  return bytes;
}
