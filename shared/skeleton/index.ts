/** A model's bones posed from a motion, in pure TypeScript: forward kinematics, append, IK (MMD's order). */
export * from './skeleton';
export * from './motion-poser';
export * from './ik-switches';
export * from './quat';
