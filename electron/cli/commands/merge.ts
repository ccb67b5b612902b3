/** `vmd-studio merge A.vmd B.vmd ... -o OUT.vmd` — motions one after another or on one timeline. */
import path from 'node:path';
import { readInputBytes, sameAsAny } from '../../fs/files';
import { MAX_MOTION_FILE_BYTES } from '../../../shared/ipc/validate';
import type { Outcome, VmdDocument } from '../../../shared/vmd';
import { convertFirstMessage, readVmdAs } from '../file-kind';
import { merge } from '../../../shared/motion-ops';
import { warn } from '../../../shared/edit-core/report';
import { optNumber, optValue, parseArgs, UsageError, outputRequired } from '../args';
import type { CommandInfo } from '../io';
import { failWith, writeEditResult } from './edit-output';
import { displayPath, formatCount } from '../format';
import { count, plural, agree } from '../../../shared/i18n/plural';
import { cliProgress } from '../progress';

/**
 * The summary of a merge: how many keys each input gave the output and the total ("a.vmd 273,668 + b.vmd 273,668
 * → 547,336 keys; 0 dropped"), the duplicates left out counted as dropped. The edits' "kept …, added 0" read as
 * if the second and later files were ignored: every merged key is "kept".
 */
export function mergeLine(r: Record<string, unknown>, names: readonly string[]): string {
  const from = names.map((name, i) => `${name} ${formatCount(Number(r[`keysFrom${i + 1}`] ?? 0))}`).join(' + ');
  const dropped = Number(r.collisions ?? 0);
  return `${from} → ${plural(formatCount(Number(r.kept ?? 0)), 'key')}; ${formatCount(dropped)} dropped${dropped ? ' (a (name, frame) already merged: the first file wins)' : ''}`;
}

async function loadVmdFile(file: string, given: string): Promise<Outcome<VmdDocument>> {
  const r = await readInputBytes(file, { maxBytes: MAX_MOTION_FILE_BYTES });
  if (!r.ok) return r;
  return readVmdAs(file, r.value, 'merge', given);
}

export const mergeCommand: CommandInfo = {
  summary: 'join motions one after another (--gap N) or on one timeline (--overlay); duplicates reported',
  usage: `vmd-studio merge A.vmd B.vmd [C.vmd...] -o OUT.vmd [--gap N] [--overlay] [--overwrite] [--json] [--quiet]
  Concatenate: each next file starts at (last frame so far) + N (default 1).
  --overlay: all files on one timeline (motion + facial + camera).
  A (name, frame) pair is never written twice: the first file wins; dropped duplicates are reported.`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'gap'], flags: ['overlay', 'overwrite', 'json', 'quiet'], aliases: { o: 'output' } });
    if (a.positionals.length < 2) throw new UsageError('give at least two input files');
    const outArg = optValue(a, 'output');
    if (!outArg) throw outputRequired();
    const gap = optNumber(a, 'gap', { integer: true, min: 0 }) ?? 1;
    for (const p of a.positionals) {
      // An input of the wrong kind by its name: exit status 1, as one found by its content.
      const convertFirst = convertFirstMessage('merge', p);
      if (convertFirst) return failWith(io, { code: 'E_VMD_MAGIC', message: convertFirst, file: path.resolve(io.cwd, p) }, undefined, a.positionals);
    }
    const inputs = a.positionals.map((p) => path.resolve(io.cwd, p));
    const output = path.resolve(io.cwd, outArg);
    if (await sameAsAny(inputs, output)) throw new UsageError('the output must not be one of the inputs');
    const docs: VmdDocument[] = [];
    for (const [i, f] of inputs.entries()) {
      const l = await loadVmdFile(f, a.positionals[i]);
      if (!l.ok) return failWith(io, l.error, f, a.positionals);
      docs.push(l.value);
    }
    // Merging big files takes seconds: its keys told on stderr as the other long commands tell theirs (progress.ts).
    const progress = cliProgress(io, 'merge', 'keys', a.flags.has('quiet'));
    const r = merge(docs, { gap, overlay: a.flags.has('overlay'), progress: progress.tell });
    progress.end();
    if (!r.ok) return failWith(io, r.error);
    // A camera motion merged with a model's motion: the output is one file holding both, which MMD loads onto a
    // model (its camera keys then do nothing) or onto the camera (its bone keys then do nothing). Said, not refused.
    const isModel = (d: VmdDocument) => d.bone.count > 0 || d.morph.count > 0;
    if (docs.some(isModel)) {
      for (const [i, d] of docs.entries()) {
        const n = d.camera.count;
        if (!isModel(d) && n > 0) warn(r.value.report, 'W_MERGE_CAMERA_MOTION', `${a.positionals[i]} is a camera motion: its ${plural(count(n), 'camera key')} ${agree(n, 'was', 'were')} added to a model motion (MMD plays them only when the file is loaded onto the camera)`, { file: a.positionals[i], n });
      }
    }
    return writeEditResult(io, a, output, r.value.doc, r.value.report, 'merge', (s) => mergeLine(s, a.positionals.map((p) => displayPath(path.resolve(io.cwd, p), p, io.cwd))));
  },
};
