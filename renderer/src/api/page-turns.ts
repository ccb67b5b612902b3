/**
 * Long work on the page's thread done a piece at a time (the autosave's copy of a motion, stores/autosave.ts; a big
 * request body, http-client.ts): between pieces the work asks `turn()`, which gives the page a turn (a task: input,
 * paint, timers) once the pieces since the last turn have run `sliceMs` of main-thread time, and else lets the work
 * go on at once.
 */
export function pageTurns(sliceMs: number): () => Promise<void> | undefined {
  let t0 = performance.now();
  return () => {
    if (performance.now() - t0 < sliceMs) return undefined;
    return new Promise<void>((resolve) => setTimeout(() => {
      t0 = performance.now();
      resolve();
    }, 0));
  };
}
