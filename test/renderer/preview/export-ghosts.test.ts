/**
 * The ghosts are never in the video (fixvideo3 finding 5). PreviewEngine.drawOffline, the export's draw, is run on
 * the real scene parts without WebGL: a PreviewScene holding an actor (the built-in figure), the retarget panel's
 * ghost (ghost-actor.ts, actor id −1, no overlay) and the "Ghost (as saved)" overlay (id −2), through the real
 * CompanionActors; the renderer is a recorder of what is visible in the scene at the moment it is asked to draw.
 * The actor is drawn; neither ghost is (the retarget ghost was: only overlays were hidden); all three are shown
 * again afterwards in the preview.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as THREE from 'three';
import type { PreviewPhysics } from '../../../renderer/src/preview/physics-preview';

// Bullet's wasm is not loaded here (the engine's module imports its loader): a stand-in that is never called, on a
// fresh module graph (the unit project shares one between files), reset again afterwards.
vi.resetModules();
vi.doMock('../../../renderer/src/physics/bullet-web', () => ({ webBulletLoader: {}, webBullet: async () => ({}) }));
afterAll(() => {
  vi.doUnmock('../../../renderer/src/physics/bullet-web');
  vi.resetModules();
});
const { PreviewEngine } = await import('../../../renderer/src/preview/preview-engine');
const { PreviewScene } = await import('../../../renderer/src/preview/preview-scene');
const { CompanionActors } = await import('../../../renderer/src/preview/companion-actors');
const { buildDefaultFigure } = await import('../../../renderer/src/preview/figure-mesh');
const { buildFigureGhost, buildSavedFigureGhost, ghostKey, savedGhostKey } = await import('../../../renderer/src/preview/ghost-actor');
type PreviewEngine = InstanceType<typeof PreviewEngine>;

/** Whether `o` and every parent up to the scene are visible (what three.js draws). */
function drawn(o: THREE.Object3D): boolean {
  for (let p: THREE.Object3D | null = o; p; p = p.parent) if (!p.visible) return false;
  return true;
}

describe('the video export draws the actors, never a ghost', () => {
  it('the retarget ghost and the saved-motion ghost are hidden while the frame is drawn, shown again after', () => {
    const world = new PreviewScene();
    const physics = { bind() {}, debugObjects: () => [] } as unknown as PreviewPhysics;
    const companions = new CompanionActors(world, physics);
    const actor = buildDefaultFigure(), retargetGhost = buildFigureGhost(), savedGhost = buildSavedFigureGhost();
    companions.set([
      { key: '3:figure', built: actor, doc: null, tracks: null },
      { key: ghostKey('/models/source.pmx'), built: retargetGhost, doc: null, tracks: null },
      { key: savedGhostKey('figure'), built: savedGhost, doc: null, tracks: null, overlay: true },
    ]);
    const seen: Record<string, boolean>[] = [];
    const renderer = {
      render: () => seen.push({ actor: drawn(actor.group), retargetGhost: drawn(retargetGhost.group), savedGhost: drawn(savedGhost.group) }),
    } as unknown as THREE.WebGLRenderer;
    // drawOffline's own parts, the rest of the engine left out (no WebGL here).
    const engine = {
      world,
      companions,
      physics,
      marker: { group: new THREE.Group() },
      dots: { points: new THREE.Group() },
      gizmo: { helper: new THREE.Group() },
    };
    PreviewEngine.prototype.drawOffline.call(engine as unknown as PreviewEngine, renderer, 640, 360, false, { grid: false, background: '#ffffff' });
    expect(seen).toEqual([{ actor: true, retargetGhost: false, savedGhost: false }]);
    // The preview shows them again.
    expect([drawn(actor.group), drawn(retargetGhost.group), drawn(savedGhost.group)]).toEqual([true, true, true]);
  });
});
