/**
 * The preview's free view controls (three's OrbitControls): drag turns about the target, right-drag pans, the wheel
 * zooms — toward the point under the pointer, as most 3D tools do. Zooming to the centre (MMD's wheel) made a face
 * hard to reach: over the head of a body framed whole, the wheel closed in on the hands and belly (nupose 7), and a
 * face maker had to pan after each step. The rest stays as it was (the buttons, no damping, the target at the
 * chest until the view frames a model).
 */
import type { PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

export function previewOrbitControls(camera: PerspectiveCamera, canvas: HTMLElement): OrbitControls {
  const controls = new OrbitControls(camera, canvas);
  controls.target.set(0, 10, 0);
  controls.enableDamping = false;
  controls.zoomToCursor = true;
  return controls;
}
