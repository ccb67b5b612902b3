/**
 * Registering a camera key from values (MMD's way of authoring a camera: orbit the view, then register;
 * the values come from shared/vmd/camera.ts cameraKeyFromView). A key already at that frame is replaced
 * in place, keeping its interpolation bytes and perspective flag; otherwise a new key is appended with
 * MMD's default (linear) curves and the perspective in force there. One edit, so one undo step.
 */
import type { CameraKeyValues } from '../vmd/camera';
import { sampleCamera } from '../vmd/sample';
import type { MotionTracks } from '../vmd/tracks';
import type { VmdDocument } from '../vmd/vmd-document';
import { viewOf } from '../vmd/vmd-document';
import { encodeCameraRecord } from '../vmd/vmd-build';
import { defaultCameraInterpolation } from '../vmd/interpolation';
import { CAMERA } from '../vmd/vmd-layout';
import { success } from '../vmd/errors';
import { BlockEditor, finish, refuse, type EditOutcome, type KeyEdit } from './diff';
import { keyAtFrame, lowerBound } from './key-ref';
import { MAX_FRAME } from './keys';

/**
 * The angles to unwrap a new key's rotation against: the camera key before `frame` (the segment that
 * ends at the new key is the one interpolated from it), else the first key after, else null.
 */
export function neighbourCameraRotation(tracks: MotionTracks, frame: number): [number, number, number] | null {
  const cam = tracks.camera, n = cam.frames.length;
  if (n === 0) return null;
  const at = lowerBound(cam.frames, 0, n, Math.round(frame));
  let k = at - 1;
  if (k < 0) {
    k = at;
    while (k < n && cam.frames[k] === Math.round(frame)) k++;
    if (k >= n) return null;
  }
  return [cam.rotation[3 * k], cam.rotation[3 * k + 1], cam.rotation[3 * k + 2]];
}

/** Inserts or replaces the camera key at `frame` with `key`. Returns the record's index in `record`. */
export function registerCameraKey(doc: VmdDocument, tracks: MotionTracks, frame: number, key: CameraKeyValues): EditOutcome<KeyEdit & { record: number }> {
  frame = Math.round(frame);
  if (!(frame >= 0 && frame <= MAX_FRAME)) return refuse('E_RANGE', `frame ${frame} is out of range`, 'editor.refusal.frameOutOfRange', { frame });
  // + 0: a zero is written +0, as MMD writes it (a view's angle or target may come out −0).
  const z = (x: number) => x + 0;
  key = { ...key, distance: z(key.distance), target: [z(key.target[0]), z(key.target[1]), z(key.target[2])], rotation: [z(key.rotation[0]), z(key.rotation[1]), z(key.rotation[2])] };
  const cam = tracks.camera;
  const ed = new BlockEditor(doc.camera);
  const k = keyAtFrame(cam.frames, 0, cam.frames.length, frame);
  if (k >= 0) {
    const record = cam.record[k];
    const rec = ed.copy(record);
    const v = viewOf(rec);
    v.setFloat32(CAMERA.DISTANCE, key.distance, true);
    for (let c = 0; c < 3; c++) {
      v.setFloat32(CAMERA.TARGET + 4 * c, key.target[c], true);
      v.setFloat32(CAMERA.ROTATION + 4 * c, key.rotation[c], true);
    }
    v.setUint32(CAMERA.FOV, Math.max(1, Math.min(179, Math.round(key.fov))), true);
    ed.put(record, rec);
    return success(Object.assign(finish(doc, 'register camera view', [ed]), { record }));
  }
  const perspective = sampleCamera(cam, frame)?.perspective ?? 0;
  const record = ed.append(
    encodeCameraRecord({ frame, ...key, fov: Math.max(1, Math.min(179, Math.round(key.fov))), perspective, interpolation: defaultCameraInterpolation() }),
  );
  return success(Object.assign(finish(doc, 'register camera view', [ed]), { record }));
}
