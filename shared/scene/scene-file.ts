/**
 * The scene file (`.vmdscene`): a small JSON document that names what one window holds — actors (a model
 * and its motion each), the camera document, the music and its offset, the output aspect, view settings.
 * Paths are stored relative to the scene file with `/` (portable between Windows and POSIX; absolute only
 * when no relative path exists, e.g. another drive) and are absolute in memory.
 *
 *   {
 *     "format": "vmd-studio-scene", "version": 1,
 *     "actors": [{ "name": "Miku", "model": "models/miku.pmx", "motion": "dance.vmd", "hidden": false }],
 *     "activeActor": 0,
 *     "camera": "camera.vmd",
 *     "audio": { "path": "song.wav", "offsetFrames": 0, "volume": 1, "muted": false,
 *                "beats": { "bpm": 120, "firstBeat": 0.5, "shown": true } },
 *     "aspect": { "width": 16, "height": 9 },
 *     "view": { "frame": 0, "lookThroughCamera": false },
 *     "cameraFollow": { "actor": 0, "bone": "頭" }
 *   }
 *
 * `cameraFollow` over stretches of frames is a list: [{ "from": 100, "to": 200, "actor": 0, "bone": "頭" }, …]
 * (`to` null: to the end); the single object is one span over the whole motion.
 *
 * `model: null` is the built-in figure; `motion: null` an actor with no motion file yet; `audio.path: null` an offset
 * (volume, mute) kept with no song loaded. Fields this version
 * does not know are kept and written back (a file from a newer minor release survives a round trip here),
 * `__proto__` among them, nested at most MAX_EXTRA_DEPTH deep; a higher `version` is refused with
 * E_SCENE_VERSION. A scene holds at most MAX_SCENE_ACTORS actors. Errors are values: E_SCENE_JSON (not JSON,
 * with the byte offset, line and column, and a reason of our own: never the file's text), E_SCENE_FORMAT
 * (JSON, but not a scene), E_SCENE_SCHEMA (a field is wrong; the message names it), E_SCENE_ENCODING (text,
 * but UTF-16 or Shift_JIS: the message says which, and to save it as UTF-8).
 */
import { ok, type CodecError, type Result } from '../vmd/errors';

/** What the camera follows (camera-follow.ts, MMD's モデル/ボーン追従): an actor of the scene (its index, from 0) and one of its model's bones by name. */
export interface CameraFollow {
  actor: number;
  bone: string;
}

/**
 * The follow over a stretch of frames (nufollow §2; MMD sets it per camera key, a later key with 追従なし ending
 * it): frames from…to, both included (`to` null: to the end). Outside every span the camera plays its own keys.
 * The file holds a list of them; the older single {actor, bone} reads as one span over the whole motion.
 */
export interface CameraFollowSpan extends CameraFollow {
  from: number;
  to: number | null;
  /** Fields of the span this version does not know, kept for the round trip. */
  extra?: Record<string, unknown>;
}
import { basenamePath, commonFolder, dirnamePath, isAbsolutePath, isRootPath, normalizePath, relativePath, resolvePath } from './scene-path';

export const SCENE_FORMAT = 'vmd-studio-scene';
export const SCENE_VERSION = 1;
/** File extension of scene files, with the dot. */
export const SCENE_EXTENSION = '.vmdscene';
/**
 * The most actors a scene holds. The editor shows one tab and one timeline per actor and opens every
 * actor's motion when the scene opens; 2,000 actors (a 34 KB file) froze the page for 42 s, and the 4 MiB
 * file limit allowed some 290,000. Sixty-four is past any MMD project's cast and still opens in moments.
 */
export const MAX_SCENE_ACTORS = 64;
/**
 * How deep a field this version does not know may nest (objects and arrays within it) to be kept. Deeper
 * is refused when the file is read: writing it back overflowed JSON.stringify's stack (Save All did nothing).
 */
export const MAX_EXTRA_DEPTH = 64;

