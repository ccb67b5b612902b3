/**
 * Selected keys as (block kind, record index), plus the active key (the one the curve editor and the
 * inspector show) and the active track (where "register key" goes). Each kind's records are a bit set
 * (shared/key-edits/record-set.ts): select-all of 600,000 keys fills 18,750 words, not 600,000 set
 * entries or KeyRef objects. Sets live outside Vue's reactivity; `version` says when they changed.
 * Whole-selection edits read `records()`; `refs` lists KeyRef objects for the small-selection tools.
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import { EDIT_KINDS, RecordSet, type EditKind, type KeyClipboard, type KeyRef, type RecordsByKind } from '../../../shared/key-edits';

export type SelectMode = 'replace' | 'add' | 'toggle';

/** A row the user last clicked: a bone/morph track or the camera/light/display·IK track. */
export interface TrackRef {
  kind: EditKind;
  track: number;
}

/**
 * A group row the user last clicked that stands for its tracks together: the Morphs group (表情), whose Ctrl+C copies
 * the whole face at the playhead (use-editor-actions copySelectedKeys). `doc`: the scene document the row shows.
 */
export interface GroupRef {
  id: 'morph';
  doc: number | null;
}

function emptySets(): Record<EditKind, RecordSet> {
  return Object.fromEntries(EDIT_KINDS.map((k) => [k, new RecordSet()])) as Record<EditKind, RecordSet>;
}

function lastOf(refs: readonly KeyRef[], kind: EditKind): KeyRef | undefined {
  for (let i = refs.length - 1; i >= 0; i--) if (refs[i].kind === kind) return refs[i];
  return undefined;
}

export const useSelectionStore = defineStore('selection', {
  state: () => ({
    sets: markRaw(emptySets()),
    /** Bumped on every change of `sets`. */
    version: 0,
    count: 0,
    active: null as KeyRef | null,
    activeTrack: null as TrackRef | null,
    /**
     * The Morphs group row, when it was clicked last (after any track row, key selection or clear): Ctrl+C copies the
     * face. A track made active, keys selected or the selection cleared take it off.
     */
    activeGroup: null as GroupRef | null,
    /** Copied keys (Ctrl+C in the timeline); raw record bytes, kept out of reactivity. */
    clipboard: null as KeyClipboard | null,
  }),
  getters: {
    /** Every selected key (kind order bone, morph, camera, light, self-shadow, IK; ascending record). */
    refs(state): KeyRef[] {
      void state.version;
      const out: KeyRef[] = [];
      for (const kind of EDIT_KINDS) state.sets[kind].forEach((record) => out.push({ kind, record }));
      return out;
    },
  },
  actions: {
    has(kind: EditKind, record: number): boolean {
      return this.sets[kind].has(record);
    },
    /**
     * Selects keys; one of them becomes active (the key the inspector and the curve pane show). One key:
     * that one. Many at once (a box, a column, a range, all): the active key stays when it is among them,
     * else the last key with curves (bone, then camera) — a column of bone and morph keys is selected to
     * shape or paste a curve on, which a morph key would hide — else the last.
     */
    select(refs: readonly KeyRef[], mode: SelectMode = 'replace') {
      const prev = this.active;
      if (mode === 'replace') this.sets = markRaw(emptySets());
      const added: KeyRef[] = [];
      for (const r of refs) {
        const s = this.sets[r.kind];
        if (mode === 'toggle' && s.has(r.record)) s.delete(r.record);
        else {
          s.add(r.record);
          added.push(r);
        }
      }
      const keep = added.length > 1 && prev && added.some((r) => r.kind === prev.kind && r.record === prev.record);
      const pick = keep ? prev : added.length > 1 ? lastOf(added, 'bone') ?? lastOf(added, 'camera') ?? added[added.length - 1] : added[0];
      if (added.length) this.activeGroup = null;
      if (pick) this.active = { kind: pick.kind, record: pick.record };
      else if (this.active && !this.sets[this.active.kind].has(this.active.record)) this.active = null;
      this.touch();
    },
    /** The selected records per kind (the sets themselves: read, do not change them). */
    records(): RecordsByKind {
      return this.sets;
    },
    /**
     * Selects whole record sets (select-all, an undo's keys): no KeyRef per key. The active key stays when
     * it is among them, else the last bone key, else the last camera key, else the last key.
     */
    selectSets(sets: RecordsByKind) {
      const next = emptySets();
      for (const kind of EDIT_KINDS) if (sets[kind]) next[kind] = sets[kind]!;
      this.sets = markRaw(next);
      if (EDIT_KINDS.some((k) => next[k].size > 0)) this.activeGroup = null;
      const a = this.active;
      if (a && this.sets[a.kind].has(a.record)) {
        // kept
      } else {
        const kind = (['bone', 'camera', ...EDIT_KINDS] as EditKind[]).find((k) => this.sets[k].size > 0);
        this.active = kind ? { kind, record: this.sets[kind].last() } : null;
      }
      this.touch();
    },
    /** Selects every record of every kind (`counts`: the block sizes); the active key stays when it has one. */
    selectAll(counts: Record<EditKind, number>) {
      const sets: RecordsByKind = {};
      for (const kind of EDIT_KINDS) sets[kind] = RecordSet.all(counts[kind]);
      this.selectSets(sets);
    },
    clear() {
      this.sets = markRaw(emptySets());
      this.active = null;
      this.activeGroup = null;
      this.touch();
    },
    setActiveTrack(t: TrackRef | null) {
      this.activeTrack = t;
      if (t) this.activeGroup = null;
    },
    /** The Morphs group row clicked: it stands for the face (Ctrl+C copies it); no track is active then. */
    setActiveGroup(g: GroupRef | null) {
      this.activeTrack = null;
      this.activeGroup = g;
    },
    /** Drops keys whose record no longer exists (after an undo removed records). */
    prune(counts: Record<EditKind, number>) {
      for (const kind of EDIT_KINDS) this.sets[kind].truncate(counts[kind]);
      if (this.active && this.active.record >= counts[this.active.kind]) this.active = null;
      this.touch();
    },
    setClipboard(c: KeyClipboard | null) {
      this.clipboard = c ? markRaw(c) : null;
    },
    touch() {
      let n = 0;
      for (const s of Object.values(this.sets)) n += s.size;
      this.count = n;
      this.version++;
    },
  },
});
