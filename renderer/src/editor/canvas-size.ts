/**
 * Sizes a canvas to its box: the CSS size of `box` (at least `minW` × `minH`), the drawing buffer at the
 * device pixel ratio so lines stay sharp on high-DPI screens. Returns the CSS size and the ratio used.
 */
export function fitCanvasToBox(
  canvas: HTMLCanvasElement,
  box: HTMLElement,
  minW = 1,
  minH = 1,
): { w: number; h: number; dpr: number } {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(minW, box.clientWidth), h = Math.max(minH, box.clientHeight);
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  canvas.style.width = w + 'px';
  canvas.style.height = h + 'px';
  return { w, h, dpr };
}
