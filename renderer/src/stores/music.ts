/**
 * The scene's music: one audio file decoded with Web Audio, its peak pyramid (built once, so zooming and
 * scrolling the waveform never touch the samples again), offset, volume and mute — and, while the motion
 * plays, the clock that drives playback: the frame shown is computed from the AudioContext's clock
 * (shared/scene/audio-sync.ts), which runs with the sound card, instead of adding up display-frame times.
 *
 * The sound itself is an audio player's (audio/audio-player.ts: a clock, decoding, sounds started and
 * stopped on the clock), which the app attaches (`attachPlayer`: the Web Audio one; the unit tests a stand-in).
 * The store drives it: where each loop pass and scrub grain begins is decided here, with the pure maths of
 * shared/scene/audio-sync.ts. The decoded song, the pyramid and the sounds playing live outside Vue's
 * reactivity; `version` says when the pyramid changed. Without a player (or Web Audio) nothing decodes,
 * and playback runs on the display clock.
 */
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import { useApi } from '../api';
import { useNotifyStore, type NoticeText } from './notify';
import { useTimeStore } from './time';
import { MUSIC_PART, useWorkspaceStore } from './workspace';
import { audioFormatOf, notAudioKind } from '../../../shared/scene/audio-format';
import { wavDataShortfall, wavWithoutSamples } from '../../../shared/scene/wav';
import { AUDIO_EXTENSIONS } from '../../../shared/ipc/file-types';
import type { AudioPlayer, Song, Sound } from '../audio/audio-player';
import {
  audioStart,
  audioTimeAtFrame,
  createClock,
  songEndFrame,
  frameAt,
  loopPassAt,
  nextWrapTime,
  pause as pauseClock,
  planGrain,
  type Grain,
  play as playClock,
  seek as seekClock,
  setLoop,
  type LoopRange,
  type PlaybackClock,
} from '../../../shared/scene/audio-sync';
import { buildPeakPyramid, type PeakPyramid } from '../../../shared/scene/peaks';
import { beatFrames as beatFramesOf, type BeatGrid } from '../../../shared/scene/beats';
import { onsetBeatGrid } from '../../../shared/scene/onset-tempo';
import { FPS } from '../../../shared/vmd/vmd-layout';

/** A tempo as the notices write it: whole, or to two decimals (120, 123.45). */
export function bpmText(bpm: number): number {
  return Math.round(bpm * 100) / 100;
}

