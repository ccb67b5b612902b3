/** Retargeting a motion from the model it was made for onto another: names, folds, proportions, re-fit. */
export * from './bone-names';
export * from './proportions';
export * from './key-counts';
export * from './plan';
export * from './retarget';
export * from './retarget-op';
export * from './semi-standard';
