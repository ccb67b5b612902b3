/** PMX / PMD model reading and the model ↔ motion check: pure TypeScript over Uint8Array. */
export * from './model-types';
export * from './pmx-reader';
export * from './pmd-reader';
export * from './model-reader';
export * from './model-inspect';
export * from './seen-bones';
