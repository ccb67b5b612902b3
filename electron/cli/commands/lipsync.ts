/**
 * `vmd-studio lipsync TIMINGS -o OUT.vmd [--model M] [--weight W] [--fps N]` — lip sync from a timing list or a
 * Julius / HTK .lab file (shared/key-edits/mouth-timings.ts), written as a face motion of its own: each timing keys
 * its vowel at the weight and every other mouth shape 0 there, as the morph panel's tap mode and its Import mouth
 * timings… key them (keyMouthTimings). Without --model the morphs are MMD's standard あ い う え お; with it, the
 * model's own (findMouthShapes: English names too, and its ん ワ ω zeroed with the rest) and its name in the header.
 * Exit status: 0 written, 1 a file failed (a bad line named with its line), 2 bad arguments.
 */
import path from 'node:path';
import { writeVmd } from '../../../shared/vmd';
import { emptyVmd } from '../../../shared/vmd/vmd-build';
import { modelNameField } from '../../../shared/vmd/model-name';
import { buildTracks } from '../../../shared/vmd/tracks';
import { MAX_TIMING_FILE_BYTES, decodeTimingText, findMouthShapes, keyMouthTimings, MOUTH_SHAPE_LABEL, parseMouthTimings, VOWELS, type MouthShape } from '../../../shared/key-edits';
import { hasExtension } from '../../../shared/ipc/file-types';
import { readInputBytes, sameFile } from '../../fs/files';
import { loadModelFile, modelOptionTakes } from '../../fs/model-file';
import { writeOutput } from '../output';
import { optNumber, optValue, parseArgs, UsageError, oneInputError, outputRequired } from '../args';
import type { CommandInfo } from '../io';
import { displayPathAmong, formatCount } from '../format';
import { failWith as fail, jsonSuccess } from './edit-output';


