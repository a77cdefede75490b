export * as auth from './auth.js';
export * as users from './users.js';
export * as customers from './customers.js';
export * as macros from './macros.js';
export * as tickets from './tickets.js';
export * as messages from './messages.js';
export * from './context.js';
export * from './records.js';
export { createAuthLimiter, DEFAULT_AUTH_LIMITS, type AuthLimits } from './authLimiter.js';
