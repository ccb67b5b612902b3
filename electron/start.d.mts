/** Types for start.mjs (plain JS so `npm start` runs without a build step). */
export function findElectronBinary(): { path: string; reason?: undefined } | { path: null; reason: string };
