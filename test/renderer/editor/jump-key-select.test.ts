// ◆◀ / ▶◆ ([ / ]) select the key they land on (new-user pass, item 3): picking 上半身 at frame 0 and
// pressing ] went to frame 100 but kept key 0 selected, so the key and curve panes showed key 0 and a
// curve edit went to it. Now the keys at the frame landed on, on the tracks the jump looked at, become the
// selection, the active track's key the active one.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { createTimelineView } from '../../../renderer/src/editor/timeline-view';
import { useTimelineNav } from '../../../renderer/src/editor/use-timeline-nav';
import { setQuietApi } from '../../helpers/quiet-api';
import CurveEditor from '../../../renderer/src/editor/CurveEditor.vue';

setQuietApi();

const I = [0, 0, 0, 1] as [number, number, number, number];
// Records in file order: 0 上半身 @0, 1 上半身 @100, 2 センター @0, 3 センター @50, 4 センター @100, 5 頭 @70.
function open() {
  const doc = buildVmd({
    bones: [
      { name: '上半身', frame: 0, position: [0, 0, 0], rotation: I },
      { name: '上半身', frame: 100, position: [0, 0, 0], rotation: [0, 0.38268343, 0, 0.92387953] },
      { name: 'センター', frame: 0, position: [0, 0, 0], rotation: I },
      { name: 'センター', frame: 50, position: [1, 0, 0], rotation: I },
      { name: 'センター', frame: 100, position: [0, 0, 0], rotation: I },
      { name: '頭', frame: 70, position: [0, 0, 0], rotation: I },
    ],
  });
  useSceneStore().openBytes('dance.vmd', writeVmd(doc), null);
}

const track = (name: string) => useWorkspaceStore().tracks!.bones.index.get(name)!;

describe('previous / next key selects the key it lands on', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('on the active track: the key there becomes the selection and the curve pane shows it', async () => {
    open();
    const sel = useSelectionStore(), time = useTimeStore();
    const nav = useTimelineNav(createTimelineView());
    const w = mount(CurveEditor, { attachTo: document.body });
    // Pick 上半身 at frame 0, as a click on its key does.
    sel.select([{ kind: 'bone', record: 0 }]);
    sel.setActiveTrack({ kind: 'bone', track: track('上半身') });
    time.seek(0);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="curve-target"]').attributes('data-frame')).toBe('0');
    expect(nav.jumpKey(1, 'active')).toBe(true);
    await w.vm.$nextTick();
    expect(time.frame).toBe(100);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 1 }]);
    expect(sel.active).toEqual({ kind: 'bone', record: 1 });
    expect(w.get('[data-testid="curve-target"]').attributes('data-frame')).toBe('100');
    expect(w.get('[data-testid="curve-target"]').text()).toContain('0 → 100');
    // And back.
    expect(nav.jumpKey(-1, 'active')).toBe(true);
    expect(time.frame).toBe(0);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 0 }]);
    w.unmount();
  });

  it('on every track: the keys at that frame, the active track’s the active one', () => {
    open();
    const sel = useSelectionStore(), time = useTimeStore();
    const nav = useTimelineNav(createTimelineView());
    sel.select([{ kind: 'bone', record: 0 }]);
    sel.setActiveTrack({ kind: 'bone', track: track('上半身') });
    time.seek(60);
    expect(nav.jumpKey(1, 'all')).toBe(true);
    expect(time.frame).toBe(70);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 5 }]);
    expect(nav.jumpKey(1, 'all')).toBe(true);
    expect(time.frame).toBe(100);
    expect(sel.refs.map((r) => r.record).sort()).toEqual([1, 4]);
    expect(sel.active).toEqual({ kind: 'bone', record: 1 });
  });

  it('on the selected tracks: the selection at the frame landed on, and the next jump still looks at every track selected before', () => {
    open();
    const sel = useSelectionStore(), time = useTimeStore();
    const nav = useTimelineNav(createTimelineView());
    // 上半身 and センター selected at 0: next goes to 50, where only センター has a key.
    sel.select([{ kind: 'bone', record: 0 }, { kind: 'bone', record: 2 }]);
    sel.setActiveTrack({ kind: 'bone', track: track('センター') });
    time.seek(0);
    expect(nav.jumpKey(1, 'selected')).toBe(true);
    expect(time.frame).toBe(50);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 3 }]);
    // 頭 (at 70) was never selected: the next key of 上半身 and センター is at 100, both keys there.
    expect(nav.jumpKey(1, 'selected')).toBe(true);
    expect(time.frame).toBe(100);
    expect(sel.refs.map((r) => r.record).sort()).toEqual([1, 4]);
    expect(sel.active).toEqual({ kind: 'bone', record: 4 });
  });

  it('[ / ] with no active track (a file just opened): by every track, as MMD’s frame buttons with nothing picked (docsfix 7)', () => {
    // Before, the active track's scope named no track and the jump did nothing, saying nothing.
    open();
    const sel = useSelectionStore(), time = useTimeStore();
    const nav = useTimelineNav(createTimelineView());
    sel.clear();
    sel.setActiveTrack(null);
    time.seek(0);
    // Keys by hand: センター at 50, 頭 at 70, 上半身 and センター at 100.
    expect(nav.jumpKey(1, 'active')).toBe(true);
    expect(time.frame).toBe(50);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 3 }]);
    expect(nav.jumpKey(1, 'active')).toBe(true);
    expect(time.frame).toBe(70);
    expect(sel.refs).toEqual([{ kind: 'bone', record: 5 }]);
    expect(nav.jumpKey(1, 'active')).toBe(true);
    expect(time.frame).toBe(100);
    expect(sel.refs.map((r) => r.record).sort()).toEqual([1, 4]);
    // Still no active track: it stays the whole motion's step, back the same way.
    expect(sel.activeTrack).toBeNull();
    expect(nav.jumpKey(-1, 'active')).toBe(true);
    expect(time.frame).toBe(70);
    // Past the last key there is none to go to.
    time.seek(100);
    expect(nav.jumpKey(1, 'active')).toBe(false);
  });
});
