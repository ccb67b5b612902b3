/**
 * Where the output frame lies in the free view (issue 30: Register view shows the shot's borders while
 * framing). Register view (K) keeps the orbit camera's vertical view angle, and the shot shows that angle
 * over the output frame's height; the free view shows it over the pane's height. So in the free view the
 * shot is the pane's full height and `height × aspect` wide, centred — narrower than the pane in a wide
 * pane, wider (its side borders out of view) in a tall one.
 */
export interface ShotRect {
  x: number;
  y: number;
  width: number;
  height: number;
  /** The shot is wider than the pane: its left and right borders lie outside the view. */
  clipped: boolean;
}

export function freeViewShotRect(paneWidth: number, paneHeight: number, aspect: number): ShotRect {
  const W = Math.max(1, paneWidth), H = Math.max(1, paneHeight);
  const width = H * aspect;
  return { x: (W - width) / 2, y: 0, width, height: H, clipped: width > W + 0.5 };
}
