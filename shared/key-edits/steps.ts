/** Work done in steps (the editor runs them between frames, with progress): the type and its runner. */

/** Work in steps: yields its progress (0..1) between steps, returns its result. */
export type Steps<T> = Generator<number, T, void>;

/** Runs steps to their end. */
export function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
