/** Types for start.mjs (plain JS so `npm start` runs without a build step). */
export function findElectronBinary(): { path: string; reason?: undefined } | { path: null; reason: string };
/** The command line's arguments with relative paths resolved against `cwd` (default: npm's INIT_CWD, else the working folder). */
export function startArgs(args: readonly string[], cwd?: string): string[];