export const useMusicStore = defineStore('music', () => {
  const time = useTimeStore();
  /** Outside reactivity: the player, the decoded song, its pyramid, the sounds playing and the clock. */
  const held = {
    player: null as AudioPlayer | null,
    buffer: null as Song | null,
    pyramid: null as PeakPyramid | null,
    source: null as Sound | null,
    /** The next loop pass's sound, scheduled ahead to start at `wrapAt` (null: none). */
    next: null as Sound | null,
    /** The last scrub grain planned and its sound (a pending one is replaced by a newer cursor). */
    grain: null as { plan: Grain; sound: Sound } | null,
    clock: createClock() as PlaybackClock,
    /** Context time of the next loop wrap (the source restarts then), or null. */
    wrapAt: null as number | null,
    /** The frame the playback loop last showed from this clock (another value there means a seek). */
    lastShown: NaN,
    /** Context time at which the playback loop last asked for a frame. */
    lastAskedAt: NaN,
  };
  const name = ref<string | null>(null);
  const path = ref<string | null>(null);
  const duration = ref(0);
  const sampleRate = ref(0);
  const channels = ref(0);
  const offsetFrames = ref(0);
  const volume = ref(1);
  const muted = ref(false);
  const loading = ref(false);
  /** Bumped when the pyramid changes (the waveform redraws). */
  const version = ref(0);
  /** Whether the audio clock is driving the playback now (false: the display clock does). */
  const driving = ref(false);
  /** AudioContext state after the last play ('running', 'suspended', …), for the UI and tests. */
  const contextState = ref<string>('none');

  const loaded = computed(() => name.value !== null);

  /** Beat markers shown (and key drags snapping to them). */
  const beatsOn = ref(false);
  /** The detected beat grid of the loaded song, or null (not detected, or no steady beat). */
  const beatGrid = ref<BeatGrid | null>(null);
  const beatState = ref<'idle' | 'detecting' | 'ready' | 'none'>('idle');
  /** Motion frames of the beats (ascending; they follow the offset); empty when off or none. */
  const beatFrames = computed<Float64Array>(() =>
    beatsOn.value && beatGrid.value ? beatFramesOf(beatGrid.value, duration.value, offsetFrames.value) : new Float64Array(0),
  );
  /**
   * The file (path, else name) of the last song loaded, kept through a removal: opening the same file again
   * keeps the offset, another song starts at 0 (see loadBytes).
   */
  let lastSong: string | null = null;
  /**
   * What loading the song did to a non-zero offset: kept (the same file) or reset to 0 from `was`; null: it was 0.
   * `replaced`: the scene's song it stands in for (`missingSong`), whose offset it kept (0 too); `held`: the offset
   * was the one a scene kept with no song (offsetHeld).
   */
  const offsetOnLoad = ref<{ was: number; kept: boolean; replaced?: string; held?: boolean } | null>(null);
  /**
   * The song a scene file names that could not be read (its file name), set by the scene at open: the next song
   * loaded is its replacement (the song moved or renamed, picked again with ♪ Music…), so it keeps the scene's
   * offset, volume and mute, which the dances are timed to. Cleared by that load, and by whatever replaces the
   * scene; a song loaded after the replacement is another song again (offset 0).
   */
  const missingSong = ref<string | null>(null);
  /**
   * The offset is a scene's kept with no song (its file says `"path": null`: the song was removed after the offset
   * was set), set by the scene at open (holdOffset): the next song loaded keeps it, as the replacement of a missing
   * song does. Cleared by that load and by the next scene's open.
   */
  let offsetHeld = false;
  /** Which song the last detection ran on (a newer song makes its answer stale). */
  let beatSong = 0;

  /**
   * Finds the song's tempo and first beat: web-audio-beat-detector first (loaded on first use, its analysis in a
   * worker), which lowpasses the song and so hears kicks and bass; when it finds none, or cannot run, a second
   * pass over the full band (shared/scene/onset-tempo.ts), which finds a click track or a metronome. A song
   * without a steady beat is a warning naming it and pointing at BPM… (type the tempo); a detector that could
   * not run and no beat from the second pass is a warning of its own, with the detector's words. The markers
   * stay off then.
   */
  async function detectBeats() {
    const buffer = held.buffer;
    if (!buffer || beatState.value === 'detecting') return;
    const song = beatSong;
    beatState.value = 'detecting';
    let grid: BeatGrid | null = null;
    let failure: string | null = null;
    try {
      const { guess } = await import('web-audio-beat-detector');
      const r = await guess(buffer);
      grid = { bpm: r.bpm, firstBeat: r.offset };
    } catch (e) {
      // "does not contain any detectable beats" is the library's no-beat answer; anything else (its worker
      // failed to load, the render failed) is a failure to say as one if the second pass finds nothing either.
      const message = e instanceof Error ? e.message : String(e);
      if (!/detectable beats/i.test(message)) failure = message;
    }
    if (song !== beatSong) return;
    if (!grid) {
      const data: Float32Array[] = [];
      for (let c = 0; c < buffer.numberOfChannels; c++) data.push(buffer.getChannelData(c));
      grid = onsetBeatGrid(data, buffer.sampleRate);
    }
    const notify = useNotifyStore();
    if (grid) {
      beatGrid.value = grid;
      beatState.value = 'ready';
      notify.info({ key: 'music.beatsFound', params: { bpm: bpmText(grid.bpm), first: grid.firstBeat.toFixed(3) } });
      return;
    }
    beatGrid.value = null;
    beatState.value = 'none';
    if (failure !== null) notify.warning({ key: 'music.beatsFailed', params: { name: name.value ?? '' } }, failure);
    else notify.warning({ key: 'music.beatsNone', params: { name: name.value ?? '' } });
  }

  /**
   * A beat grid the person typed (BPM…: the tempo, and a motion frame a beat falls on at the current offset):
   * it replaces the detected one (or stands where none was found) and the markers show. The beat is kept in
   * song time, so it follows later offset changes as a detected one does. False for a tempo or frame that
   * is not a finite number (a tempo must be above 0).
   */
  function setBeatGrid(bpm: number, beatFrame: number): boolean {
    if (!loaded.value || !(bpm > 0) || !Number.isFinite(bpm) || !Number.isFinite(beatFrame)) return false;
    const before = { grid: beatGrid.value, state: beatState.value, on: beatsOn.value };
    const grid: BeatGrid = { bpm, firstBeat: audioTimeAtFrame(beatFrame, offsetFrames.value) };
    // One undo step, "beat grid": undo puts back the grid before it (detected, typed or none) and whether it showed.
    return useWorkspaceStore().commitScene({
      label: 'beat grid',
      part: MUSIC_PART,
      put: (way) => (way === 'redo' ? putGrid(grid, 'ready', true) : putGrid(before.grid, before.state, before.on)),
    });
  }

  /** A beat grid put in place (typed, restored by undo, or read from a scene file): no detection overrides it. */
  function putGrid(grid: BeatGrid | null, state: 'idle' | 'detecting' | 'ready' | 'none', on: boolean) {
    // A detection still running answers for a grid that has been replaced: its answer is dropped.
    beatSong++;
    beatGrid.value = grid;
    // A detection that was running when the grid was replaced is not running any more: asked again on showing.
    beatState.value = state === 'detecting' ? 'idle' : state;
    beatsOn.value = on;
    if (on && loaded.value && beatState.value === 'idle') void detectBeats();
  }

  /**
   * The beat grid a scene file keeps (`audio.beats`), put in place after its song loads: the tempo the person
   * typed or a detection found stays the scene's, and whether the markers showed. No undo step (the scene opened).
   */
  function restoreBeatGrid(bpm: number, firstBeat: number, shown: boolean): boolean {
    if (!loaded.value || !(bpm > 0) || !Number.isFinite(bpm) || !Number.isFinite(firstBeat)) return false;
    putGrid({ bpm, firstBeat }, 'ready', shown);
    return true;
  }

  function setBeatsOn(on: boolean) {
    beatsOn.value = on;
    if (on && loaded.value && beatState.value === 'idle') void detectBeats();
  }

  function forgetBeats() {
    beatSong++;
    beatGrid.value = null;
    beatState.value = 'idle';
  }

  /** Makes `p` the player the music sounds through (the app attaches one at start). */
  function attachPlayer(p: AudioPlayer) {
    held.player = p;
    applyGain();
  }

  /** The peak pyramid of the loaded song (null when none); read by the waveform row. */
  function pyramid(): PeakPyramid | null {
    return held.pyramid;
  }

  /** The decoded song (null when none): the video export renders its span of it (export/video-export.ts). */
  function song(): Song | null {
    return held.buffer;
  }

  function applyGain() {
    held.player?.setGain(muted.value ? 0 : volume.value);
  }

  /**
   * Decodes `bytes` as the scene's music. A format the platform cannot decode is an E_AUDIO_DECODE error
   * naming the format (from the bytes), shown as a notification; false then.
   *
   * `step`: the person loaded it (♪ Music…, Open…, a drop): one undo step, "load music", whose undo puts back
   * the song before it (or none) with its offset, beat grid and the previous song's own steps below it, as
   * MMD users expect of a mistaken load. Without it (a scene opening its song) the previous song's steps leave
   * the history.
   */
  async function loadBytes(fileName: string, bytes: Uint8Array, filePath: string | null = null, opts: { step?: boolean } = {}): Promise<boolean> {
    const player = held.player;
    const notify = useNotifyStore();
    if (!player?.available) {
      notify.error({ code: 'E_AUDIO_DECODE', message: `${fileName}: this platform has no Web Audio to decode ${audioFormatOf(bytes, fileName)}`, file: filePath ?? fileName });
      return false;
    }
    // A WAV with no sample in it: said as such, not as a format this platform cannot decode.
    const none = wavWithoutSamples(bytes);
    if (none) {
      const message = none.promised > 0 ? { key: 'audio.noSamples' as const, params: { promised: none.promised.toLocaleString('en-US') } } : { key: 'audio.emptyData' as const };
      notify.error({ code: 'E_AUDIO_NO_SAMPLES', message, file: filePath ?? fileName });
      return false;
    }
    loading.value = true;
    try {
      const buffer = await player.decode(bytes);
      if (!buffer) {
        // A file that is recognisably something else (a picture, a motion) is named as what it is.
        const other = notAudioKind(bytes);
        const file = filePath ?? fileName;
        if (other) notify.error({ code: 'E_NOT_AUDIO', message: { key: 'audio.notAudio', params: { what: { key: `audio.kind.${other}` as const }, list: AUDIO_EXTENSIONS.join(', ') } }, file });
        else notify.error({ code: 'E_AUDIO_DECODE', message: { key: 'audio.decodeFailed', params: { format: audioFormatOf(bytes, fileName) } }, file });
        return false;
      }
      // A WAV cut short plays what it holds; the person is told how much is missing.
      const short = wavDataShortfall(bytes);
      if (short) {
        const n = (x: number) => x.toLocaleString('en-US');
        notify.warning({ key: 'audio.truncated', params: { name: fileName, present: n(short.present), promised: n(short.promised), missing: n(short.promised - short.present) } });
      }
      const before = opts.step ? songState() : null;
      stopSource();
      // Another song needs its own offset (its lead-in is its own; MMD keeps the offset with the project, not
      // with the song): it starts at 0. The same file opened again keeps it, and so does the song that replaces
      // the scene's missing one (missingSong). The notice says which (loadedNotice), so an offset left from the
      // previous song is never applied unseen.
      const id = filePath ?? fileName;
      const was = offsetFrames.value;
      const replaced = missingSong.value;
      missingSong.value = null;
      // The offset a scene kept with no song (holdOffset) is kept too, and said as the scene's.
      const heldFor = offsetHeld && id !== lastSong;
      const kept = id === lastSong || replaced !== null || offsetHeld;
      offsetHeld = false;
      lastSong = id;
      if (!kept) offsetFrames.value = 0;
      offsetOnLoad.value = replaced !== null ? { was, kept, replaced } : was === 0 ? null : heldFor ? { was, kept, held: true } : { was, kept };
      const data: Float32Array[] = [];
      for (let c = 0; c < buffer.numberOfChannels; c++) data.push(buffer.getChannelData(c));
      held.buffer = buffer;
      player.setSong(buffer);
      held.pyramid = buildPeakPyramid(data, buffer.sampleRate);
      name.value = fileName;
      path.value = filePath;
      duration.value = buffer.duration;
      sampleRate.value = buffer.sampleRate;
      channels.value = buffer.numberOfChannels;
      version.value++;
      applyGain();
      forgetBeats();
      if (beatsOn.value) void detectBeats();
      if (time.playing && time.rate === 1) startDriving();
      if (before) {
        // Undo puts the song before back; the step keeps both decoded songs (counted in the history's bytes).
        const after = songState();
        const kept = (st: SongState) => (st.song ? st.song.buffer.length * st.song.buffer.numberOfChannels * 4 : 0);
        useWorkspaceStore().commitScene({ label: 'load music', part: MUSIC_PART, bytes: kept(before) + kept(after), put: (way) => putState(way === 'undo' ? before : after) });
      } else {
        // The previous song's offset and removal steps do not apply to this one: they leave the history.
        useWorkspaceStore().forgetSteps(MUSIC_PART);
      }
      return true;
    } finally {
      loading.value = false;
    }
  }

  /**
   * The notice of a song just loaded (Open…, a drop, ♪ Music…): its name and length, and what became of the
   * offset when it was not 0 ("offset 45 kept" for the same file, "offset reset to 0 (it was 45)" for another).
   */
  function loadedNotice(): NoticeText {
    const params = { name: name.value ?? '', seconds: duration.value.toFixed(1) };
    const o = offsetOnLoad.value;
    if (!o) return { key: 'audio.loaded', params };
    if (o.replaced !== undefined) return { key: 'audio.loadedReplacing', params: { ...params, missing: o.replaced, offset: o.was } };
    if (o.held) return { key: 'audio.loadedOffsetHeld', params: { ...params, offset: o.was } };
    return { key: o.kept ? 'audio.loadedOffsetKept' : 'audio.loadedOffsetReset', params: { ...params, offset: o.was } };
  }

  /** Reads an audio file through main and decodes it: the person's load, one undo step (loadBytes `step`). */
  async function openPath(p: string): Promise<boolean> {
    const r = await useApi().readAudioFile(p);
    if (!r.ok) {
      useNotifyStore().error(r.error);
      return false;
    }
    return loadBytes(r.value.name, r.value.bytes, r.value.path, { step: true });
  }

  function unload() {
    stopDriving();
    stopGrain();
    held.buffer = null;
    held.player?.setSong(null);
    held.pyramid = null;
    name.value = null;
    path.value = null;
    duration.value = 0;
    forgetBeats();
    version.value++;
  }

  /** Whether the next song loaded keeps the offset there is now (a scene's kept with no song; see offsetHeld). */
  function holdOffset(on: boolean) {
    offsetHeld = on;
  }

  function setOffset(f: number) {
    if (!Number.isFinite(f)) return;
    offsetFrames.value = f;
    if (driving.value) restartSource();
  }

  /**
   * The offset as the person changes it (the typed field, a waveform drag as it ends): one undo step, "music
   * offset", in the history the key edits share, so Ctrl+Z after a mistaken drag puts the song back instead of
   * taking away a key made before it. `from`: the offset the gesture began at (a drag places the song live with
   * `setOffset` until it ends), so the whole drag is the one step. False when nothing changes.
   */
  function changeOffset(f: number, from = offsetFrames.value): boolean {
    if (!Number.isFinite(f)) return false;
    setOffset(f);
    if (f === from) return false;
    return useWorkspaceStore().commitScene({ label: 'music offset', part: MUSIC_PART, put: (way) => setOffset(way === 'undo' ? from : f) });
  }

  /** What the music row shows of a song, kept by a removal's undo step. */
  interface KeptSong {
    buffer: Song;
    pyramid: PeakPyramid | null;
    name: string | null;
    path: string | null;
    grid: BeatGrid | null;
  }

  /**
   * × (remove the music) as one undo step, "remove music": its undo puts the same decoded song back (the step
   * keeps it, its samples counted in the history's bytes), with its beat grid; the offset, volume and mute stay
   * as they are through a removal. False when no song is loaded.
   */
  function remove(): boolean {
    const buffer = held.buffer;
    if (!buffer) return false;
    const kept: KeptSong = { buffer, pyramid: held.pyramid, name: name.value, path: path.value, grid: beatGrid.value };
    const bytes = buffer.length * buffer.numberOfChannels * 4;
    return useWorkspaceStore().commitScene({ label: 'remove music', part: MUSIC_PART, bytes, put: (way) => (way === 'redo' ? unload() : putBack(kept)) });
  }

  /** The music as a load step keeps it on each side: the song (or none), the offset, and what the next load compares with. */
  interface SongState {
    song: KeptSong | null;
    offset: number;
    missingSong: string | null;
    lastSong: string | null;
    offsetHeld: boolean;
    offsetOnLoad: { was: number; kept: boolean; replaced?: string; held?: boolean } | null;
  }
  function songState(): SongState {
    const buffer = held.buffer;
    return {
      song: buffer ? { buffer, pyramid: held.pyramid, name: name.value, path: path.value, grid: beatGrid.value } : null,
      offset: offsetFrames.value,
      missingSong: missingSong.value,
      lastSong,
      offsetHeld,
      offsetOnLoad: offsetOnLoad.value,
    };
  }
  /** A load step undone or redone: that side's song (already the music when it is the same), offset and state. */
  function putState(st: SongState) {
    if (!st.song) {
      if (held.buffer) unload();
    } else if (held.buffer !== st.song.buffer) putBack(st.song);
    if (offsetFrames.value !== st.offset) setOffset(st.offset);
    missingSong.value = st.missingSong;
    lastSong = st.lastSong;
    offsetHeld = st.offsetHeld;
    offsetOnLoad.value = st.offsetOnLoad;
  }

  /** A removal undone: the kept song is the music again, as it was. */
  function putBack(k: KeptSong) {
    stopGrain();
    stopSource();
    held.buffer = k.buffer;
    held.player?.setSong(k.buffer);
    held.pyramid = k.pyramid;
    name.value = k.name;
    path.value = k.path;
    duration.value = k.buffer.duration;
    sampleRate.value = k.buffer.sampleRate;
    channels.value = k.buffer.numberOfChannels;
    version.value++;
    applyGain();
    forgetBeats();
    if (k.grid) {
      beatGrid.value = k.grid;
      beatState.value = 'ready';
    } else if (beatsOn.value) void detectBeats();
    if (time.playing && time.rate === 1) startDriving();
  }
  function setVolume(v: number) {
    volume.value = Math.max(0, Math.min(1, v));
    applyGain();
  }
  function setMuted(m: boolean) {
    muted.value = m;
    applyGain();
  }

  function loopRange(): LoopRange | null {
    const [start, end] = time.bounds;
    return time.loop && end > start ? { start, end } : null;
  }

  function stopSource() {
    held.source?.stop();
    held.next?.stop();
    held.source = null;
    held.next = null;
  }

  /** The player's clock now, when it has one and a song is loaded (else null: nothing to sound). */
  function soundingNow(): number | null {
    return held.buffer ? (held.player?.now() ?? null) : null;
  }

  /** Schedules the loop pass that begins at the next wrap (it starts and stops on the player's clock). */
  function scheduleNextPass() {
    held.next = null;
    if (soundingNow() === null || held.wrapAt === null) return;
    const p = loopPassAt(held.clock, held.wrapAt, offsetFrames.value, held.buffer!.duration);
    if (!p) return;
    held.next = held.player!.play(p.when, p.offset, p.stopAt);
  }

  /** (Re)starts the sound where the clock is now; with a loop, it stops at the wrap and the next pass is scheduled. */
  function restartSource() {
    stopSource();
    const now = soundingNow();
    if (now === null) return;
    held.wrapAt = nextWrapTime(held.clock, now);
    const s = audioStart(held.clock, now, offsetFrames.value, held.buffer!.duration);
    if (s && (held.wrapAt === null || s.when < held.wrapAt)) held.source = held.player!.play(s.when, s.offset, held.wrapAt ?? undefined);
    scheduleNextPass();
  }

  /** The loop wrapped: the pass scheduled ahead is playing now; schedule the one after (or restart after a stall). */
  function advancePass(now: number) {
    const was = held.wrapAt!;
    const len = held.clock.loop ? (held.clock.loop.end - held.clock.loop.start) / FPS : 0;
    const upcoming = nextWrapTime(held.clock, now);
    if (upcoming === null || Math.abs(upcoming - (was + len)) > 1e-6) return restartSource();
    held.source?.release();
    held.source = held.next;
    held.wrapAt = upcoming;
    scheduleNextPass();
  }

  function stopGrain() {
    held.grain?.sound.stop();
    held.grain = null;
  }

  /**
   * Plays a short grain of the song at `frame` (scrubbing while paused), throttled on the context clock
   * (shared/scene/audio-sync.ts planGrain): a pending grain is replaced by the newer cursor's.
   */
  function playGrain(frame: number) {
    const player = held.player;
    if (!player || soundingNow() === null || driving.value) return;
    if (player.state() === 'suspended') void player.resume();
    // One reading of the audio clock, taken last, decides both whether the pending grain has begun and when
    // this one starts. The clock runs on its own thread: two readings could disagree (a page stall, or just its
    // next render quantum), and a grain judged pending by the first was cut by one started at the second, 11 ms
    // after it. planGrain never plans before the time it is given, so no grain starts at a moment already past.
    const r = planGrain(frame, offsetFrames.value, held.buffer!.duration, player.now()!, held.grain?.plan ?? null);
    if (r.replace) stopGrain();
    if (!r.grain) return;
    held.grain = { plan: r.grain, sound: player.grain(r.grain) };
  }

  /** Playback started (or music arrived while playing): the audio clock takes over from the shown frame. */
  function startDriving() {
    const player = held.player;
    if (!player?.available || !held.buffer) return;
    const begin = () => {
      stopGrain();
      held.clock = playClock(createClock(time.frame, loopRange()), player.now()!);
      held.lastShown = time.frame;
      driving.value = true;
      restartSource();
    };
    contextState.value = player.state();
    if (contextState.value === 'running') return begin();
    // A suspended context (autoplay rules) resumes on the Play click; until it runs, the display clock drives.
    void player.resume().then((state) => {
      contextState.value = state;
      if (time.playing && time.rate === 1 && state === 'running' && !driving.value) begin();
    });
  }

  function stopDriving() {
    const now = held.player?.now() ?? null;
    if (now !== null && driving.value) held.clock = pauseClock(held.clock, now);
    driving.value = false;
    held.wrapAt = null;
    stopSource();
  }

  /**
   * The frame to show now while playing, from the audio clock; null when the audio clock is not driving
   * (no music, or the context not running yet): the caller uses its display clock then. `shown` is the
   * frame on screen: when it differs from what this returned last, someone sought, and the clock follows.
   */
  function playbackFrame(shown: number): number | null {
    const now = held.player?.now() ?? null;
    if (!driving.value || now === null) return null;
    if (!(Math.abs(shown - held.lastShown) < 1e-6)) {
      held.clock = seekClock(held.clock, shown, now);
      restartSource();
    } else if (held.wrapAt !== null && now >= held.wrapAt) {
      advancePass(now);
    }
    const f = frameAt(held.clock, now);
    held.lastShown = f;
    held.lastAskedAt = now;
    return f;
  }

  /**
   * What the clock says now, and at the playback loop's last question (its context time and the frame it
   * got), without side effects: for tests and the sync measurement. Null when the audio clock is not driving.
   */
  function clockFrame(): { now: number; frame: number; askedAt: number; frameAtAsked: number; shown: number } | null {
    const now = held.player?.now() ?? null;
    if (!driving.value || now === null) return null;
    return { now, frame: frameAt(held.clock, now), askedAt: held.lastAskedAt, frameAtAsked: frameAt(held.clock, held.lastAskedAt), shown: held.lastShown };
  }

  // Below ×1 (slow playback) the song is silent: its clock does not drive, the display clock does at that speed.
  watch(
    () => time.playing && time.rate === 1,
    (p) => {
      if (p && loaded.value) startDriving();
      else if (!p) stopDriving();
    },
  );
  // A new loop range or Loop switch while playing: re-anchor the clock from where it is.
  watch(
    () => [time.loop, ...time.bounds],
    () => {
      const now = held.player?.now() ?? null;
      if (!driving.value || now === null) return;
      held.clock = setLoop(held.clock, loopRange(), now);
      restartSource();
    },
  );

  // The time line runs at least to the song's end (playback, End, fit, the frame field: stores/time.ts).
  watch([loaded, duration, offsetFrames], ([l, d, o]) => time.setMusicEnd(l ? songEndFrame(d, o) : 0), { flush: 'sync' });

  // Scrubbing while paused (the playhead dragged on the ruler, the preview's scrub bar, a step or a jump):
  // a short grain of the song at the new frame. Not when playback stops (pause rounds the frame).
  watch(
    () => [time.frame, time.playing] as const,
    ([f, p], [f0, p0]) => {
      if (p || p0 !== p || f === f0 || !loaded.value) return;
      playGrain(f);
    },
  );

  return {
    name,
    path,
    duration,
    sampleRate,
    channels,
    offsetFrames,
    volume,
    muted,
    loading,
    version,
    driving,
    contextState,
    loaded,
    attachPlayer,
    pyramid,
    song,
    loadBytes,
    openPath,
    offsetOnLoad,
    missingSong,
    loadedNotice,
    unload,
    holdOffset,
    setOffset,
    changeOffset,
    remove,
    setVolume,
    setMuted,
    playbackFrame,
    clockFrame,
    beatsOn,
    beatGrid,
    beatState,
    beatFrames,
    setBeatsOn,
    setBeatGrid,
    restoreBeatGrid,
  };
});
