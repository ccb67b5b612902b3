/** The curve-fitting engine: re-expressing motion within a guaranteed error (reduce, re-time, bake). */
export * from './curve-fit';
export * from './track-fit';
export * from './linear-fit';
export * from './motion-fit';
export * from './measure';
export * from './simplify';
export * from './plot';
