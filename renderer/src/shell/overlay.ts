/**
 * Whether a dialog or the recent-files menu is open over the window. While one is, the keyboard is
 * its: Escape closes it, and the editor and the preview behind take no keys (Delete must not delete
 * keys behind a dialog, Escape must not also clear the picked joint).
 */
export function overlayOpen(): boolean {
  return !!document.querySelector('[role="dialog"], [data-testid="recent-menu"]');
}
