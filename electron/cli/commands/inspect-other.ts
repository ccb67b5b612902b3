/**
 * `inspect` of the files of other kinds people give a motion tool (shared/ipc/file-kind.ts names them): a WAV
 * (its format, rate, channels and length), another song (MP3, Ogg, FLAC, M4A…: its format, and what its header
 * says cheaply), a VMD Studio scene (what it holds, and which of its files are not
 * there) and an image (its size). Each is read as little as it needs: a WAV's first 64 KiB and its size, a
 * scene whole (at most a scene file's size), an image's first bytes.
 */
import { promises as fsp } from 'node:fs';
import { emptyFileError, ioError, notRegularFileError, readInputBytes } from '../../fs/files';
import { MAX_SCENE_FILE_BYTES } from '../../../shared/ipc/validate';
import { audioContainerOf, FILE_KIND_NAMES, imageKindByContent, looksLikeWav, type ImageKind } from '../../../shared/ipc/file-kind';
import { parseWav, riffChunk, wavDataShortfall, wavWithoutSamples } from '../../../shared/scene/wav';
import { audioFormatOf, audioHeaderInfo } from '../../../shared/scene/audio-format';
import { dirnamePath, normalizePath, parseScene, storedPath, type Scene } from '../../../shared/scene';
import type { CodecError } from '../../../shared/vmd';
import { lastFrameOf } from '../../../shared/edit-core/record-util';
import { songEndFrame } from '../../../shared/scene/audio-sync';
import { loadMotion } from '../load';
import { withLocated } from '../../../shared/scene/scene-locate';
import { locateOnDisk } from '../../services/scene-locate';
import { foundText, modelFoundTextures, modelMissingTextures, modelUnreadableTextures } from './inspect-model';
import type { AssetNote } from '../../../shared/ipc/contract';
import path from 'node:path';
import { count, plural } from '../../../shared/i18n/plural';
import { addWarning, codesOf, withCodes } from './inspect-warnings';

type Described = { warnings: string[] };

/** How much of a file is read to tell its kind and describe a WAV or an image. */
export const HEAD_BYTES = 64 * 1024;

/** A file's first HEAD_BYTES and its size; an error value (as every reader says it) for one that cannot be read. */
export async function readHead(file: string): Promise<{ ok: true; head: Uint8Array; size: number } | { ok: false; error: CodecError }> {
  let fh: import('node:fs/promises').FileHandle | null = null;
  try {
    const st = await fsp.stat(file);
    if (!st.isFile()) return { ok: false, error: notRegularFileError(file, st) };
    if (st.size === 0) return { ok: false, error: emptyFileError(file) };
    fh = await fsp.open(file, 'r');
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, st.size));
    let n = 0;
    while (n < buf.length) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break; // cut short meanwhile: what is there
      n += bytesRead;
    }
    return { ok: true, head: new Uint8Array(buf.buffer, buf.byteOffset, n), size: st.size };
  } catch (e) {
    return { ok: false, error: ioError(e, file) };
  } finally {
    if (fh) await fh.close().catch(() => undefined);
  }
}

/** A WAV as `inspect` describes it; the numbers are null where the file's fmt chunk does not say them. */
export interface WavInfo {
  format: 'wav';
  /** "WAV (PCM)", "WAV (float)", "WAV (ADPCM)", … (audio-format.ts). */
  audioFormat: string;
  sampleRate: number | null;
  channels: number | null;
  bitsPerSample: number | null;
  /** Samples per channel present, and their length; null for a WAV the app's own reader does not take. */
  samples: number | null;
  durationSeconds: number | null;
  warnings: string[];
}

