/**
 * Curve editor state: the channel shown (bone X, Y, Z, rotation; camera adds distance and fov),
 * one-at-a-time or overlaid, the selected handle for arrow-key nudges, the curve being dragged (a
 * draft, not yet in the document), the copied curve, the channels a paste writes, user presets (kept in the
 * settings: CURVE_PRESETS_SETTING).
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import type { Curve } from '../../../shared/vmd/bezier';
import type { CurveClipboard, CurvePreset } from '../../../shared/key-edits';
import { BONE_CHANNELS } from '../../../shared/vmd/interpolation';
import { useSettingsStore } from './settings';

/** A bone key's rotation channel (BONE_CHANNELS: x, y, z, r). */
export const ROTATION_CHANNEL = BONE_CHANNELS.indexOf('r');

/**
 * settings.ui key of the user's curve presets (a JSON list of { id, label, curve }): in settings.json, through
 * main, as the other settings, so they last in the browser mode too, whose origin (a random port each start)
 * gets a new, empty localStorage every time.
 */
export const CURVE_PRESETS_SETTING = 'curvePresets';
/** Where the presets were kept before (localStorage): moved into the settings once (migrateLegacyPresets). */
const LEGACY_PRESET_STORAGE = 'vmd-studio.curve-presets';

/** The presets a stored list holds: the well-formed ones (a damaged entry must not stop the editor). */
export function parseUserPresets(raw: unknown): CurvePreset[] {
  if (typeof raw !== 'string' || !raw) return [];
  try {
    const list = JSON.parse(raw) as { id: string; label: string; curve: number[] }[];
    if (!Array.isArray(list)) return [];
    return list
      .filter((p) => p && Array.isArray(p.curve) && p.curve.length === 4 && p.curve.every((v) => Number.isInteger(v) && v >= 0 && v <= 127))
      .map((p) => ({ id: String(p.id), label: String(p.label), curve: p.curve as unknown as Curve, user: true }));
  } catch {
    return [];
  }
}

const presetsText = (list: readonly CurvePreset[]) => JSON.stringify(list.map((p) => ({ id: p.id, label: p.label, curve: [...p.curve] })));

export const useCurveEditorStore = defineStore('curve-editor', {
  state: () => ({
    /** Channel whose handles are edited. */
    channel: 0,
    /** The track whose key the pane shows ('bone:3', 'camera'), so a channel is chosen only on a change of track. */
    shownTrack: null as string | null,
    /** The channel chosen before a rotation-only bone opened Rotation (given back on the next bone that moves); null once the user picks one. */
    channelBeforeRotationOnly: null as number | null,
    /** Show all channels' curves at once (handles stay on `channel`). */
    overlay: false,
    /** Edits go to every channel of the key at once. */
    linkChannels: false,
    /** Handle selected for keyboard nudges: 1 = (x1, y1), 2 = (x2, y2), 0 = none. */
    handle: 0 as 0 | 1 | 2,
    /** The curve while a handle is dragged (null when not dragging); not yet written to the document. */
    draft: null as Curve | null,
    /** Bumped on every draft change (drawing listens to it). */
    draftVersion: 0,
    clipboard: null as CurveClipboard | null,
    /** Channels a curve paste writes (index = channel): the copied one alone after a copy (setClipboard). */
    pasteChannels: [true, true, true, true, true, true] as boolean[],
    /** The panel last clicked decides what Ctrl+C / Ctrl+V act on. */
    focus: 'timeline' as 'timeline' | 'curve',
  }),
  getters: {
    /** The user's own presets, as settings.json keeps them (CURVE_PRESETS_SETTING). */
    userPresets(): CurvePreset[] {
      return parseUserPresets(useSettingsStore().settings.ui?.[CURVE_PRESETS_SETTING]);
    },
  },
  actions: {
    /** The user picks a channel (a tab): it stays, whatever track comes next (but see showTrack). */
    setChannel(ch: number) {
      this.channel = ch;
      this.channelBeforeRotationOnly = null;
    },
    /**
     * The pane shows a key of another track. A bone whose position never changes (all its keys at one
     * position: 上半身2 in a dance) opens on Rotation, since its X/Y/Z curves move nothing; the channel it
     * replaced comes back on the next track that moves, unless the user picked a channel meanwhile. Any
     * other track keeps the channel as it is.
     */
    showTrack(id: string | null, rotationOnly: boolean) {
      if (id === this.shownTrack) return;
      this.shownTrack = id;
      if (rotationOnly) {
        if (this.channel !== ROTATION_CHANNEL) {
          this.channelBeforeRotationOnly = this.channel;
          this.channel = ROTATION_CHANNEL;
        }
      } else if (this.channelBeforeRotationOnly !== null) {
        this.channel = this.channelBeforeRotationOnly;
        this.channelBeforeRotationOnly = null;
      }
    },
    setDraft(c: Curve | null) {
      this.draft = c ? markRaw([c[0], c[1], c[2], c[3]] as unknown as Curve) : null;
      this.draftVersion++;
    },
    /**
     * A copied curve. "Paste on" then ticks the channel it was copied from alone (copied with Overlay on, each
     * channel's own: all of them), as MMD pastes onto the channel shown; more can be ticked by hand before a
     * paste. Every box stayed ticked before, so a rotation curve copied from an arm went onto X, Y and Z of
     * センター's keys too unless the user unticked them (curve-polish pass).
     */
    setClipboard(c: CurveClipboard | null) {
      this.clipboard = c ? markRaw(c) : null;
      if (c) this.pasteChannels = this.pasteChannels.map((_, ch) => c.channel === null || ch === c.channel);
    },
    saveUserPreset(label: string, curve: Curve): CurvePreset {
      const list = this.userPresets;
      const p: CurvePreset = { id: 'user-' + Date.now().toString(36) + '-' + list.length, label, curve: [...curve] as unknown as Curve, user: true };
      void this.storePresets([...list, p]);
      return p;
    },
    removeUserPreset(id: string) {
      void this.storePresets(this.userPresets.filter((p) => p.id !== id));
    },
    /** Writes the list into the settings (main answers a list past the settings' bounds with a notice). */
    storePresets(list: readonly CurvePreset[]) {
      const settings = useSettingsStore();
      return settings.update({ ui: { ...settings.settings.ui, [CURVE_PRESETS_SETTING]: presetsText(list) } });
    },
    /**
     * Presets an earlier version kept in this origin's localStorage, moved into the settings once they are loaded
     * (App.vue): added after those the settings hold (one of the same id is not added twice), then the old entry
     * is removed, so it is moved once.
     */
    async migrateLegacyPresets() {
      let raw: string | null = null;
      try {
        raw = typeof localStorage !== 'undefined' ? localStorage.getItem(LEGACY_PRESET_STORAGE) : null;
      } catch {
        return; // storage unavailable: nothing to move
      }
      if (raw === null) return;
      const old = parseUserPresets(raw);
      const have = this.userPresets;
      const ids = new Set(have.map((p) => p.id));
      const add = old.filter((p) => !ids.has(p.id));
      if (add.length) await this.storePresets([...have, ...add]);
      try {
        localStorage.removeItem(LEGACY_PRESET_STORAGE);
      } catch {
        // stays; moving it again adds nothing (same ids)
      }
    },
  },
});