export const lipsyncCommand: CommandInfo = {
  summary: 'lip sync from a timing list (FRAME VOWEL) or a Julius/HTK .lab file, as a face motion',
  usage: `vmd-studio lipsync TIMINGS -o OUT.vmd [--model MODEL.pmx] [--weight W] [--fps N] [--overwrite] [--json] [--quiet]
  TIMINGS is either a list, one "FRAME VOWEL" per line ("12 a", "30 お", "45 -"): a i u e o, あいうえお or
  アイウエオ, and n ん - for the mouth closed; # starts a comment. Or a .lab file of a phoneme segmentation
  (Julius's segmentation kit, HTK): "START END PHONEME" per line, times in seconds, or in HTK's 100 ns units when
  every time is a whole number and the largest is at least 100000 (the line says which it assumed). A vowel is
  keyed at its start; N (ん), q/cl (っ), pau, sil, sp and the lip consonants m b p close the mouth; other consonants
  hold the vowel before them. Each timing keys its vowel at the weight and every other mouth shape 0 there, and
  the first vowel 0 at frame 0 (a VMD holds a track's first weight from the start), as the app's lip-sync mode keys.
  A bad line is refused with its line number; two timings on one frame: the later line wins.
  --model MODEL         key that model's mouth morphs (found by MMD's names あ い う え お, else English names:
                        a i u e o, aa ih ou e oh, Fcl_MTH_A…) and write its name in the header; a vowel it lacks
                        closes the mouth there. Without it: the standard あ い う え お, no model name.
  --weight W            the weight a vowel is keyed at, 0–1 (default 1)
  --fps N               frames a second for a .lab file's times (default 30, MMD's)
  --overwrite           replace an existing OUT (never the input)
  --json                print what was made as JSON (input, output, format, unit, timings, merged, keys, frames,
                        morphs, missing, closedForMissing)
  --quiet               print nothing on success`,
  async run(argv, io) {
    const a = parseArgs(argv, { values: ['output', 'model', 'weight', 'fps'], flags: ['overwrite', 'json', 'quiet'], aliases: { o: 'output' } });
    if (a.positionals.length !== 1) throw oneInputError();
    const outArg = optValue(a, 'output');
    if (!outArg) throw outputRequired();
    const weight = optNumber(a, 'weight', { min: 0 }) ?? 1;
    if (weight > 1) throw new UsageError(`--weight must be 0–1, got "${optValue(a, 'weight')}"`, `--weight は 0〜1 にしてください（「${optValue(a, 'weight')}」が指定されました）`);
    const fps = optNumber(a, 'fps') ?? 30;
    if (!(fps > 0 && fps <= 1000)) throw new UsageError(`--fps must be above 0 and at most 1000, got "${optValue(a, 'fps')}"`, `--fps は 0 より大きく 1000 以下にしてください（「${optValue(a, 'fps')}」が指定されました）`);
    const modelArg = optValue(a, 'model');
    if (modelArg === '') throw new UsageError('--model needs a .pmx or .pmd file');
    const input = path.resolve(io.cwd, a.positionals[0]);
    const output = path.resolve(io.cwd, outArg);
    const model = modelArg === undefined ? null : path.resolve(io.cwd, modelArg);
    if (!hasExtension(output, ['.vmd'])) throw new UsageError(`output must end in .vmd: ${outArg}`);
    for (const f of [input, model]) if (f !== null && (await sameFile(f, output))) throw new UsageError('the output must be a different file (inputs are never modified)');
    const givens = [a.positionals[0], outArg, ...(modelArg ? [modelArg] : [])];
    const failWith = (e: Parameters<typeof fail>[1], file: string) => fail(io, e, file, givens);

    let found: Partial<Record<MouthShape, string>> = { a: 'あ', i: 'い', u: 'う', e: 'え', o: 'お' };
    let modelName = '';
    if (model !== null) {
      const m = await loadModelFile(model, modelOptionTakes('--model'));
      if (!m.ok) return failWith(m.error, model);
      found = findMouthShapes(m.value.morphs).found;
      modelName = m.value.name;
      if (!Object.keys(found).length) {
        return failWith({ code: 'E_ARGUMENT', option: 'model', message: 'the model has no vowel morph (あ い う え お, or a i u e o): nothing to key', params: { problem: 'noVowels' } }, model);
      }
    }
    const r = await readInputBytes(input, { maxBytes: MAX_TIMING_FILE_BYTES });
    if (!r.ok) return failWith(r.error, input);
    const parsed = parseMouthTimings(decodeTimingText(r.value), input, fps);
    if (!parsed.ok) return failWith(parsed.error, input);
    const { timings, format, unit, merged } = parsed.value;

    const name = modelNameField(modelName);
    const doc = { ...emptyVmd(), modelName: name.field };
    const out = keyMouthTimings(doc, buildTracks(doc), timings, found, weight);
    if (!out.ok) return failWith({ code: out.error.code, message: out.error.message }, input);
    const bytes = writeVmd(out.value.doc);
    const w = await writeOutput(output, bytes, a.flags.has('overwrite'));
    if (!w.ok) return failWith({ ...w.error, file: output }, output);

    const keys = out.value.records.length;
    const missing = VOWELS.filter((v) => !found[v]);
    const closedForMissing = timings.filter((t) => t.shape !== 'closed' && !found[t.shape]).length;
    const frames = [timings[0].frame, timings[timings.length - 1].frame];
    if (a.flags.has('json')) {
      jsonSuccess(io, { input, output, model, format, ...(unit ? { unit, fps } : {}), weight, timings: timings.length, merged, keys, frames, morphs: found, missing, closedForMissing, bytesOut: bytes.byteLength });
    } else if (!a.flags.has('quiet')) {
      const shown = displayPathAmong(output, givens, io.cwd);
      const what = format === 'lab' ? `a .lab file, times read as ${unit === 'htk' ? "HTK's 100 ns units" : 'seconds'} at ${fps} fps` : 'a list';
      const names = Object.values(found).join(' ');
      const parts = [`${formatCount(timings.length)} ${timings.length === 1 ? 'timing' : 'timings'} (${what}) → ${formatCount(keys)} keys on ${names}, frames ${frames[0]}–${frames[1]}`];
      if (merged) parts.push(`${merged} earlier ${merged === 1 ? 'timing' : 'timings'} on a frame a later line also names left out`);
      if (closedForMissing) parts.push(`the model lacks ${missing.map((v) => MOUTH_SHAPE_LABEL[v]).join(' ')}: ${closedForMissing} of its timings close the mouth`);
      io.stdout(`lipsync: ${shown}: ${parts.join('; ')}\n`);
    }
    if (name.note) io.stderr(`vmd-studio: warning: ${modelArg}: ${name.note.message}\n`);
    return 0;
  },
};
