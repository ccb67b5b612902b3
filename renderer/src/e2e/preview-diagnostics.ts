/**
 * Questions about the preview that only tests and profiling ask: bone transforms in world space, where a
 * joint is drawn, the colour of a drawn pixel, the camera and light as placed, the frame-time breakdown,
 * WebGL memory, and how long posing alone takes. Imported only by the e2e build's test hook
 * (preview-hook.ts here), so the shipped bundle holds none of it.
 */
import * as THREE from 'three';
import { matchKey } from '../../../shared/pmx/model-inspect';
import type { FrameBreakdown } from '../preview/frame-profiler';
import type { PreviewEngine } from '../preview/preview-engine';
import type { Rig } from '../preview/rig';
import { OfflineFrameSource } from '../preview/offline-render';

/** World rotation of a bone in three.js coordinates, or null when the rig lacks it. */
export function boneWorldQuaternion(rig: Rig, name: string): [number, number, number, number] | null {
  const i = rig.byKey.get(matchKey(name));
  if (i === undefined) return null;
  const q = rig.bones[i].getWorldQuaternion(new THREE.Quaternion());
  return [q.x, q.y, q.z, q.w];
}

/** World position of a bone's joint in three.js coordinates, or null when the rig lacks it. */
/**
 * A skinned mesh's box in the world as posed now (each vertex skinned by three.js's own
 * SkinnedMesh.computeBoundingBox, then placed by its world matrix), three.js axes; null when empty.
 */
export function posedWorldBox(mesh: THREE.SkinnedMesh): { min: [number, number, number]; max: [number, number, number] } | null {
  mesh.updateMatrixWorld(true);
  mesh.skeleton.update();
  mesh.computeBoundingBox();
  const b = mesh.boundingBox!.clone().applyMatrix4(mesh.matrixWorld);
  return b.isEmpty() ? null : { min: b.min.toArray(), max: b.max.toArray() };
}

export function boneWorldPosition(rig: Rig, name: string): [number, number, number] | null {
  const i = rig.byKey.get(matchKey(name));
  if (i === undefined) return null;
  const p = rig.bones[i].getWorldPosition(new THREE.Vector3());
  return [p.x, p.y, p.z];
}

/** The camera the picture is seen through: the MMD camera's when looking through it, else the orbit camera. */
export function cameraState(e: PreviewEngine): { lookThrough: boolean; orthographic: boolean; position: number[]; quaternion: number[]; fov: number; aspect: number; target: number[] } {
  const c = e.world.activeCamera;
  // A perspective-off key's view (orthographic): no fov; its aspect is its box's width / height.
  const ortho = 'fov' in c ? null : c;
  const t = e.controls.target;
  return {
    lookThrough: e.world.lookingThrough,
    orthographic: !!ortho,
    position: [c.position.x, c.position.y, c.position.z],
    quaternion: [c.quaternion.x, c.quaternion.y, c.quaternion.z, c.quaternion.w],
    fov: ortho ? 0 : (c as THREE.PerspectiveCamera).fov,
    // The projection's width / height (the output frame's aspect while looking through).
    aspect: ortho ? (ortho.right - ortho.left) / (ortho.top - ortho.bottom) : (c as THREE.PerspectiveCamera).aspect,
    // The orbit controls' target (what the free view turns about), three.js coordinates.
    target: [t.x, t.y, t.z],
  };
}

/** The directional light as drawn: the unit direction it shines along and its colour. */
export function lightState(light: THREE.DirectionalLight): { direction: [number, number, number]; color: [number, number, number] } {
  const d = light.target.position.clone().sub(light.position).normalize();
  const c = light.color;
  return { direction: [d.x, d.y, d.z], color: [c.r, c.g, c.b] };
}

/** The frame breakdown since the last profiler.clear() (see frame-profiler.ts). */
export function breakdown(e: PreviewEngine): FrameBreakdown {
  const r = e.renderer.info.render;
  return e.profiler.breakdown(e.presenter.scale, { calls: r.calls, triangles: r.triangles });
}

/** Drawing-buffer size in pixels (after pixel ratio and render scale). */
export function bufferSize(e: PreviewEngine): [number, number] {
  return [e.renderer.domElement.width, e.renderer.domElement.height];
}

/**
 * Times pose evaluation alone: `count` frames spread over the motion, then the current frame again.
 * Returns the mean in ms (browsers coarsen performance.now(), so one call cannot be timed alone).
 */
export function timePose(e: PreviewEngine, count: number): number {
  const binding = e.motion.binding, tracks = e.motion.tracks;
  if (!binding || !tracks) return 0;
  const last = Math.max(tracks.lastFrame, 1);
  const t0 = performance.now();
  for (let i = 0; i < count; i++) binding.apply(((i * 7.31) % last) + 0.5);
  const mean = (performance.now() - t0) / count;
  e.setFrame(e.currentFrame);
  return mean;
}

/** Where a bone's joint is drawn, in CSS px on a width × height canvas; null when absent or off screen. */
export function boneScreenPosition(e: PreviewEngine, name: string, width: number, height: number): [number, number] | null {
  return e.marker.screenPosition(e.world.activeCamera, name, width, height);
}

