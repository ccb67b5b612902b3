/**
 * Sizes a canvas to its box: the CSS size of `box` (at least `minW` × `minH`), the drawing buffer at the
 * device pixel ratio so lines stay sharp on high-DPI screens. Returns the CSS size, the ratio used, and
 * whether the drawing buffer changed size: setting a canvas's width or height clears it (even to the
 * same value), so it is only set when it changes, and a caller redraws at once when `cleared`.
 */
export function fitCanvasToBox(
  canvas: HTMLCanvasElement,
  box: HTMLElement,
  minW = 1,
  minH = 1,
): { w: number; h: number; dpr: number; cleared: boolean } {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(minW, box.clientWidth), h = Math.max(minH, box.clientHeight);
  const bw = Math.round(w * dpr), bh = Math.round(h * dpr);
  const cleared = canvas.width !== bw || canvas.height !== bh;
  if (cleared) {
    canvas.width = bw;
    canvas.height = bh;
  }
  canvas.style.width = w + 'px';
  canvas.style.height = h + 'px';
  return { w, h, dpr, cleared };
}
