/**
 * The three seeded accounts (users 1, 2 and 3). The landing page's "Demo Login", the login modal's
 * "Log in as Demo User" and the message center's demo helper use them; nothing else does.
 */
export interface DemoAccount {
  id: number;
  name: string;
  email: string;
  password: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { id: 1, name: 'Demo', email: 'demo@fulcrum.app', password: 'fulcrum-demo' },
  { id: 2, name: 'Marnie', email: 'marnie@fulcrum.app', password: 'fulcrum-marnie' },
  { id: 3, name: 'Bobbie', email: 'bobbie@fulcrum.app', password: 'fulcrum-bobbie' },
];

export const DEMO_USER = DEMO_ACCOUNTS[0];

export function demoAccountFor(userId: number): DemoAccount | undefined {
  return DEMO_ACCOUNTS.find((account) => account.id === userId);
}