/** A shown model's vertex as three.js skins it on the CPU (applyBoneTransform), in the world (three.js's coordinates). */
export function vertexWorldPosition(e: PreviewEngine, index: number): THREE.Vector3 | null {
  const mesh = e.world.model?.mesh;
  if (!mesh || index < 0 || index >= mesh.geometry.getAttribute('position').count) return null;
  mesh.updateMatrixWorld(true);
  const v = new THREE.Vector3().fromBufferAttribute(mesh.geometry.getAttribute('position'), index);
  mesh.applyBoneTransform(index, v);
  return v.applyMatrix4(mesh.matrixWorld);
}

/** Where a world point (three.js's coordinates) is drawn, in CSS px of a width × height canvas; null off screen. */
export function worldScreenPosition(e: PreviewEngine, p: THREE.Vector3, width: number, height: number): [number, number] | null {
  const v = p.clone().project(e.world.activeCamera);
  if (v.z < -1 || v.z > 1) return null;
  return [((v.x + 1) / 2) * width, ((1 - v.y) / 2) * height];
}

/**
 * Renders now and reads the drawn colour (RGBA bytes) at (x, y) CSS px of a width × height canvas (the
 * drawing buffer is only readable within the task that rendered it).
 */
export function readPixel(e: PreviewEngine, x: number, y: number, width: number, height: number): [number, number, number, number] {
  e.presenter.drawNow();
  const [bw, bh] = bufferSize(e);
  const px = Math.min(bw - 1, Math.max(0, Math.floor((x / width) * bw)));
  const py = Math.min(bh - 1, Math.max(0, bh - 1 - Math.floor((y / height) * bh)));
  const gl = e.renderer.getContext();
  const out = new Uint8Array(4);
  gl.readPixels(px, py, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return [out[0], out[1], out[2], out[3]];
}

/**
 * Renders now and reads the whole drawing buffer: RGBA bytes, rows top first, base64 (one draw for a
 * test that looks at many pixels; readPixel draws once per pixel).
 */
export function readFrame(e: PreviewEngine): { width: number; height: number; rgba: string } {
  e.presenter.drawNow();
  const [w, h] = bufferSize(e);
  const gl = e.renderer.getContext();
  const raw = new Uint8Array(4 * w * h);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, raw);
  const rows = new Uint8Array(raw.length);
  for (let y = 0; y < h; y++) rows.set(raw.subarray(4 * w * (h - 1 - y), 4 * w * (h - y)), 4 * w * y);
  let bin = '';
  for (let i = 0; i < rows.length; i += 0x8000) bin += String.fromCharCode(...rows.subarray(i, i + 0x8000));
  return { width: w, height: h, rgba: btoa(bin) };
}

/**
 * The pose handle (pose-gizmo.ts) as drawn: the bone it is on, its mode, whether a ring or arrow is under
 * the pointer, and for `axis` the screen points (CSS px on a width × height canvas) of that ring (rotate:
 * the circle about the bone's own axis) or along that arrow (translate), from the handle's size on screen
 * as TransformControls computes it (its handles are scaled by distance · min(1.9·tan(fov/2), 7) · size/4;
 * the rotate picker's rings have radius 0.5, the arrows' pickers run from 0 to 0.6).
 */
export function poseHandle(e: PreviewEngine, axis: 'X' | 'Y' | 'Z', width: number, height: number): { bone: string | null; mode: string; space: string; hovered: string | null; dragging: boolean; enabled: boolean; points: [number, number][] } {
  const g = e.gizmo, c = g.controls;
  const i = g.attachedBone;
  const out = { bone: i >= 0 ? e.rig.info[i].name : null, mode: g.mode as string, space: g.space as string, hovered: (c.axis as string | null) ?? null, dragging: c.dragging, enabled: c.enabled, points: [] as [number, number][] };
  if (i < 0) return out;
  const cam = e.world.activeCamera;
  e.world.refreshMatrices();
  const bone = e.rig.bones[i];
  const center = new THREE.Vector3().setFromMatrixPosition(bone.matrixWorld);
  // Global: the handle's axes are the scene's; local: the bone's (its world rotation).
  const q = g.space === 'local' ? bone.getWorldQuaternion(new THREE.Quaternion()) : new THREE.Quaternion();
  const factor = center.distanceTo(new THREE.Vector3().setFromMatrixPosition(cam.matrixWorld)) * Math.min((1.9 * Math.tan((Math.PI * ('fov' in cam ? cam.fov : 30)) / 360)) / cam.zoom, 7);
  const scale = (factor * c.size) / 4;
  const ax = { X: new THREE.Vector3(1, 0, 0), Y: new THREE.Vector3(0, 1, 0), Z: new THREE.Vector3(0, 0, 1) };
  const main = ax[axis].clone().applyQuaternion(q);
  const project = (p: THREE.Vector3): [number, number] => {
    const s = p.clone().project(cam);
    return [((s.x + 1) / 2) * width, ((1 - s.y) / 2) * height];
  };
  if (g.mode === 'translate') {
    for (let k = 1; k <= 8; k++) out.points.push(project(center.clone().addScaledVector(main, (0.6 * scale * k) / 8)));
    return out;
  }
  // Two axes across the ring's plane.
  const others = (['X', 'Y', 'Z'] as const).filter((a) => a !== axis).map((a) => ax[a].clone().applyQuaternion(q));
  for (let k = 0; k < 24; k++) {
    const th = (2 * Math.PI * k) / 24;
    out.points.push(project(center.clone().addScaledVector(others[0], 0.5 * scale * Math.cos(th)).addScaledVector(others[1], 0.5 * scale * Math.sin(th))));
  }
  return out;
}

