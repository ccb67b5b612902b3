/**
 * One redraw per display frame for a canvas view: `schedule()` asks for a draw at the next animation
 * frame (asking again before it runs changes nothing); `sized(cleared)` after fitting the canvas to its
 * box (canvas-size.ts) draws at once when that cleared the canvas, dropping the draw asked for (so the
 * canvas is never shown blank), and otherwise asks for one; `cancel()` on unmount.
 */
export function frameRedraw(draw: () => void) {
  let pending = 0;
  const run = () => {
    pending = 0;
    draw();
  };
  const schedule = () => {
    if (!pending) pending = requestAnimationFrame(run);
  };
  const cancel = () => {
    if (pending) cancelAnimationFrame(pending);
    pending = 0;
  };
  const now = () => {
    cancel();
    draw();
  };
  return { schedule, cancel, sized: (cleared: boolean) => (cleared ? now() : schedule()) };
}
