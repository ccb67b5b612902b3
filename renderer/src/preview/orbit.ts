/**
 * The preview's free view controls (three's OrbitControls): drag turns about the target, right-drag pans, the wheel
 * zooms — toward the point under the pointer, as most 3D tools do. Zooming to the centre (MMD's wheel) made a face
 * hard to reach: over the head of a body framed whole, the wheel closed in on the hands and belly (nupose 7), and a
 * face maker had to pan after each step. The rest stays as it was (the buttons, no damping, the target at the
 * chest until the view frames a model).
 *
 * The side views (MMD's 視点 panel: 正面 / 背面 / 左 / 右 / 上, its numpad 2 8 4 6 5) turn the view about its target,
 * at the distance it has: a beginner who turned the model away found no way back (nubegin 7). The start view puts
 * eye and target back where the preview opens.
 */
import type { PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

/** The eye and target the free view starts with (three.js coordinates: the model faces +z, its left is +x). */
// MMD's default view (target at 10, 45 away, fov 30), a little further and higher so a whole figure fits a tall pane.
export const START_EYE: readonly [number, number, number] = [0, 16, 52];
export const START_TARGET: readonly [number, number, number] = [0, 10, 0];

import type { ViewSide } from '../stores/preview';
export type { ViewSide };
export const VIEW_SIDES: readonly ViewSide[] = ['front', 'back', 'left', 'right', 'top', 'start'];

type V3 = readonly [number, number, number];

/**
 * The nearest the wheel takes the eye to the view's target (MMD units): it zoomed on toward 0, into the head, where
 * the picture was empty (new-user pass numorph 10); 2 still frames an eye.
 */
export const MIN_ZOOM_DISTANCE = 2;
/**
 * The nearest a side view puts the eye (MMD units): a face framed whole at fov 30, so Front after a zoom into the
 * model shows the face again rather than the inside of the head.
 */
export const MIN_SIDE_DISTANCE = 8;

/** From the target toward the eye, for each side. */
const SIDE_DIRECTIONS: Record<Exclude<ViewSide, 'start'>, V3> = { front: [0, 0, 1], back: [0, 0, -1], left: [-1, 0, 0], right: [1, 0, 0], top: [0, 1, 1e-4] };

/**
 * The eye and target of a side view about `target`, `eye`'s distance from it kept (at least MIN_SIDE_DISTANCE): front looks at the model's
 * face (eye on +z), back at its back, left and right from the left and right of the front view (left: the eye
 * on −x, so the model's right side shows, as when walking round it to the left), top from above with the front
 * at the picture's bottom (a hair off the vertical: straight down leaves the orbit without an up).
 * 'start' is the view the preview opens with.
 */
export function sideView(side: ViewSide, eye: V3, target: V3): { eye: [number, number, number]; target: [number, number, number] } {
  if (side === 'start') return { eye: [...START_EYE], target: [...START_TARGET] };
  const kept = Math.hypot(eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]) || Math.hypot(START_EYE[0] - START_TARGET[0], START_EYE[1] - START_TARGET[1], START_EYE[2] - START_TARGET[2]);
  const d = Math.max(MIN_SIDE_DISTANCE, kept);
  const dir = SIDE_DIRECTIONS[side];
  const n = Math.hypot(dir[0], dir[1], dir[2]);
  return { eye: [target[0] + (dir[0] / n) * d, target[1] + (dir[1] / n) * d, target[2] + (dir[2] / n) * d], target: [target[0], target[1], target[2]] };
}

export function previewOrbitControls(camera: PerspectiveCamera, canvas: HTMLElement): OrbitControls {
  const controls = new OrbitControls(camera, canvas);
  controls.target.set(...START_TARGET);
  controls.enableDamping = false;
  controls.zoomToCursor = true;
  controls.minDistance = MIN_ZOOM_DISTANCE;
  return controls;
}