/** Describes a WAV from its first bytes and its size (the data chunk may run past the head). */
export function describeWav(head: Uint8Array, size: number, file: string): { ok: true; value: WavInfo } | { ok: false; error: CodecError } {
  if (!looksLikeWav(head)) {
    return { ok: false, error: { code: 'E_AUDIO_DECODE', message: `not a WAV file: it does not start with "RIFF" … "WAVE" (its bytes say: ${audioFormatOf(head, file)})`, offset: 0, file } };
  }
  // A whole header and no sample: what the app says of it too (shared/scene/wav.ts), not that it cannot be decoded.
  const none = wavWithoutSamples(head, size);
  if (none) {
    const message = none.promised > 0 ? `cut short: the header promises ${none.promised.toLocaleString('en-US')} bytes of samples, the file has none` : 'no sound in it: the header promises 0 bytes of samples (its data chunk is empty)';
    return { ok: false, error: { code: 'E_AUDIO_NO_SAMPLES', message, file } };
  }
  const audioFormat = audioFormatOf(head, file);
  const fmt = riffChunk(head, 'fmt ');
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const has = fmt !== null && fmt.size >= 16 && fmt.at + 16 <= head.length;
  const info: WavInfo = {
    format: 'wav',
    audioFormat,
    sampleRate: has ? dv.getUint32(fmt.at + 4, true) : null,
    channels: has ? dv.getUint16(fmt.at + 2, true) : null,
    bitsPerSample: has ? dv.getUint16(fmt.at + 14, true) : null,
    samples: null,
    durationSeconds: null,
    warnings: [],
  };
  const w = parseWav(head);
  const data = riffChunk(head, 'data');
  if (w && data) {
    // Counted as parseWav counts them, from the whole file's size rather than the head's.
    info.samples = Math.floor(Math.min(data.size, size - data.at) / ((w.channels * w.bits) / 8));
    info.durationSeconds = info.samples / w.sampleRate;
  } else {
    addWarning(info, 'W_WAV_FORMAT', `the app's own WAV reader does not take this one (${audioFormat}); the app hands it to the system's decoder, which may or may not play it`, { format: audioFormat });
  }
  const short = wavDataShortfall(head, size);
  if (short) {
    const [promised, present] = [short.promised.toLocaleString('en-US'), short.present.toLocaleString('en-US')];
    addWarning(info, 'W_WAV_SHORT', `cut short: the header promises ${promised} bytes of samples, the file has ${present}; what is there plays`, { promised, present });
  }
  return { ok: true, value: info };
}

/** A song other than a WAV as `inspect` describes it: its format by its first bytes, and what its header says cheaply (null where not). */
export interface AudioInfo {
  format: 'audio';
  /** "MP3", "Ogg", "FLAC", "MP4/M4A", … (audio-format.ts, the names the app's song check gives). */
  audioFormat: string;
  sampleRate: number | null;
  channels: number | null;
  durationSeconds: number | null;
  warnings: string[];
}

/** Describes a song that is not a WAV from its first bytes (shared/scene/audio-format.ts). */
export function describeAudio(head: Uint8Array, file: string): AudioInfo {
  const h = audioHeaderInfo(head);
  const audioFormat = audioFormatOf(head, file);
  // Named as a song (.mp3) but its bytes are none of the formats known here: said, as of a WAV the app's reader does not take.
  const info: AudioInfo = { format: 'audio', audioFormat, sampleRate: h?.sampleRate ?? null, channels: h?.channels ?? null, durationSeconds: h?.durationSeconds ?? null, warnings: [] };
  if (!audioContainerOf(head)) addWarning(info, 'W_AUDIO_UNKNOWN', `its first bytes are none of the audio formats known here (MP3, AAC, Ogg, FLAC, MP4/M4A, AIFF, WebM, WMA); the app hands it to the system's decoder, which may or may not play it`);
  return info;
}

/** The human lines of a WAV or another song (after its path line). */
export function wavLines(info: WavInfo | AudioInfo): string {
  const bits = info.format === 'wav' ? info.bitsPerSample : null;
  const parts = [info.sampleRate !== null ? `${info.sampleRate} Hz` : null, info.channels !== null ? plural(info.channels, 'channel') : null, bits ? `${bits}-bit` : null].filter((x) => x !== null);
  const length = info.durationSeconds !== null ? `  length  ${info.durationSeconds.toFixed(2)} s (${plural(count(Math.ceil(info.durationSeconds * 30)), 'frame')} at 30 fps)\n` : '';
  return `  audio   ${info.audioFormat}${parts.length ? `  ${parts.join(', ')}` : ''}; a song for a scene's music in the VMD Studio app\n${length}`;
}

