/**
 * `@fulcrum/schema/conditions`: the condition tree, the field registry's declarative part, the parser and the
 * in-memory evaluator, shared by the server and the web app (decorator-free, no imports beyond shared modules).
 */
export * from './tree.js';
export * from './duration.js';
export * from './registry.js';
export * from './parse.js';
export * from './evaluate.js';
