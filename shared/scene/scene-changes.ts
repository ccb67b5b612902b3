/**
 * What differs between a scene file as saved and the scene the window would write now, in the words the close
 * question lists ("music offset, stage of matcap_sample"): closing a scene named only its file, and the person
 * could not tell what Don't Save would lose. Only the scene file's own content (not the documents' keys).
 */
import type { Scene, SceneActor } from './scene-file';
import { basenamePath } from './scene-path';

/**
 * One change, from most to least telling: actors added or removed, an actor's motion, model, stage (position
 * and turn), outline width, shown/hidden; the camera document; the song, its offset, volume/mute, beat grid (BPM); the output
 * aspect; 'other' for anything else the file holds (fields of a later version, …).
 */
export type SceneChange =
  | { kind: 'added' | 'removed' | 'motion' | 'model' | 'stage' | 'edge' | 'hidden'; actors: string[] }
  | { kind: 'camera' | 'song' | 'offset' | 'volume' | 'bpm' | 'aspect' | 'other' };

/** An actor's name as the file gives it, else its model's file name, else its motion's, without the extension. */
function ownLabel(a: SceneActor): string {
  if (a.name) return a.name;
  const f = a.model ?? a.motion;
  return f ? basenamePath(f).replace(/\.[^.]*$/, '') : '—';
}

const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

/**
 * The changes from `saved` to `now`. Actors are paired by their motion file (an actor removed from the middle
 * shifts the rest), the rest in order; `label(i)` names the actor at `now.actors[i]` (the window's tab name, which
 * tells two alike actors apart), a removed actor is named from the file.
 */
export function sceneChanges(saved: Scene, now: Scene, label: (i: number) => string = (i) => ownLabel(now.actors[i])): SceneChange[] {
  const pairs: [number, number][] = [];
  const freeSaved = new Set(saved.actors.map((_, i) => i));
  const freeNow = new Set(now.actors.map((_, i) => i));
  // One file, one actor: a motion path pairs the saved actor with the one holding it now.
  for (const j of [...freeNow]) {
    const m = now.actors[j].motion;
    if (m === null) continue;
    const i = [...freeSaved].find((k) => saved.actors[k].motion === m);
    if (i === undefined) continue;
    pairs.push([i, j]);
    freeSaved.delete(i);
    freeNow.delete(j);
  }
  // The rest in order (a motion relinked, or none): the first unpaired saved actor with the first unpaired now.
  const restSaved = [...freeSaved].sort((a, b) => a - b);
  const restNow = [...freeNow].sort((a, b) => a - b);
  while (restSaved.length && restNow.length) pairs.push([restSaved.shift()!, restNow.shift()!]);
  pairs.sort((a, b) => a[1] - b[1]);

  const out: SceneChange[] = [];
  const actorChange = (kind: 'added' | 'removed' | 'motion' | 'model' | 'stage' | 'edge' | 'hidden', actors: string[]) => {
    if (actors.length) out.push({ kind, actors });
  };
  actorChange('added', restNow.map(label));
  actorChange('removed', restSaved.map((i) => ownLabel(saved.actors[i])));
  const changed = (test: (a: SceneActor, b: SceneActor) => boolean) => pairs.filter(([i, j]) => test(saved.actors[i], now.actors[j])).map(([, j]) => label(j));
  actorChange('motion', changed((a, b) => a.motion !== b.motion));
  actorChange('model', changed((a, b) => a.model !== b.model));
  actorChange('stage', changed((a, b) => !same(a.stage, b.stage)));
  actorChange('edge', changed((a, b) => (a.edgeWidth ?? 1) !== (b.edgeWidth ?? 1)));
  actorChange('hidden', changed((a, b) => a.hidden !== b.hidden));
  const field = (kind: 'camera' | 'song' | 'offset' | 'volume' | 'bpm' | 'aspect', differs: boolean) => {
    if (differs) out.push({ kind });
  };
  // The camera's file, or what it follows (camera-follow.ts): both are "camera" to the person.
  field('camera', saved.camera !== now.camera || !same(saved.cameraFollow ?? null, now.cameraFollow ?? null));
  const sa = saved.audio;
  const na = now.audio;
  field('song', (sa?.path ?? null) !== (na?.path ?? null));
  const bothSongs = sa && na && sa.path === na.path;
  field('offset', !!bothSongs && sa.offsetFrames !== na.offsetFrames);
  field('volume', !!bothSongs && (sa.volume !== na.volume || sa.muted !== na.muted));
  field('bpm', !!bothSongs && (sa.beats?.bpm !== na.beats?.bpm || sa.beats?.firstBeat !== na.beats?.firstBeat));
  field('aspect', !same(saved.aspect, now.aspect));
  // Anything else (a field of a later version, an actor's name, the extra of an actor or of the song): "other settings".
  const rest = (s: Scene) => ({ ...s, actors: s.actors.map((a) => [a.name ?? null, a.extra ?? null]), audio: s.audio?.extra ?? null, camera: null, cameraFollow: null, aspect: null, activeActor: 0, view: null });
  if (!out.length && !same(rest(saved), rest(now))) out.push({ kind: 'other' });
  return out;
}

/**
 * What a one-actor scene with no file holds beyond its motion (a lone motion closed with a model, a song and its
 * offset: the close question names them, "Keep this model, song and offset as a scene?"): the changes from the
 * motion alone (on the built-in figure, no song, at the origin, shown, the outline at the model's width), and the song's offset when it is not 0
 * (sceneChanges names an offset only between two versions of one song). Empty for anything but one actor.
 */
export function loneExtras(now: Scene): SceneChange[] {
  if (now.actors.length !== 1 || now.camera !== null) return [];
  const a = now.actors[0];
  const alone: Scene = { ...now, actors: [{ model: null, motion: a.motion, hidden: false }], audio: null };
  const out = sceneChanges(alone, { ...now, actors: [{ model: a.model, motion: a.motion, hidden: a.hidden, ...(a.stage ? { stage: a.stage } : {}), ...(a.edgeWidth !== undefined ? { edgeWidth: a.edgeWidth } : {}) }] }, () => '').filter((c) => c.kind !== 'other');
  if (now.audio && now.audio.offsetFrames !== 0) out.push({ kind: 'offset' });
  return out;
}
