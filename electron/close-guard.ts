/**
 * Whether main hands the window's close to the renderer (commands.ts saveAndClose) instead of closing at once:
 * something is unsaved (one question listing it), or a job runs in the window — a video rendering, a physics
 * bake, a Whole Motion fit, a folder batch — which closing would cut off halfway (before, a render with nothing
 * unsaved closed with the window and left a partial video: fixnotdone 3). The renderer asks "A video is rendering.
 * Stop it and close?" and calls closeWindow() when the window may close. Never after that (`forced`), and never for a
 * renderer that crashed: it cannot ask, so the window closes as the platform would.
 * Plain Node (no Electron), so tests run it directly.
 */
import type { DocumentState } from '../shared/ipc/contract';

export function closeAsksRenderer(state: DocumentState, o: { forced: boolean; crashed: boolean }): boolean {
  if (o.forced || o.crashed) return false;
  return state.dirty || state.busy === true;
}