export interface SceneActor {
  /** Shown name; optional (the model's name is used when absent). */
  name?: string;
  /** Absolute path of the .pmx/.pmd model, or null for the built-in figure. */
  model: string | null;
  /** Absolute path of the actor's motion (.vmd), or null for none yet. */
  motion: string | null;
  /** Model hidden in the preview (its motion still plays). */
  hidden: boolean;
  /** Where the actor stands in the scene (staging); absent: at the origin, facing as the model does. */
  stage?: ActorStage;
  /**
   * The model's outline width as a factor of its file's (MMD's edge size: nanoem's per-model edge size, MMM's edge
   * thickness), EDGE_WIDTH_MIN–EDGE_WIDTH_MAX; absent: 1, the file's width (nothing is written for it).
   */
  edgeWidth?: number;
  /** Fields this version does not know, kept for the round trip. */
  extra?: Record<string, unknown>;
}

/**
 * An actor's place in the scene, as MMD users set it with 全ての親 or the model's offset: a position in MMD
 * coordinates (units, Z toward the viewer's back as MMD has it) and a turn about the vertical axis in
 * degrees (positive turns as a positive Y rotation of a bone key does). The motion is not changed.
 */
export interface ActorStage {
  position: [number, number, number];
  turn: number;
}

export interface SceneAudio {
  /**
   * Absolute path of the audio file; null for an offset kept with no song loaded (the song removed after the
   * offset was set, or never picked: `"path": null`), which a song picked next takes (stores/music.ts).
   */
  path: string | null;
  /**
   * Where motion frame 0 falls in the song, in frames (1/30 s): frame = (audio time − offsetFrames / 30) × 30
   * (see audio-sync.ts). Positive: the song plays that long before frame 0 (an intro); negative: the song
   * starts that many frames into the motion.
   */
  offsetFrames: number;
  /** Gain, 0–1. */
  volume: number;
  muted: boolean;
  /**
   * The song's beat grid (BPM… typed, or found by Beats): the tempo, the first beat in seconds of song time
   * (it follows the offset), and whether the markers show. Absent: none set; the app detects again on asking.
   */
  beats?: SceneBeats;
  extra?: Record<string, unknown>;
}

export interface SceneBeats {
  bpm: number;
  firstBeat: number;
  shown: boolean;
}

export interface SceneAspect {
  width: number;
  height: number;
}

/** Flat view settings (current frame, look through camera, timeline zoom…): JSON scalars only. */
export type SceneViewSettings = Record<string, string | number | boolean | null>;

export interface Scene {
  actors: SceneActor[];
  /** Index into `actors` (0 when there are none). */
  activeActor: number;
  /** Absolute path of the camera document (.vmd), or null. */
  camera: string | null;
  audio: SceneAudio | null;
  aspect: SceneAspect;
  view: SceneViewSettings;
  /**
   * The camera follows an actor's bone (camera-follow.ts: MMD's モデル/ボーン追従): its keyed target is taken from
   * that bone's world position. Absent: no follow (older scenes, and a scene saved without one).
   */
  cameraFollow?: CameraFollowSpan[];
  /** Top-level fields this version does not know, kept for the round trip. */
  extra?: Record<string, unknown>;
}

export const DEFAULT_ASPECT: SceneAspect = { width: 16, height: 9 };

/** An empty scene: no actors, no camera, no music, 16:9. */
export function emptyScene(): Scene {
  return { actors: [], activeActor: 0, camera: null, audio: null, aspect: { ...DEFAULT_ASPECT }, view: {} };
}

/**
 * The scene a lone .vmd opens as: one actor with that motion (model: the built-in figure unless given),
 * or, for a camera VMD, no actor and the file as the camera document.
 */
export function sceneForMotion(motionPath: string, kind: 'motion' | 'camera', model: string | null = null): Scene {
  const s = emptyScene();
  if (kind === 'camera') s.camera = motionPath;
  else s.actors.push({ model, motion: motionPath, hidden: false });
  return s;
}

// ---------------------------------------------------------------------------------------------------
// Reading

class SceneFailure {
  constructor(readonly error: CodecError) {}
}

const fault = (code: CodecError['code'], message: string, offset?: number) =>
  new SceneFailure(offset === undefined ? { code, message } : { code, message, offset });
const schema = (message: string) => fault('E_SCENE_SCHEMA', message);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value in a message: never by its own toString (`{"toString": 1}` made String() throw). */
const describe = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 40 ? v.slice(0, 40) + '…' : v}"`;
  if (typeof v === 'object') return 'an object';
  return String(v);
};

