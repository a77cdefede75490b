import { Entity, Enum, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { ROLES, type Role } from '../validation/rules.js';

/** Usernames are unique by their look-alike key (text/usernames.ts), but for look-alikes older than that rule. */
@Unique({ name: 'users_username_key_unique', properties: ['usernameKey', 'usernameKeyDup'] })
@Entity({ tableName: 'users' })
export class User {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 30, unique: 'users_username_unique' })
  username!: string;

  /**
   * `usernameKey(username)`: equal for names that look alike. Null only for a row written around the service
   * (a bulk seed that did not set it).
   */
  @Property({ type: 'text', nullable: true, hidden: true })
  usernameKey?: string | null;

  /**
   * 0, except for an account that already had a look-alike when the rule came (migration 20261126120000): it
   * holds its own id, so it keeps working while the unique index still refuses every new look-alike.
   */
  @Property({ type: 'integer', default: 0, hidden: true })
  usernameKeyDup: Opt<number> = 0;

  /** Stored lower-cased, so uniqueness and login ignore case. */
  @Property({ type: 'string', length: 255, unique: 'users_email_unique' })
  email!: string;

  /** argon2id PHC string; never leaves the service layer. */
  @Property({ type: 'string', length: 255, hidden: true, lazy: true })
  passwordHash!: string;

  /** ADMIN manages teams and roles and may read every ticket; AGENT reads its own and its teams'.
   * Indexed: every ticket write reads the admins (its audience, services/ticketAccess.ts). */
  @Enum({ items: () => [...ROLES], type: 'string', length: 16, default: 'AGENT', index: 'users_role_index' })
  role: Opt<Role> = 'AGENT';

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();
}