/**
 * How another actor's model (a companion: a scene actor, or the retarget panel's ghost) is drawn: whether
 * it is in the picture, where it stands (three.js coordinates), and its materials' opacity and blending.
 */
export function companionLook(rig: Rig): { visible: boolean; position: [number, number, number]; opacity: number[]; transparent: boolean[]; textured: number } | null {
  // A model's bones hang under its skinned mesh; the built-in figure's mesh is their sibling in its group.
  let o: THREE.Object3D | null = rig.bones[0] ?? null;
  while (o && !(o as THREE.SkinnedMesh).isSkinnedMesh && !(o.parent && o.parent.type === 'Scene')) o = o.parent;
  if (o && !(o as THREE.SkinnedMesh).isSkinnedMesh) {
    let found: THREE.SkinnedMesh | null = null;
    o.traverse((c) => (found ??= (c as THREE.SkinnedMesh).isSkinnedMesh ? (c as THREE.SkinnedMesh) : null));
    o = found;
  }
  if (!o) return null;
  const mesh = o as THREE.SkinnedMesh;
  const at = mesh.getWorldPosition(new THREE.Vector3());
  let shown = true;
  for (let p: THREE.Object3D | null = mesh; p; p = p.parent) shown &&= p.visible;
  const mats = (Array.isArray(mesh.material) ? mesh.material : [mesh.material]) as THREE.Material[];
  // `textured`: materials with their colour texture on (textures.ts puts them there once decoded).
  const textured = mats.filter((m) => !!(m as THREE.MeshLambertMaterial).map).length;
  return { visible: shown, position: [at.x, at.y, at.z], opacity: mats.map((m) => m.opacity), transparent: mats.map((m) => m.transparent), textured };
}

/** The preview's physics as the tests see it (physics-preview.ts). */
export function physicsState(e: PreviewEngine): { enabled: boolean; ready: boolean; bodiesShown: boolean; actors: ReturnType<PreviewEngine['physics']['actors']>; stepMs: number[]; catchUp: ReturnType<PreviewEngine['physics']['catchUpProgress']> } {
  const p = e.physics;
  return { enabled: p.enabled, ready: p.ready, bodiesShown: p.bodiesVisible, actors: p.actors(), stepMs: p.stepMs.values(), catchUp: p.catchUpProgress() };
}

/**
 * An actor's rigid-body view ("Show rigid bodies"): where each body's centre and joint's cube is drawn (world,
 * three.js axes) and the one highlighted (hovered); null without a view.
 */
export function rigidBodyView(e: PreviewEngine, key: string): { bodies: [number, number, number][]; joints: [number, number, number][]; highlighted: { kind: 'body' | 'joint'; index: number } | null } | null {
  const v = e.physics.viewOf(key);
  return v ? { ...v.drawnCentres(), highlighted: v.highlighted } : null;
}

/** An actor's physics bones (driven by a dynamic body) with their world positions now, MMD coordinates. */
export function physicsBones(e: PreviewEngine, key: string): { name: string; position: [number, number, number]; rotation: [number, number, number, number] }[] {
  const ph = e.physics.physicsOf(key);
  if (!ph) return [];
  const P = ph.pose, out: { name: string; position: [number, number, number]; rotation: [number, number, number, number] }[] = [];
  const driver = ph.world.driver, R = P.worldRotation;
  for (let i = 0; i < driver.length; i++) {
    if (driver[i] < 0) continue;
    out.push({ name: ph.model.bones[i].name, position: [P.worldPosition[3 * i], P.worldPosition[3 * i + 1], P.worldPosition[3 * i + 2]], rotation: [R[4 * i], R[4 * i + 1], R[4 * i + 2], R[4 * i + 3]] });
  }
  return out;
}

/**
 * The video export's way to a frame with physics: an OfflineFrameSource (the export's own frame source) brought
 * to `from`, then `frames` frames on one by one, as an export at 30 fps walks its range; returns an actor's
 * physics bones there. Disposing the source puts the preview back at its frame.
 */
export function physicsOffline(e: PreviewEngine, key: string, from: number, frames: number): ReturnType<typeof physicsBones> {
  const src = new OfflineFrameSource(e, 64, 36, false);
  try {
    for (let k = 0; k <= frames; k++) src.advanceTo(from + k);
    return physicsBones(e, key);
  } finally {
    src.dispose();
  }
}