/** Sets an own property, `__proto__` included (an assignment would set the prototype and drop the field). */
function own<T>(o: Record<string, T>, k: string, v: T): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** Whether `v` nests more than `max` objects/arrays deep (counted without recursion: the file may nest a million deep). */
function deeperThan(v: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    if (d > max) return true;
    for (const y of Object.values(x)) if (typeof y === 'object' && y !== null) stack.push([y, d + 1]);
  }
  return false;
}

function pathField(v: unknown, where: string, baseDir: string, nullable: boolean): string | null {
  if (v === null && nullable) return null;
  if (typeof v !== 'string' || v.trim() === '' || v.includes('\0')) {
    throw schema(`${where} must be a file path${nullable ? ' or null' : ''} (is ${describe(v)})`);
  }
  return resolvePath(baseDir, v);
}

function numberField(v: unknown, where: string, dflt: number, min = -Infinity, max = Infinity): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw schema(`${where} must be a number (is ${describe(v)})`);
  if (v < min || v > max) throw schema(`${where} must be between ${min} and ${max} (is ${v})`);
  return v;
}

function boolField(v: unknown, where: string, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw schema(`${where} must be true or false (is ${describe(v)})`);
  return v;
}

/** The fields of `o` this version does not know (`where` names `o` in a refusal), kept as they are. */
function extraOf(o: Record<string, unknown>, known: readonly string[], where: string): Record<string, unknown> | undefined {
  const extra: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(o)) {
    if (!known.includes(k)) {
      if (deeperThan(v, MAX_EXTRA_DEPTH)) throw schema(`${where}${k.length > 40 ? k.slice(0, 40) + '…' : k} nests deeper than ${MAX_EXTRA_DEPTH} levels (a field this version does not know is kept only up to that depth)`);
      own(extra, k, v);
      any = true;
    }
  }
  return any ? extra : undefined;
}

const ACTOR_KEYS = ['name', 'model', 'motion', 'hidden', 'stage', 'edgeWidth'] as const;
/** An actor's outline width factor (SceneActor.edgeWidth): from none (0) to twice the model's own. */
export const EDGE_WIDTH_MIN = 0;
export const EDGE_WIDTH_MAX = 2;

function readStage(v: unknown, where: string): ActorStage {
  if (!isObject(v)) throw schema(`${where} must be an object with position and turn (is ${describe(v)})`);
  const p = v.position === undefined ? [0, 0, 0] : v.position;
  if (!Array.isArray(p) || p.length !== 3) throw schema(`${where}.position must be three numbers (is ${describe(p)})`);
  const position = p.map((x, i) => numberField(x, `${where}.position[${i}]`, 0, -1e6, 1e6)) as [number, number, number];
  return { position, turn: numberField(v.turn, `${where}.turn`, 0, -3600, 3600) };
}
const AUDIO_KEYS = ['path', 'offsetFrames', 'volume', 'muted', 'beats'] as const;
const TOP_KEYS = ['format', 'version', 'actors', 'activeActor', 'camera', 'audio', 'aspect', 'view', 'cameraFollow'] as const;

const FOLLOW_KEYS = ['from', 'to', 'actor', 'bone'] as const;
/** Most follow spans a scene file may hold (a camera has at most one a frame that matters). */
export const MAX_FOLLOW_SPANS = 10_000;
/** A VMD key's frame is 32 bits. */
const MAX_FOLLOW_FRAME = 0xffffffff;

/**
 * `cameraFollow`: a list of spans {from, to, actor, bone} (frames from…to, `to` null or absent for to the end),
 * or the older single {actor, bone} (one span over the whole motion), or null/absent for none. The actor is not
 * checked against the actors here: a scene naming one that is gone opens with no follow there and a notice (the
 * app's, which knows the models).
 */
function readFollow(v: unknown): CameraFollowSpan[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) {
    if (v.length > MAX_FOLLOW_SPANS) throw schema(`cameraFollow has ${v.length} spans (at most ${MAX_FOLLOW_SPANS})`);
    return v.length ? v.map((s, i) => readSpan(s, `cameraFollow[${i}]`, true)) : undefined;
  }
  return [readSpan(v, 'cameraFollow', false)];
}

