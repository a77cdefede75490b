import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

@Entity({ tableName: 'users' })
export class User {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 30, unique: 'users_username_unique' })
  username!: string;

  /** Stored lower-cased, so uniqueness and login ignore case. */
  @Property({ type: 'string', length: 255, unique: 'users_email_unique' })
  email!: string;

  /** argon2id PHC string; never leaves the service layer. */
  @Property({ type: 'string', length: 255, hidden: true, lazy: true })
  passwordHash!: string;

  @Property({ type: 'datetime', onCreate: () => new Date() })
  createdAt: Date = new Date();
}
