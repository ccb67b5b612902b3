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

/**
 * A PMX model's bytes with its (Japanese) model name replaced by `name` (the text after the globals: a
 * 4-byte length, then UTF-16LE or UTF-8 as globals[0] says), the rest as it was.
 */
export function pmxWithName(pmx: Uint8Array, name: string): Uint8Array {
  const view = new DataView(pmx.buffer, pmx.byteOffset, pmx.byteLength);
  const globals = pmx[8];
  const at = 9 + globals;
  const old = view.getInt32(at, true);
  const utf8 = pmx[9] === 1;
  const text = utf8 ? new TextEncoder().encode(name) : new Uint8Array(Uint16Array.from(name.split(''), (c) => c.charCodeAt(0)).buffer);
  const out = new Uint8Array(pmx.length - old + text.length);
  out.set(pmx.subarray(0, at));
  new DataView(out.buffer).setInt32(at, text.length, true);
  out.set(text, at + 4);
  out.set(pmx.subarray(at + 4 + old), at + 4 + text.length);
  return out;
}