function readSpan(v: unknown, where: string, inList: boolean): CameraFollowSpan {
  if (!isObject(v)) throw schema(`${where} must be an object like ${inList ? '{"from": 100, "to": 200, "actor": 0, "bone": "頭"}' : '{"actor": 0, "bone": "頭"}'}${inList ? '' : ' or null'} (is ${describe(v)})`);
  const actor = numberField(v.actor, `${where}.actor`, NaN, 0, MAX_SCENE_ACTORS - 1);
  if (!Number.isInteger(actor)) throw schema(`${where}.actor must be a whole number, the actor counted from 0 (is ${describe(v.actor)})`);
  if (typeof v.bone !== 'string' || v.bone.trim() === '') throw schema(`${where}.bone must be a bone name (is ${describe(v.bone)})`);
  const from = numberField(v.from, `${where}.from`, 0, 0, MAX_FOLLOW_FRAME);
  if (!Number.isInteger(from)) throw schema(`${where}.from must be a whole frame (is ${describe(v.from)})`);
  const to = v.to === undefined || v.to === null ? null : numberField(v.to, `${where}.to`, NaN, from, MAX_FOLLOW_FRAME);
  if (to !== null && !Number.isInteger(to)) throw schema(`${where}.to must be a whole frame, at least from (is ${describe(v.to)})`);
  const span: CameraFollowSpan = { from, to, actor, bone: v.bone };
  const extra = extraOf(v, FOLLOW_KEYS, `${where}.`);
  if (extra) span.extra = extra;
  return span;
}

/** The follow as written: one span over the whole motion as the older {actor, bone} (older versions read it), else the list. */
function followOut(spans: readonly CameraFollowSpan[]): unknown {
  const s = spans[0];
  if (spans.length === 1 && s.from === 0 && s.to === null) return { actor: s.actor, bone: s.bone, ...s.extra };
  return spans.map((x) => ({ from: x.from, to: x.to, actor: x.actor, bone: x.bone, ...x.extra }));
}

function readActor(v: unknown, i: number, baseDir: string): SceneActor {
  const where = `actors[${i}]`;
  if (!isObject(v)) throw schema(`${where} must be an object (is ${describe(v)})`);
  if (v.model === undefined) throw schema(`${where}.model is missing (a .pmx/.pmd path, or null for the built-in figure)`);
  const a: SceneActor = {
    model: pathField(v.model, `${where}.model`, baseDir, true),
    motion: v.motion === undefined ? null : pathField(v.motion, `${where}.motion`, baseDir, true),
    hidden: boolField(v.hidden, `${where}.hidden`, false),
  };
  if (v.stage !== undefined) a.stage = readStage(v.stage, `${where}.stage`);
  // 1 is the model's own width, as when the field is absent: held as absent, so it reads as no change.
  const edgeWidth = numberField(v.edgeWidth, `${where}.edgeWidth`, 1, EDGE_WIDTH_MIN, EDGE_WIDTH_MAX);
  if (edgeWidth !== 1) a.edgeWidth = edgeWidth;
  if (v.name !== undefined) {
    if (typeof v.name !== 'string') throw schema(`${where}.name must be a string (is ${describe(v.name)})`);
    a.name = v.name;
  }
  const extra = extraOf(v, ACTOR_KEYS, `${where}.`);
  if (extra) a.extra = extra;
  return a;
}

function readAudio(v: unknown, baseDir: string): SceneAudio | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v)) throw schema(`audio must be an object or null (is ${describe(v)})`);
  if (v.path === undefined) throw schema('audio.path is missing');
  const a: SceneAudio = {
    path: pathField(v.path, 'audio.path', baseDir, true),
    offsetFrames: numberField(v.offsetFrames, 'audio.offsetFrames', 0),
    volume: numberField(v.volume, 'audio.volume', 1, 0, 1),
    muted: boolField(v.muted, 'audio.muted', false),
  };
  if (v.beats !== undefined && v.beats !== null) {
    const b = v.beats;
    if (!isObject(b)) throw schema(`audio.beats must be an object like {"bpm": 120, "firstBeat": 0.5, "shown": true} (is ${describe(b)})`);
    if (b.bpm === undefined) throw schema('audio.beats.bpm is missing (the tempo, beats per minute)');
    // A tempo MMD users meet lies between a slow ballad and drum'n'bass doubled; 1–1000 leaves room for either.
    a.beats = { bpm: numberField(b.bpm, 'audio.beats.bpm', 120, 1, 1000), firstBeat: numberField(b.firstBeat, 'audio.beats.firstBeat', 0, -1e6, 1e6), shown: boolField(b.shown, 'audio.beats.shown', true) };
  }
  const extra = extraOf(v, AUDIO_KEYS, 'audio.');
  if (extra) a.extra = extra;
  return a;
}