/** A motion's or a song's length as a scene's inspect gives it: its last frame, and that in seconds at 30 fps. */
export interface SceneLength {
  lastFrame: number;
  durationSeconds: number;
}

/** A scene as `inspect` describes it; paths as the scene file stores them (relative to its folder, with /). */
export interface SceneInfo {
  format: 'scene';
  /**
   * `stage`: where the actor stands (MMD units) and its turn about the vertical axis (degrees), where the scene
   * places it; `motionLength`: its motion's length, null with no motion or one that is missing or unreadable.
   */
  actors: { name?: string; model: string | null; motion: string | null; hidden: boolean; stage?: { position: [number, number, number]; turn: number }; motionLength: SceneLength | null }[];
  camera: string | null;
  cameraLength: SceneLength | null;
  /**
   * The song: `durationSeconds` what its header says (null where it does not say it, or the file is
   * missing); `endFrame` the scene frame it ends at (its length less the offset: audio-sync.ts), or null. `path`
   * null: an offset kept with no song (the app's song removed after the offset was set), for the song picked next.
   */
  audio: { path: string | null; offsetFrames: number; volume: number; muted: boolean; durationSeconds: number | null; endFrame: number | null } | null;
  aspect: { width: number; height: number };
  /** The longest of the motions, the camera and the song (null when none has a length); `longest` says which ("actor 2", "camera", "music"). */
  length: (SceneLength & { longest: string }) | null;
  /** The files the scene names that are not there (nor found beside it), then its models' textures that are not there. */
  missing: string[];
  /**
   * Each model's textures that are not there (their files are in `missing` too): `path` relative to the scene,
   * `texture` as the model stores it, `model` relative to the scene, the `materials` using it.
   */
  missingTextures: { path: string; texture: string; model: string; materials: string[] }[];
  /**
   * Each model's textures the app uses from another name or folder than the model names (a name garbled by a
   * Shift_JIS zip, a renamed folder): `texture` as the model stores it, `model` relative to the scene, the
   * `materials` using it, `note` how it was found (its `found` relative to the model's folder), as `inspect MODEL`'s
   * `foundTextures`.
   */
  foundTextures: { texture: string; model: string; materials: string[]; note: AssetNote }[];
  /** The files the scene names that are not there, each found beside it (`found`), as the app opens them (shared/scene/scene-locate.ts). */
  located: { path: string; found: string }[];
  warnings: string[];
}

const FPS = 30;
const lengthOf = (lastFrame: number): SceneLength => ({ lastFrame, durationSeconds: Math.round((lastFrame / FPS) * 1000) / 1000 });

/** A motion's (or camera's) last frame, or the reason it has none (an error's message). */
async function motionLastFrame(file: string): Promise<{ ok: true; lastFrame: number } | { ok: false; message: string }> {
  const l = await loadMotion(file, 'inspect', file, 'motion', true);
  if (!l.ok) return { ok: false, message: l.error.message };
  return { ok: true, lastFrame: l.value.format === 'vmd' ? lastFrameOf(l.value.doc) : 0 };
}

/** A song's length in seconds from its first bytes (a WAV's header and size, another format's header: audio-format.ts), or null where they do not say it. */
async function songSeconds(file: string): Promise<number | null> {
  const h = await readHead(file);
  if (!h.ok) return null;
  if (looksLikeWav(h.head)) {
    const w = describeWav(h.head, h.size, file);
    return w.ok ? w.value.durationSeconds : null;
  }
  return audioHeaderInfo(h.head)?.durationSeconds ?? null;
}

