/**
 * The undo and redo buttons' step names in the UI's language: shared/i18n/edit-labels.ts, where the history
 * store reaches them too (its notice of an undo in another document; a store imports no view).
 */
export { editLabel, editLabelText, KNOWN_EDIT_LABELS } from '../../../shared/i18n/edit-labels';
