/**
 * The undo and redo buttons name the step in the UI's language (issue 30: the Japanese UI said "register
 * camera view", "mirror paste", "curve", "insert key", "pose bone"; that step is "register key" now, MMD's 登録).
 * Edits label their steps in English (shared/key-edits, for logs and tests); this maps each of those labels to its
 * string key. A label built elsewhere as a string key (a Whole Motion operation, Simplify) is looked up when shown.
 */
import { hasString, type UiStringKey } from './strings';

const EDIT_LABELS: Record<string, UiStringKey> = {
  'delete keys': 'edit.label.deleteKeys',
  'cut keys': 'edit.label.cutKeys',
  'edit values': 'edit.label.editValues',
  'register key': 'edit.label.insertKey',
  'morph key': 'edit.label.morphKey',
  'lip sync': 'edit.label.lipSync',
  'move keys': 'edit.label.moveKeys',
  'paste keys': 'edit.label.pasteKeys',
  'paste keys repeatedly': 'edit.label.pasteRepeat',
  'pose bone': 'edit.label.poseBone',
  'register camera view': 'edit.label.registerView',
  'paste curve': 'edit.label.pasteCurve',
  'curve on all channels': 'edit.label.curveAllChannels',
  curve: 'edit.label.curve',
  'mirror paste': 'edit.label.mirrorPaste',
  'paste on the other side': 'edit.label.pasteOtherSide',
  'mirror pose': 'edit.label.mirrorPose',
  // The scene's own steps (stores/scene.ts).
  staging: 'edit.label.staging',
  'outline width': 'edit.label.edgeWidth',
  'camera follow': 'edit.label.cameraFollow',
  'add actor': 'edit.label.addActor',
  'add camera': 'edit.label.addCamera',
  'hide actor': 'edit.label.hideActor',
  'show actor': 'edit.label.showActor',
  // The music's (stores/music.ts).
  'music offset': 'edit.label.musicOffset',
  'remove music': 'edit.label.removeMusic',
  'load music': 'edit.label.loadMusic',
  'beat grid': 'edit.label.beatGrid',
  'remove actor': 'edit.label.removeActor',
  'remove camera': 'edit.label.removeCamera',
};

/**
 * Labels that carry values, by their English form: the values are read back out of it for the string's
 * parameters (pose-apply.ts labels a step "apply pose 01.vpd at 60").
 */
const LABELS_WITH_VALUES: { form: RegExp; key: UiStringKey; params: (m: RegExpExecArray) => Record<string, string | number> }[] = [
  { form: /^apply pose (.+) at (\d+)$/s, key: 'edit.label.applyPose', params: (m) => ({ file: m[1], frame: Number(m[2]) }) },
  // Load onto an actor, or a relink of its missing file (shell/pose-apply.ts): "load motion walk.vmd".
  { form: /^load motion (.+)$/s, key: 'edit.label.loadMotion', params: (m) => ({ file: m[1] }) },
  // The bake's "Use the baked camera and turn the follow off" (stores/scene.ts useBakedCamera).
  { form: /^use baked camera (.+)$/s, key: 'edit.label.useBakedCamera', params: (m) => ({ file: m[1] }) },
  // Reload from disk of a file changed by another program (shell/pose-apply.ts): "reload walk.vmd".
  { form: /^reload (.+)$/s, key: 'edit.label.reload', params: (m) => ({ file: m[1] }) },
  // A camera value typed in the Key panel (KeyInspector.vue cameraStepLabel): "camera distance -45 → -30".
  { form: /^camera distance (\S+) → (\S+)$/, key: 'edit.label.cameraDistance', params: (m) => ({ from: m[1], to: m[2] }) },
  { form: /^camera target ([XYZ]) (\S+) → (\S+)$/, key: 'edit.label.cameraTarget', params: (m) => ({ axis: m[1], from: m[2], to: m[3] }) },
  { form: /^camera rotation ([XYZ]) (\S+) → (\S+)$/, key: 'edit.label.cameraRotation', params: (m) => ({ axis: m[1], from: m[2], to: m[3] }) },
  { form: /^camera FOV (\S+) → (\S+)$/, key: 'edit.label.cameraFov', params: (m) => ({ from: m[1], to: m[2] }) },
];

/**
 * A history step's label in the UI's language: an edit's English label through EDIT_LABELS (or, with values
 * in it, LABELS_WITH_VALUES), or a string key (a Whole Motion operation `batch.op.reduce`, Simplify, a bake, a
 * retarget keep their key, not the words of the language they were made in, so a step made in English reads in
 * Japanese after switching).
 */
export function editLabel(label: string, t: (key: UiStringKey, params?: Record<string, string | number>) => string): string {
  const key = EDIT_LABELS[label];
  if (key) return t(key);
  for (const l of LABELS_WITH_VALUES) {
    const m = l.form.exec(label);
    if (m) return t(l.key, l.params(m));
  }
  return hasString(label) ? t(label) : label;
}

/**
 * `editLabel` as a notice's text (rendered in the UI's language when shown, so a notice still up after the
 * language changes reads in the new one): the string key and its values, or the label as it is.
 */
export function editLabelText(label: string): string | { key: UiStringKey; params?: Record<string, string | number> } {
  const key = EDIT_LABELS[label];
  if (key) return { key };
  for (const l of LABELS_WITH_VALUES) {
    const m = l.form.exec(label);
    if (m) return { key: l.key, params: l.params(m) };
  }
  return hasString(label) ? { key: label } : label;
}

/** The labels this maps (the test checks every edit's label is among them). */
export const KNOWN_EDIT_LABELS = Object.keys(EDIT_LABELS);
