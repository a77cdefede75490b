/**
 * The validation rules' one entry (`@fulcrum/schema/validation`): the core rules and messages (core.ts) and each
 * feature's own (API tokens, webhooks, reports, views). Decorator-free and dependency-free on purpose: the gateway's
 * services and the web app's forms both import it.
 */
export * from './core.js';
export * from './apiTokens.js';
export * from './webhooks.js';
export * from './reports.js';
export * from './views.js';
