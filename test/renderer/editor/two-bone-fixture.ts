/**
 * The small hand-built motion the key-navigation and timeline-drawing tests read their expectations off:
 * bone A at 0, 10, 40 and bone B at 5, 25, in file order A@40 (0), B@25 (1), A@0 (2), A@10 (3), B@5 (4)
 * (unsorted on purpose), with camera keys at the frames given.
 */
import { buildVmd } from '../../../shared/vmd';
import { encodeCameraRecord } from '../../../shared/vmd/vmd-build';
import { blockFromRecords } from '../../../shared/vmd/vmd-document';

const pose = { position: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number] };

/** A camera record at `frame` (one fixed view). */
export const cam = (frame: number) => encodeCameraRecord({ frame, distance: -45, target: [0, 10, 0], rotation: [0, 0, 0], fov: 30 });

export function twoBoneMotion(cameraFrames: number[]) {
  return {
    ...buildVmd({
      bones: [
        { name: 'A', frame: 40, ...pose },
        { name: 'B', frame: 25, ...pose },
        { name: 'A', frame: 0, ...pose },
        { name: 'A', frame: 10, ...pose },
        { name: 'B', frame: 5, ...pose },
      ],
    }),
    camera: blockFromRecords('camera', cameraFrames.map(cam)),
  };
}
