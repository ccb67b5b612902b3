/**
 * The edit family of commands, in the order `vmd-studio --help` lists them: the one-file edits
 * (edit-op.ts), merge, retarget, build and batch, each in its own file beside this one.
 */
import type { CommandInfo } from '../io';
import { batchCommand } from './batch';
import { buildCommand } from './build';
import { bakeCommand, mirrorCommand, presetCommand, reduceCommand, renameCommand, shiftCommand, speedCommand, trimCommand } from './edit-op';
import { mergeCommand } from './merge';
import { retargetCommand } from './retarget';

export { progressLine, summaryTable } from './batch';
export { reportLine } from './edit-output';

export const editCommands: Record<string, CommandInfo> = {
  mirror: mirrorCommand,
  trim: trimCommand,
  merge: mergeCommand,
  speed: speedCommand,
  shift: shiftCommand,
  preset: presetCommand,
  rename: renameCommand,
  reduce: reduceCommand,
  bake: bakeCommand,
  retarget: retargetCommand,
  build: buildCommand,
  batch: batchCommand,
};
