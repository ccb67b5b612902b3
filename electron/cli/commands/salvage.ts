/**
 * `vmd-studio salvage IN.vmd -o OUT.vmd` — the keys of a VMD cut short (a download or copy that stopped, a disk
 * that filled up) that lie whole in it, written as a VMD of their own (shared/vmd/vmd-salvage.ts): the header and
 * model name as they are, each block up to the damage with the records kept, the blocks after it empty. The app
 * offers the same when such a file is opened (stores/salvage.ts). A file that reads as it is, or is not a VMD, is
 * refused with why (exit 1); the input is never changed.
 */
import path from 'node:path';
import { readVmd, salvageVmd, type CodecError } from '../../../shared/vmd';
import { MAX_MOTION_FILE_BYTES } from '../../../shared/ipc/validate';
import { hasExtension } from '../../../shared/ipc/file-types';
import { readInputBytes, sameFile } from '../../fs/files';
import { writeOutput } from '../output';
import { optValue, parseArgs, UsageError, oneInputError, outputRequired } from '../args';
import type { CommandInfo } from '../io';
import { displayPathAmong, formatCount } from '../format';
import { failWith as fail, jsonSuccess } from './edit-output';

export const salvageCommand: CommandInfo = {
  summary: 'the keys of a damaged (cut short) VMD that can still be read, as a VMD of their own',
  usage: `vmd-studio salvage IN.vmd -o OUT.vmd [--overwrite] [--json] [--quiet]
  A VMD cut short (a download that stopped) is refused by every other command (E_VMD_COUNT, E_VMD_TRUNCATED).
  Its records before the cut are intact: this writes them, block by block in the file's order, up to the block
  where the damage is (its whole records kept), the blocks after it empty. The line says how many keys of that
  block were kept and where the damage begins. A file that reads as it is, or is not a VMD, is refused.
  --overwrite           replace an existing OUT (never the input)
  --json                print what was kept as JSON (input, output, damagedAt, blocks [{block, kept, promised}], kept)
  --quiet               print nothing on success`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output'], flags: ['overwrite', 'json', 'quiet'], aliases: { o: 'output' } });
    if (a.positionals.length !== 1) throw oneInputError();
    const outArg = optValue(a, 'output');
    if (!outArg) throw outputRequired();
    const input = path.resolve(io.cwd, a.positionals[0]);
    const output = path.resolve(io.cwd, outArg);
    if (!hasExtension(output, ['.vmd'])) throw new UsageError(`output must end in .vmd: ${outArg}`);
    if (await sameFile(input, output)) throw new UsageError('the output must be a different file (inputs are never modified)');
    const shown = (f: string) => displayPathAmong(f, [a.positionals[0], outArg], io.cwd);
    const failWith = (e: CodecError) => fail(io, e, input, [a.positionals[0], outArg]);
    const r = await readInputBytes(input, { maxBytes: MAX_MOTION_FILE_BYTES });
    if (!r.ok) return failWith(r.error);
    const whole = readVmd(r.value);
    if (whole.ok) return failWith({ code: 'E_ARGUMENT', message: 'it is not damaged: it reads as it is (nothing to salvage)', file: input });
    const s = salvageVmd(r.value);
    if (!s) return failWith(whole.error);
    const w = await writeOutput(output, s.bytes, a.flags.has('overwrite'));
    if (!w.ok) return failWith({ ...w.error, file: output });
    const last = s.blocks[s.blocks.length - 1];
    if (a.flags.has('json')) jsonSuccess(io, { input, output, damagedAt: s.damagedAt, blocks: s.blocks, kept: s.kept, bytesOut: s.bytes.byteLength });
    else if (!a.flags.has('quiet')) {
      const before = s.blocks.slice(0, -1).map((b) => `${b.block} ${formatCount(b.kept)}`);
      io.stdout(
        `salvage: ${shown(output)}: damaged at byte ${s.damagedAt}, in the ${last.block} block: kept ${formatCount(last.kept)} of its ${formatCount(last.promised)} keys` +
          `${before.length ? `, and every key before it (${before.join(', ')})` : ''}; ${formatCount(s.kept)} keys in all; the blocks after it cannot be read\n`,
      );
    }
    return 0;
  },
};