function readAspect(v: unknown): SceneAspect {
  if (v === undefined) return { ...DEFAULT_ASPECT };
  if (!isObject(v)) throw schema(`aspect must be an object like {"width": 16, "height": 9} (is ${describe(v)})`);
  const width = numberField(v.width, 'aspect.width', NaN, Number.MIN_VALUE);
  const height = numberField(v.height, 'aspect.height', NaN, Number.MIN_VALUE);
  if (Number.isNaN(width) || Number.isNaN(height)) throw schema('aspect needs both "width" and "height"');
  return { width, height };
}

function readView(v: unknown): SceneViewSettings {
  if (v === undefined) return {};
  if (!isObject(v)) throw schema(`view must be an object (is ${describe(v)})`);
  const out: SceneViewSettings = {};
  for (const [k, x] of Object.entries(v)) {
    if (x !== null && typeof x !== 'string' && typeof x !== 'boolean' && !(typeof x === 'number' && Number.isFinite(x))) {
      throw schema(`view.${k} must be a string, number, true/false or null (is ${describe(x)})`);
    }
    own(out, k, x);
  }
  return out;
}

/** UTF-8 byte offset of character index `ch` in `text`. */
function byteOffsetOf(text: string, ch: number): number {
  return new TextEncoder().encode(text.slice(0, ch)).length;
}

function lineColumn(text: string, ch: number): string {
  const before = text.slice(0, ch);
  const line = before.split('\n').length;
  const col = ch - before.lastIndexOf('\n');
  return `line ${line}, column ${col}`;
}

/**
 * Where and why `text` stops being JSON, found by a scan of our own once JSON.parse has refused it: V8's
 * message quotes the text around the fault (`Unexpected token 'x', ..."a secret"... is not valid JSON`), and
 * a message must never quote the file. The scan keeps its own stack: a file may nest a million deep.
 */
