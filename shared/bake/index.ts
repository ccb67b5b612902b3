/** What bakes share (world-keys, ik-off, edge-keys) and the IK bake (IK → FK). */
export * from './world-keys';
export * from './ik-off';
export * from './edge-keys';
export * from './ik-bake';
export * from './options';
