// The output frame: the aspect setting's parsing and the letterbox/pillarbox rectangle inside the pane.
import { describe, expect, it } from 'vitest';
import { letterbox, outputAspectOf, parseAspect, OUTPUT_ASPECT_SETTING, OUTPUT_ASPECTS } from '../../../renderer/src/preview/output-frame';

describe('output frame', () => {
  it('reads W:H aspects and refuses nonsense', () => {
    expect(parseAspect('16:9')!.ratio).toBe(16 / 9);
    expect(parseAspect(' 4 / 3 ')!.ratio).toBe(4 / 3);
    expect(parseAspect('2.39')!.ratio).toBe(2.39);
    expect(parseAspect(1.5)!.ratio).toBe(1.5);
    for (const bad of ['', '16:0', '0:9', '-16:9', 'wide', '16:9:1', null, undefined, Number.NaN, Infinity, -1]) expect(parseAspect(bad), String(bad)).toBeNull();
    for (const a of OUTPUT_ASPECTS) expect(parseAspect(a)).not.toBeNull();
  });

  it('takes the setting from the ui bag, 16:9 when it is missing or unreadable', () => {
    expect(outputAspectOf(undefined)).toEqual({ text: '16:9', ratio: 16 / 9 });
    expect(outputAspectOf({ [OUTPUT_ASPECT_SETTING]: '4:3' })).toEqual({ text: '4:3', ratio: 4 / 3 });
    expect(outputAspectOf({ [OUTPUT_ASPECT_SETTING]: 'tall' })).toEqual({ text: '16:9', ratio: 16 / 9 });
  });

  it('letterboxes a tall pane (bars above and below) and pillarboxes a wide one (bars left and right)', () => {
    // 800 × 800 at 16:9: 800 × 450, 175 px bars above and below.
    expect(letterbox(800, 800, 16 / 9)).toEqual({ x: 0, y: 175, width: 800, height: 450 });
    // 1000 × 400 at 16:9: 711 × 400 (400 · 16/9 = 711.1), bars of 144 and 145 px.
    expect(letterbox(1000, 400, 16 / 9)).toEqual({ x: 144, y: 0, width: 711, height: 400 });
    // Exactly the aspect: no bars.
    expect(letterbox(1600, 900, 16 / 9)).toEqual({ x: 0, y: 0, width: 1600, height: 900 });
    // Portrait output in a landscape pane.
    expect(letterbox(1000, 500, 9 / 16)).toEqual({ x: 359, y: 0, width: 281, height: 500 });
    // Fractional pane sizes are floored; never below one pixel.
    expect(letterbox(0, 0, 16 / 9)).toEqual({ x: 0, y: 0, width: 1, height: 1 });
    const r = letterbox(641.7, 300.2, 4 / 3);
    expect(r).toEqual({ x: 120, y: 0, width: 400, height: 300 });
  });
});
