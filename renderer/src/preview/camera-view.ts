/**
 * The camera of a camera VMD in three.js terms, and its drawing: the path as a line (broken at cuts),
 * markers at keys (yellow) and cuts (red), and a frustum at the current frame.
 *
 * From `sampleCamera` (MMD coordinates, position already at |position − target| = |distance|):
 * three.js position = mmdToThreePosition(position); orientation = Euler(mmdToThreeCameraEuler(rotation), 'YXZ')
 * (yaw outermost, as MMD orbits its camera: see shared/vmd/camera.ts);
 * vertical field of view = the key's fov in degrees. A key with perspective off (MMD's パース OFF) is drawn
 * through an orthographic camera at the same place instead (orthoHalfExtents).
 */
import * as THREE from 'three';
import { mmdToThreeCameraEuler, mmdToThreePosition, rotateByCameraEuler, THREE_CAMERA_EULER_ORDER } from '../../../shared/vmd/camera';
import { sampleCamera, type CameraPose } from '../../../shared/vmd/sample';
import { cameraCutFrames } from '../../../shared/vmd/inspect';
import type { CameraTrack } from '../../../shared/vmd/tracks';

const euler = new THREE.Euler();

/** Puts a three.js camera where the MMD camera pose says. Returns false when there is no pose. */
export function applyCameraPose(cam: THREE.PerspectiveCamera, pose: CameraPose | null): boolean {
  if (!pose) return false;
  const p = mmdToThreePosition(pose.position);
  const r = mmdToThreeCameraEuler(pose.rotation);
  cam.position.set(p[0], p[1], p[2]);
  cam.quaternion.setFromEuler(euler.set(r[0], r[1], r[2], THREE_CAMERA_EULER_ORDER));
  if (cam.fov !== pose.fov) {
    cam.fov = pose.fov;
    cam.updateProjectionMatrix();
  }
  cam.updateMatrixWorld(true);
  return true;
}

/**
 * The half width and height, in MMD units, of the orthographic view of a camera key with perspective off
 * (MMD's パース OFF), on an output frame of `aspect` (width / height): the frame's longer side spans
 * |distance| units, so the distance zooms the picture and the FOV has no effect.
 * Source: nanoem (hkrn/nanoem emapp/src/PerspectiveCamera.cc, PerspectiveCamera::update), whose projection
 * for perspective off scales x by 2·max(h/w, 1)/distance and y by 2·max(w/h, 1)/distance. MMD's own manual
 * does not give the size, and the project's format notes do not either; nanoem is MMD's open re-implementation.
 * nanoem divides by the signed distance (a positive file distance turns its picture upside down); here the
 * size is from |distance|, as the perspective view places the camera |distance| from its target.
 */
export function orthoHalfExtents(distance: number, aspect: number): { halfWidth: number; halfHeight: number } {
  const span = Math.max(Math.abs(distance), 1e-3);
  const a = aspect > 0 && Number.isFinite(aspect) ? aspect : 1;
  return a >= 1 ? { halfWidth: span / 2, halfHeight: span / (2 * a) } : { halfWidth: (span * a) / 2, halfHeight: span / 2 };
}

/**
 * Sets an orthographic camera to a perspective-off key's view: where `from` (the placed MMD camera)
 * stands and looks, sized by orthoHalfExtents. Near at 0 as nanoem's (what is behind the camera's place
 * is cut), far as the perspective camera's.
 */
export function applyOrthographic(cam: THREE.OrthographicCamera, from: THREE.PerspectiveCamera, distance: number, aspect: number): void {
  const { halfWidth, halfHeight } = orthoHalfExtents(distance, aspect);
  cam.position.copy(from.position);
  cam.quaternion.copy(from.quaternion);
  cam.left = -halfWidth;
  cam.right = halfWidth;
  cam.top = halfHeight;
  cam.bottom = -halfHeight;
  cam.near = 0;
  cam.far = from.far;
  cam.zoom = 1;
  cam.updateProjectionMatrix();
  cam.updateMatrixWorld(true);
}

export interface CameraPathView {
  group: THREE.Group;
  /** Cut frames (a key one frame after the previous one). */
  cuts: number[];
  /** Places the path again from its follow (more of the bone's positions came in): the camera's poses are not sampled again. */
  refresh(): void;
  dispose(): void;
}

/**
 * Draws a camera track: the path sampled at every frame, key and cut markers. With `follow` (camera follows a
 * bone: the bone's world position at a frame) the path is the followed camera's, as the preview and the video show it;
 * a frame where `follow` gives undefined (not worked out yet: follow-samples.ts) is left out, a gap in the line, until
 * `refresh` finds it there.
 */
