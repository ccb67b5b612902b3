// The free view widened after a new actor was placed beside the others (a capture imported: scene-actors.ts
// frameActors 'widen') takes each actor as it is drawn now, as Frame all does: before, it took the unposed meshes'
// widths (arms out; Gene's unposed box is far wider than she stands), and the view backed off for arms nobody held
// out. Checked on a stand-in engine: two short actors at X 0 and 10 whose unposed boxes reach ±12 across and whose
// posed ones reach ±3; the width the picture spans at the target's distance is worked out here from the camera.
import { describe, expect, it } from 'vitest';
import { PerspectiveCamera, Vector3 } from 'three';
import { frameActors } from '../../../renderer/src/preview/scene-actors';
import type { PreviewEngine } from '../../../renderer/src/preview/preview-engine';
import type { Footprint } from '../../../shared/scene/place-beside';

const REST: Footprint = { minX: -12, maxX: 12, minZ: -2, maxZ: 2, minY: 0, maxY: 4 };
const POSED: Footprint = { minX: -3, maxX: 3, minZ: -2, maxZ: 2, minY: 0, maxY: 4 };

/** The parts of the engine frameActors reads: the orbit camera and its target, each actor's box at rest or posed. */
function standIn() {
  const cam = new PerspectiveCamera(30, 1.6, 0.1, 1000);
  // Near the actors (5 units off, at their middle height), looking along −Z: the widening backs off from here.
  cam.position.set(0, 2, 5);
  const controls = { target: new Vector3(0, 2, 0), update: () => cam.lookAt(controls.target) };
  const asked: string[] = [];
  const engine = {
    world: { orbitCamera: cam },
    controls,
    requestRender: () => {},
    footprints: (_shown: number | null, as: 'rest' | 'posed' = 'rest') => {
      asked.push(as);
      const f = as === 'posed' ? POSED : REST;
      return new Map([
        [1, f],
        [2, f],
      ]);
    },
  } as unknown as PreviewEngine;
  return { engine, cam, controls, asked };
}

describe('frameActors widen', () => {
  it('backs off for the actors as they are drawn (posed), not for their unposed widths', () => {
    const { engine, cam, controls, asked } = standIn();
    const stages = new Map([
      [1, { position: [0, 0, 0] as [number, number, number], turn: 0 }],
      [2, { position: [10, 0, 0] as [number, number, number], turn: 0 }],
    ]);
    const still = { minX: 0, maxX: 0, minZ: 0, maxZ: 0 };
    frameActors(engine, 1, stages, new Map([[1, still], [2, still]]), 'widen');
    // The posed boxes at their places: X −3…3 and 7…13, so −3…13 (16 across), the middle at 5.
    const lo = -3, hi = 13;
    expect(controls.target.x).toBeCloseTo((lo + hi) / 2, 6);
    // The width the picture spans across at the target's distance (looking along −Z): 2·d·tan(fov/2)·aspect.
    const d = cam.position.distanceTo(controls.target);
    const framed = 2 * d * Math.tan((cam.fov * Math.PI) / 360) * cam.aspect;
    // Both in it, and not more than 1.3× as wide. Before: backed off for X −12…22 (the unposed ±12), 38 + 4 across.
    expect(framed).toBeGreaterThanOrEqual(hi - lo);
    expect(framed, `framed ${framed.toFixed(2)} across for ${hi - lo}`).toBeLessThanOrEqual(1.3 * (hi - lo));
    // The boxes asked for: as drawn.
    expect(asked).toEqual(['posed']);
  });
});
