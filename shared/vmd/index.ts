/** The VMD/VPD codec: pure TypeScript over Uint8Array, shared by main, workers, CLI and renderer. */
export * from './errors';
export * from './vmd-layout';
export * from './vmd-document';
export * from './vmd-reader';
export * from './vmd-writer';
export * from './vmd-build';
export * from './records';
export * from './interpolation';
export * from './bezier';
export * from './tracks';
export * from './sample';
export * from './camera';
export * from './inspect';
export * from './vpd';
export * from './convert';
export * from './sjis';
export * from './vmd-json';
