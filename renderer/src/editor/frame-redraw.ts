/**
 * One redraw per display frame for a canvas view: `schedule()` asks for a draw at the next animation
 * frame (asking again before it runs changes nothing); `now()` draws at once and drops the one asked
 * for (after a resize has cleared the canvas, so it is never shown blank); `cancel()` on unmount.
 */
export function frameRedraw(draw: () => void) {
  let pending = 0;
  const run = () => {
    pending = 0;
    draw();
  };
  return {
    schedule() {
      if (!pending) pending = requestAnimationFrame(run);
    },
    now() {
      if (pending) cancelAnimationFrame(pending);
      pending = 0;
      draw();
    },
    cancel() {
      if (pending) cancelAnimationFrame(pending);
      pending = 0;
    },
  };
}