export function jsonFault(text: string): { at: number; reason: string } {
  const n = text.length;
  let i = 0;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const digits = () => {
    const s = i;
    while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i > s;
  };
  /** Reads a string from its opening quote; a reason when it is not one. */
  const str = (): string | null => {
    i++;
    for (;;) {
      if (i >= n) return 'a string is not closed';
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c < 0x20) return 'a control character inside a string (write it as an escape)';
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return 'a bad \\u escape in a string';
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return 'a bad escape in a string';
      } else i++;
    }
  };
  const num = (): string | null => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (!digits()) return 'a number without digits';
    if (text[i] === '.') {
      i++;
      if (!digits()) return 'a number without digits after its decimal point';
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!digits()) return 'a number without digits in its exponent';
    }
    return null;
  };
  const stack: ('{' | '[')[] = [];
  let state: 'value' | 'key' | 'after' = 'value';
  ws();
  for (;;) {
    if (state === 'value') {
      if (i >= n) return { at: n, reason: 'the text ends where a value should be' };
      const c = text[i];
      if (c === '{' || c === '[') {
        stack.push(c);
        i++;
        ws();
        if (text[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          state = 'after';
        } else state = c === '{' ? 'key' : 'value';
        continue;
      }
      const at = i;
      let why: string | null;
      if (c === '"') why = str();
      else if (c === '-' || (c >= '0' && c <= '9')) why = num();
      else {
        const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
        if (!word) return { at, reason: 'an unexpected character where a value should be' };
        i += word.length;
        why = null;
      }
      if (why) return { at: why === 'a string is not closed' ? n : i, reason: why };
      state = 'after';
    } else if (state === 'key') {
      ws();
      if (i >= n) return { at: n, reason: 'the text ends inside an object' };
      if (text[i] !== '"') return { at: i, reason: 'expected a property name in double quotes' };
      const why = str();
      if (why) return { at: why === 'a string is not closed' ? n : i, reason: why };
      ws();
      if (text[i] !== ':') return { at: Math.min(i, n), reason: "expected ':' after a property name" };
      i++;
      ws();
      state = 'value';
    } else {
      ws();
      const top = stack[stack.length - 1];
      if (top === undefined) return i < n ? { at: i, reason: 'more text after the JSON value' } : { at: n, reason: 'not valid JSON' };
      if (i >= n) return { at: n, reason: top === '{' ? 'the text ends inside an object' : 'the text ends inside an array' };
      if (text[i] === ',') {
        i++;
        ws();
        state = top === '{' ? 'key' : 'value';
      } else if (text[i] === (top === '{' ? '}' : ']')) {
        stack.pop();
        i++;
      } else return { at: i, reason: top === '{' ? "expected ',' or '}' after a property's value" : "expected ',' or ']' after an array element" };
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Our own reason and position: V8's message quotes the text near the fault.
    const { at, reason } = jsonFault(text);
    throw fault('E_SCENE_JSON', `the scene file is not valid JSON: ${reason} (${lineColumn(text, at)})`, byteOffsetOf(text, at));
  }
}

/**
 * The encoding of a scene saved as UTF-16 (Windows Notepad's "Unicode", "Unicode big endian"): by its byte order
 * mark, or without one by the zero byte beside each ASCII character of `{` and the white space before it.
 */
function otherEncoding(b: Uint8Array): string | null {
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'UTF-16';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'UTF-16';
  if (b.length >= 2 && ((b[0] === 0x7b && b[1] === 0) || (b[0] === 0 && b[1] === 0x7b))) return 'UTF-16';
  return null;
}

/** Whether bytes that are not UTF-8 read as Shift_JIS (Japanese Windows' "ANSI"), where the platform has the decoder. */
function looksLikeShiftJis(b: Uint8Array): boolean {
  try {
    new TextDecoder('shift_jis', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses a scene file's bytes (or text). `scenePath` is the scene file's absolute path: relative paths in
 * the file are resolved against its folder. Never throws; a bad file is an error value naming the problem.
 */
export function parseScene(input: Uint8Array | string, scenePath: string): Result<Scene> {
  try {
    let text: string;
    if (typeof input === 'string') text = input;
    else {
      const other = otherEncoding(input);
      if (other) throw fault('E_SCENE_ENCODING', `the scene file is ${other} text: save it as UTF-8`);
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(input);
      } catch {
        // Text in Japanese Windows' own encoding is told to be saved again; other bytes are not text at all.
        if (looksLikeShiftJis(input)) throw fault('E_SCENE_ENCODING', 'the scene file is Shift_JIS text, it seems: save it as UTF-8');
        throw fault('E_SCENE_JSON', 'the scene file is not UTF-8 text');
      }
    }
    let bom = 0;
    if (text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      bom = 3;
    }
    if (text.trim() === '') throw fault('E_SCENE_JSON', 'the scene file is empty', 0);
    let root: unknown;
    try {
      root = parseJson(text);
    } catch (e) {
      if (e instanceof SceneFailure && e.error.offset !== undefined) throw fault(e.error.code, e.error.message, e.error.offset + bom);
      throw e;
    }
    if (!isObject(root)) throw fault('E_SCENE_FORMAT', `not a scene file: the JSON is ${describe(root)}, not an object with "format": "${SCENE_FORMAT}"`);
    if (root.format !== SCENE_FORMAT) {
      throw fault('E_SCENE_FORMAT', `not a scene file: "format" is ${root.format === undefined ? 'missing' : describe(root.format)} (expected "${SCENE_FORMAT}")`);
    }
    if (typeof root.version !== 'number' || !Number.isInteger(root.version) || root.version < 1) {
      throw schema(`version must be a whole number from 1 (is ${describe(root.version)})`);
    }
    if (root.version > SCENE_VERSION) {
      throw fault('E_SCENE_VERSION', `the scene file is version ${root.version}; this VMD Studio reads up to version ${SCENE_VERSION}`);
    }
    const baseDir = dirnamePath(normalizePath(scenePath));
    const actorsIn = root.actors === undefined ? [] : root.actors;
    if (!Array.isArray(actorsIn)) throw schema(`actors must be an array (is ${describe(actorsIn)})`);
    if (actorsIn.length > MAX_SCENE_ACTORS) throw schema(`actors: a scene holds at most ${MAX_SCENE_ACTORS} actors (this one names ${actorsIn.length})`);
    const actors = actorsIn.map((a, i) => readActor(a, i, baseDir));
    const activeActor = numberField(root.activeActor, 'activeActor', 0, 0, Math.max(0, actors.length - 1));
    if (!Number.isInteger(activeActor)) throw schema(`activeActor must be a whole number (is ${activeActor})`);
    const scene: Scene = {
      actors,
      activeActor,
      camera: root.camera === undefined ? null : pathField(root.camera, 'camera', baseDir, true),
      audio: readAudio(root.audio, baseDir),
      aspect: readAspect(root.aspect),
      view: readView(root.view),
    };
    const follow = readFollow(root.cameraFollow);
    if (follow) scene.cameraFollow = follow;
    const extra = extraOf(root, TOP_KEYS, '');
    if (extra) scene.extra = extra;
    return ok(scene);
  } catch (e) {
    if (e instanceof SceneFailure) return { ok: false, error: { ...e.error, file: scenePath } };
    return { ok: false, error: { code: 'E_INTERNAL', message: e instanceof Error ? e.message : String(e), file: scenePath } };
  }
}

// ---------------------------------------------------------------------------------------------------
// Writing

/** `abs` as the scene file stores it: relative to the scene's folder with `/`, else absolute. */
export function storedPath(sceneDir: string, abs: string): string {
  if (!isAbsolutePath(abs)) return normalizePath(abs);
  return relativePath(sceneDir, abs) ?? normalizePath(abs);
}

/**
 * The scene file's text for a scene saved at `scenePath` (absolute): paths relative to its folder, keys
 * in a fixed order, two-space indent, a final newline (friendly to diffs and hand edits).
 */
export function serializeScene(scene: Scene, scenePath: string): string {
  const dir = dirnamePath(normalizePath(scenePath));
  const rel = (p: string | null) => (p === null ? null : storedPath(dir, p));
  const out: Record<string, unknown> = {
    format: SCENE_FORMAT,
    version: SCENE_VERSION,
    actors: scene.actors.map((a) => ({
      ...(a.name !== undefined ? { name: a.name } : {}),
      model: rel(a.model),
      motion: rel(a.motion),
      hidden: a.hidden,
      ...(a.stage ? { stage: { position: [...a.stage.position], turn: a.stage.turn } } : {}),
      // Only when set: a scene with every outline at its model's width reads as it did before the field existed.
      ...(a.edgeWidth !== undefined && a.edgeWidth !== 1 ? { edgeWidth: a.edgeWidth } : {}),
      ...a.extra,
    })),
    activeActor: scene.activeActor,
    camera: rel(scene.camera),
    audio: scene.audio
      ? {
          path: rel(scene.audio.path),
          offsetFrames: scene.audio.offsetFrames,
          volume: scene.audio.volume,
          muted: scene.audio.muted,
          ...(scene.audio.beats ? { beats: { bpm: scene.audio.beats.bpm, firstBeat: scene.audio.beats.firstBeat, shown: scene.audio.beats.shown } } : {}),
          ...scene.audio.extra,
        }
      : null,
    aspect: { width: scene.aspect.width, height: scene.aspect.height },
    view: { ...scene.view },
    // Only when the camera follows a bone: a scene without one reads as it did before the field existed.
    ...(scene.cameraFollow?.length ? { cameraFollow: followOut(scene.cameraFollow) } : {}),
    ...scene.extra,
  };
  return JSON.stringify(out, null, 2) + '\n';
}

/**
 * Where Save Scene proposes to write a scene that has no file yet: the deepest folder holding all the files it
 * names (the project folder of `models/`, `motions/`, `music/`, where MMD and MMM users keep a project file),
 * named after its song (`song.wav` → `song.vmdscene`), else `scene.vmdscene`. `directory` is null when its files
 * share no folder (none yet, or on different drives).
 */
export function suggestedScenePlace(scene: Scene, homeDir: string | null = null): { directory: string | null; fileName: string } {
  const song = scene.audio?.path ? basenamePath(scene.audio.path).replace(/\.[^.]*$/, '') : '';
  const named = [...scene.actors.flatMap((a) => [a.model, a.motion]), scene.camera, scene.audio?.path ?? null].filter((p): p is string => p !== null && isAbsolutePath(p));
  const shared = commonFolder(named);
  return { directory: shared !== null && !tooWideFolder(shared, homeDir) ? shared : null, fileName: `${song || 'scene'}${SCENE_EXTENSION}` };
}

/**
 * A folder files share only by living on one disk: a root (`/`, `C:\`, a share) or the home folder or one above
 * it. Models kept in MMD/Models and dances in Downloads share `/` or the home folder: Save Scene proposed writing
 * the scene there (new-user pass nuprefs 2); it counts as no shared folder.
 */
function tooWideFolder(dir: string, homeDir: string | null): boolean {
  if (isRootPath(dir)) return true;
  if (!homeDir || !isAbsolutePath(homeDir)) return false;
  const up = relativePath(dir, homeDir);
  return up !== null && (up === '.' || !up.startsWith('..'));
}

/** serializeScene as UTF-8 bytes, for saveScene. */
export function sceneBytes(scene: Scene, scenePath: string): Uint8Array {
  return new TextEncoder().encode(serializeScene(scene, scenePath));
}

// ---------------------------------------------------------------------------------------------------
// The files a scene names, and loading them so that one missing file does not stop the rest

export type SceneFileRole = 'model' | 'motion' | 'camera' | 'audio';

export interface SceneFileRef {
  role: SceneFileRole;
  /** The actor's index for 'model' and 'motion'. */
  actor?: number;
  /** Absolute path. */
  path: string;
}

/** Every file the scene names, in a fixed order (actors' models and motions, camera, audio). */
export function sceneFileRefs(scene: Scene): SceneFileRef[] {
  const refs: SceneFileRef[] = [];
  scene.actors.forEach((a, i) => {
    if (a.model !== null) refs.push({ role: 'model', actor: i, path: a.model });
    if (a.motion !== null) refs.push({ role: 'motion', actor: i, path: a.motion });
  });
  if (scene.camera !== null) refs.push({ role: 'camera', path: scene.camera });
  if (scene.audio?.path) refs.push({ role: 'audio', path: scene.audio.path });
  return refs;
}

/** What a reader returns for one file (the shape of an IPC result or a codec Result). */
export type SceneFileRead<T> = { ok: true; value: T } | { ok: false; error: CodecError };

export interface SceneFileProblem {
  ref: SceneFileRef;
  /** The reader's error, with `file` set to the path; `code` as the reader gave it (E_IO_NOT_FOUND, E_VMD_…). */
  error: CodecError & { file: string };
  /** One English line naming the file: `actor 2 motion "dance.vmd": file not found`. */
  text: string;
}

export interface SceneLoad<T> {
  loaded: { ref: SceneFileRef; value: T }[];
  /** Files that could not be read (missing, unreadable, damaged); the rest loaded regardless. */
  problems: SceneFileProblem[];
}

/** `actor 2 model`, `camera`, `audio` (actors counted from 1, as people do). */
export function roleLabel(ref: SceneFileRef): string {
  return ref.actor !== undefined ? `actor ${ref.actor + 1} ${ref.role}` : ref.role;
}

/**
 * Reads every file the scene names through `read` (main's openFile / readModelFile / readAudioFile, or
 * a fake in tests), all at once. A file that fails — missing, denied, damaged, or a reader that throws —
 * becomes a problem naming that file; every other file still loads.
 */
export async function loadSceneFiles<T>(scene: Scene, read: (ref: SceneFileRef) => Promise<SceneFileRead<T>>): Promise<SceneLoad<T>> {
  const refs = sceneFileRefs(scene);
  const results = await Promise.all(
    refs.map(async (ref): Promise<SceneFileRead<T>> => {
      try {
        return await read(ref);
      } catch (e) {
        return { ok: false, error: { code: 'E_IO', message: e instanceof Error ? e.message : String(e) } };
      }
    }),
  );
  const out: SceneLoad<T> = { loaded: [], problems: [] };
  results.forEach((r, i) => {
    const ref = refs[i];
    if (r.ok) out.loaded.push({ ref, value: r.value });
    else {
      const error = { ...r.error, file: ref.path };
      const why = r.error.code === 'E_IO_NOT_FOUND' ? 'file not found' : r.error.message;
      out.problems.push({ ref, error, text: `${roleLabel(ref)} "${basenamePath(ref.path)}": ${why}` });
    }
  });
  return out;
}
