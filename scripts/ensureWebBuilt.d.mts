/** Types of scripts/ensureWebBuilt.mjs (plain JavaScript so that `npm start` can run it before anything is compiled). */
/** @public (knip: e2e/globalSetup.ts imports it through this declaration file) */
export declare function ensureWebBuilt(): void;