export function buildCameraPath(track: CameraTrack, follow: ((f: number) => readonly number[] | null | undefined) | null = null): CameraPathView {
  const group = new THREE.Group();
  group.name = 'camera-path';
  const n = track.frames.length;
  const cuts = cameraCutFrames(track.frames);
  const disposables: { dispose(): void }[] = [];
  if (n === 0) return { group, cuts, refresh() {}, dispose() {} };
  const first = track.frames[0], last = track.frames[n - 1];
  const cutSet = new Set(cuts);
  // The keyed camera at each frame, sampled once: its target and the eye's offset from it (the follow moves the
  // target; the offset is the rotation's and distance's, so the followed eye is as followedCamera puts it).
  const span = last - first + 1;
  const target = new Float64Array(3 * span), offset = new Float64Array(3 * span);
  for (let f = first; f <= last; f++) {
    const pose = sampleCamera(track, f)!;
    const d = rotateByCameraEuler([0, 0, pose.distance], pose.rotation);
    for (let k = 0; k < 3; k++) {
      target[3 * (f - first) + k] = pose.target[k];
      offset[3 * (f - first) + k] = d[k];
    }
  }
  /** The eye at frame f in three.js coordinates into `out` at `o`; false while the follow has no position there yet. */
  const at = (f: number, out: Float32Array, o: number): boolean => {
    const bone = follow ? follow(f) : null;
    if (bone === undefined) return false;
    const i = 3 * (f - first);
    for (let k = 0; k < 3; k++) {
      const t = bone ? target[i + k] + bone[k] : target[i + k];
      out[o + k] = (k === 2 ? -1 : 1) * (t + offset[i + k]);
    }
    return true;
  };
  // Each buffer holds every segment / marker; what a refresh finds not ready yet is left out by the draw range.
  const buffer = (count: number) => {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(3 * count), 3));
    disposables.push(g);
    return g;
  };
  let segments = 0;
  for (let f = first + 1; f <= last; f++) if (!cutSet.has(f)) segments++;
  const lineGeo = buffer(2 * segments);
  const lineMat = new THREE.LineBasicMaterial({ color: 0x7fb8ff, transparent: true, opacity: 0.8 });
  group.add(new THREE.LineSegments(lineGeo, lineMat));
  disposables.push(lineMat);
  const markers: { geo: THREE.BufferGeometry; frames: number[] }[] = [];
  const points = (frames: number[], color: number, size: number) => {
    const g = buffer(frames.length);
    const m = new THREE.PointsMaterial({ color, size, sizeAttenuation: false });
    group.add(new THREE.Points(g, m));
    disposables.push(m);
    markers.push({ geo: g, frames });
  };
  points(Array.from(track.frames).filter((f) => !cutSet.has(f)), 0xffd34d, 5);
  points(cuts, 0xff4d4d, 9);
  const a = new Float32Array(3), b = new Float32Array(3);
  const refresh = () => {
    const line = lineGeo.getAttribute('position') as THREE.BufferAttribute;
    const out = line.array as Float32Array;
    let o = 0;
    let prev = at(first, a, 0);
    for (let f = first + 1; f <= last; f++) {
      const here = at(f, b, 0);
      // No line across a cut: the camera jumps there (nor to or from a frame not worked out yet).
      if (prev && here && !cutSet.has(f)) {
        out.set(a, o);
        out.set(b, o + 3);
        o += 6;
      }
      a.set(b);
      prev = here;
    }
    lineGeo.setDrawRange(0, o / 3);
    line.needsUpdate = true;
    lineGeo.computeBoundingSphere();
    for (const m of markers) {
      const attr = m.geo.getAttribute('position') as THREE.BufferAttribute;
      let c = 0;
      for (const f of m.frames) if (at(f, attr.array as Float32Array, 3 * c)) c++;
      m.geo.setDrawRange(0, c);
      attr.needsUpdate = true;
      m.geo.computeBoundingSphere();
    }
  };
  refresh();
  return { group, cuts, refresh, dispose: () => disposables.forEach((d) => d.dispose()) };
}

/** MMD's default light: colour 0.6 grey, shining along (−0.5, −1, 0.5) in MMD coordinates. */
export const MMD_LIGHT_COLOR = 0.6;
const DEFAULT_LIGHT_MMD = [-0.5, -1, 0.5];

/**
 * A light VMD pose (or MMD's default light when null) for a three.js directional light: the direction the
 * light travels in three.js coordinates (z negated, normalised) and an RGB colour scaled so that MMD's
 * neutral 0.6 grey is white.
 */
export function lightFromPose(pose: { color: readonly number[]; direction: readonly number[] } | null): { direction: [number, number, number]; color: [number, number, number] } {
  let d = pose ? [pose.direction[0], pose.direction[1], -pose.direction[2]] : [DEFAULT_LIGHT_MMD[0], DEFAULT_LIGHT_MMD[1], -DEFAULT_LIGHT_MMD[2]];
  let n = Math.hypot(d[0], d[1], d[2]);
  if (n < 1e-9) {
    d = [DEFAULT_LIGHT_MMD[0], DEFAULT_LIGHT_MMD[1], -DEFAULT_LIGHT_MMD[2]];
    n = Math.hypot(d[0], d[1], d[2]);
  }
  const c = pose ? pose.color : [MMD_LIGHT_COLOR, MMD_LIGHT_COLOR, MMD_LIGHT_COLOR];
  return {
    direction: [d[0] / n, d[1] / n, d[2] / n],
    color: [c[0] / MMD_LIGHT_COLOR, c[1] / MMD_LIGHT_COLOR, c[2] / MMD_LIGHT_COLOR],
  };
}
