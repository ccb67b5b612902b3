/** Pure editing logic over the raw-record VMD document; every edit returns a new document plus a diff for undo. */
export * from './diff';
export * from './key-ref';
export * from './record-set';
export * from './curves';
export * from './keys';
export * from './ik';
export * from './values';
export * from './presets';
export * from './groups';
export * from './plot';
export * from './curve-tracks';
export * from './shift-tracks';
export * from './mirror-paste';
export * from './mixed-values';
export * from './camera-key';
export * from './bone-key';
export * from './morph-key';
