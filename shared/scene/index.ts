/** The scene: its file (actors, camera, music, aspect, view), portable paths, and the music's pure maths. */
export * from './scene-path';
export * from './scene-file';
export * from './audio-sync';
export * from './peaks';
