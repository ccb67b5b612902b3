/**
 * The names the shell's key table and its dispatcher share: the app commands (CommandId), the editor's key
 * actions (KeyAction) and the contexts rows sharing a chord are told apart by (KeyContext). Kept apart from
 * commands.ts, keymap.ts and shortcuts.ts so that each of them imports this and none imports another in a circle.
 */
import type { MenuCommandId } from '../../../shared/ipc/contract';

/** Every app command: the native menu's, plus those only the app's own menus run. */
export type CommandId = MenuCommandId | 'openRecent' | 'clearRecent';

/** Every editor action the keyboard can run; each has exactly one row in SHORTCUT_GROUPS. */
export const KEY_ACTIONS = [
  'selectAll',
  'copyKeys',
  'cutKeys',
  'pasteKeys',
  'mirrorPaste',
  'pasteOtherSide',
  'mirrorPose',
  'deleteKeys',
  'insertKey',
  'play',
  'playSpeed',
  'step',
  'step10',
  'home',
  'end',
  'prevNextKeyActive',
  'prevNextKeySelected',
  'prevNextKeyAll',
  'goToFrame',
  'pageFrames',
  'trackUpDown',
  'zoomPlayhead',
  'fitMotion',
  'fitSelection',
  'rangeSelect',
  'playRange',
  'nudge',
  'nudge10',
  'copyCurve',
  'pasteCurve',
  'dropHandle',
  'registerView',
  'togglePoseMode',
  'togglePhysics',
  'resetPhysics',
  'togglePreviewFull',
  'toggleBones',
  'sideView',
  'frameAll',
  'cyclePane',
  'pickHandle',
  'lipSyncKey',
] as const;
export type KeyAction = (typeof KEY_ACTIONS)[number];

/**
 * Conditions that tell rows sharing a chord apart. Values of one group exclude each other:
 * `curve`/`keys` — the curve editor has the focus or not; `handle`/`noHandle` — a curve handle of a
 * shown curve is selected (arrows nudge it) or not (← → step the playhead, ↑ ↓ move the active track);
 * `lipSync`/`noLipSync` — the morph panel's lip-sync mode is on (A keys あ) or not (A frames every actor).
 */
export const KEY_CONTEXTS = { curve: 'focus', keys: 'focus', handle: 'handle', noHandle: 'handle', lipSync: 'lipSync', noLipSync: 'lipSync' } as const;
export type KeyContext = keyof typeof KEY_CONTEXTS;
