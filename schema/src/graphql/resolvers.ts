/**
 * The resolvers of the core records, one file per aggregate (auth, teams, tickets, customers, macros, messages, and
 * their live subscriptions); buildSchema.ts lists them with the later features' own.
 */
import { AuthResolver, UserResolver } from './auth.js';
import { CustomerResolver } from './customers.js';
import { LiveResolver } from './live.js';
import { MacroResolver } from './macros.js';
import { MessageResolver } from './messages.js';
import { TeamResolver } from './teams.js';
import { TicketImageResolver, TicketResolver } from './tickets.js';

export const RESOLVERS = [
  AuthResolver,
  UserResolver,
  TeamResolver,
  TicketResolver,
  TicketImageResolver,
  CustomerResolver,
  MacroResolver,
  MessageResolver,
  LiveResolver,
] as const;
