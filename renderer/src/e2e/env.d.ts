/** Build flag: true only in the e2e build (vite.config.ts `define`); false in production and unit tests. */
declare const __VMD_E2E__: boolean;
