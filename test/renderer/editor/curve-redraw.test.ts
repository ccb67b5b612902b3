// The curve pane redraws when its key changes without anything else changing (new-user pass, item 2): a
// press on another key of a multi-selection at the playhead's frame made it the active key (the header
// said "Key 143 (125 → 143)"), but the square and the plot stayed those of the key drawn before (187 → 191)
// until the next click, since nothing the pane watched had changed (not the selection's version, not the
// frame). Here the canvas records what is drawn, and the frames are run by hand.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { buildVmd, writeVmd } from '../../../shared/vmd';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { useSelectionStore } from '../../../renderer/src/stores/selection';
import { useTimeStore } from '../../../renderer/src/stores/time';
import { useCurveEditorStore } from '../../../renderer/src/stores/curve-editor';
import { setQuietApi } from '../../helpers/quiet-api';
import { Recording2D } from './recording-2d';
import CurveEditor from '../../../renderer/src/editor/CurveEditor.vue';

setQuietApi();

const turn = [0, 0.38268343, 0, 0.92387953] as [number, number, number, number];
const I = [0, 0, 0, 1] as [number, number, number, number];
// Records: 0 上半身 @0, 1 上半身 @40, 2 センター @30, 3 センター @40 (both tracks have a key at 40).
function open() {
  const doc = buildVmd({
    bones: [
      { name: '上半身', frame: 0, position: [0, 0, 0], rotation: I },
      { name: '上半身', frame: 40, position: [0, 0, 0], rotation: turn },
      { name: 'センター', frame: 30, position: [0, 0, 0], rotation: I },
      { name: 'センター', frame: 40, position: [0, 0, 0], rotation: turn },
    ],
  });
  useSceneStore().openBytes('dance.vmd', writeVmd(doc), null);
}

const realRaf = globalThis.requestAnimationFrame, realCaf = globalThis.cancelAnimationFrame;
const realGet = HTMLCanvasElement.prototype.getContext;
let frames: FrameRequestCallback[] = [];
let draws: Recording2D[] = [];
/** Runs the frames asked for (the pane's redraws). */
function runFrames() {
  const now = frames;
  frames = [];
  for (const f of now) f(0);
}

describe('the curve pane redraws for the key it shows', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    frames = [];
    draws = [];
    globalThis.requestAnimationFrame = ((f: FrameRequestCallback) => frames.push(f)) as typeof requestAnimationFrame;
    globalThis.cancelAnimationFrame = ((h: number) => {
      frames[h - 1] = () => {};
    }) as typeof cancelAnimationFrame;
    HTMLCanvasElement.prototype.getContext = function () {
      const r = new Recording2D();
      draws.push(r);
      return r;
    } as unknown as typeof HTMLCanvasElement.prototype.getContext;
  });
  afterEach(() => {
    globalThis.requestAnimationFrame = realRaf;
    globalThis.cancelAnimationFrame = realCaf;
    HTMLCanvasElement.prototype.getContext = realGet;
  });

  it('draws the segment of the key made active by a press on it, with the frame and the selection as they were', async () => {
    open();
    const sel = useSelectionStore(), time = useTimeStore();
    useCurveEditorStore().setChannel(3);
    // A column at 40 selected, 上半身's key active: its segment is 0 → 40.
    sel.select([{ kind: 'bone', record: 3 }, { kind: 'bone', record: 1 }]);
    sel.active = { kind: 'bone', record: 1 };
    time.seek(40);
    const w = mount(CurveEditor, { attachTo: document.body });
    await w.vm.$nextTick();
    runFrames();
    const labels = () => draws.at(-1)!.texts().map((x) => x.text);
    expect(w.get('[data-testid="curve-target"]').text()).toContain('0 → 40');
    expect(labels()).toContain('40');
    expect(labels()).not.toContain('30');
    // A press on センター's key at 40 (selected already, the playhead there): the Timeline sets the active key.
    const before = draws.length;
    sel.active = { kind: 'bone', record: 3 };
    await w.vm.$nextTick();
    runFrames();
    expect(w.get('[data-testid="curve-target"]').text()).toContain('30 → 40');
    expect(draws.length).toBeGreaterThan(before);
    expect(labels()).toContain('30');
    w.unmount();
  });
});
