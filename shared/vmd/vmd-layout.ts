/**
 * VMD byte layout (all little-endian; uint32 counts and frames, float32 values):
 *
 *   0    30  header "Vocaloid Motion Data 0002" (or "... file" = 0001), zero padded
 *   30   20  model name, Shift_JIS (10 bytes in version 0001)
 *   then six blocks, each uint32 count + records; later blocks may be absent entirely:
 *     bone   111 = name 15 | frame u32 @15 | position f32×3 @19 | rotation quaternion f32×4 @31 | interpolation u8×64 @47
 *     morph   23 = name 15 | frame u32 @15 | weight f32 @19
 *     camera  61 = frame u32 @0 | distance f32 @4 | target f32×3 @8 | rotation euler f32×3 @20
 *                  | interpolation u8×24 @32 | fov u32 @56 | perspective u8 @60 (0 = on)
 *     light   28 = frame u32 @0 | color f32×3 @4 | direction f32×3 @16
 *     shadow   9 = frame u32 @0 | mode u8 @4 | distance f32 @5
 *     ik       9 + 21×n = frame u32 @0 | visible u8 @4 | n u32 @5 | n × (IK bone name 20 | enabled u8 @20)
 */

export const HEADER_LENGTH = 30;
export const MAGIC = 'Vocaloid Motion Data';
export const HEADER_V2 = 'Vocaloid Motion Data 0002';
export const HEADER_V1 = 'Vocaloid Motion Data file';
export const MODEL_NAME_LENGTH_V2 = 20;
export const MODEL_NAME_LENGTH_V1 = 10;

export const BLOCK_KINDS = ['bone', 'morph', 'camera', 'light', 'shadow', 'ik'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];
export type FixedKind = Exclude<BlockKind, 'ik'>;


/** Where the frame number sits in each record. */
export const FRAME_OFFSET: Record<BlockKind, number> = { bone: 15, morph: 15, camera: 0, light: 0, shadow: 0, ik: 0 };

export const BONE = {
  NAME: 0, // 15 bytes Shift_JIS
  NAME_LENGTH: 15,
  FRAME: 15, // u32
  POSITION: 19, // f32 × 3
  ROTATION: 31, // f32 × 4 (x, y, z, w)
  INTERPOLATION: 47, // 64 bytes
  INTERPOLATION_LENGTH: 64,
  SIZE: 111,
} as const;

export const MORPH = { NAME: 0, NAME_LENGTH: 15, FRAME: 15, WEIGHT: 19, SIZE: 23 } as const;

export const CAMERA = {
  FRAME: 0, // u32
  DISTANCE: 4, // f32
  TARGET: 8, // f32 × 3
  ROTATION: 20, // f32 × 3, radians
  INTERPOLATION: 32, // 24 bytes: 6 × (x1, x2, y1, y2)
  INTERPOLATION_LENGTH: 24,
  FOV: 56, // u32 degrees
  PERSPECTIVE: 60, // u8, 0 = perspective on
  SIZE: 61,
} as const;

export const LIGHT = { FRAME: 0, COLOR: 4, DIRECTION: 16, SIZE: 28 } as const;

export const SHADOW = { FRAME: 0, MODE: 4, DISTANCE: 5, SIZE: 9 } as const;
/**
 * What MMD's self-shadow panel starts at: mode 1, range 8875 on its 0–9999 slider, which the file stores
 * as 0.1 − slider / 100,000 (the format documents give only the layout; these are MMD's own defaults).
 * A first self-shadow key inserted in the editor and a JSON key without mode or distance take them.
 */
export const SHADOW_DEFAULT = { mode: 1, distance: 0.1 - 8875 / 100000 } as const;

/** Fixed record sizes, from the layouts above; the IK block is variable. */
export const RECORD_SIZE: Record<FixedKind, number> = { bone: BONE.SIZE, morph: MORPH.SIZE, camera: CAMERA.SIZE, light: LIGHT.SIZE, shadow: SHADOW.SIZE };

export const IK = {
  FRAME: 0, // u32
  VISIBLE: 4, // u8
  COUNT: 5, // u32
  HEADER: 9,
  ITEM: 21, // per IK bone: name 20 + enabled u8
  ITEM_NAME_LENGTH: 20,
  ITEM_ENABLED: 20,
} as const;

/** VMD plays at a fixed 30 frames per second; the rate is not stored. */
export const FPS = 30;
