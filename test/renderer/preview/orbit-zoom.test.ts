// The preview's wheel zooms toward the point under the pointer (nupose 7): over the head of a body framed whole,
// the wheel closed in on the view's centre (the hands and belly), so a face could not be reached without panning.
// A wheel step over the upper right of the view now moves the view's centre (the orbit target) up and right, toward
// that point, and the eye nearer; over the middle it zooms straight in, as before.
import { describe, expect, it } from 'vitest';
import { PerspectiveCamera } from 'three';
import { previewOrbitControls, sideView } from '../../../renderer/src/preview/orbit';

function view() {
  const canvas = document.createElement('canvas');
  canvas.getBoundingClientRect = () => ({ left: 0, top: 0, right: 800, bottom: 600, width: 800, height: 600, x: 0, y: 0, toJSON: () => ({}) });
  document.body.appendChild(canvas);
  const camera = new PerspectiveCamera(30, 800 / 600, 0.5, 2000);
  camera.position.set(0, 10, 40);
  camera.lookAt(0, 10, 0);
  const controls = previewOrbitControls(camera, canvas);
  controls.update();
  camera.updateMatrixWorld(); // as a render does
  // jsdom's WheelEvent has no clientX/clientY: an event carrying the fields the controls read.
  const wheel = (x: number, y: number) => canvas.dispatchEvent(Object.assign(new Event('wheel', { cancelable: true }), { clientX: x, clientY: y, deltaY: -100, deltaMode: 0, ctrlKey: false }));
  return { camera, controls, wheel, done: () => (controls.dispose(), canvas.remove()) };
}

describe('the preview’s wheel', () => {
  it('zooms toward the point under the pointer', () => {
    const v = view();
    v.wheel(700, 100); // upper right: right of the centre is +x, above it +y
    expect(v.controls.target.x).toBeGreaterThan(0.1);
    expect(v.controls.target.y).toBeGreaterThan(10.1);
    expect(v.camera.position.z).toBeLessThan(40);
    v.done();
  });

  it('over the middle zooms straight in', () => {
    const v = view();
    v.wheel(400, 300);
    expect(v.controls.target.x).toBeCloseTo(0, 6);
    expect(v.controls.target.y).toBeCloseTo(10, 6);
    expect(v.camera.position.z).toBeLessThan(40);
    v.done();
  });

  // New-user pass numorph 10: 25 wheel steps over the head took the eye through the face (the distance shrinks by a
  // factor each step, toward 0), the picture empty, and ⟲ Front kept that distance. The wheel stops 2 units short of
  // the target, and Front puts the eye at least 8 away (a face framed whole).
  it('stops short of the target, and Front after it frames the face from 8 units', () => {
    const v = view();
    for (let i = 0; i < 60; i++) v.wheel(400, 300);
    expect(v.camera.position.distanceTo(v.controls.target)).toBeCloseTo(2, 6);
    const t = v.controls.target;
    const front = sideView('front', [v.camera.position.x, v.camera.position.y, v.camera.position.z], [t.x, t.y, t.z]);
    expect(front.eye).toEqual([t.x, t.y, t.z + 8]);
    v.done();
  });
});
