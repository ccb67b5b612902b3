/**
 * F6 / Shift+F6: the keyboard's focus goes to the next / previous main pane, as in Windows applications and
 * Blender-like editors (new-user pass nua11y 4: the Key panel was 74 Tabs from the top, the timeline none at
 * all). The panes in order: the menu bar, the left panel, the timeline's track list, the curve pane, the Key
 * panel, the 3D preview; round at either end. A pane takes the focus on its own control for the keys (the track
 * list, where ↑/↓ [ ] Enter work; the curve square, where 1 / 2 pick a handle), else on its selected tab or its
 * first control. A pane not shown, or with nothing to focus, is passed over.
 */
import { tabStops } from './overlay';

interface Pane {
  /** The pane's element. */
  root: string;
  /** The element inside it that takes the focus, when not its first control. */
  focus?: string;
}

export const PANES: readonly Pane[] = [
  { root: '[data-testid="menu-bar"]' },
  { root: '[data-testid="app-body"] > aside.left', focus: '[role="tab"][aria-selected="true"]' },
  { root: '[data-testid="track-list"]', focus: '[data-testid="track-list"]' },
  { root: '[data-testid="curve-editor"]', focus: '[data-testid="curve-canvas"]' },
  { root: '[data-testid="key-inspector"]' },
  { root: '[data-testid="preview-pane"]' },
];

/** The control of a pane that takes the focus, or null (not shown, nothing to focus). */
function paneTarget(p: Pane): HTMLElement | null {
  const root = document.querySelector<HTMLElement>(p.root);
  if (!root || !root.getClientRects().length) return null;
  const own = p.focus ? (root.matches(p.focus) ? root : root.querySelector<HTMLElement>(p.focus)) : null;
  if (own && own.tabIndex >= 0) return own;
  return tabStops(root)[0] ?? null;
}

/** Which pane holds the focus now (-1: none, the page itself). */
export function currentPane(): number {
  const at = document.activeElement;
  return PANES.findIndex((p) => !!at && !!document.querySelector(p.root)?.contains(at));
}

/** Moves the focus to the next pane (`dir` 1) or the previous one (-1); false when no pane could take it. */
export function focusPane(dir: 1 | -1): boolean {
  const n = PANES.length;
  const from = currentPane();
  for (let k = 1; k <= n; k++) {
    const i = from < 0 ? (dir > 0 ? k - 1 : n - k) : (((from + dir * k) % n) + n) % n;
    const el = paneTarget(PANES[i]);
    if (el) {
      el.focus();
      return true;
    }
  }
  return false;
}
