/** The seeded demo agents, defined once in the schema package (dependency-free module). */
export { DEMO_ACCOUNTS, DEMO_USER, demoAccountFor, type DemoAccount } from '@fulcrum/schema/demo';