/** Reads and describes a scene file, with the length of each motion, the camera and the song it names; never throws. */
export async function inspectScene(file: string): Promise<{ ok: true; value: SceneInfo } | { ok: false; error: CodecError }> {
  const r = await readInputBytes(file, { maxBytes: MAX_SCENE_FILE_BYTES });
  if (!r.ok) return r;
  const s = parseScene(r.value, file);
  if (!s.ok) return { ok: false, error: { ...s.error, file } };
  const dir = dirnamePath(normalizePath(file));
  const stored = (p: string | null) => (p === null ? null : storedPath(dir, p));
  // Its files not where it names them but beside it (a friend's absolute paths, a name in another case) are
  // found as the app finds them, described from there, and said.
  const located = await locateOnDisk(s.value, file);
  const scene: Scene = withLocated(s.value, located);
  const named = [...scene.actors.flatMap((a) => [a.model, a.motion]), scene.camera, scene.audio?.path ?? null].filter((p): p is string => p !== null);
  const missing: string[] = [];
  for (const p of new Set(named)) {
    if (!(await fsp.stat(p).then((st) => st.isFile(), () => false))) missing.push(storedPath(dir, p));
  }
  const isMissing = (p: string) => missing.includes(storedPath(dir, p));
  // Coded (inspect-warnings.ts): said in Japanese under --lang ja.
  const said: Described = { warnings: [] };
  const warnings = said.warnings;
  for (const l of located) addWarning(said, 'W_SCENE_FOUND_BESIDE', `found ${storedPath(dir, l.found)} beside the scene for ${storedPath(dir, l.path)} (the app opens it from there; saving the scene writes its path)`, { found: storedPath(dir, l.found), path: storedPath(dir, l.path) });
  for (const p of missing) addWarning(said, 'W_SCENE_NOT_FOUND', `${p}: not found`, { path: p });
  // Each model's textures that are not there, as `inspect MODEL` finds them: a texture left out is the most
  // common break of a shared folder, and the list is what to add before zipping it.
  const missingTextures: SceneInfo['missingTextures'] = [];
  const foundTextures: SceneInfo['foundTextures'] = [];
  for (const model of new Set(scene.actors.map((a) => a.model).filter((m): m is string => m !== null && !isMissing(m)))) {
    const t = await modelMissingTextures(model);
    if (!t.ok) {
      addWarning(said, 'W_SCENE_FILE_UNREADABLE', `${storedPath(dir, model)}: ${t.error.message}`, { path: storedPath(dir, model), reason: t.error.message });
      continue;
    }
    for (const x of t.value) {
      const file = storedPath(dir, path.join(x.folder, path.basename(x.path.replace(/\\/g, '/'))));
      missingTextures.push({ path: file, texture: x.path, model: storedPath(dir, model), materials: x.materials });
      if (!missing.includes(file)) missing.push(file);
      addWarning(said, 'W_TEXTURE_NOT_FOUND', `${file}: not found (a texture of ${storedPath(dir, model)}, used by ${x.materials.join(', ')})`, { file, model: storedPath(dir, model), materials: x.materials.join(', ') });
    }
    // A texture the app finds under another name or folder (a zip's garbled names, a renamed folder): shown in the
    // app, white in MMD, which looks only where the model says; the line `inspect MODEL` prints, with the model.
    const found = await modelFoundTextures(model);
    if (found.ok)
      for (const x of found.value) {
        foundTextures.push({ texture: x.path, model: storedPath(dir, model), materials: x.materials, note: x.note });
        // `howWord`: how it was found, as the app's row says it (note.howWord.*, naming `found` and `folder`).
        const how: Record<string, string> = x.note.kind === 'encoding' ? { howWord: 'encoding', found: x.note.found } : { howWord: 'folder', found: x.note.found, folder: x.note.folder };
        addWarning(said, 'W_TEXTURE_ELSEWHERE', `${storedPath(dir, model)}: texture found elsewhere: ${x.path} (${x.materials.join(', ')}): ${foundText(x.note)}`, { model: storedPath(dir, model), texture: x.path, materials: x.materials.join(', '), ...how });
      }
    // A texture that is there but that the app cannot show (a DDS it does not read, a damaged TGA): the picture is white as for a missing one.
    const unreadable = await modelUnreadableTextures(model);
    if (unreadable.ok)
      for (const x of unreadable.value) {
        const params = { file: storedPath(dir, x.file), model: storedPath(dir, model), materials: x.materials.join(', '), reason: x.reason };
        addWarning(said, 'W_TEXTURE_UNREADABLE', `${params.file}: unreadable (a texture of ${params.model}, used by ${params.materials}): ${x.reason}`, params);
      }
  }
  // Each motion read once, though several actors may dance it.
  const lengths = new Map<string, SceneLength | null>();
  const lengthOfMotion = async (p: string | null): Promise<SceneLength | null> => {
    if (p === null || isMissing(p)) return null;
    if (!lengths.has(p)) {
      const m = await motionLastFrame(p);
      if (!m.ok) addWarning(said, 'W_SCENE_FILE_UNREADABLE', `${storedPath(dir, p)}: ${m.message}`, { path: storedPath(dir, p), reason: m.message });
      lengths.set(p, m.ok ? lengthOf(m.lastFrame) : null);
    }
    return lengths.get(p)!;
  };
  const actors: SceneInfo['actors'] = [];
  for (const a of scene.actors) {
    actors.push({
      ...(a.name !== undefined ? { name: a.name } : {}),
      model: stored(a.model),
      motion: stored(a.motion),
      hidden: a.hidden,
      ...(a.stage ? { stage: { position: [...a.stage.position] as [number, number, number], turn: a.stage.turn } } : {}),
      motionLength: await lengthOfMotion(a.motion),
    });
  }
  const cameraLength = await lengthOfMotion(scene.camera);
  let audio: SceneInfo['audio'] = null;
  if (scene.audio) {
    const a = scene.audio;
    const durationSeconds = a.path === null || isMissing(a.path) ? null : await songSeconds(a.path);
    // The scene frame the song's last sound falls on (the app's timeline runs to the same frame).
    const endFrame = durationSeconds === null ? null : songEndFrame(durationSeconds, a.offsetFrames);
    audio = { path: a.path === null ? null : storedPath(dir, a.path), offsetFrames: a.offsetFrames, volume: a.volume, muted: a.muted, durationSeconds, endFrame };
  }
  const candidates: [string, number][] = [
    ...actors.flatMap((a, i): [string, number][] => (a.motionLength ? [[`actor ${i + 1}`, a.motionLength.lastFrame]] : [])),
    ...(cameraLength ? [['camera', cameraLength.lastFrame] as [string, number]] : []),
    ...(audio?.endFrame != null ? [['music', audio.endFrame] as [string, number]] : []),
  ];
  // The first of equals is named: an actor before the camera before the music.
  const longest = candidates.reduce<[string, number] | null>((best, c) => (best === null || c[1] > best[1] ? c : best), null);
  return {
    ok: true,
    value: withCodes({
      format: 'scene' as const,
      actors,
      camera: stored(scene.camera),
      cameraLength,
      audio,
      aspect: { ...scene.aspect },
      length: longest ? { ...lengthOf(longest[1]), longest: longest[0] } : null,
      missing,
      missingTextures,
      foundTextures,
      located: located.map((l) => ({ path: storedPath(dir, l.path), found: storedPath(dir, l.found) })),
      warnings,
    }, codesOf(said)),
  };
}

