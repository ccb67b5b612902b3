/**
 * Motion edits: pure functions over the raw-record VmdDocument (shared/vmd). Each returns the new
 * document and a report of key counts; only frame numbers and the fields an edit means to change are
 * rewritten. The CLI, the batch workers and the editor UI all call these.
 */
export * from '../edit-core/report';
export * from '../edit-core/record-util';
export * from '../edit-core/curve-split';
export * from '../edit-core/name-pattern';
export * from './pose-math';
export * from './mirror';
export * from './trim';
export * from './merge';
export * from './speed';
export * from './shift';
export * from './preset';
export * from './rename';
export * from './pose';
export * from './side-names';
