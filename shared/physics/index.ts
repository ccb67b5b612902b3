/** MMD physics on a real Bullet (babylon-mmd's bindings): skeleton posing, the world, simulation and bake. */
export * from './bullet';
export * from './world';
export * from './simulate';
export * from './bake';
export * from './trace';
