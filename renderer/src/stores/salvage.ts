/**
 * A VMD cut short (a download or copy that stopped, a disk that filled up) is refused by the reader, which guesses
 * nothing (E_VMD_COUNT, E_VMD_TRUNCATED). Its records before the cut are intact, and a person who has no other
 * copy wants them: opening such a file asks whether to open the keys that lie whole (shared/vmd/vmd-salvage.ts)
 * as an unsaved copy with no file, so the damaged file is never written over (Save asks for a name). The question
 * says where the damage is and how many keys of that block are kept. Cancel leaves the refusal as it was.
 */
import { salvageVmd, type CodecError, type VmdSalvage } from '../../../shared/vmd';
import { hasExtension } from '../../../shared/ipc/file-types';
import { fileNameOf, stemOf } from '../paths';
import { useConfirmStore } from './confirm';
import { decodeDocument, type DocumentContent } from './workspace';

const SALVAGED_CODES: ReadonlySet<string> = new Set(['E_VMD_COUNT', 'E_VMD_TRUNCATED']);

/** The name the copy opens under: "walk.vmd" → "walk-recovered.vmd" (only a .vmd is salvaged: salvageOf). */
export function recoveredName(file: string): string {
  return `${stemOf(fileNameOf(file))}-recovered.vmd`;
}

/**
 * What a damaged VMD still holds (see the file comment), or null when there is nothing to salvage: another error,
 * a pose, not one key whole. Synchronous, so a caller with nothing to ask reports the refusal at once.
 */
export function salvageOf(file: string, bytes: Uint8Array, error: Pick<CodecError, 'code'>): VmdSalvage | null {
  if (!SALVAGED_CODES.has(error.code) || !hasExtension(file, ['.vmd'])) return null;
  const s = salvageVmd(bytes);
  return s && s.kept > 0 ? s : null;
}

/**
 * Asks whether to open what a damaged VMD still holds (see the file comment): the copy's content (no file), or
 * null when there is nothing to salvage (salvageOf) or the person declines.
 */
export async function askSalvage(file: string, bytes: Uint8Array, error: Pick<CodecError, 'code'>): Promise<DocumentContent | null> {
  const s = salvageOf(file, bytes, error);
  if (!s) return null;
  const last = s.blocks[s.blocks.length - 1];
  const name = recoveredName(file);
  const choice = await useConfirmStore().ask({
    title: { key: 'salvage.title' },
    message: {
      key: 'salvage.ask',
      params: {
        file: fileNameOf(file),
        at: s.damagedAt,
        block: { key: `salvage.block.${last.block}` },
        kept: last.kept,
        count: last.promised,
        keys: s.kept,
        copy: name,
      },
    },
    buttons: [
      { choice: 'salvage', label: 'salvage.open', params: { n: s.kept } },
      { choice: 'cancel', label: 'close.cancel' },
    ],
  });
  if (choice !== 'salvage') return null;
  const d = decodeDocument(name, s.bytes);
  return d.ok ? d.value : null;
}
