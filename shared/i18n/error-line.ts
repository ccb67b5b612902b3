/**
 * An error's plain line in a language, by its code and values (the `err.*` table): shared by the app's notices
 * (renderer/src/stores/notify.ts describeError) and the command line's error lines in Japanese (electron/cli/locale.ts).
 */
import { hasString, t, tDynamic } from './strings';
import type { Locale } from './locale';
import type { CodecError } from '../vmd/errors';

/**
 * The plain line of a code: a key count the file cannot hold says which block and how many keys it claims
 * ("the bone block says it holds 2,147,483,647 keys"), where the reader gave them; else the code's line.
 */
export function errorPlainLine(e: Pick<CodecError, 'code' | 'params'>, locale: Locale): string {
  const p = e.params;
  if (e.code === 'E_VMD_COUNT' && p && typeof p.block === 'string' && typeof p.count === 'number') {
    const count = p.count.toLocaleString(locale === 'ja' ? 'ja-JP' : 'en-US');
    return t('err.countBlock', locale, { block: tDynamic(`err.block.${p.block}`, locale), count });
  }
  if (e.code === 'E_CAMERA_MOTION' && p && (p.kind === 'camera' || p.kind === 'light')) {
    return t(p.kind === 'camera' ? 'err.stageMotion.camera' : 'err.stageMotion.light', locale, { camera: p.camera ?? 0, light: p.light ?? 0 });
  }
  // A name that is not UTF-8 and reads as Shift_JIS (electron/fs/files.ts notUtf8Error): which name, and how to fix it.
  if (e.code === 'E_IO_NAME_NOT_UTF8' && p && p.sjis === 1 && typeof p.name === 'string') return t('err.notUtf8Sjis', locale, { name: p.name });
  if (e.code === 'E_SPAN' && p && typeof p.from === 'string' && typeof p.to === 'string') return t('err.span', locale, { from: p.from, to: p.to });
  // A song, an image, a model, a video or text opened as a motion (shared/ipc/file-kind.ts notAMotionError): what it is and what to do.
  if (e.code === 'E_VMD_MAGIC' && p && typeof p.notMotion === 'string' && hasString(`err.notMotion.${p.notMotion}`)) {
    return tDynamic(`err.notMotion.${p.notMotion}`, locale, { format: String(p.format ?? ''), rename: String(p.rename ?? '') });
  }
  // A broken rigid body or joint: which one and what is wrong (the reader's physicsParams), in PMX and PMD alike.
  if (e.code === 'E_PMX_PHYSICS' && p && (p.item === 'body' || p.item === 'joint') && hasString(`err.physics.${p.problem}`)) {
    const what = t(p.item === 'body' ? 'err.physics.body' : 'err.physics.joint', locale, { index: p.index, name: String(p.name) });
    const fieldKey = `err.physics.field.${p.field}`;
    const named = hasString(fieldKey) ? tDynamic(fieldKey, locale) : String(p.field);
    const field = p.axis ? t('err.physics.axis', locale, { field: named, axis: String(p.axis) }) : named;
    return tDynamic(`err.physics.${p.problem}`, locale, { what, field, value: String(p.value) });
  }
  // An IK bake's refusal (shared/bake/ik-bake.ts): no IK bones, a name it lacks, IK off over the range, names too long.
  if (e.code === 'E_IK' && p && typeof p.reason === 'string' && hasString(`err.ik.${p.reason}`)) {
    return tDynamic(`err.ik.${p.reason}`, locale, { name: String(p.name ?? ''), list: String(p.list ?? ''), names: String(p.names ?? ''), from: String(p.from ?? ''), to: String(p.to ?? '') });
  }
  // `lipsync --model` of a model without a vowel morph: the lip-sync mode's own line for it.
  if (e.code === 'E_ARGUMENT' && p?.problem === 'noVowels') return t('lipSync.none', locale);
  // A mouth-timing file's bad line (shared/key-edits/mouth-timings.ts): what is wrong with it; the line number is the error's own.
  if (e.code === 'E_TIMINGS' && p && hasString(`err.timings.${p.problem}`)) return tDynamic(`err.timings.${p.problem}`, locale, { value: String(p.value ?? ''), text: String(p.text ?? ''), start: String(p.start ?? ''), end: String(p.end ?? '') });
  return tDynamic(`err.${e.code}`, locale);
}