/** "N frames (S s)" of a length; "1 frame" of one. */
const framesAndSeconds = (l: SceneLength) => `${plural(count(l.lastFrame), 'frame')} (${l.durationSeconds.toFixed(2)} s)`;

/** A number as the table prints a position: up to 3 decimals, no trailing zeros. */
const num = (x: number) => String(Math.round(x * 1000) / 1000);

/** The human lines of a scene (after its path line). */
export function sceneLines(info: SceneInfo): string {
  const n = info.actors.length;
  const missing = (p: string) => (info.missing.includes(p) ? ' (not found)' : '');
  const motion = (p: string | null, l: SceneLength | null) => (p === null ? '(none)' : `${p}${missing(p)}${l ? `  ${framesAndSeconds(l)}` : ''}`);
  const a = info.audio;
  const song = a?.path === null
    ? `  music   no song; its offset kept for the next one (${plural(count(a.offsetFrames), 'frame')})\n`
    : a
    ? `  music   ${a.path}${missing(a.path)} (offset ${plural(count(a.offsetFrames), 'frame')})` +
      (a.durationSeconds !== null ? `  ${a.durationSeconds.toFixed(2)} s, ends at frame ${a.endFrame}` : info.missing.includes(a.path) ? '' : '  length not in its header') +
      `  volume ${Math.round(a.volume * 100)}%${a.muted ? '  muted' : ''}\n`
    : '';
  return (
    `  VMD Studio scene  ${plural(n, 'actor')}${info.camera ? ', a camera' : ''}${info.audio?.path ? ', music' : ''}; open it in the VMD Studio app\n` +
    info.actors
      .map(
        (x, i) =>
          `  actor ${i + 1}${x.name !== undefined ? ` "${x.name}"` : ''}  model ${x.model === null ? '(the built-in figure)' : x.model + missing(x.model)}  motion ${motion(x.motion, x.motionLength)}${x.hidden ? '  (hidden)' : ''}\n` +
          (x.stage ? `          stands at (${x.stage.position.map(num).join(', ')}), turned ${num(x.stage.turn)}°\n` : ''),
      )
      .join('') +
    (info.camera ? `  camera  ${motion(info.camera, info.cameraLength)}\n` : '') +
    song +
    `  aspect  ${info.aspect.width}:${info.aspect.height}\n` +
    (info.length ? `  length  ${plural(count(info.length.lastFrame), 'frame')} (${info.length.durationSeconds.toFixed(2)} s at 30 fps), the longest: ${info.length.longest}\n` : '')
  );
}

