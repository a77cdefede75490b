/**
 * The three seeded agents (ids 1, 2, 3). Dependency-free: the seed uses them, and the web app's "Demo Login",
 * "Log in as Demo User" and message-center demo helper import them (`@fulcrum/schema/demo`). They are public
 * demo credentials by design (SPEC: the demo helper logs in as the seeded partner in one click).
 */
export interface DemoAccount {
  id: number;
  username: string;
  email: string;
  password: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { id: 1, username: 'Demo', email: 'demo@fulcrum.app', password: 'fulcrum-demo' },
  { id: 2, username: 'Marnie', email: 'marnie@fulcrum.app', password: 'fulcrum-marnie' },
  { id: 3, username: 'Bobbie', email: 'bobbie@fulcrum.app', password: 'fulcrum-bobbie' },
];

export const DEMO_USER = DEMO_ACCOUNTS[0];

export function demoAccountFor(userId: number): DemoAccount | undefined {
  return DEMO_ACCOUNTS.find((account) => account.id === userId);
}