/** An image as `inspect` names it: its format and size in pixels. */
export interface ImageInfo {
  format: 'image';
  /** Which: png, jpeg, bmp, tga. */
  image: ImageKind;
  width: number;
  height: number;
  warnings: string[];
}

const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const i32le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);

/** Width and height from a JPEG's first frame header (SOF0–SOF15 but DHT, JPG, DAC), or null when the head has none. */
function jpegSize(b: Uint8Array): [number, number] | null {
  for (let at = 2; at + 9 <= b.length; ) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return [(b[at + 7] << 8) | b[at + 8], (b[at + 5] << 8) | b[at + 6]];
    at += 2 + ((b[at + 2] << 8) | b[at + 3]);
  }
  return null;
}

/**
 * Names an image by its first bytes (`kind`: what its content or, for a TGA, its name said) and reads its
 * size. A file named as an image whose bytes are not one is an error saying so.
 */
export function describeImage(head: Uint8Array, kind: ImageKind, file: string): { ok: true; value: ImageInfo } | { ok: false; error: CodecError } {
  const notOne = (why: string): { ok: false; error: CodecError } => ({ ok: false, error: { code: 'E_UNSUPPORTED', message: `named as ${FILE_KIND_NAMES[kind]}, but ${why}`, offset: 0, file } });
  const byContent = imageKindByContent(head);
  if (byContent !== null && byContent !== kind) kind = byContent;
  let size: [number, number] | null = null;
  if (kind === 'png') {
    if (byContent !== 'png') return notOne('it does not start with the PNG signature');
    size = head.length >= 24 ? [u32be(head, 16), u32be(head, 20)] : null;
  } else if (kind === 'jpeg') {
    if (byContent !== 'jpeg') return notOne('it does not start with a JPEG marker (FF D8 FF)');
    size = jpegSize(head);
  } else if (kind === 'bmp') {
    if (byContent !== 'bmp') return notOne('it does not start with a BMP header ("BM")');
    // A 12-byte OS/2 header keeps 16-bit sizes; the others 32-bit, the height negative for a top-down image.
    size = u16le(head, 14) === 12 ? [u16le(head, 18), u16le(head, 20)] : head.length >= 26 ? [i32le(head, 18), Math.abs(i32le(head, 22))] : null;
  } else {
    // TGA: no magic; an image type TGA defines (1–3 plain, 9–11 run-length) and a size in its 18-byte header.
    if (head.length < 18 || ![1, 2, 3, 9, 10, 11].includes(head[2])) return notOne('its header is not a TGA header');
    size = [u16le(head, 12), u16le(head, 14)];
  }
  const info: ImageInfo = { format: 'image', image: kind, width: size?.[0] ?? 0, height: size?.[1] ?? 0, warnings: [] };
  if (!size) addWarning(info, 'W_IMAGE_SIZE', 'its size is not in the bytes read');
  return { ok: true, value: info };
}

/** The human line of an image (after its path line). */
export function imageLines(info: ImageInfo): string {
  return `  image (${info.image.toUpperCase()})  ${info.width} × ${info.height} pixels; VMD Studio uses images as a model's textures\n`;
}
